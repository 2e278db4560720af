// expect: equivalent
/* The odd part of a 4x4 inverse transform of 12-bit coefficients, in the
 * style of an image codec: the C reference multiplies on int by the
 * 17-bit constant 85627 and by 35468 and keeps the high half, (x * k) >> 16;
 * the SSE2 version keeps 16-bit lanes and writes each product as a
 * PMULHW by the constant less 2^16 plus x itself. The coefficients are
 * bounded with `&&`, as the codec's decoder guarantees, so no int product
 * can overflow: the bound on the path settles that without a solver
 * query. Expected verdict: equivalent. */
#include <emmintrin.h>
#include <stdint.h>
#include "symcross.h"

#define MUL(a, b) (((a) * (b)) >> 16)
static const int kC1 = 20091 + (1 << 16);
static const int kC2 = 35468;

static void rotate_c(const int16_t *in, int16_t *out) {
  for (int i = 0; i < 8; ++i) {
    const int x = in[i], y = in[i ^ 1];
    out[i] = (int16_t)(MUL(x, kC1) + MUL(y, kC2));
  }
}

static void rotate_sse2(const int16_t *in, int16_t *out) {
  const __m128i x = _mm_loadu_si128((const __m128i *)in);
  const __m128i y = _mm_shufflelo_epi16(_mm_shufflehi_epi16(x, 0xb1), 0xb1);
  const __m128i k1 = _mm_set1_epi16(20091);
  const __m128i k2 = _mm_set1_epi16(-30068);
  const __m128i a = _mm_add_epi16(_mm_mulhi_epi16(x, k1), x);
  const __m128i b = _mm_add_epi16(_mm_mulhi_epi16(y, k2), y);
  _mm_storeu_si128((__m128i *)out, _mm_add_epi16(a, b));
}

int main(void) {
  int16_t in[8], want[8], got[8];
  symcross_make_symbolic(in, sizeof in, "in");
#ifndef UNBOUNDED
  for (int i = 0; i < 8; ++i) symcross_assume(in[i] >= -2048 && in[i] < 2048);
#endif
  rotate_c(in, want);
  rotate_sse2(in, got);
  symcross_check_equal(want, got, sizeof want[0], 8, "rotate");
  return 0;
}
