/* The 4x4 forward transform of a residual (bytes in, int16 out), libwebp's
   SSE2 path against its C reference from the Debian source package. */
#include <stdint.h>
#include "symcross.h"
#include "src/dsp/enc.c"
#include "src/dsp/enc_sse2.c"

int main(void) {
  uint8_t src[4 * BPS], ref[4 * BPS];
  int16_t want[16], got[16];
  symcross_make_symbolic(src, sizeof src, "src");
  symcross_make_symbolic(ref, sizeof ref, "ref");
  FTransform_C(src, ref, want);
  FTransform_SSE2(src, ref, got);
  symcross_check_equal(want, got, sizeof want[0], 16, "FTransform");
  return 0;
}
