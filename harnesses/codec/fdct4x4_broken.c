// expect: findings mismatch
/* Forward 4x4 integer transform of a residual block (source minus
 * prediction, both bytes), int16 out, in the style of a video codec's core
 * transform: rows then columns of butterflies with a doubled odd part. The
 * SSE2 version works in 16-bit lanes and transposes with unpacks; the C
 * reference works in int and stores int16.
 * Broken: the SIMD version negates the last row of coefficients (a sign
 * convention mixed up between two codecs).
 * Expected verdict: mismatch. */
#include <emmintrin.h>
#include <stdint.h>
#include "symcross.h"

static void fdct_c(const uint8_t *src, const uint8_t *pred, int16_t *out) {
  int tmp[16];
  for (int i = 0; i < 4; ++i) {
    const int d0 = src[4 * i + 0] - pred[4 * i + 0];
    const int d1 = src[4 * i + 1] - pred[4 * i + 1];
    const int d2 = src[4 * i + 2] - pred[4 * i + 2];
    const int d3 = src[4 * i + 3] - pred[4 * i + 3];
    const int a0 = d0 + d3, a1 = d1 + d2, a2 = d1 - d2, a3 = d0 - d3;
    tmp[4 * i + 0] = a0 + a1;
    tmp[4 * i + 1] = 2 * a3 + a2;
    tmp[4 * i + 2] = a0 - a1;
    tmp[4 * i + 3] = a3 - 2 * a2;
  }
  for (int i = 0; i < 4; ++i) {
    const int a0 = tmp[0 + i] + tmp[12 + i];
    const int a1 = tmp[4 + i] + tmp[8 + i];
    const int a2 = tmp[4 + i] - tmp[8 + i];
    const int a3 = tmp[0 + i] - tmp[12 + i];
    out[0 + i] = (int16_t)(a0 + a1);
    out[4 + i] = (int16_t)(2 * a3 + a2);
    out[8 + i] = (int16_t)(a0 - a1);
    out[12 + i] = (int16_t)(a3 - 2 * a2);
  }
}

/* Transposes the 4x4 block of 16-bit values held in the low halves of
 * r0..r3. */
static void transpose4(__m128i *r0, __m128i *r1, __m128i *r2, __m128i *r3) {
  const __m128i t0 = _mm_unpacklo_epi16(*r0, *r1);
  const __m128i t1 = _mm_unpacklo_epi16(*r2, *r3);
  const __m128i u0 = _mm_unpacklo_epi32(t0, t1);
  const __m128i u1 = _mm_unpackhi_epi32(t0, t1);
  *r0 = u0;
  *r1 = _mm_srli_si128(u0, 8);
  *r2 = u1;
  *r3 = _mm_srli_si128(u1, 8);
}

static void butterflies(__m128i *r0, __m128i *r1, __m128i *r2, __m128i *r3) {
  const __m128i a0 = _mm_add_epi16(*r0, *r3);
  const __m128i a1 = _mm_add_epi16(*r1, *r2);
  const __m128i a2 = _mm_sub_epi16(*r1, *r2);
  const __m128i a3 = _mm_sub_epi16(*r0, *r3);
  *r0 = _mm_add_epi16(a0, a1);
  *r1 = _mm_add_epi16(_mm_slli_epi16(a3, 1), a2);
  *r2 = _mm_sub_epi16(a0, a1);
  *r3 = _mm_sub_epi16(a3, _mm_slli_epi16(a2, 1));
}

static __m128i row(const uint8_t *src, const uint8_t *pred) {
  const __m128i zero = _mm_setzero_si128();
  const __m128i s = _mm_unpacklo_epi8(_mm_cvtsi32_si128(*(const int *)src), zero);
  const __m128i p = _mm_unpacklo_epi8(_mm_cvtsi32_si128(*(const int *)pred), zero);
  return _mm_sub_epi16(s, p);
}

static void fdct_sse2(const uint8_t *src, const uint8_t *pred, int16_t *out) {
  /* Rows as columns: transpose first, so the butterflies work on rows. */
  __m128i r0 = row(src + 0, pred + 0), r1 = row(src + 4, pred + 4);
  __m128i r2 = row(src + 8, pred + 8), r3 = row(src + 12, pred + 12);
  transpose4(&r0, &r1, &r2, &r3);
  butterflies(&r0, &r1, &r2, &r3);
  transpose4(&r0, &r1, &r2, &r3);
  butterflies(&r0, &r1, &r2, &r3);
  r3 = _mm_sub_epi16(_mm_setzero_si128(), r3);
  _mm_storel_epi64((__m128i *)(out + 0), r0);
  _mm_storel_epi64((__m128i *)(out + 4), r1);
  _mm_storel_epi64((__m128i *)(out + 8), r2);
  _mm_storel_epi64((__m128i *)(out + 12), r3);
}

int main(void) {
  uint8_t src[16], pred[16];
  int16_t ref[16], vec[16];
  symcross_make_symbolic(src, sizeof src, "src");
  symcross_make_symbolic(pred, sizeof pred, "pred");
  fdct_c(src, pred, ref);
  fdct_sse2(src, pred, vec);
  symcross_check_equal(ref, vec, sizeof ref[0], 16, "coefficients");
  return 0;
}
