/* The sum of squared errors of a 4x4 block: the SSE2 path of the Debian
   libwebp source package against the package's own C reference, both
   compiled from the fetched sources (see fetch-sources.sh). */
#include <stdint.h>
#include "symcross.h"
#include "src/dsp/enc.c"
#include "src/dsp/enc_sse2.c"

int main(void) {
  uint8_t a[4 * BPS], b[4 * BPS];
  symcross_make_symbolic(a, sizeof a, "a");
  symcross_make_symbolic(b, sizeof b, "b");
  int want = SSE4x4_C(a, b);
  int got = SSE4x4_SSE2(a, b);
  symcross_check_equal(&want, &got, sizeof want, 1, "SSE4x4");
  return 0;
}
