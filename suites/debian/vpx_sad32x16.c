/* The sum of absolute differences of two 32x16 byte blocks: libvpx's AVX2
   path (its SSE2 SADs are assembly, which symcross does not read) against
   its C reference, both from the Debian source package. */
#include <stdint.h>
#include "symcross.h"
#include "vpx_dsp/sad.c"
#include "vpx_dsp/x86/sad_avx2.c"

int main(void) {
  uint8_t src[32 * 16], ref[32 * 16];
  symcross_make_symbolic(src, sizeof src, "src");
  symcross_make_symbolic(ref, sizeof ref, "ref");
  unsigned want = vpx_sad32x16_c(src, 32, ref, 32);
  unsigned got = vpx_sad32x16_avx2(src, 32, ref, 32);
  symcross_check_equal(&want, &got, sizeof want, 1, "vpx_sad32x16");
  return 0;
}
