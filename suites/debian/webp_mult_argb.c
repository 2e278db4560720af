/* Premultiplying four ARGB pixels by their alpha (fixed-point reciprocal
   scale), libwebp's SSE2 path against its C reference from the Debian
   source package. */
#include <stdint.h>
#include "symcross.h"
#include "src/dsp/alpha_processing.c"
#include "src/dsp/alpha_processing_sse2.c"

int main(void) {
  uint32_t want[4], got[4];
  symcross_make_symbolic(want, sizeof want, "argb");
  for (int i = 0; i < 4; ++i) got[i] = want[i];
  WebPMultARGBRow_C(want, 4, 0);
  MultARGBRow_SSE2(got, 4, 0);
  symcross_check_equal(want, got, sizeof want[0], 4, "MultARGBRow");
  return 0;
}
