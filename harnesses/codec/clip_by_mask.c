// expect: equivalent
/* A byte clamp written with a mask test, as an image codec writes its
 * clip_8b (`(v & ~0xff) == 0 ? v : v < 0 ? 0 : 255`), against the SSE2
 * saturating pack of the same 16-bit sums. Expected verdict: equivalent. */
#include <emmintrin.h>
#include <stdint.h>
#include "symcross.h"
static uint8_t clip_8b(int v) { return (!(v & ~0xff)) ? v : (v < 0) ? 0 : 255; }
int main(void) {
  int16_t a[8];
  uint8_t p[8], c[8], s[16];
  symcross_make_symbolic(a, sizeof a, "a");
  symcross_make_symbolic(p, sizeof p, "p");
  for (int i = 0; i < 8; ++i) symcross_assume(a[i] >= -2048 && a[i] < 2048);
  for (int i = 0; i < 8; ++i) c[i] = clip_8b(p[i] + (a[i] >> 3));
  __m128i x = _mm_loadu_si128((const __m128i *)a);
  __m128i pp = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)p), _mm_setzero_si128());
  __m128i sum = _mm_add_epi16(pp, _mm_srai_epi16(x, 3));
  _mm_storeu_si128((__m128i *)s, _mm_packus_epi16(sum, sum));
  symcross_check_equal(c, s, 1, 8, "clip");
  return 0;
}
