/* Weighted Hadamard distortion of two 4x4 blocks (the luma weights),
   libwebp's SSE2 path against its C reference from the Debian source
   package. */
#include <stdint.h>
#include "symcross.h"
#include "src/dsp/enc.c"
#include "src/dsp/enc_sse2.c"

static const uint16_t weights[16] = {38, 32, 20, 9, 32, 28, 17, 7, 20, 17, 10, 4, 9, 7, 4, 2};
#ifdef BROKEN
/* A weight transcribed wrong in the reference (27 for 28). */
static const uint16_t reference_weights[16] = {38, 32, 20, 9, 32, 27, 17, 7, 20, 17, 10, 4, 9, 7, 4, 2};
#else
#define reference_weights weights
#endif

int main(void) {
  uint8_t a[4 * BPS], b[4 * BPS];
  symcross_make_symbolic(a, sizeof a, "a");
  symcross_make_symbolic(b, sizeof b, "b");
  int want = Disto4x4_C(a, b, reference_weights);
  int got = Disto4x4_SSE2(a, b, weights);
  symcross_check_equal(&want, &got, sizeof want, 1, "Disto4x4");
  return 0;
}
