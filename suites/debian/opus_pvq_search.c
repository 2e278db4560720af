/* The pyramid vector quantiser's pulse search of Opus's CELT (float
   build), its SSE2 path (op_pvq_search_sse2) against its C reference
   (op_pvq_search_c), both from the Debian source package, on one band of
   BAND = 8 coefficients and PULSES pulses: the pulse vector and the energy it
   returns. Both keep their scratch vectors in variable-length arrays
   (VAR_ARRAYS) sized from N. The SSE2 path scores candidates with
   _mm_rsqrt_ps and projects with _mm_rcp_ps, estimates where the C path
   divides exactly, so the two may choose differently on close scores.
   Coefficients lie in [-1, 1], as a normalised band's do. */
#define OPUS_X86_MAY_HAVE_SSE2 1
#define OPUS_X86_PRESUME_SSE2 1
#define VAR_ARRAYS 1
#include <math.h>
#include "symcross.h"
#include "celt/vq.c"
#include "celt/x86/vq_sse2.c"

#define BAND 8
#ifndef PULSES
#define PULSES 2
#endif

int main(void) {
  float x[BAND], xc[BAND], xs[BAND];
  int want[BAND], got[BAND];
  symcross_make_symbolic(x, sizeof x, "x");
  for (int i = 0; i < BAND; ++i) {
    symcross_assume(x[i] >= -1.0f && x[i] <= 1.0f);
    xc[i] = xs[i] = x[i];
  }
  float want_yy = op_pvq_search_c(xc, want, PULSES, BAND, 0);
  float got_yy = op_pvq_search_sse2(xs, got, PULSES, BAND, 0);
  symcross_check_equal(want, got, sizeof want[0], BAND, "pulses");
  symcross_check_equal(&want_yy, &got_yy, sizeof want_yy, 1, "energy");
  return 0;
}
