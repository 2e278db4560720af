/* Serial sum vs the SSE tree order (KLEE-CL 8.3: reassociated reductions).
 * Refuted by default (floating-point + is not associative); proved with
 * --assume associativity,positive-zero,ordered (the serial sum starts from
 * +0.0, and 0 + x = x only when x is not -0 and not NaN). */
#include <xmmintrin.h>
#include "symcross.h"

int main(void) {
  float v[8];
  symcross_make_symbolic(v, sizeof v, "v");
  float serial = 0.0f;
  for (int i = 0; i < 8; i++)
    serial += v[i];
  __m128 lo = _mm_loadu_ps(v), hi = _mm_loadu_ps(v + 4);
  __m128 s = _mm_add_ps(lo, hi);               /* v0+v4, v1+v5, ... */
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));      /* (v0+v4)+(v2+v6), ... */
  s = _mm_add_ss(s, _mm_shuffle_ps(s, s, 1));
  float tree = _mm_cvtss_f32(s);
  symcross_check_equal(&serial, &tree, sizeof(float), 1, "sum");
  return 0;
}
