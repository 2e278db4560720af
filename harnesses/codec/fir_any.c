// expect: findings mismatch
// cflags: -msse4.1
/* Fixed-point FIR filter of an audio codec: eight outputs of an 8-tap
 * filter, each (sum of x[i+j] * h[j] + 2^11) >> 12. The C reference
 * accumulates in 64 bits; the SSE4.1 version in 32-bit lanes
 * (PMOVSXWD, PMULLD). With samples and taps of any 16-bit value the
 * 32-bit sums overflow (eight products of up to 2^30 each) and the two
 * differ: the SIMD version is only right for bounded inputs.
 * Expected verdict: mismatch. */
#include <smmintrin.h>
#include <stdint.h>
#include "symcross.h"

#define TAPS 8
#define OUT 8

static void fir_c(const int16_t *x, const int16_t *h, int32_t *y) {
  for (int i = 0; i < OUT; ++i) {
    int64_t acc = 0;
    for (int j = 0; j < TAPS; ++j) acc += (int64_t)x[i + j] * h[j];
    y[i] = (int32_t)((acc + (1 << 11)) >> 12);
  }
}

static void fir_sse41(const int16_t *x, const int16_t *h, int32_t *y) {
  for (int i = 0; i < OUT; i += 4) {
    __m128i acc = _mm_set1_epi32(1 << 11);
    for (int j = 0; j < TAPS; ++j) {
      const __m128i xs = _mm_cvtepi16_epi32(_mm_loadl_epi64((const __m128i *)(x + i + j)));
      acc = _mm_add_epi32(acc, _mm_mullo_epi32(xs, _mm_set1_epi32(h[j])));
    }
    _mm_storeu_si128((__m128i *)(y + i), _mm_srai_epi32(acc, 12));
  }
}

int main(void) {
  int16_t x[OUT + TAPS - 1], h[TAPS];
  int32_t ref[OUT], vec[OUT];
  symcross_make_symbolic(x, sizeof x, "samples");
  symcross_make_symbolic(h, sizeof h, "taps");
  fir_c(x, h, ref);
  fir_sse41(x, h, vec);
  symcross_check_equal(ref, vec, sizeof ref[0], OUT, "filtered samples");
  return 0;
}
