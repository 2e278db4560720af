/* Four lags of the float cross-correlation of Opus's CELT pitch search
   (xcorr_kernel), its SSE path (two accumulators per lane) against its C
   reference from the Debian source package, over 8 samples: equal when
   the sums may be regrouped (--assume associativity,positive-zero). */
#define OPUS_X86_MAY_HAVE_SSE 1
#define VAR_ARRAYS 1
#include "symcross.h"
#include "celt/x86/pitch_sse.c"

#define LEN 8

int main(void) {
  float x[LEN], y[LEN + 3];
  float want[4] = {0, 0, 0, 0}, got[4] = {0, 0, 0, 0};
  symcross_make_symbolic(x, sizeof x, "x");
  symcross_make_symbolic(y, sizeof y, "y");
  xcorr_kernel_c(x, y, want, LEN);
  xcorr_kernel_sse(x, y, got, LEN);
  symcross_check_equal(want, got, sizeof want[0], 4, "xcorr_kernel");
  return 0;
}
