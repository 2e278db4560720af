/* The lossless colour-transform inverse (signed 8-bit multipliers) on four
   pixels, libwebp's SSE2 path against its C reference from the Debian
   source package. With -D BROKEN the reference is given two of the
   multipliers swapped. */
#include <stdint.h>
#include "symcross.h"
#include "src/dsp/lossless.c"
#include "src/dsp/lossless_sse2.c"

int main(void) {
  VP8LMultipliers m;
  uint32_t src[4], want[4], got[4];
  symcross_make_symbolic(&m, sizeof m, "m");
  symcross_make_symbolic(src, sizeof src, "src");
#ifdef BROKEN
  /* The reference given green_to_blue_ and red_to_blue_ swapped. */
  VP8LMultipliers swapped = m;
  swapped.green_to_blue_ = m.red_to_blue_;
  swapped.red_to_blue_ = m.green_to_blue_;
  VP8LTransformColorInverse_C(&swapped, src, 4, want);
#else
  VP8LTransformColorInverse_C(&m, src, 4, want);
#endif
  TransformColorInverse_SSE2(&m, src, 4, got);
  symcross_check_equal(want, got, sizeof want[0], 4, "TransformColorInverse");
  return 0;
}
