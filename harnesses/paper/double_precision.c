/* A scalar reference that computes in double against a float SIMD version
 * (KLEE-CL 8.3): a*b+c rounded once in double then to float differs from
 * two float roundings. Refuted under every assumption. */
#include <xmmintrin.h>
#include "symcross.h"

int main(void) {
  float in[3];
  symcross_make_symbolic(in, sizeof in, "in");
  float ref = (float)((double)in[0] * in[1] + in[2]);
  __m128 a = _mm_set_ss(in[0]), b = _mm_set_ss(in[1]), c = _mm_set_ss(in[2]);
  float vec = _mm_cvtss_f32(_mm_add_ss(_mm_mul_ss(a, b), c));
  symcross_check_equal(&ref, &vec, sizeof(float), 1, "a*b+c");
  return 0;
}
