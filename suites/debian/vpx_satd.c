/* The sum of absolute transform coefficients of a 4x4 block, coefficients
   of 16 bits as the Hadamard transforms produce them: libvpx's SSE2 path
   against its C reference, both from the Debian source package. */
#include <stdint.h>
#include "symcross.h"
#include "vpx_dsp/avg.c"
#include "vpx_dsp/x86/avg_intrin_sse2.c"

int main(void) {
  int16_t coefficients[16];
  tran_low_t coeff[16];
  symcross_make_symbolic(coefficients, sizeof coefficients, "coefficients");
  for (int i = 0; i < 16; ++i) coeff[i] = coefficients[i];
  int want = vpx_satd_c(coeff, 16);
  int got = vpx_satd_sse2(coeff, 16);
  symcross_check_equal(&want, &got, sizeof want, 1, "vpx_satd");
  return 0;
}
