/* The lossless predictor "select" (predictor 11) on one pixel and its
   neighbours, libwebp's SSE2 path against its C reference from the Debian
   source package. With -D BROKEN the reference is given the top and
   top-left neighbours swapped. */
#include <stdint.h>
#include "symcross.h"
#include "src/dsp/lossless.c"
#include "src/dsp/lossless_sse2.c"

int main(void) {
  uint32_t left, top[2];
  symcross_make_symbolic(&left, sizeof left, "left");
  symcross_make_symbolic(top, sizeof top, "top");
#ifdef BROKEN
  /* The reference given the top and top-left neighbours swapped. */
  uint32_t swapped[2] = {top[1], top[0]};
  uint32_t want = VP8LPredictor11_C(&left, swapped + 1);
#else
  uint32_t want = VP8LPredictor11_C(&left, top + 1);
#endif
  uint32_t got = Predictor11_SSE2(&left, top + 1);
  symcross_check_equal(&want, &got, sizeof want, 1, "Predictor11");
  return 0;
}
