// expect: findings mismatch
// target: aarch64
/* Sum of 16 int16 samples into an int32, against a scalar loop summing into
 * int. Broken: the vector code adds in int16 lanes (vaddq_s16) and reduces
 * with vaddvq_s16 (ADDV on halfwords), which wraps at 16 bits, so large
 * sums differ. Expected verdict: a mismatch. */
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
  int16x8_t acc = vdupq_n_s16(0);
  for (int i = 0; i < N; i += 8) acc = vaddq_s16(acc, vld1q_s16(x + i));
  return vaddvq_s16(acc);
}

int main(void) {
  int16_t x[N];
  symcross_make_symbolic(x, sizeof x, "x");
  int32_t ref = scalar_ref(x), vec = simd(x);
  symcross_check_equal(&vec, &ref, sizeof ref, 1, "sum");
  return 0;
}
