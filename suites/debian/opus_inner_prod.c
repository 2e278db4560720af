/* The fixed-point inner product of two 16-sample vectors (Opus's CELT
   pitch search), its SSE4.1 path against its C reference from the Debian
   source package; samples bounded to 12 bits, as the codec's scaled
   signals keep them, so no 32-bit sum can overflow. */
#define FIXED_POINT 1
#define OPUS_X86_MAY_HAVE_SSE4_1 1
#define VAR_ARRAYS 1
#include <stdint.h>
#include "symcross.h"
#include "celt/x86/pitch_sse4_1.c"

#define N 16

int main(void) {
  opus_val16 x[N], y[N];
  symcross_make_symbolic(x, sizeof x, "x");
  symcross_make_symbolic(y, sizeof y, "y");
#ifndef ANY_INPUT
  for (int i = 0; i < N; ++i) symcross_assume(x[i] >= -2048 && x[i] < 2048 && y[i] >= -2048 && y[i] < 2048);
#endif
  opus_val32 want = celt_inner_prod_c(x, y, N);
  opus_val32 got = celt_inner_prod_sse4_1(x, y, N);
  symcross_check_equal(&want, &got, sizeof want, 1, "celt_inner_prod");
  return 0;
}
