/* speexdsp's resampler compiled with its SSE and SSE2 inner products
   (resample_sse.h), as Debian's x86-64 build uses them. */
#define RANDOM_PREFIX speex_sse
#define USE_SSE 1
#define USE_SSE2 1
#include "speex_direct.inc"
