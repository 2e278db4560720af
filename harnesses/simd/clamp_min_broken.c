// expect: findings mismatch
/* Deliberately broken: the scalar reference clamps with the std::min idiom
 * (b < a ? b : a) while _mm_min_ps computes (a < b ? a : b). They differ
 * for min(-0, +0) and when one operand is NaN (README, Assumptions).
 * Expected verdict: mismatch. */
#include <xmmintrin.h>
#include "symcross.h"

static void scalar_ref(const float *a, const float *b, float *out) {
  for (int i = 0; i < 4; i++)
    out[i] = b[i] < a[i] ? b[i] : a[i];
}

int main(void) {
  float a[4], b[4], ref[4], vec[4];
  symcross_make_symbolic(a, sizeof a, "a");
  symcross_make_symbolic(b, sizeof b, "b");
  scalar_ref(a, b, ref);
  _mm_storeu_ps(vec, _mm_min_ps(_mm_loadu_ps(a), _mm_loadu_ps(b)));
  symcross_check_equal(ref, vec, 4, 4, "min");
  return 0;
}
