// expect: findings mismatch
// target: aarch64
/* RGB to grey of 16 interleaved RGB pixels (uint8, de-interleaved by
 * vld3_u8, LD3): grey = (77 r + 150 g + 29 b + 128)
 * >> 8. NEON: widening multiply (vmull_u8, UMULL) and multiply-accumulate
 * (vmlal_u8, UMLAL) into uint16, then a rounding narrowing shift
 * (vrshrn_n_u16, RSHRN #8). The weights sum to 256, so the uint16
 * accumulator never overflows.
 * Broken: the narrowing shift truncates (vshrn_n_u16, SHRN) instead of
 * rounding, so grey is one too low when the low byte is 128 or more.
 * Expected verdict: a mismatch. */
#include <arm_neon.h>
#include <stdint.h>
#include "symcross.h"

#define N 16

static void scalar_ref(const uint8_t *rgb, uint8_t *out) {
  for (int i = 0; i < N; i++)
    out[i] = (uint8_t)((77 * rgb[3 * i] + 150 * rgb[3 * i + 1] + 29 * rgb[3 * i + 2] + 128) >> 8);
}

static void simd(const uint8_t *rgb, uint8_t *out) {
  const uint8x8_t wr = vdup_n_u8(77), wg = vdup_n_u8(150), wb = vdup_n_u8(29);
  for (int i = 0; i < N; i += 8) {
    uint8x8x3_t px = vld3_u8(rgb + 3 * i);
    uint16x8_t acc = vmull_u8(px.val[0], wr);
    acc = vmlal_u8(acc, px.val[1], wg);
    acc = vmlal_u8(acc, px.val[2], wb);
    vst1_u8(out + i, vshrn_n_u16(acc, 8));
  }
}

int main(void) {
  uint8_t rgb[3 * N], ref[N], vec[N];
  symcross_make_symbolic(rgb, sizeof rgb, "rgb");
  scalar_ref(rgb, ref);
  simd(rgb, vec);
  symcross_check_equal(vec, ref, 1, N, "grey");
  return 0;
}
