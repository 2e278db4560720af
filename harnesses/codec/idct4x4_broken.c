// expect: findings mismatch
/* Inverse 4x4 integer transform of 12-bit coefficients added to a byte
 * prediction, in the style of a video codec's reconstruction: rows then
 * columns of butterflies with a halved odd part, rounding by (x + 32) >> 6,
 * the sum clamped to [0, 255]. The SSE2 version works in 16-bit lanes
 * (no overflow: the coefficients are 12-bit) and clamps with PACKUSWB; the
 * C reference works in int.
 * Broken: the SIMD version rounds with (x + 31) >> 6, so a half rounds down.
 * Expected verdict: mismatch. */
#include <emmintrin.h>
#include <stdint.h>
#include "symcross.h"

static uint8_t clip8(int v) { return v < 0 ? 0 : v > 255 ? 255 : (uint8_t)v; }

static void idct_c(const int16_t *in, const uint8_t *pred, uint8_t *dst) {
  int tmp[16];
  for (int i = 0; i < 4; ++i) {
    const int e = in[4 * i + 0] + in[4 * i + 2];
    const int f = in[4 * i + 0] - in[4 * i + 2];
    const int g = (in[4 * i + 1] >> 1) - in[4 * i + 3];
    const int h = in[4 * i + 1] + (in[4 * i + 3] >> 1);
    tmp[4 * i + 0] = e + h;
    tmp[4 * i + 1] = f + g;
    tmp[4 * i + 2] = f - g;
    tmp[4 * i + 3] = e - h;
  }
  for (int i = 0; i < 4; ++i) {
    const int e = tmp[0 + i] + tmp[8 + i];
    const int f = tmp[0 + i] - tmp[8 + i];
    const int g = (tmp[4 + i] >> 1) - tmp[12 + i];
    const int h = tmp[4 + i] + (tmp[12 + i] >> 1);
    dst[0 + i] = clip8(pred[0 + i] + ((e + h + 32) >> 6));
    dst[4 + i] = clip8(pred[4 + i] + ((f + g + 32) >> 6));
    dst[8 + i] = clip8(pred[8 + i] + ((f - g + 32) >> 6));
    dst[12 + i] = clip8(pred[12 + i] + ((e - h + 32) >> 6));
  }
}

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
  const __m128i e = _mm_add_epi16(*r0, *r2);
  const __m128i f = _mm_sub_epi16(*r0, *r2);
  const __m128i g = _mm_sub_epi16(_mm_srai_epi16(*r1, 1), *r3);
  const __m128i h = _mm_add_epi16(*r1, _mm_srai_epi16(*r3, 1));
  *r0 = _mm_add_epi16(e, h);
  *r1 = _mm_add_epi16(f, g);
  *r2 = _mm_sub_epi16(f, g);
  *r3 = _mm_sub_epi16(e, h);
}

static void reconstruct_row(__m128i r, const uint8_t *pred, uint8_t *dst) {
  const __m128i zero = _mm_setzero_si128();
  const __m128i rounded = _mm_srai_epi16(_mm_add_epi16(r, _mm_set1_epi16(31)), 6);
  const __m128i p = _mm_unpacklo_epi8(_mm_cvtsi32_si128(*(const int *)pred), zero);
  const __m128i sum = _mm_add_epi16(p, rounded);
  *(int *)dst = _mm_cvtsi128_si32(_mm_packus_epi16(sum, sum));
}

static void idct_sse2(const int16_t *in, const uint8_t *pred, uint8_t *dst) {
  __m128i r0 = _mm_loadl_epi64((const __m128i *)(in + 0));
  __m128i r1 = _mm_loadl_epi64((const __m128i *)(in + 4));
  __m128i r2 = _mm_loadl_epi64((const __m128i *)(in + 8));
  __m128i r3 = _mm_loadl_epi64((const __m128i *)(in + 12));
  /* The rows' butterflies work on columns of the transposed block. */
  transpose4(&r0, &r1, &r2, &r3);
  butterflies(&r0, &r1, &r2, &r3);
  transpose4(&r0, &r1, &r2, &r3);
  butterflies(&r0, &r1, &r2, &r3);
  reconstruct_row(r0, pred + 0, dst + 0);
  reconstruct_row(r1, pred + 4, dst + 4);
  reconstruct_row(r2, pred + 8, dst + 8);
  reconstruct_row(r3, pred + 12, dst + 12);
}

int main(void) {
  int16_t in[16];
  uint8_t pred[16], ref[16], vec[16];
  symcross_make_symbolic(in, sizeof in, "coeffs");
  symcross_make_symbolic(pred, sizeof pred, "pred");
  for (int i = 0; i < 16; ++i) symcross_assume((in[i] >= -2048) & (in[i] <= 2047));
  idct_c(in, pred, ref);
  idct_sse2(in, pred, vec);
  symcross_check_equal(ref, vec, 1, 16, "reconstruction");
  return 0;
}
