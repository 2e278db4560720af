// expect: no-findings
/* RSQRTPS and RSQRTSS against Intel's documented bound: for every
 * positive normal x, r * sqrt(x) is within 1 +- e, e = 1.5 * 2^-12, so
 * r * r * x is within (1 +- e)^2. In double, r * r is exact and the
 * product with x rounds once (a relative 2^-53), which the 2^-50 of slack
 * covers: the check holds for every conforming result. -DTIGHT asks for
 * 2^-13 instead, which this CPU's RSQRTPS breaks.
 * Expected verdict: no findings (with -DTIGHT: a mismatch). */
#include <xmmintrin.h>
#include <math.h>
#include "symcross.h"

#ifdef TIGHT
#define BOUND 0x1p-13
#else
#define BOUND (2 * 0x1.8p-12 + 0x1.8p-12 * 0x1.8p-12 + 0x1p-50)
#endif

int main(void) {
  float x;
  symcross_make_symbolic(&x, sizeof x, "x");
  symcross_assume(x >= 0x1p-126f && x <= 0x1.fffffep127f);
  float r4 = _mm_cvtss_f32(_mm_rsqrt_ps(_mm_set1_ps(x)));
  float r1 = _mm_cvtss_f32(_mm_rsqrt_ss(_mm_set_ss(x)));
  klee_assert(fabs((double)r4 * r4 * x - 1.0) <= BOUND);
  klee_assert(fabs((double)r1 * r1 * x - 1.0) <= BOUND);
  return 0;
}
