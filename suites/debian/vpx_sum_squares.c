/* The sum of squares of a 4x4 block of 16-bit values: libvpx's SSE2 path
   against its C reference, both from the Debian source package. The
   encoder passes residuals of byte blocks; with ANY_INPUT every 16-bit
   value is allowed, and the SSE2 path's 32-bit sum (sign-extended to the
   64-bit result) no longer matches the reference's 64-bit sum. */
#include <stdint.h>
#include "symcross.h"
#include "vpx_dsp/sum_squares.c"
#include "vpx_dsp/x86/sum_squares_sse2.c"

int main(void) {
  int16_t block[16];
#ifdef ANY_INPUT
  symcross_make_symbolic(block, sizeof block, "block");
#else
  uint8_t src[16], pred[16];
  symcross_make_symbolic(src, sizeof src, "src");
  symcross_make_symbolic(pred, sizeof pred, "pred");
  for (int i = 0; i < 16; ++i) block[i] = (int16_t)(src[i] - pred[i]);
#endif
  uint64_t want = vpx_sum_squares_2d_i16_c(block, 4, 4);
  uint64_t got = vpx_sum_squares_2d_i16_sse2(block, 4, 4);
  symcross_check_equal(&want, &got, sizeof want, 1, "vpx_sum_squares_2d_i16");
  return 0;
}
