/* The 4x4 forward DCT of a residual (the difference of two byte blocks, as
   the encoder computes it): libvpx's SSE2 path against its C reference,
   both from the Debian source package. */
#include <stdint.h>
#include "symcross.h"
#include "vpx_dsp/fwd_txfm.c"
#include "vpx_dsp/x86/fwd_txfm_sse2.c"

int main(void) {
  uint8_t src[16], pred[16];
  int16_t residual[16];
  tran_low_t want[16], got[16];
  symcross_make_symbolic(src, sizeof src, "src");
  symcross_make_symbolic(pred, sizeof pred, "pred");
  for (int i = 0; i < 16; ++i) residual[i] = (int16_t)(src[i] - pred[i]);
  vpx_fdct4x4_c(residual, want, 4);
  vpx_fdct4x4_sse2(residual, got, 4);
  symcross_check_equal(want, got, sizeof want[0], 16, "vpx_fdct4x4");
  return 0;
}
