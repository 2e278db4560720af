// expect: equivalent
// target: aarch64
/* acc + a * b over 8 floats with vfmaq_f32 (FMLA, one rounding) against
 * fmaf. Expected verdict: equivalent. */
#include <arm_neon.h>
#include <math.h>
#include "symcross.h"

#define N 8

static void scalar_ref(const float *acc, const float *a, const float *b, float *out) {
  for (int i = 0; i < N; i++) out[i] = fmaf(a[i], b[i], acc[i]);
}

static void simd(const float *acc, const float *a, const float *b, float *out) {
  for (int i = 0; i < N; i += 4)
    vst1q_f32(out + i, vfmaq_f32(vld1q_f32(acc + i), vld1q_f32(a + i), vld1q_f32(b + i)));
}

int main(void) {
  float acc[N], a[N], b[N], ref[N], vec[N];
  symcross_make_symbolic(acc, sizeof acc, "acc");
  symcross_make_symbolic(a, sizeof a, "a");
  symcross_make_symbolic(b, sizeof b, "b");
  scalar_ref(acc, a, b, ref);
  simd(acc, a, b, vec);
  symcross_check_equal(vec, ref, sizeof ref[0], N, "fma");
  return 0;
}
