// expect: equivalent
// cflags: -mavx2 -mfma
/* abs and negate of 32 floats by the sign mask (AVX): abs = andnot(-0.0, x)
 * clears the sign bit, neg = xor(-0.0, x) flips it, against fabsf and unary
 * minus. Both are pure sign-bit operations, NaN payloads included.
 * Expected verdict: equivalent. */
#include <immintrin.h>
#include <math.h>
#include "symcross.h"

#define N 32

static void scalar_ref(const float *x, float *abs_out, float *neg_out) {
  for (int i = 0; i < N; i++) {
    abs_out[i] = fabsf(x[i]);
    neg_out[i] = -x[i];
  }
}

static void simd(const float *x, float *abs_out, float *neg_out) {
  const __m256 sign = _mm256_set1_ps(-0.0f);
  for (int i = 0; i < N; i += 8) {
    __m256 v = _mm256_loadu_ps(x + i);
    _mm256_storeu_ps(abs_out + i, _mm256_andnot_ps(sign, v));
    _mm256_storeu_ps(neg_out + i, _mm256_xor_ps(sign, v));
  }
}

int main(void) {
  float x[N], ref_abs[N], ref_neg[N], vec_abs[N], vec_neg[N];
  symcross_make_symbolic(x, sizeof x, "x");
  scalar_ref(x, ref_abs, ref_neg);
  simd(x, vec_abs, vec_neg);
  symcross_check_equal(ref_abs, vec_abs, 4, N, "abs");
  symcross_check_equal(ref_neg, vec_neg, 4, N, "negate");
  return 0;
}
