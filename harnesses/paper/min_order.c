/* MINPS against the std::min idiom `b < a ? b : a` (KLEE-CL 8.3).
 * MINPS(a, b) returns b when either is NaN or both are zero; std::min(a, b)
 * returns a then. Refuted by default and under ordered or positive-zero
 * alone; proved with --assume ordered,positive-zero. */
#include <xmmintrin.h>
#include "symcross.h"

static float std_min(float a, float b) { return b < a ? b : a; }

int main(void) {
  float a[4], b[4], simd[4], scalar[4];
  symcross_make_symbolic(a, sizeof a, "a");
  symcross_make_symbolic(b, sizeof b, "b");
  _mm_storeu_ps(simd, _mm_min_ps(_mm_loadu_ps(a), _mm_loadu_ps(b)));
  for (int i = 0; i < 4; i++)
    scalar[i] = std_min(a[i], b[i]);
  symcross_check_equal(simd, scalar, sizeof(float), 4, "min");
  return 0;
}
