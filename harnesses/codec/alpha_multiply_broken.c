// expect: findings mismatch
/* Premultiplies four ARGB pixels by their alpha, as an image codec does
 * before resampling: each colour channel c becomes round(c * a / 255). The C
 * reference divides with a fixed-point reciprocal (2^24 / 255, rounded
 * down) in 32 bits; the SSE2 version multiplies in 16-bit lanes and divides
 * by 255 with the shift-and-add identity (t + (t >> 8)) >> 8, t = c*a + 128.
 * Alpha itself is kept.
 * Broken: the SSE2 version rounds with 127 instead of 128, one off where
 * c*a mod 255 is 127 (c = 1, a = 127, say).
 * Expected verdict: findings (mismatch). */
#include <emmintrin.h>
#include <stdint.h>
#include "symcross.h"

#define INV_255_Q24 65793u /* floor(2^24 / 255) */

static uint32_t premultiply_channel(uint32_t c, uint32_t a) {
  return (c * (a * INV_255_Q24) + (1u << 23)) >> 24;
}

static void premultiply_c(const uint32_t *in, uint32_t *out, int n) {
  for (int i = 0; i < n; ++i) {
    const uint32_t argb = in[i];
    const uint32_t a = argb >> 24;
    const uint32_t r = premultiply_channel((argb >> 16) & 0xff, a);
    const uint32_t g = premultiply_channel((argb >> 8) & 0xff, a);
    const uint32_t b = premultiply_channel(argb & 0xff, a);
    out[i] = (a << 24) | (r << 16) | (g << 8) | b;
  }
}

/* Two pixels per 16-bit half: alpha broadcast to its pixel's four lanes. */
static __m128i premultiply_half(__m128i px16) {
  const __m128i alpha = _mm_shufflehi_epi16(_mm_shufflelo_epi16(px16, 0xff), 0xff);
  const __m128i t = _mm_add_epi16(_mm_mullo_epi16(px16, alpha), _mm_set1_epi16(127));
  const __m128i q = _mm_srli_epi16(_mm_add_epi16(t, _mm_srli_epi16(t, 8)), 8);
  /* Keep alpha itself: lanes 3 and 7 take the input. */
  const __m128i alpha_lanes = _mm_set_epi16(-1, 0, 0, 0, -1, 0, 0, 0);
  return _mm_or_si128(_mm_and_si128(alpha_lanes, px16), _mm_andnot_si128(alpha_lanes, q));
}

static void premultiply_sse2(const uint32_t *in, uint32_t *out) {
  const __m128i zero = _mm_setzero_si128();
  const __m128i px = _mm_loadu_si128((const __m128i *)in);
  const __m128i lo = premultiply_half(_mm_unpacklo_epi8(px, zero));
  const __m128i hi = premultiply_half(_mm_unpackhi_epi8(px, zero));
  _mm_storeu_si128((__m128i *)out, _mm_packus_epi16(lo, hi));
}

int main(void) {
  uint32_t in[4], ref[4], vec[4];
  symcross_make_symbolic(in, sizeof in, "argb");
  premultiply_c(in, ref, 4);
  premultiply_sse2(in, vec);
  symcross_check_equal(ref, vec, sizeof ref[0], 4, "premultiplied pixels");
  return 0;
}
