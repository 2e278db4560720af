// expect: equivalent
/* x * 2 * 0.5 against x for x in [1, 2): scaling by powers of two is
 * exact there, so the two are 0 ulps apart.
 * Expected verdict: equivalent (within bound, proved). */
#include "symcross.h"

int main(void) {
  float x;
  symcross_make_symbolic(&x, sizeof x, "x");
  symcross_assume(x >= 1.0f && x < 2.0f);
  float scaled = x * 2.0f * 0.5f;
  symcross_check_close(&scaled, &x, sizeof x, 1, SYMCROSS_ULP(0), "x * 2 * 0.5");
  return 0;
}
