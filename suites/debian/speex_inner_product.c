/* One output sample of speexdsp's resampler (float build), the SSE inner
   product against the C loop, over a filter of 8 taps; with DOUBLE, the
   double-accumulating variant (SSE2 against the C loop's four double
   accumulators). The two sum in different orders: the results differ
   natively in rounding and are equal as real numbers, so they are checked
   under --assume associativity,positive-zero. With BROKEN the reference
   is given the input one sample later (a different sum even as real
   numbers). */
#include "symcross.h"
#include "speex_direct.h"

#define TAPS 8

#ifdef BROKEN
#define REFERENCE_SHIFT 1
#else
#define REFERENCE_SHIFT 0
#endif

int main(void) {
  float filter[TAPS], in[TAPS + 1];
  symcross_make_symbolic(filter, sizeof filter, "filter");
  symcross_make_symbolic(in, sizeof in, "in");
#ifdef DOUBLE
  float want = speex_c_direct_double(filter, in + REFERENCE_SHIFT, TAPS);
  float got = speex_sse_direct_double(filter, in, TAPS);
#else
  float want = speex_c_direct_single(filter, in + REFERENCE_SHIFT, TAPS);
  float got = speex_sse_direct_single(filter, in, TAPS);
#endif
  symcross_check_equal(&want, &got, sizeof want, 1, "speex inner product");
  return 0;
}
