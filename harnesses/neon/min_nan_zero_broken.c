// expect: findings mismatch
// target: aarch64
/* Minimum of 8 float pairs with vminq_f32 (FMIN), against the scalar code
 * of an SSE port: `a < b ? a : b`, which is what _mm_min_ps computes.
 * Broken: that gives the second operand for a NaN first operand and for
 * min(-0, +0), where FMIN gives the NaN and -0. Expected verdict: a mismatch. */
#include <arm_neon.h>
#include <stdint.h>
#include <string.h>
#include "symcross.h"

#define N 8

static void scalar_ref(const float *a, const float *b, uint32_t *out) {
  for (int i = 0; i < N; i++) {
    float m = a[i] < b[i] ? a[i] : b[i];
    memcpy(&out[i], &m, 4);
  }
}

static void simd(const float *a, const float *b, uint32_t *out) {
  for (int i = 0; i < N; i += 4)
    vst1q_u32(out + i, vreinterpretq_u32_f32(vminq_f32(vld1q_f32(a + i), vld1q_f32(b + i))));
}

int main(void) {
  float a[N], b[N];
  uint32_t ref[N], vec[N];
  symcross_make_symbolic(a, sizeof a, "a");
  symcross_make_symbolic(b, sizeof b, "b");
  scalar_ref(a, b, ref);
  simd(a, b, vec);
  symcross_check_equal(vec, ref, 4, N, "min");
  return 0;
}
