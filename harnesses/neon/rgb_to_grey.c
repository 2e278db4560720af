// expect: equivalent
// target: aarch64
/* RGB to grey of 16 pixels (planar uint8): grey = (77 r + 150 g + 29 b + 128)
 * >> 8. NEON: widening multiply (vmull_u8, UMULL) and multiply-accumulate
 * (vmlal_u8, UMLAL) into uint16, then a rounding narrowing shift
 * (vrshrn_n_u16, RSHRN #8). The weights sum to 256, so the uint16
 * accumulator never overflows. Expected verdict: equivalent. */
#include <arm_neon.h>
#include <stdint.h>
#include "symcross.h"

#define N 16

static void scalar_ref(const uint8_t *r, const uint8_t *g, const uint8_t *b, uint8_t *out) {
  for (int i = 0; i < N; i++)
    out[i] = (uint8_t)((77 * r[i] + 150 * g[i] + 29 * b[i] + 128) >> 8);
}

static void simd(const uint8_t *r, const uint8_t *g, const uint8_t *b, uint8_t *out) {
  const uint8x8_t wr = vdup_n_u8(77), wg = vdup_n_u8(150), wb = vdup_n_u8(29);
  for (int i = 0; i < N; i += 8) {
    uint16x8_t acc = vmull_u8(vld1_u8(r + i), wr);
    acc = vmlal_u8(acc, vld1_u8(g + i), wg);
    acc = vmlal_u8(acc, vld1_u8(b + i), wb);
    vst1_u8(out + i, vrshrn_n_u16(acc, 8));
  }
}

int main(void) {
  uint8_t r[N], g[N], b[N], ref[N], vec[N];
  symcross_make_symbolic(r, sizeof r, "r");
  symcross_make_symbolic(g, sizeof g, "g");
  symcross_make_symbolic(b, sizeof b, "b");
  scalar_ref(r, g, b, ref);
  simd(r, g, b, vec);
  symcross_check_equal(vec, ref, 1, N, "grey");
  return 0;
}
