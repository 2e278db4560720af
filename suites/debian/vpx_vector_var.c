/* The variance of the difference of two projections of 16 values (bwl 2):
   libvpx's SSE2 path against its C reference, both from the Debian source
   package. Projection values are bytes here, inside the dynamic range the
   reference documents (differences within [-510, 510]). */
#include <stdint.h>
#include "symcross.h"
#include "vpx_dsp/avg.c"
#include "vpx_dsp/x86/avg_intrin_sse2.c"

int main(void) {
  uint8_t a[16], b[16];
  int16_t ref[16], src[16] __attribute__((aligned(16)));
  symcross_make_symbolic(a, sizeof a, "ref");
  symcross_make_symbolic(b, sizeof b, "src");
  for (int i = 0; i < 16; ++i) {
    ref[i] = a[i];
    src[i] = b[i];
  }
  int want = vpx_vector_var_c(ref, src, 2);
  int got = vpx_vector_var_sse2(ref, src, 2);
  symcross_check_equal(&want, &got, sizeof want, 1, "vpx_vector_var");
  return 0;
}
