/* The DCT histogram of one 4x4 block (per-coefficient bins of |FTransform|
   >> 3, capped at MAX_COEFF_THRESH, summarised as the largest bin count and
   the last bin used): libwebp's SSE2 path against its C reference from the
   Debian source package. The C version calls the transform through the
   package's dispatch pointer, set here to the C transform. With BROKEN the
   SSE2 version is given the block one pixel to the right (a known
   mismatch). */
#include <stdint.h>
#include "symcross.h"
#include "src/dsp/enc.c"
#include "src/dsp/enc_sse2.c"

int main(void) {
  uint8_t ref[4 * BPS + 1], pred[4 * BPS];
  VP8Histogram want, got;
  symcross_make_symbolic(ref, sizeof ref, "ref");
  symcross_make_symbolic(pred, sizeof pred, "pred");
  VP8FTransform = FTransform_C;
  CollectHistogram_C(ref, pred, 0, 1, &want);
#ifdef BROKEN
  CollectHistogram_SSE2(ref + 1, pred, 0, 1, &got);
#else
  CollectHistogram_SSE2(ref, pred, 0, 1, &got);
#endif
  symcross_check_equal(&want.max_value, &got.max_value, sizeof(int), 1,
                       "max_value");
  symcross_check_equal(&want.last_non_zero, &got.last_non_zero, sizeof(int), 1,
                       "last_non_zero");
  return 0;
}
