/* Adding green to blue and red on four pixels, libwebp's SSE2 path against
   its C reference from the Debian source package. */
#include <stdint.h>
#include "symcross.h"
#include "src/dsp/lossless.c"
#include "src/dsp/lossless_sse2.c"

int main(void) {
  uint32_t src[4], want[4], got[4];
  symcross_make_symbolic(src, sizeof src, "src");
  VP8LAddGreenToBlueAndRed_C(src, 4, want);
  AddGreenToBlueAndRed_SSE2(src, 4, got);
  symcross_check_equal(want, got, sizeof want[0], 4, "AddGreenToBlueAndRed");
  return 0;
}
