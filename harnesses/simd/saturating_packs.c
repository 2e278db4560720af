// expect: equivalent
// cflags: -mavx2
/* Saturating packs over full vectors: _mm_packs_epi16, _mm_packus_epi16,
 * _mm_packus_epi32 (SSE4.1) and their 256-bit AVX2 forms (which pack per
 * 128-bit half: a's half, then b's), against portable clamps. Expected
 * verdict: equivalent. */
#include <immintrin.h>
#include <stdint.h>
#include "symcross.h"

static int8_t clamp_s8(int16_t x) { return x > 127 ? 127 : x < -128 ? -128 : (int8_t)x; }
static uint8_t clamp_u8(int16_t x) { return x > 255 ? 255 : x < 0 ? 0 : (uint8_t)x; }
static uint16_t clamp_u16(int32_t x) { return x > 65535 ? 65535 : x < 0 ? 0 : (uint16_t)x; }

/* Per 128-bit half: `per` narrowed lanes of a, then of b. */
#define PACK(name, in_t, out_t, clamp, per)                                  \
  static void name(const in_t *a, const in_t *b, out_t *out, int lanes) {  \
    for (int h = 0; h < lanes; h += per)                                   \
      for (int i = 0; i < per; i++) {                                      \
        out[2 * h + i] = clamp(a[h + i]);                                  \
        out[2 * h + per + i] = clamp(b[h + i]);                            \
      }                                                                    \
  }
PACK(packs16, int16_t, int8_t, clamp_s8, 8)
PACK(packus16, int16_t, uint8_t, clamp_u8, 8)
PACK(packus32, int32_t, uint16_t, clamp_u16, 4)

int main(void) {
  int16_t a[16], b[16];
  int32_t c[8], d[8];
  int8_t s_ref[32], s_vec[32];
  uint8_t u_ref[32], u_vec[32];
  uint16_t w_ref[16], w_vec[16];
  symcross_make_symbolic(a, sizeof a, "a");
  symcross_make_symbolic(b, sizeof b, "b");
  symcross_make_symbolic(c, sizeof c, "c");
  symcross_make_symbolic(d, sizeof d, "d");
  packs16(a, b, s_ref, 16);
  packus16(a, b, u_ref, 16);
  packus32(c, d, w_ref, 8);
  __m128i a0 = _mm_loadu_si128((const __m128i *)a), b0 = _mm_loadu_si128((const __m128i *)b);
  __m256i a1 = _mm256_loadu_si256((const __m256i *)a), b1 = _mm256_loadu_si256((const __m256i *)b);
  __m256i c1 = _mm256_loadu_si256((const __m256i *)c), d1 = _mm256_loadu_si256((const __m256i *)d);
  _mm256_storeu_si256((__m256i *)s_vec, _mm256_packs_epi16(a1, b1));
  _mm256_storeu_si256((__m256i *)u_vec, _mm256_packus_epi16(a1, b1));
  _mm256_storeu_si256((__m256i *)w_vec, _mm256_packus_epi32(c1, d1));
  symcross_check_equal(s_ref, s_vec, 1, 32, "256-bit packs_epi16");
  symcross_check_equal(u_ref, u_vec, 1, 32, "256-bit packus_epi16");
  symcross_check_equal(w_ref, w_vec, 2, 16, "256-bit packus_epi32");
  /* The 128-bit forms: one half. */
  int8_t s128[16];
  uint8_t u128[16];
  uint16_t w128[8];
  packs16(a, b, s_ref, 8);
  packus16(a, b, u_ref, 8);
  packus32(c, d, w_ref, 4);
  _mm_storeu_si128((__m128i *)s128, _mm_packs_epi16(a0, b0));
  _mm_storeu_si128((__m128i *)u128, _mm_packus_epi16(a0, b0));
  _mm_storeu_si128((__m128i *)w128, _mm_packus_epi32(_mm_loadu_si128((const __m128i *)c), _mm_loadu_si128((const __m128i *)d)));
  symcross_check_equal(s_ref, s128, 1, 16, "packs_epi16");
  symcross_check_equal(u_ref, u128, 1, 16, "packus_epi16");
  symcross_check_equal(w_ref, w128, 2, 8, "packus_epi32");
  return 0;
}
