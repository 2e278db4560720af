/* The least and the greatest absolute difference of two 8x8 byte blocks:
   libvpx's SSE2 path against its C reference, both from the Debian source
   package. */
#include <stdint.h>
#include "symcross.h"
#include "vpx_dsp/avg.c"
#include "vpx_dsp/x86/avg_intrin_sse2.c"

int main(void) {
  uint8_t s[64], d[64];
  int want[2], got[2];
  symcross_make_symbolic(s, sizeof s, "s");
  symcross_make_symbolic(d, sizeof d, "d");
  vpx_minmax_8x8_c(s, 8, d, 8, &want[0], &want[1]);
  vpx_minmax_8x8_sse2(s, 8, d, 8, &got[0], &got[1]);
  symcross_check_equal(want, got, sizeof want[0], 2, "vpx_minmax_8x8");
  return 0;
}
