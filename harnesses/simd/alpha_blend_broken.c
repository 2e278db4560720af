// expect: findings mismatch
/* The broken twin of alpha_blend.c: pixel 5 of the scalar reference
 * rounds with +128 instead of +127, so every other pixel is the same
 * formula and pixel 5 alone differs (for a=0, x=0, y=1: 1 against 0).
 * Alpha blending of 8-bit pixels, out = (a*x + (255-a)*y + 127) / 255,
 * with SSE2 on 16-bit lanes: _mm_mullo_epi16 for the products and the
 * division by 255 done as (t + 1 + (t >> 8)) >> 8, exact for every t up
 * to 65152 (the largest sum), then packed back to bytes. Every pixel runs
 * the same formula on its own a, x and y, so one pixel's proof covers the
 * others (lane symmetry). -DPIXELS=8 checks half as many.
 * Expected verdict: mismatch at element 5. */
#include <emmintrin.h>
#include <stdint.h>
#include "symcross.h"

#ifndef PIXELS
#define PIXELS 16
#endif

static void scalar_ref(const uint8_t *a, const uint8_t *x, const uint8_t *y, uint8_t *out) {
  for (int i = 0; i < PIXELS; i++)
    out[i] = (uint8_t)((a[i] * x[i] + (255 - a[i]) * y[i] + (i == 5 ? 128 : 127)) / 255);
}

static __m128i blend8(__m128i a, __m128i x, __m128i y) {
  __m128i t = _mm_add_epi16(_mm_mullo_epi16(a, x), _mm_mullo_epi16(_mm_sub_epi16(_mm_set1_epi16(255), a), y));
  t = _mm_add_epi16(t, _mm_set1_epi16(127));
  t = _mm_add_epi16(_mm_add_epi16(t, _mm_set1_epi16(1)), _mm_srli_epi16(t, 8));
  return _mm_srli_epi16(t, 8);
}

static void simd(const uint8_t *a, const uint8_t *x, const uint8_t *y, uint8_t *out) {
  __m128i zero = _mm_setzero_si128();
  for (int i = 0; i < PIXELS; i += 8) {
    __m128i a16 = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(a + i)), zero);
    __m128i x16 = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(x + i)), zero);
    __m128i y16 = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(y + i)), zero);
    _mm_storel_epi64((__m128i *)(out + i), _mm_packus_epi16(blend8(a16, x16, y16), zero));
  }
}

int main(void) {
  uint8_t a[PIXELS], x[PIXELS], y[PIXELS], ref[PIXELS], vec[PIXELS];
  symcross_make_symbolic(a, sizeof a, "a");
  symcross_make_symbolic(x, sizeof x, "x");
  symcross_make_symbolic(y, sizeof y, "y");
  scalar_ref(a, x, y, ref);
  simd(a, x, y, vec);
  symcross_check_equal(ref, vec, 1, PIXELS, "blended pixels");
  return 0;
}
