// expect: equivalent
/* The statistics an SSIM metric gathers over an 8x8 window of two images:
 * the sums of x, y, x^2, x*y and y^2. The C reference is a double loop in
 * uint32_t; the SSE2 version sums the bytes with PSADBW and the squares and
 * cross products with PMADDWD on 16-bit lanes, one row at a time.
 * Expected verdict: equivalent. */
#include <emmintrin.h>
#include <stdint.h>
#include "symcross.h"

typedef struct {
  uint32_t xm, ym, xxm, xym, yym;
} window_stats;

static void stats_c(const uint8_t *x, const uint8_t *y, window_stats *s) {
  window_stats t = {0, 0, 0, 0, 0};
  for (int j = 0; j < 8; ++j) {
    for (int i = 0; i < 8; ++i) {
      const uint32_t a = x[8 * j + i], b = y[8 * j + i];
      t.xm += a;
      t.ym += b;
      t.xxm += a * a;
      t.xym += a * b;
      t.yym += b * b;
    }
  }
  *s = t;
}

static uint32_t horizontal_sum(__m128i v) {
  uint32_t lanes[4];
  _mm_storeu_si128((__m128i *)lanes, v);
  return lanes[0] + lanes[1] + lanes[2] + lanes[3];
}

static void stats_sse2(const uint8_t *x, const uint8_t *y, window_stats *s) {
  const __m128i zero = _mm_setzero_si128();
  __m128i sums = zero, xx = zero, xy = zero, yy = zero;
  for (int j = 0; j < 8; ++j) {
    const __m128i a8 = _mm_loadl_epi64((const __m128i *)(x + 8 * j));
    const __m128i b8 = _mm_loadl_epi64((const __m128i *)(y + 8 * j));
    /* Lane 0 of PSADBW against zero: the sum of x's row; lane 2: y's. */
    sums = _mm_add_epi32(sums, _mm_sad_epu8(_mm_unpacklo_epi64(a8, b8), zero));
    const __m128i a = _mm_unpacklo_epi8(a8, zero), b = _mm_unpacklo_epi8(b8, zero);
    xx = _mm_add_epi32(xx, _mm_madd_epi16(a, a));
    xy = _mm_add_epi32(xy, _mm_madd_epi16(a, b));
    yy = _mm_add_epi32(yy, _mm_madd_epi16(b, b));
  }
  s->xm = (uint32_t)_mm_cvtsi128_si32(sums);
  s->ym = (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(sums, 8));
  s->xxm = horizontal_sum(xx);
  s->xym = horizontal_sum(xy);
  s->yym = horizontal_sum(yy);
}

int main(void) {
  uint8_t x[64], y[64];
  window_stats ref, vec;
  symcross_make_symbolic(x, sizeof x, "x");
  symcross_make_symbolic(y, sizeof y, "y");
  stats_c(x, y, &ref);
  stats_sse2(x, y, &vec);
  symcross_check_equal(&ref, &vec, sizeof(uint32_t), 5, "window statistics");
  return 0;
}
