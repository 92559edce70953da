/*
 * Floating-point exception flags around kernels: what NumPy's errstate
 * reports ("divide by zero encountered in log", ...).
 *
 * A kernel's caller clears the flags, runs it, and reads which were raised
 * (never per element).  Pool threads have flags of their own: ma_parallel_for
 * clears a worker's before it takes a job's chunks and ORs them back into
 * the caller's when the job ends (csrc/core/threads.c), so the caller sees
 * every thread's.
 *
 * On x86-64 the flags are the SSE unit's (MXCSR), which every float and
 * double operation here and in libm's SSE code uses; reading and writing
 * them costs a few cycles, unlike <fenv.h>'s calls, which also save and
 * restore the x87 unit's environment.  Elsewhere <fenv.h> serves.
 *
 * Where no SSE instruction raises the flag NumPy reports, the code raises
 * it with ma_fpe_raise: float16 rounding (done in libgcc, which records
 * overflow and underflow in the x87 unit only), float to integer casts
 * (range-checked in C, scalar.h) and integer division (ew_math.h).
 */
#ifndef MINARRAY_FPE_H
#define MINARRAY_FPE_H

enum { MA_FPE_DIVIDE = 1, MA_FPE_OVERFLOW = 2, MA_FPE_UNDERFLOW = 4, MA_FPE_INVALID = 8, MA_FPE_ALL = 15 };

#if defined(__x86_64__) && defined(__SSE2__)
#include <xmmintrin.h>

/* MXCSR status bits: invalid 0x01, divide-by-zero 0x04, overflow 0x08,
 * underflow 0x10 (denormal 0x02 and precision 0x20 are not reported, so
 * not cleared either).  Writing MXCSR stalls the pipeline for a few dozen
 * cycles, reading it does not: clear only when a reported flag is set,
 * which normal data leaves clean. */
#define MA_FPE_MXCSR_BITS 0x1du

static inline void ma_fpe_clear(void) {
  unsigned c = _mm_getcsr();
  if (c & MA_FPE_MXCSR_BITS) _mm_setcsr(c & ~MA_FPE_MXCSR_BITS);
}

static inline unsigned ma_fpe_read(void) {
  unsigned c = _mm_getcsr();
  return ((c & 0x04u) ? MA_FPE_DIVIDE : 0u) | ((c & 0x08u) ? MA_FPE_OVERFLOW : 0u) |
         ((c & 0x10u) ? MA_FPE_UNDERFLOW : 0u) | ((c & 0x01u) ? MA_FPE_INVALID : 0u);
}

/* Writes only when a flag is new: a loop that raises one per element (a
 * cast of many NaNs, many overflowing float16 results) pays the write once. */
static inline void ma_fpe_raise(unsigned f) {
  unsigned bits = ((f & MA_FPE_DIVIDE) ? 0x04u : 0u) | ((f & MA_FPE_OVERFLOW) ? 0x08u : 0u) |
                  ((f & MA_FPE_UNDERFLOW) ? 0x10u : 0u) | ((f & MA_FPE_INVALID) ? 0x01u : 0u);
  unsigned c = _mm_getcsr();
  if ((c & bits) != bits) _mm_setcsr(c | bits);
}
#else
#include <fenv.h>

static inline void ma_fpe_clear(void) { feclearexcept(FE_ALL_EXCEPT); }

static inline unsigned ma_fpe_read(void) {
  int e = fetestexcept(FE_DIVBYZERO | FE_OVERFLOW | FE_UNDERFLOW | FE_INVALID);
  return ((e & FE_DIVBYZERO) ? MA_FPE_DIVIDE : 0u) | ((e & FE_OVERFLOW) ? MA_FPE_OVERFLOW : 0u) |
         ((e & FE_UNDERFLOW) ? MA_FPE_UNDERFLOW : 0u) | ((e & FE_INVALID) ? MA_FPE_INVALID : 0u);
}

static inline void ma_fpe_raise(unsigned f) {
  feraiseexcept(((f & MA_FPE_DIVIDE) ? FE_DIVBYZERO : 0) | ((f & MA_FPE_OVERFLOW) ? FE_OVERFLOW : 0) |
                ((f & MA_FPE_UNDERFLOW) ? FE_UNDERFLOW : 0) | ((f & MA_FPE_INVALID) ? FE_INVALID : 0));
}
#endif

#endif
