// expect: equivalent
// cflags: -mavx2
/* Horizontal adds of 16- and 32-bit integers, 128 and 256 bits wide:
 * _mm_hadd_epi16, _mm_hadd_epi32 (SSSE3), _mm256_hadd_epi16 and
 * _mm256_hadd_epi32 (AVX2, which add within each 128-bit half: the result
 * interleaves a and b per half), against portable loops that add in int
 * and truncate. Expected verdict: equivalent. */
#include <immintrin.h>
#include <stdint.h>
#include "symcross.h"

/* Per 128-bit half of `lanes` elements: pair sums of a, then of b. */
static void hadd16(const int16_t *a, const int16_t *b, int16_t *out, int lanes) {
  for (int h = 0; h < lanes; h += 8)
    for (int i = 0; i < 4; i++) {
      out[h + i] = (int16_t)(a[h + 2 * i] + a[h + 2 * i + 1]);
      out[h + 4 + i] = (int16_t)(b[h + 2 * i] + b[h + 2 * i + 1]);
    }
}

static void hadd32(const int32_t *a, const int32_t *b, int32_t *out, int lanes) {
  for (int h = 0; h < lanes; h += 4)
    for (int i = 0; i < 2; i++) {
      out[h + i] = (int32_t)((uint32_t)a[h + 2 * i] + (uint32_t)a[h + 2 * i + 1]);
      out[h + 2 + i] = (int32_t)((uint32_t)b[h + 2 * i] + (uint32_t)b[h + 2 * i + 1]);
    }
}

int main(void) {
  int16_t a[16], b[16], ref16[16], vec16[16], ref16n[8], vec16n[8];
  int32_t c[8], d[8], ref32[8], vec32[8], ref32n[4], vec32n[4];
  symcross_make_symbolic(a, sizeof a, "a");
  symcross_make_symbolic(b, sizeof b, "b");
  symcross_make_symbolic(c, sizeof c, "c");
  symcross_make_symbolic(d, sizeof d, "d");
  hadd16(a, b, ref16n, 8);
  hadd16(a, b, ref16, 16);
  hadd32(c, d, ref32n, 4);
  hadd32(c, d, ref32, 8);
  _mm_storeu_si128((__m128i *)vec16n, _mm_hadd_epi16(_mm_loadu_si128((const __m128i *)a), _mm_loadu_si128((const __m128i *)b)));
  _mm256_storeu_si256((__m256i *)vec16, _mm256_hadd_epi16(_mm256_loadu_si256((const __m256i *)a), _mm256_loadu_si256((const __m256i *)b)));
  _mm_storeu_si128((__m128i *)vec32n, _mm_hadd_epi32(_mm_loadu_si128((const __m128i *)c), _mm_loadu_si128((const __m128i *)d)));
  _mm256_storeu_si256((__m256i *)vec32, _mm256_hadd_epi32(_mm256_loadu_si256((const __m256i *)c), _mm256_loadu_si256((const __m256i *)d)));
  symcross_check_equal(ref16n, vec16n, 2, 8, "hadd_epi16");
  symcross_check_equal(ref16, vec16, 2, 16, "256-bit hadd_epi16");
  symcross_check_equal(ref32n, vec32n, 4, 4, "hadd_epi32");
  symcross_check_equal(ref32, vec32, 4, 8, "256-bit hadd_epi32");
  return 0;
}
