// expect: findings mismatch
/* Weighted Hadamard distortion of two 4x4 blocks of bytes, the texture
 * metric of an image codec's mode decision: each block goes through a 4x4
 * Walsh-Hadamard transform, the absolute coefficients are weighted and
 * summed, and the distortion is |sum(b) - sum(a)| >> 5. The C reference
 * transforms rows then columns in int; the SSE2 version holds one row of
 * both blocks per register (a in lanes 0-3, b in 4-7), transforms the
 * columns, transposes both 4x4 halves with unpacks, transforms the rows,
 * takes |x| as max(x, -x) and weights with PMADDWD.
 * Broken: the SSE2 version weights coefficient (l, m) with the weight of
 * (m, l), the transposed table, which differs where the block is not
 * symmetric.
 * Expected verdict: findings (mismatch). */
#include <emmintrin.h>
#include <stdint.h>
#include <stdlib.h>
#include "symcross.h"

static const uint16_t weights[16] = {16, 12, 8, 4, 14, 10, 6, 3, 9, 7, 4, 2, 5, 3, 2, 1};

static int weighted_hadamard_c(const uint8_t *in) {
  int tmp[16];
  for (int i = 0; i < 4; ++i) {
    const uint8_t *row = in + 4 * i;
    const int a0 = row[0] + row[2], a1 = row[1] + row[3];
    const int a2 = row[1] - row[3], a3 = row[0] - row[2];
    tmp[4 * i + 0] = a0 + a1;
    tmp[4 * i + 1] = a3 + a2;
    tmp[4 * i + 2] = a3 - a2;
    tmp[4 * i + 3] = a0 - a1;
  }
  int sum = 0;
  for (int k = 0; k < 4; ++k) {
    const int a0 = tmp[k] + tmp[8 + k], a1 = tmp[4 + k] + tmp[12 + k];
    const int a2 = tmp[4 + k] - tmp[12 + k], a3 = tmp[k] - tmp[8 + k];
    sum += weights[0 + k] * abs(a0 + a1);
    sum += weights[4 + k] * abs(a3 + a2);
    sum += weights[8 + k] * abs(a3 - a2);
    sum += weights[12 + k] * abs(a0 - a1);
  }
  return sum;
}

static int disto_c(const uint8_t *a, const uint8_t *b) {
  return abs(weighted_hadamard_c(b) - weighted_hadamard_c(a)) >> 5;
}

static void butterfly(__m128i *x0, __m128i *x1, __m128i *x2, __m128i *x3) {
  const __m128i a0 = _mm_add_epi16(*x0, *x2), a1 = _mm_add_epi16(*x1, *x3);
  const __m128i a2 = _mm_sub_epi16(*x1, *x3), a3 = _mm_sub_epi16(*x0, *x2);
  *x0 = _mm_add_epi16(a0, a1);
  *x1 = _mm_add_epi16(a3, a2);
  *x2 = _mm_sub_epi16(a3, a2);
  *x3 = _mm_sub_epi16(a0, a1);
}

static __m128i row_of_both(const uint8_t *a, const uint8_t *b, int i) {
  const __m128i zero = _mm_setzero_si128();
  const __m128i pa = _mm_cvtsi32_si128(*(const int *)(a + 4 * i));
  const __m128i pb = _mm_cvtsi32_si128(*(const int *)(b + 4 * i));
  return _mm_unpacklo_epi8(_mm_unpacklo_epi32(pa, pb), zero);
}

static __m128i weighted_abs(__m128i x, int m) {
  const __m128i w = _mm_set_epi16(weights[4 * m + 3], weights[4 * m + 2], weights[4 * m + 1], weights[4 * m],
                                  weights[4 * m + 3], weights[4 * m + 2], weights[4 * m + 1], weights[4 * m]);
  const __m128i magnitude = _mm_max_epi16(x, _mm_sub_epi16(_mm_setzero_si128(), x));
  return _mm_madd_epi16(magnitude, w);
}

static int disto_sse2(const uint8_t *a, const uint8_t *b) {
  __m128i v0 = row_of_both(a, b, 0), v1 = row_of_both(a, b, 1);
  __m128i v2 = row_of_both(a, b, 2), v3 = row_of_both(a, b, 3);
  butterfly(&v0, &v1, &v2, &v3); /* columns: lane l of v_j is coefficient j of column l */
  const __m128i t0 = _mm_unpacklo_epi16(v0, v1), t1 = _mm_unpacklo_epi16(v2, v3);
  const __m128i t2 = _mm_unpackhi_epi16(v0, v1), t3 = _mm_unpackhi_epi16(v2, v3);
  const __m128i u0 = _mm_unpacklo_epi32(t0, t1), u1 = _mm_unpackhi_epi32(t0, t1);
  const __m128i u2 = _mm_unpacklo_epi32(t2, t3), u3 = _mm_unpackhi_epi32(t2, t3);
  __m128i c0 = _mm_unpacklo_epi64(u0, u2), c1 = _mm_unpackhi_epi64(u0, u2);
  __m128i c2 = _mm_unpacklo_epi64(u1, u3), c3 = _mm_unpackhi_epi64(u1, u3);
  butterfly(&c0, &c1, &c2, &c3); /* rows: lane l of c_m is coefficient (l, m) */
  __m128i acc = _mm_add_epi32(_mm_add_epi32(weighted_abs(c0, 0), weighted_abs(c1, 1)),
                              _mm_add_epi32(weighted_abs(c2, 2), weighted_abs(c3, 3)));
  int32_t lanes[4];
  _mm_storeu_si128((__m128i *)lanes, acc);
  const int sum_a = lanes[0] + lanes[1], sum_b = lanes[2] + lanes[3];
  return abs(sum_b - sum_a) >> 5;
}

int main(void) {
  uint8_t a[16], b[16];
  symcross_make_symbolic(a, sizeof a, "a");
  symcross_make_symbolic(b, sizeof b, "b");
  const int ref = disto_c(a, b);
  const int vec = disto_sse2(a, b);
  symcross_check_equal(&ref, &vec, sizeof ref, 1, "weighted Hadamard distortion");
  return 0;
}
