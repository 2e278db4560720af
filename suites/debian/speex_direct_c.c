/* speexdsp's resampler compiled as its C reference (no SIMD). */
#define RANDOM_PREFIX speex_c
#include "speex_direct.inc"
