/* RCPPS is an approximation (12 bits): symcross models its result as a
 * fresh value, exact only where the CPU is (zeros and subnormals give
 * infinities), so it is never proved equal to an exact division. A
 * subnormal input is a reproduced mismatch; under --assume all that input
 * is excluded, and a sample evaluated with this CPU's own RCPPS estimates
 * finds a difference that replays on the CPU (decided by cpu-estimates). */
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
