// expect: findings mismatch
/* x * 3 * (1/3) against x for x in [1, 2): 1/3 is not a float, so the
 * product misses x by an ulp on some inputs, which 0 ulps does not allow.
 * Expected verdict: findings (exceeds, reproduced). */
#include "symcross.h"

int main(void) {
  float x;
  symcross_make_symbolic(&x, sizeof x, "x");
  symcross_assume(x >= 1.0f && x < 2.0f);
  float scaled = x * 3.0f * (1.0f / 3.0f);
  symcross_check_close(&scaled, &x, sizeof x, 1, SYMCROSS_ULP(0), "x * 3 * (1/3)");
  return 0;
}
