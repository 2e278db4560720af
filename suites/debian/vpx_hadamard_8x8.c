/* The 8x8 Hadamard transform of a residual (the difference of two byte
   blocks): libvpx's SSE2 path against its C reference, both from the
   Debian source package. libvpx leaves the order of the 64 coefficients
   free (avg.c: "the order of the output coeff of the hadamard is not
   important"; its tests sort both outputs), and the SSE2 path skips the
   final transpose: compared in place the two differ. With ORDER_FREE the
   coefficients are compared as the encoder consumes them, through the sum
   of their absolute values (vpx_satd), which no order changes. */
#include <stdint.h>
#include "symcross.h"
#include "vpx_dsp/avg.c"
#include "vpx_dsp/x86/avg_intrin_sse2.c"

int main(void) {
  uint8_t src[64], pred[64];
  int16_t residual[64];
  tran_low_t want[64], got[64];
  symcross_make_symbolic(src, sizeof src, "src");
  symcross_make_symbolic(pred, sizeof pred, "pred");
  for (int i = 0; i < 64; ++i) residual[i] = (int16_t)(src[i] - pred[i]);
  vpx_hadamard_8x8_c(residual, 8, want);
  vpx_hadamard_8x8_sse2(residual, 8, got);
#ifdef ORDER_FREE
  int want_satd = vpx_satd_c(want, 64), got_satd = vpx_satd_c(got, 64);
  symcross_check_equal(&want_satd, &got_satd, sizeof want_satd, 1, "vpx_hadamard_8x8 then vpx_satd");
#else
  symcross_check_equal(want, got, sizeof want[0], 64, "vpx_hadamard_8x8");
#endif
  return 0;
}
