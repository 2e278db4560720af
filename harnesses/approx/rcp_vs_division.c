// expect: no-findings
/* The question a SIMD library's test asks of _mm_rcp_ps: is each lane
 * within a relative tolerance of 1.0f / x? Intel documents 1.5 * 2^-12
 * for the estimate; against the rounded quotient, and with the rounding
 * of the tolerance's own product, 1.5625 * 2^-12 holds for every
 * conforming CPU. -DLITERAL asks for exactly 1.5 * 2^-12, which a
 * conforming estimate at the edge of the bound breaks (this CPU's
 * estimates stay within it, so the witness is not reproduced).
 * Expected verdict: no findings (with -DLITERAL: inconclusive). */
#include <assert.h>
#include <xmmintrin.h>
#include <math.h>
#include "symcross.h"

#ifdef LITERAL
#define TOLERANCE 0x1.8p-12f
#else
#define TOLERANCE 0x1.9p-12f
#endif

int main(void) {
  float x[4], estimate[4];
  symcross_make_symbolic(x, sizeof x, "x");
  for (int i = 0; i < 4; i++)
    symcross_assume(fabsf(x[i]) >= 0x1p-100f && fabsf(x[i]) <= 0x1p100f);
  _mm_storeu_ps(estimate, _mm_rcp_ps(_mm_loadu_ps(x)));
  for (int i = 0; i < 4; i++) {
    float quotient = 1.0f / x[i];
    assert(fabsf(estimate[i] - quotient) <= TOLERANCE * fabsf(quotient));
  }
  return 0;
}
