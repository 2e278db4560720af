/* The rounded mean of a 4x4 byte block: libvpx's SSE2 path against its C
   reference, both from the Debian source package. */
#include <stdint.h>
#include "symcross.h"
#include "vpx_dsp/avg.c"
#include "vpx_dsp/x86/avg_intrin_sse2.c"

#ifdef BROKEN
/* The reference given the wrong row stride (5 for 4). */
#define REFERENCE_STRIDE 5
#else
#define REFERENCE_STRIDE 4
#endif

int main(void) {
  uint8_t block[20];
  symcross_make_symbolic(block, sizeof block, "block");
  unsigned want = vpx_avg_4x4_c(block, REFERENCE_STRIDE);
  unsigned got = vpx_avg_4x4_sse2(block, 4);
  symcross_check_equal(&want, &got, sizeof want, 1, "vpx_avg_4x4");
  return 0;
}
