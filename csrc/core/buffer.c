#define _GNU_SOURCE
#include "buffer.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Statistics are plain int64 counters updated atomically; relaxed ordering is
 * enough because they are only read as a snapshot for accounting.  Live
 * counts are kept as two running totals, made and freed (ma_stats takes
 * the difference): one atomic add per event instead of two, on every
 * result and every import. */
static struct {
  int64_t total_allocations, freed_owned, live_bytes;
  int64_t total_foreign, freed_foreign;
  int64_t failed_allocations, cached_bytes;
} stats;
static int64_t fail_countdown;

#define ADD(field, v) __atomic_add_fetch(&stats.field, (v), __ATOMIC_RELAXED)
#define GET(field) __atomic_load_n(&stats.field, __ATOMIC_RELAXED)
/* a freed count: released, so that ma_stats, reading it with acquire, also
 * sees the made count of what it counts (no live count reads negative) */
#define ADD_FREED(field) __atomic_add_fetch(&stats.field, 1, __ATOMIC_RELEASE)

int ma_nbytes(int ndim, const int64_t *shape, size_t itemsize, size_t *out) {
  /* As NumPy: the product must fit even when a zero dimension makes the
   * array empty (its strides are computed from the other dims, and they
   * must stay addressable). */
  size_t n = itemsize;
  int empty = 0;
  for (int i = 0; i < ndim; i++) {
    if (shape[i] < 0) return -1;
    if (shape[i] == 0) { empty = 1; continue; }
    if (__builtin_mul_overflow(n, (size_t)shape[i], &n)) return -1;
  }
  /* Keep sizes addressable with signed 64-bit byte offsets. */
  if (n > (size_t)INT64_MAX / 2) return -1;
  *out = empty ? 0 : n;
  return 0;
}

static int should_fail(void) {
  int64_t c = __atomic_load_n(&fail_countdown, __ATOMIC_RELAXED);
  if (c <= 0) return 0;
  return __atomic_sub_fetch(&fail_countdown, 1, __ATOMIC_RELAXED) == 0;
}

void ma_fail_allocation_after(int64_t n) {
  __atomic_store_n(&fail_countdown, n < 0 ? 0 : n, __ATOMIC_RELAXED);
}

/* Above this, glibc's malloc always maps fresh memory (its dynamic mmap
 * threshold stops growing at 32 MiB on 64-bit): such blocks are aligned to
 * a huge page so every 2 MiB of them can be one.  Below it, freed blocks go
 * back to the heap and the next allocation of that size reuses them with
 * their pages already mapped, as NumPy's arrays do: a 2 MiB alignment
 * there would force a fresh mapping every time (measured: writing a fresh
 * 8 MiB buffer 0.27 ms that way, 0.08 ms reused). */
#define MA_MMAP_SIZE ((size_t)32 << 20)

/* ---- the large-block cache ------------------------------------------------
 *
 * Blocks of MA_MMAP_SIZE and more go back to the kernel when freed, so the
 * next one starts unmapped: writing a fresh 128 MB result costs ~14 ms of
 * page faults (and zeroing by the kernel) on top of a ~10 ms computation,
 * and the faults do not get faster with more threads.  NumPy pays them on
 * every large operation.  Keeping a few freed large blocks, pages mapped,
 * lets the next large empty() of a similar size skip all of that.
 *
 * Bounded: at most CACHE_SLOTS blocks and MINARRAY_BUFFER_CACHE_MB MiB
 * (default 256; 0 turns the cache off); the oldest blocks go first.  A block
 * is reused only for a request of at least 4/5 of its size, so small
 * arrays never pin big blocks.  zeros() never takes a cached block: calloc's
 * fresh pages are zero for free, a reused block would need clearing.
 * Cached bytes are not live bytes: allocator_stats() reports them apart. */
#define CACHE_SLOTS 4
#define CACHE_DEFAULT_MB 256

static struct {
  void *block[CACHE_SLOTS]; /* oldest first */
  size_t size[CACHE_SLOTS];
  int n;
  size_t bytes, limit;
} cache;
static pthread_mutex_t cache_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t cache_once = PTHREAD_ONCE_INIT;

/* fork() while another thread holds the lock would leave the child's copy
 * locked forever: hold it across the fork instead. */
static void cache_lock(void) { pthread_mutex_lock(&cache_mu); }
static void cache_unlock(void) { pthread_mutex_unlock(&cache_mu); }

static void cache_init(void) {
  const char *env = getenv("MINARRAY_BUFFER_CACHE_MB");
  char *end = NULL;
  long long mb = env && *env ? strtoll(env, &end, 10) : CACHE_DEFAULT_MB;
  if (end && (*end != '\0' || mb < 0)) mb = CACHE_DEFAULT_MB; /* not a count of MiB */
  cache.limit = mb > (long long)(SIZE_MAX >> 21) ? SIZE_MAX : (size_t)mb << 20;
  pthread_atfork(cache_lock, cache_unlock, cache_unlock);
}

static void cache_drop(int i) {
  cache.bytes -= cache.size[i];
  memmove(cache.block + i, cache.block + i + 1, (size_t)(cache.n - i - 1) * sizeof(void *));
  memmove(cache.size + i, cache.size + i + 1, (size_t)(cache.n - i - 1) * sizeof(size_t));
  cache.n--;
}

/* A cached block of at least `want` bytes and at most 5/4 of it (the
 * smallest such), or NULL; *size gets its size. */
static void *cache_take(size_t want, size_t *size) {
  pthread_once(&cache_once, cache_init);
  void *block = NULL;
  cache_lock();
  int best = -1;
  for (int i = 0; i < cache.n; i++)
    if (cache.size[i] >= want && cache.size[i] - want <= want / 4 &&
        (best < 0 || cache.size[i] < cache.size[best]))
      best = i;
  if (best >= 0) {
    block = cache.block[best];
    *size = cache.size[best];
    cache_drop(best);
    __atomic_store_n(&stats.cached_bytes, (int64_t)cache.bytes, __ATOMIC_RELAXED);
  }
  cache_unlock();
  return block;
}

/* Keep `block` for reuse (1), or leave it to the caller to free (0). */
static int cache_put(void *block, size_t size) {
  pthread_once(&cache_once, cache_init);
  if (size > cache.limit) return 0;
  void *evicted[CACHE_SLOTS];
  int nev = 0;
  cache_lock();
  while (cache.n > 0 && (cache.n == CACHE_SLOTS || cache.bytes + size > cache.limit)) {
    evicted[nev++] = cache.block[0];
    cache_drop(0);
  }
  cache.block[cache.n] = block;
  cache.size[cache.n] = size;
  cache.n++;
  cache.bytes += size;
  __atomic_store_n(&stats.cached_bytes, (int64_t)cache.bytes, __ATOMIC_RELAXED);
  cache_unlock();
  for (int i = 0; i < nev; i++) free(evicted[i]); /* outside the lock: munmap takes time */
  return 1;
}

/* Owned buffers are one allocation: the header in the first MA_ALIGNMENT
 * bytes (from an aligned address inside the block), then the data, so the
 * data is aligned like the header.  `ctx` keeps the block's start for
 * free(). */
void ma_advise_hugepages(void *p, size_t n) {
#ifdef MADV_HUGEPAGE
  if (n < MA_HUGEPAGE_THRESHOLD) return;
  /* madvise wants a page-aligned start: advise the whole pages inside. */
  uintptr_t lo = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
  uintptr_t hi = ((uintptr_t)p + n) & ~(uintptr_t)4095;
  if (hi > lo) madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
  (void)p, (void)n;
#endif
}

ma_buffer *ma_buffer_new(size_t nbytes, int zero) {
  size_t align = nbytes >= MA_MMAP_SIZE ? (2u << 20) : MA_ALIGNMENT;
  size_t total;
  if (should_fail() || __builtin_add_overflow(nbytes, (size_t)MA_ALIGNMENT * 2, &total)) {
    ADD(failed_allocations, 1);
    return NULL;
  }
  void *block = NULL;
  size_t block_size = total;
  int cached = 0;
  if (!zero && nbytes >= MA_MMAP_SIZE) cached = (block = cache_take(total, &block_size)) != NULL;
  if (cached) {
    /* pages mapped, huge-page advice given when it was first allocated */
  } else if (zero) {
    /* calloc, as NumPy's zeros: memory fresh from the kernel is already
     * zero and glibc skips the memset, so a large zeros() costs what
     * empty() does until its pages are first written (12.6 ms -> ~13 us
     * for 100 MB); reused heap memory is cleared by calloc itself.  The
     * extra MA_ALIGNMENT bytes in `total` leave room to align. */
    block = calloc(1, total);
  } else if (align == MA_ALIGNMENT) {
    /* `total` already leaves room to align the header by hand (below), so
     * plain malloc serves: posix_memalign takes glibc's slow path (and
     * consolidates its free lists) on every call, a third of what a small
     * result's allocation cost */
    block = malloc(total);
  } else if (posix_memalign(&block, align, total) != 0) {
    block = NULL;
  }
  if (!block) {
    ADD(failed_allocations, 1);
    return NULL;
  }
  uintptr_t at = ((uintptr_t)block + MA_ALIGNMENT - 1) & ~(uintptr_t)(MA_ALIGNMENT - 1);
  ma_buffer *b = (ma_buffer *)at;
  b->refcount = 1;
  b->data = (char *)b + MA_ALIGNMENT;
  b->nbytes = nbytes;
  b->release = NULL;
  b->ctx = block;
  b->block_size = block_size;
  b->owned = 1;
  /* (NumPy does the same for >= 4 MiB); a cached block had it already */
  if (nbytes >= MA_HUGEPAGE_THRESHOLD && !cached) ma_advise_hugepages(block, total);
  ADD(live_bytes, (int64_t)nbytes);
  ADD(total_allocations, 1);
  return b;
}

ma_buffer *ma_buffer_foreign(void *data, size_t nbytes, ma_release_fn release,
                             void *ctx) {
  ma_buffer *b = (ma_buffer *)malloc(sizeof(ma_buffer));
  if (!b) return NULL;
  b->refcount = 1;
  b->data = data;
  b->nbytes = nbytes;
  b->release = release;
  b->ctx = ctx;
  b->block_size = 0;
  b->owned = 0;
  ADD(total_foreign, 1);
  return b;
}

/* ---- mapped files ----------------------------------------------------------- */

typedef struct {
  void *base;
  size_t length;
} mapping;

static void unmap(void *ctx) {
  mapping *m = (mapping *)ctx;
  munmap(m->base, m->length);
  free(m);
}

ma_buffer *ma_buffer_map(int fd, size_t length, int mode) {
  if (length == 0 || mode < 0 || mode > 2) {
    errno = EINVAL;
    return NULL;
  }
  int prot = mode == 0 ? PROT_READ : PROT_READ | PROT_WRITE;
  int flags = mode == 2 ? MAP_PRIVATE : MAP_SHARED;
  void *base = mmap(NULL, length, prot, flags, fd, 0);
  if (base == MAP_FAILED) return NULL;
  mapping *m = (mapping *)malloc(sizeof(mapping));
  ma_buffer *b = m ? ma_buffer_foreign(base, length, unmap, m) : NULL;
  if (!b) {
    free(m);
    munmap(base, length);
    errno = ENOMEM;
    return NULL;
  }
  m->base = base;
  m->length = length;
  return b;
}

void ma_buffer_retain(ma_buffer *b) {
  __atomic_add_fetch(&b->refcount, 1, __ATOMIC_RELAXED);
}

void ma_buffer_release(ma_buffer *b) {
  if (!b) return;
  /* acq_rel: every write made through other references happens-before the
   * free below (the usual shared_ptr ordering).  A count of 1 is the
   * caller's own reference, the only one: no other thread holds one to
   * add or drop, so the last release (most buffers have one owner all
   * their life) skips the atomic write; the acquire load still orders the
   * writes of the threads that dropped theirs before. */
  if (__atomic_load_n(&b->refcount, __ATOMIC_ACQUIRE) != 1 &&
      __atomic_sub_fetch(&b->refcount, 1, __ATOMIC_ACQ_REL) != 0)
    return;
  if (b->owned) {
    ADD_FREED(freed_owned);
    ADD(live_bytes, -(int64_t)b->nbytes);
    /* header and data are one block, starting at ctx */
    if (b->block_size < MA_MMAP_SIZE || !cache_put(b->ctx, b->block_size)) free(b->ctx);
    return;
  }
  ADD_FREED(freed_foreign);
  ma_release_fn fn = b->release;
  void *ctx = b->ctx;
  free(b);
  if (fn) fn(ctx);
}

void ma_stats(ma_stats_t *out) {
  /* each freed count before its total (ADD_FREED) */
  int64_t freed_owned = __atomic_load_n(&stats.freed_owned, __ATOMIC_ACQUIRE);
  int64_t freed_foreign = __atomic_load_n(&stats.freed_foreign, __ATOMIC_ACQUIRE);
  out->total_allocations = GET(total_allocations);
  out->total_foreign = GET(total_foreign);
  out->live_foreign = out->total_foreign - freed_foreign;
  out->live_buffers = out->total_allocations - freed_owned + out->live_foreign;
  out->live_bytes = GET(live_bytes);
  out->failed_allocations = GET(failed_allocations);
  out->cached_bytes = GET(cached_bytes);
}
