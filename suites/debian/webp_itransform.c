/* The 4x4 inverse transform added to a prediction, with coefficients of
   12 bits as the decoder produces them: libwebp's SSE2 path against its C
   reference from the Debian source package. */
#include <stdint.h>
#include "symcross.h"
#include "src/dsp/enc.c"
#include "src/dsp/enc_sse2.c"

int main(void) {
  uint8_t ref[4 * BPS], want[4 * BPS], got[4 * BPS];
  int16_t in[16];
  symcross_make_symbolic(ref, sizeof ref, "ref");
  symcross_make_symbolic(in, sizeof in, "in");
  for (int i = 0; i < 16; ++i) symcross_assume(in[i] >= -2048 && in[i] < 2048);
  for (int i = 0; i < 4 * BPS; ++i) want[i] = got[i] = 0;
  ITransform_C(ref, in, want, 0);
  ITransform_SSE2(ref, in, got, 0);
  symcross_check_equal(want, got, 1, sizeof want, "ITransform");
  return 0;
}
