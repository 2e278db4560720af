// expect: equivalent
// target: aarch64
/* Sum of 16 int16 samples into an int32: pairwise widening add
 * (vpaddlq_s16, SADDLP) then an across-vector add (vaddvq_s32, ADDV),
 * against a scalar loop summing into int. No partial sum can overflow.
 * Expected verdict: equivalent. */
#include <arm_neon.h>
#include <stdint.h>
#include "symcross.h"

#define N 16

static int32_t scalar_ref(const int16_t *x) {
  int32_t s = 0;
  for (int i = 0; i < N; i++) s += x[i];
  return s;
}

static int32_t simd(const int16_t *x) {
  int32x4_t acc = vdupq_n_s32(0);
  for (int i = 0; i < N; i += 8) acc = vaddq_s32(acc, vpaddlq_s16(vld1q_s16(x + i)));
  return vaddvq_s32(acc);
}

int main(void) {
  int16_t x[N];
  symcross_make_symbolic(x, sizeof x, "x");
  int32_t ref = scalar_ref(x), vec = simd(x);
  symcross_check_equal(&vec, &ref, sizeof ref, 1, "sum");
  return 0;
}
