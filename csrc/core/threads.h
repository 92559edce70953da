/*
 * A small persistent thread pool for splitting large kernels over cores.
 *
 * NumPy runs each elementwise operation on one core; minarray splits large
 * ones over the machine's cores.  The pool is plain pthreads (no OpenMP:
 * a second OpenMP runtime in the process, next to PyTorch's, is a known
 * source of crashes and oversubscription) and is created on first use.
 *
 *   ma_parallel_for(nchunks, fn, ctx) runs fn(ctx, 0) ... fn(ctx, nchunks-1),
 *   each exactly once, on the pool's workers and the calling thread, and
 *   returns when all have finished.
 *
 * Chunks may run in any order and on any thread, so a caller that needs a
 * deterministic result (a floating-point sum) must make what chunk i
 * computes depend only on i and nchunks -- never on which thread ran it --
 * and combine the partial results in chunk order afterwards.
 *
 * The pool serves one job at a time.  A call that finds it busy (another
 * thread's job, or a call from inside a chunk) runs its chunks on the
 * calling thread, in order: same chunks, same results, no deadlock.
 *
 * Thread count: ma_set_num_threads(n), else the environment variable
 * MINARRAY_NUM_THREADS (read once, at first use), else the CPUs this
 * process may run on.  After fork() the child starts with no workers and
 * recreates them on first use (pthread_atfork).
 */
#ifndef MINARRAY_THREADS_H
#define MINARRAY_THREADS_H

#include <stdint.h>

/* Upper bound on threads (workers + the caller). */
#define MA_MAX_THREADS 256

typedef void (*ma_chunk_fn)(void *ctx, int64_t chunk);

/* How many chunks a split aims for per thread, at least: chunks are
 * claimed as threads come free, so a thread delayed by a neighbour on a
 * shared machine costs one chunk, not half the work. */
#define MA_CHUNKS_PER_THREAD 4

void ma_parallel_for(int64_t nchunks, ma_chunk_fn fn, void *ctx);

/* cdef-begin: declared to cffi too (minarray/_threads.py) */
/* The configured number of threads (>= 1; 1 = everything serial). */
int ma_get_num_threads(void);
/* Set it; n < 1 restores the default (environment, else CPU count).
 * Waits for a running job; the workers are recreated on next use. */
void ma_set_num_threads(int n);
/* The default a process starts with (MINARRAY_NUM_THREADS or CPU count). */
int ma_default_num_threads(void);

/* How many jobs were handed to the pool's workers so far (not counting
 * calls that ran serially): tests use it to check they reach the pool. */
int64_t ma_pool_jobs(void);

/* The trace of the last job run on the workers, for measurements (the
 * benchmark sweep): while tracing is on, each job records per thread that
 * took part how many chunks it ran, when it started its first chunk, how
 * long its chunks took and when it finished its last (nanoseconds from
 * the moment the job was announced), the CPUs it started and finished on
 * (-1 where the system cannot say) and how often the system took the CPU
 * from it while it ran chunks (involuntary context switches).  The CPUs
 * show whether the threads shared cores (hyperthreads of one core halve
 * each other's vector throughput) and the switches whether something
 * else ran on them.  ma_pool_last_trace writes MA_TRACE_FIELDS int64 per
 * thread, the calling thread first, into out[0 .. MA_TRACE_FIELDS * cap)
 * and returns how many threads took part (0: no job traced yet).  Off by
 * default: a job then costs no clock read. */
#define MA_TRACE_FIELDS 7
void ma_pool_set_trace(int on);
int ma_pool_last_trace(int64_t *out, int cap);
/* cdef-end */

/* Chunk i of `nchunks` equal parts of [0, n): [*begin, *end).  The first
 * n % nchunks chunks are one longer. */
static inline void ma_chunk_range(int64_t n, int64_t nchunks, int64_t i,
                                  int64_t *begin, int64_t *end) {
  int64_t q = n / nchunks, r = n % nchunks;
  *begin = i * q + (i < r ? i : r);
  *end = *begin + q + (i < r ? 1 : 0);
}

#endif
