// expect: findings mismatch
/* Sum of squared errors of a 4x4 block of bytes, as an image codec's
 * distortion metric computes it: the SSE2 version widens the rows to
 * 16 bits, subtracts with signed saturation (which never saturates on
 * byte differences), squares and pairs with PMADDWD and adds the four
 * 32-bit lanes; the C reference is a double loop in int.
 * Broken: the SIMD version subtracts the bytes with unsigned saturation
 * before widening, so a pixel darker than its reference counts as 0.
 * Expected verdict: mismatch. */
#include <emmintrin.h>
#include <stdint.h>
#include "symcross.h"

#define BPS 4

static int sse4x4_c(const uint8_t *a, const uint8_t *b) {
  int count = 0;
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 4; ++x) {
      const int diff = a[x + y * BPS] - b[x + y * BPS];
      count += diff * diff;
    }
  }
  return count;
}

static int sse4x4_sse2(const uint8_t *a, const uint8_t *b) {
  const __m128i zero = _mm_setzero_si128();
  const __m128i a01 = _mm_loadu_si128((const __m128i *)a);
  const __m128i b01 = _mm_loadu_si128((const __m128i *)b);
  const __m128i d = _mm_subs_epu8(a01, b01);
  const __m128i d0 = _mm_unpacklo_epi8(d, zero);
  const __m128i d1 = _mm_unpackhi_epi8(d, zero);
  const __m128i s0 = _mm_madd_epi16(d0, d0);
  const __m128i s1 = _mm_madd_epi16(d1, d1);
  const __m128i sum = _mm_add_epi32(s0, s1);
  int32_t tmp[4];
  _mm_storeu_si128((__m128i *)tmp, sum);
  return tmp[3] + tmp[2] + tmp[1] + tmp[0];
}

int main(void) {
  uint8_t a[16], b[16];
  symcross_make_symbolic(a, sizeof a, "a");
  symcross_make_symbolic(b, sizeof b, "b");
  int ref = sse4x4_c(a, b);
  int vec = sse4x4_sse2(a, b);
  symcross_check_equal(&ref, &vec, sizeof ref, 1, "sum of squared errors");
  return 0;
}
