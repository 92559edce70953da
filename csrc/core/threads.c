#define _GNU_SOURCE
#include "threads.h"

#include "fpe.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <time.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One parallel_for call.  Lives on the caller's stack: the caller does not
 * return before every worker that joined it has left (`active` == 0), and
 * a worker joins only while pool.job points at it. */
/* One thread's part in a traced job (ma_pool_last_trace). */
typedef struct {
  int64_t chunks, first_ns, busy_ns, last_ns, cpu_first, cpu_last, preempted;
} trace_t;

typedef struct job {
  ma_chunk_fn fn;
  void *ctx;
  int64_t nchunks;
  int64_t next; /* next chunk to claim; __atomic only */
  int active;   /* workers inside the job; changed under pool.mu, with
                   __atomic so the caller may also spin on it */
  unsigned fpe; /* floating-point flags the workers raised (fpe.h); __atomic */
  trace_t *trace; /* NULL, or one slot per thread (the caller's is 0) */
  uint64_t t0;    /* when the job was announced (traced jobs) */
  int slots;      /* trace slots handed out so far; __atomic */
} job_t;

static struct {
  /* Held by the thread whose job the pool is running (trylock: a busy
   * pool means "run serially"), and while the pool is resized. */
  pthread_mutex_t busy;
  /* Guards everything below; workers sleep on `wake`, the caller on `idle`. */
  pthread_mutex_t mu;
  pthread_cond_t wake;
  pthread_cond_t idle;
  uint64_t gen; /* bumped for every job: a worker's signal to look (written
                   under mu, read by spinning workers with __atomic) */
  int sleepers; /* workers blocked on `wake` */
  job_t *job;   /* the job workers may join, or NULL */
  int stop;     /* workers exit when set */
  int nworkers; /* running worker threads */
  int built_for; /* the thread count the workers were started for (0: none) */
  pthread_t tid[MA_MAX_THREADS];
} pool = {
    .busy = PTHREAD_MUTEX_INITIALIZER,
    .mu = PTHREAD_MUTEX_INITIALIZER,
    .wake = PTHREAD_COND_INITIALIZER,
    .idle = PTHREAD_COND_INITIALIZER,
};

/* The configured thread count; 0 until first read.  __atomic only. */
static int num_threads;
/* Jobs handed to the workers so far (tests check they reach the pool). */
static int64_t jobs_run;

int64_t ma_pool_jobs(void) { return __atomic_load_n(&jobs_run, __ATOMIC_RELAXED); }

/* ---- configuration ------------------------------------------------------ */

static int cpu_count(void) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    int n = CPU_COUNT(&set);
    if (n > 0) return n;
  }
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int)n : 1;
}

static int clamp(long n) { return n < 1 ? 1 : n > MA_MAX_THREADS ? MA_MAX_THREADS : (int)n; }

int ma_default_num_threads(void) {
  /* An unset, empty or malformed variable is ignored (the Python layer
   * warns about a malformed one); values above MA_MAX_THREADS are capped. */
  const char *env = getenv("MINARRAY_NUM_THREADS");
  if (env && *env) {
    char *end;
    errno = 0;
    long v = strtol(env, &end, 10);
    while (*end == ' ') end++;
    if (errno == 0 && *end == '\0' && v >= 1) return clamp(v);
  }
  return clamp(cpu_count());
}

int ma_get_num_threads(void) {
  int n = __atomic_load_n(&num_threads, __ATOMIC_RELAXED);
  if (n == 0) {
    n = ma_default_num_threads();
    int expected = 0;
    /* A concurrent ma_set_num_threads wins over the default. */
    if (!__atomic_compare_exchange_n(&num_threads, &expected, n, 0, __ATOMIC_RELAXED,
                                     __ATOMIC_RELAXED))
      n = expected;
  }
  return n;
}

/* ---- workers ------------------------------------------------------------ */

static uint64_t now_ns(void);

/* Tracing (threads.h): on or off for the jobs that start from now on, and
 * the last traced job's slots, copied there by its caller. */
static int trace_on; /* __atomic only */
static trace_t last_trace[MA_MAX_THREADS];
static int last_trace_n;

void ma_pool_set_trace(int on) { __atomic_store_n(&trace_on, on != 0, __ATOMIC_RELAXED); }

int ma_pool_last_trace(int64_t *out, int cap) {
  /* pool.busy: the copy is not being rewritten by a job's caller */
  pthread_mutex_lock(&pool.busy);
  int n = last_trace_n;
  for (int i = 0; i < n && i < cap; i++) {
    const trace_t *t = &last_trace[i];
    int64_t *o = out + MA_TRACE_FIELDS * i;
    o[0] = t->chunks;
    o[1] = t->first_ns;
    o[2] = t->busy_ns;
    o[3] = t->last_ns;
    o[4] = t->cpu_first;
    o[5] = t->cpu_last;
    o[6] = t->preempted;
  }
  pthread_mutex_unlock(&pool.busy);
  return n;
}

/* This thread's involuntary context switches so far (0 where unknown). */
static int64_t preemptions(void) {
  struct rusage ru;
  return getrusage(RUSAGE_THREAD, &ru) == 0 ? (int64_t)ru.ru_nivcsw : 0;
}

static void run_chunks_traced(job_t *j, trace_t *t) {
  int64_t switches = preemptions();
  t->cpu_first = t->cpu_last = -1;
  for (;;) {
    int64_t c = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED);
    if (c >= j->nchunks) break;
    uint64_t a = now_ns();
    if (t->chunks == 0) t->cpu_first = sched_getcpu();
    j->fn(j->ctx, c);
    uint64_t b = now_ns();
    if (t->chunks++ == 0) t->first_ns = (int64_t)(a - j->t0);
    t->busy_ns += (int64_t)(b - a);
    t->last_ns = (int64_t)(b - j->t0);
    t->cpu_last = sched_getcpu();
  }
  t->preempted = preemptions() - switches;
}

/* `slot`: the caller passes 0, a worker -1 (it takes the next free one). */
static void run_chunks(job_t *j, int slot) {
  if (j->trace) {
    if (slot < 0) slot = __atomic_add_fetch(&j->slots, 1, __ATOMIC_RELAXED);
    run_chunks_traced(j, &j->trace[slot]);
    return;
  }
  for (;;) {
    int64_t c = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED);
    if (c >= j->nchunks) return;
    j->fn(j->ctx, c);
  }
}

/* After a job a worker watches for the next one this long before it goes
 * to sleep: numeric code tends to run large operations back to back, and
 * waking a sleeping thread (a futex wake, on a VM an inter-processor
 * interrupt to an idle vCPU) costs tens of microseconds, as much as a
 * chunk of work.  Short enough that an idle pool gives its core back at
 * once on the scale of a Python program. */
#define SPIN_NS 50000

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

/* Spin until pool.gen moves past `seen`, the pool stops, or SPIN_NS pass. */
static void spin_for_job(uint64_t seen) {
  uint64_t start = now_ns();
  for (int i = 0;; i++) {
    if (__atomic_load_n(&pool.gen, __ATOMIC_ACQUIRE) != seen ||
        __atomic_load_n(&pool.stop, __ATOMIC_RELAXED))
      return;
    cpu_relax();
    if ((i & 255) == 255 && now_ns() - start > SPIN_NS) return;
  }
}

static void *worker(void *arg) {
  /* `arg` is the generation at creation, so a job announced between
   * pthread_create and this thread's first look is not missed. */
  uint64_t seen = (uint64_t)(uintptr_t)arg;
  pthread_mutex_lock(&pool.mu);
  for (;;) {
    if (pool.gen == seen && !pool.stop) {
      pthread_mutex_unlock(&pool.mu);
      spin_for_job(seen);
      pthread_mutex_lock(&pool.mu);
      pool.sleepers++;
      while (pool.gen == seen && !pool.stop) pthread_cond_wait(&pool.wake, &pool.mu);
      pool.sleepers--;
    }
    if (pool.stop) break;
    seen = pool.gen;
    job_t *j = pool.job;
    if (!j) continue; /* that job is already over */
    __atomic_add_fetch(&j->active, 1, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&pool.mu);
    ma_fpe_clear();
    run_chunks(j, -1);
    unsigned fpe = ma_fpe_read();
    if (fpe) __atomic_fetch_or(&j->fpe, fpe, __ATOMIC_RELAXED);
    pthread_mutex_lock(&pool.mu);
    /* release: the chunks' results are visible to a caller that sees 0 */
    if (__atomic_sub_fetch(&j->active, 1, __ATOMIC_RELEASE) == 0) pthread_cond_signal(&pool.idle);
  }
  pthread_mutex_unlock(&pool.mu);
  return NULL;
}

/* Both stop_workers and start_workers run with pool.busy held. */
static void stop_workers(void) {
  pool.built_for = 0;
  if (pool.nworkers == 0) return;
  pthread_mutex_lock(&pool.mu);
  __atomic_store_n(&pool.stop, 1, __ATOMIC_RELAXED);
  pthread_cond_broadcast(&pool.wake);
  pthread_mutex_unlock(&pool.mu);
  for (int i = 0; i < pool.nworkers; i++) pthread_join(pool.tid[i], NULL);
  pool.nworkers = 0;
  pool.stop = 0;
}

static void start_workers(int n) {
  /* Workers take no signals: the interpreter handles them on its main thread. */
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  pthread_mutex_lock(&pool.mu);
  uintptr_t gen = (uintptr_t)pool.gen;
  pthread_mutex_unlock(&pool.mu);
  while (pool.nworkers < n) {
    /* A failed create leaves a smaller pool, not an error: the caller
     * always runs chunks itself. */
    if (pthread_create(&pool.tid[pool.nworkers], NULL, worker, (void *)gen) != 0) break;
    pool.nworkers++;
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* ---- fork --------------------------------------------------------------- */

/* fork() copies only the calling thread: the child must not believe it has
 * workers.  `prepare` takes both locks so the pool is quiescent (no job in
 * flight) when the address space is copied; the child then unlocks them and
 * forgets its workers, which are recreated on first use. */
static void atfork_prepare(void) {
  pthread_mutex_lock(&pool.busy);
  pthread_mutex_lock(&pool.mu);
}

static void atfork_parent(void) {
  pthread_mutex_unlock(&pool.mu);
  pthread_mutex_unlock(&pool.busy);
}

static void atfork_child(void) {
  pool.sleepers = 0;
  pool.nworkers = 0;
  pool.built_for = 0;
  pool.stop = 0;
  pool.job = NULL;
  pthread_cond_init(&pool.wake, NULL);
  pthread_cond_init(&pool.idle, NULL);
  pthread_mutex_unlock(&pool.mu);
  pthread_mutex_unlock(&pool.busy);
}

static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

static void register_atfork(void) {
  pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
}

/* ---- public ------------------------------------------------------------- */

void ma_set_num_threads(int n) {
  int value = n < 1 ? ma_default_num_threads() : clamp(n);
  pthread_mutex_lock(&pool.busy);
  __atomic_store_n(&num_threads, value, __ATOMIC_RELAXED);
  if (pool.built_for != value) stop_workers();
  pthread_mutex_unlock(&pool.busy);
}

static void run_serial(int64_t nchunks, ma_chunk_fn fn, void *ctx) {
  for (int64_t c = 0; c < nchunks; c++) fn(ctx, c);
}

void ma_parallel_for(int64_t nchunks, ma_chunk_fn fn, void *ctx) {
  if (nchunks <= 0) return;
  int nt = ma_get_num_threads();
  if (nchunks == 1 || nt <= 1 || pthread_mutex_trylock(&pool.busy) != 0) {
    run_serial(nchunks, fn, ctx);
    return;
  }
  pthread_once(&atfork_once, register_atfork);
  /* The count may have changed since the pool was built. */
  nt = ma_get_num_threads();
  if (pool.built_for != nt) {
    stop_workers();
    start_workers(nt - 1);
    pool.built_for = nt;
  }
  if (pool.nworkers == 0) {
    pthread_mutex_unlock(&pool.busy);
    run_serial(nchunks, fn, ctx);
    return;
  }
  __atomic_add_fetch(&jobs_run, 1, __ATOMIC_RELAXED);
  job_t j = {fn, ctx, nchunks, 0, 0, 0, NULL, 0, 0};
  trace_t *trace = NULL;
  if (__atomic_load_n(&trace_on, __ATOMIC_RELAXED) &&
      (trace = (trace_t *)calloc((size_t)pool.nworkers + 1, sizeof(trace_t))) != NULL) {
    j.trace = trace;
    j.t0 = now_ns();
  }
  pthread_mutex_lock(&pool.mu);
  pool.job = &j;
  __atomic_store_n(&pool.gen, pool.gen + 1, __ATOMIC_RELEASE);
  if (pool.sleepers) pthread_cond_broadcast(&pool.wake);
  pthread_mutex_unlock(&pool.mu);

  run_chunks(&j, 0);

  pthread_mutex_lock(&pool.mu);
  pool.job = NULL; /* no worker joins from now on */
  if (j.active > 0) {
    /* The workers are usually a chunk's length from done: watch for them
     * a moment before sleeping (the same reasoning as SPIN_NS). */
    pthread_mutex_unlock(&pool.mu);
    uint64_t start = now_ns();
    for (int i = 0; __atomic_load_n(&j.active, __ATOMIC_ACQUIRE) > 0; i++) {
      cpu_relax();
      if ((i & 255) == 255 && now_ns() - start > SPIN_NS) break;
    }
    pthread_mutex_lock(&pool.mu);
    while (j.active > 0) pthread_cond_wait(&pool.idle, &pool.mu);
  }
  pthread_mutex_unlock(&pool.mu);
  if (trace) {
    /* every worker has left (active == 0): their slots are final */
    last_trace_n = __atomic_load_n(&j.slots, __ATOMIC_RELAXED) + 1;
    memcpy(last_trace, trace, (size_t)last_trace_n * sizeof(trace_t));
    free(trace);
  }
  pthread_mutex_unlock(&pool.busy);
  /* the workers' floating-point flags become the caller's (fpe.h) */
  ma_fpe_raise(__atomic_load_n(&j.fpe, __ATOMIC_RELAXED));
}
