// expect: equivalent
// target: aarch64
/* Saturating add of 16 int16 samples (NEON vqaddq_s16, SQADD) against a
 * scalar loop that adds in int and clamps to [-32768, 32767].
 * Expected verdict: equivalent. */
#include <arm_neon.h>
#include <stdint.h>
#include "symcross.h"

#define N 16

static void scalar_ref(const int16_t *a, const int16_t *b, int16_t *out) {
  for (int i = 0; i < N; i++) {
    int s = a[i] + b[i];
    out[i] = (int16_t)(s > 32767 ? 32767 : s < -32768 ? -32768 : s);
  }
}

static void simd(const int16_t *a, const int16_t *b, int16_t *out) {
  for (int i = 0; i < N; i += 8)
    vst1q_s16(out + i, vqaddq_s16(vld1q_s16(a + i), vld1q_s16(b + i)));
}

int main(void) {
  int16_t a[N], b[N], ref[N], vec[N];
  symcross_make_symbolic(a, sizeof a, "a");
  symcross_make_symbolic(b, sizeof b, "b");
  scalar_ref(a, b, ref);
  simd(a, b, vec);
  symcross_check_equal(vec, ref, sizeof ref[0], N, "sum");
  return 0;
}
