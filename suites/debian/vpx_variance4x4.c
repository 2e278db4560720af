/* The variance and the sum of squared errors of two 4x4 byte blocks:
   libvpx's SSE2 path against its C reference, both from the Debian source
   package. */
#include <stdint.h>
#include "symcross.h"
#include "vpx_dsp/variance.c"
#include "vpx_dsp/x86/variance_sse2.c"

int main(void) {
  uint8_t src[16], ref[16];
  uint32_t want[2], got[2];
  symcross_make_symbolic(src, sizeof src, "src");
  symcross_make_symbolic(ref, sizeof ref, "ref");
  want[0] = vpx_variance4x4_c(src, 4, ref, 4, &want[1]);
  got[0] = vpx_variance4x4_sse2(src, 4, ref, 4, &got[1]);
  symcross_check_equal(want, got, sizeof want[0], 2, "vpx_variance4x4");
  return 0;
}
