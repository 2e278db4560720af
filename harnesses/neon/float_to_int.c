// expect: equivalent
// target: aarch64
/* Float to int32 conversion of 4 floats with vcvtq_s32_f32 (FCVTZS), which
 * rounds toward zero, saturates out-of-range values and turns NaN into 0,
 * against the scalar code that spells those rules out.
 * Expected verdict: equivalent. */
#include <arm_neon.h>
#include <stdint.h>
#include "symcross.h"

#define N 4

static int32_t to_int(float x) {
  if (x != x) return 0;
  if (x >= 2147483648.0f) return INT32_MAX;
  if (x < -2147483648.0f) return INT32_MIN;
  return (int32_t)x;
}

static void scalar_ref(const float *x, int32_t *out) {
  for (int i = 0; i < N; i++) out[i] = to_int(x[i]);
}

static void simd(const float *x, int32_t *out) {
  vst1q_s32(out, vcvtq_s32_f32(vld1q_f32(x)));
}

int main(void) {
  float x[N];
  int32_t ref[N], vec[N];
  symcross_make_symbolic(x, sizeof x, "x");
  scalar_ref(x, ref);
  simd(x, vec);
  symcross_check_equal(vec, ref, sizeof ref[0], N, "converted");
  return 0;
}
