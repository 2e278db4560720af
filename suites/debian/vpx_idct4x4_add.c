/* The 4x4 inverse DCT added to a prediction, with coefficients of 12 bits:
   libvpx's SSE2 path against its C reference, both from the Debian source
   package. */
#include <stdint.h>
#include "symcross.h"
#include "vpx_dsp/inv_txfm.c"
#include "vpx_dsp/x86/inv_txfm_sse2.c"

int main(void) {
  int16_t coefficients[16];
  tran_low_t in[16];
  uint8_t want[16], got[16];
  symcross_make_symbolic(coefficients, sizeof coefficients, "coefficients");
  symcross_make_symbolic(want, sizeof want, "prediction");
  for (int i = 0; i < 16; ++i) {
    symcross_assume(coefficients[i] >= -2048 && coefficients[i] < 2048);
    in[i] = coefficients[i];
    got[i] = want[i];
  }
  vpx_idct4x4_16_add_c(in, want, 4);
  vpx_idct4x4_16_add_sse2(in, got, 4);
  symcross_check_equal(want, got, 1, sizeof want, "vpx_idct4x4_16_add");
  return 0;
}
