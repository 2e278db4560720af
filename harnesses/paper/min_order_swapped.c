/* MINPS(a, b) against std::min(b, a) = `a < b ? a : b`: the same select,
 * equal with no assumption. */
#include <xmmintrin.h>
#include "symcross.h"

static float std_min(float a, float b) { return b < a ? b : a; }

int main(void) {
  float a[4], b[4], simd[4], scalar[4];
  symcross_make_symbolic(a, sizeof a, "a");
  symcross_make_symbolic(b, sizeof b, "b");
  _mm_storeu_ps(simd, _mm_min_ps(_mm_loadu_ps(a), _mm_loadu_ps(b)));
  for (int i = 0; i < 4; i++)
    scalar[i] = std_min(b[i], a[i]);
  symcross_check_equal(simd, scalar, sizeof(float), 4, "min");
  return 0;
}
