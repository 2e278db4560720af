// expect: equivalent
/* Inverse colour transform of four ARGB pixels, as a lossless image codec
 * undoes its cross-colour decorrelation: red gets back a multiple of green,
 * blue multiples of green and of the restored red, each multiplier a signed
 * byte, each product of two signed bytes shifted right by 5, all modulo 256.
 * The C reference works per pixel in int; the SSE2 version works on 16-bit
 * halves of the pixels: PSRAW sign-extends green (and red, after a PSLLW),
 * PMULLW multiplies, and byte adds under masks put the deltas in place.
 * Expected verdict: equivalent. */
#include <emmintrin.h>
#include <stdint.h>
#include "symcross.h"

typedef struct {
  int8_t green_to_red, green_to_blue, red_to_blue;
} multipliers;

static int delta(int8_t multiplier, int8_t colour) { return ((int)multiplier * colour) >> 5; }

static void inverse_c(const multipliers *m, const uint32_t *in, uint32_t *out, int n) {
  for (int i = 0; i < n; ++i) {
    const uint32_t argb = in[i];
    const int8_t green = (int8_t)(argb >> 8);
    int red = (argb >> 16) & 0xff;
    int blue = argb & 0xff;
    red = (red + delta(m->green_to_red, green)) & 0xff;
    blue = (blue + delta(m->green_to_blue, green)) & 0xff;
    blue = (blue + delta(m->red_to_blue, (int8_t)red)) & 0xff;
    out[i] = (argb & 0xff00ff00u) | ((uint32_t)red << 16) | (uint32_t)blue;
  }
}

static void inverse_sse2(const multipliers *m, const uint32_t *in, uint32_t *out) {
  const __m128i px = _mm_loadu_si128((const __m128i *)in);
  const __m128i red_byte = _mm_set1_epi32(0x00ff0000);
  const __m128i blue_byte = _mm_set1_epi32(0x000000ff);
  /* Low 16-bit half of each pixel: green (high byte) and blue; high half:
   * alpha and red. PSRAW by 8 leaves green sign-extended in the low half. */
  const __m128i green = _mm_srai_epi16(px, 8);
  const __m128i g2r = _mm_set1_epi16(m->green_to_red);
  const __m128i g2b = _mm_set1_epi16(m->green_to_blue);
  const __m128i r2b = _mm_set1_epi16(m->red_to_blue);
  const __m128i d_red = _mm_srai_epi16(_mm_mullo_epi16(green, g2r), 5);
  const __m128i with_red = _mm_add_epi8(px, _mm_and_si128(_mm_slli_epi32(d_red, 16), red_byte));
  const __m128i d_blue_g = _mm_srai_epi16(_mm_mullo_epi16(green, g2b), 5);
  /* The restored red, sign-extended in the high half. */
  const __m128i red = _mm_srai_epi16(_mm_slli_epi16(with_red, 8), 8);
  const __m128i d_blue_r = _mm_srli_epi32(_mm_srai_epi16(_mm_mullo_epi16(red, r2b), 5), 16);
  const __m128i d_blue = _mm_and_si128(_mm_add_epi8(d_blue_g, d_blue_r), blue_byte);
  _mm_storeu_si128((__m128i *)out, _mm_add_epi8(with_red, d_blue));
}

int main(void) {
  multipliers m;
  uint32_t in[4], ref[4], vec[4];
  symcross_make_symbolic(&m, sizeof m, "multipliers");
  symcross_make_symbolic(in, sizeof in, "argb");
  inverse_c(&m, in, ref, 4);
  inverse_sse2(&m, in, vec);
  symcross_check_equal(ref, vec, sizeof ref[0], 4, "pixels");
  return 0;
}
