/* One output sample of speexdsp's direct (non-interpolating) resampler,
   float build: the filter of `taps` coefficients applied to `in`, the
   accumulation in float (single) or in double. Each of speex_direct_c.c
   and speex_direct_sse.c compiles the package's resample.c, unchanged,
   once: the C reference, and the SSE/SSE2 inner products. */
#ifndef SYMCROSS_SPEEX_DIRECT_H
#define SYMCROSS_SPEEX_DIRECT_H
float speex_c_direct_single(const float *filter, const float *in, unsigned taps);
float speex_sse_direct_single(const float *filter, const float *in, unsigned taps);
float speex_c_direct_double(const float *filter, const float *in, unsigned taps);
float speex_sse_direct_double(const float *filter, const float *in, unsigned taps);
#endif
