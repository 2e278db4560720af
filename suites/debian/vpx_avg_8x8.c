/* The rounded mean of an 8x8 byte block: libvpx's SSE2 path against its C
   reference, both from the Debian source package. */
#include <stdint.h>
#include "symcross.h"
#include "vpx_dsp/avg.c"
#include "vpx_dsp/x86/avg_intrin_sse2.c"

int main(void) {
  uint8_t block[64];
  symcross_make_symbolic(block, sizeof block, "block");
  unsigned want = vpx_avg_8x8_c(block, 8);
  unsigned got = vpx_avg_8x8_sse2(block, 8);
  symcross_check_equal(&want, &got, sizeof want, 1, "vpx_avg_8x8");
  return 0;
}
