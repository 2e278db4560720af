/* RCPPS is an approximation (12 bits): symcross models its result as a
 * fresh value, so it is never proved equal to an exact division, under any
 * assumption; the mismatch stays unconfirmed (the CPU's estimate is not
 * modelled bit for bit), which makes the run inconclusive. */
#include <xmmintrin.h>
#include "symcross.h"

int main(void) {
  float x[4], exact[4], approx[4];
  symcross_make_symbolic(x, sizeof x, "x");
  for (int i = 0; i < 4; i++)
    exact[i] = 1.0f / x[i];
  _mm_storeu_ps(approx, _mm_rcp_ps(_mm_loadu_ps(x)));
  symcross_check_equal(exact, approx, sizeof(float), 4, "1/x");
  return 0;
}
