// expect: findings mismatch
// cflags: -msse2
/* Dead-zone quantization of eight 16-bit transform coefficients with the
 * block's end of block, as a video encoder writes it: the C reference
 * scans backwards for the last coefficient outside the zero bin, then
 * quantizes only the ones before it (a merged path makes each element a
 * select guarded by that scan) and keeps the last nonzero position; the
 * SSE2 code quantizes every lane, masks each with its own zero-bin
 * compare and takes the end of block as a maximum of masked lane
 * indices. Here a coefficient may be -32768, whose 16-bit absolute value
 * the SSE2 code cannot form: it drops that coefficient, where the C
 * reference quantizes it to -4095. Expected verdict: mismatch. */
#include <emmintrin.h>
#include <stdint.h>
#include "symcross.h"
#define N 8
static const int16_t zbin[2] = {5, 7}, rnd[2] = {3, 3}, mult[2] = {1, -13107}, shift[2] = {8192, 8192};

static int quantize_c(const int16_t *coef, int16_t *out) {
  int count = N, last = -1;
  for (int i = N - 1; i >= 0; --i) {
    int z = zbin[i != 0];
    if (coef[i] < z && coef[i] > -z) --count;
    else break;
  }
  for (int i = 0; i < N; ++i) out[i] = 0;
  for (int i = 0; i < count; ++i) {
    int c = coef[i], sign = c >> 31, mag = (c ^ sign) - sign;
    if (mag >= zbin[i != 0]) {
      int t = mag + rnd[i != 0];
      if (t > 32767) t = 32767;
      t = ((((t * mult[i != 0]) >> 16) + t) * shift[i != 0]) >> 16;
      out[i] = (int16_t)((t ^ sign) - sign);
      if (t) last = i;
    }
  }
  return last + 1;
}

static int quantize_sse2(const int16_t *coef, int16_t *out) {
  const __m128i c = _mm_loadu_si128((const __m128i *)coef);
  const __m128i sign = _mm_srai_epi16(c, 15);
  __m128i mag = _mm_sub_epi16(_mm_xor_si128(c, sign), sign);
  const __m128i z = _mm_sub_epi16(_mm_setr_epi16(5, 7, 7, 7, 7, 7, 7, 7), _mm_set1_epi16(1));
  const __m128i inside = _mm_cmpgt_epi16(mag, z);
  __m128i q = _mm_adds_epi16(mag, _mm_set1_epi16(3));
  q = _mm_add_epi16(_mm_mulhi_epi16(q, _mm_setr_epi16(1, -13107, -13107, -13107, -13107, -13107, -13107, -13107)), q);
  q = _mm_mulhi_epi16(q, _mm_set1_epi16(8192));
  q = _mm_and_si128(_mm_sub_epi16(_mm_xor_si128(q, sign), sign), inside);
  _mm_storeu_si128((__m128i *)out, q);
  /* Lane i holds i + 1 where its coefficient is kept and nonzero. */
  const __m128i nonzero = _mm_cmpeq_epi16(q, _mm_setzero_si128());
  __m128i eob = _mm_andnot_si128(nonzero, _mm_sub_epi16(_mm_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7), inside));
  eob = _mm_max_epi16(eob, _mm_shuffle_epi32(eob, 0x4e));
  eob = _mm_max_epi16(eob, _mm_shufflelo_epi16(eob, 0xe));
  eob = _mm_max_epi16(eob, _mm_shufflelo_epi16(eob, 1));
  return (int16_t)_mm_extract_epi16(eob, 0);
}

int main(void) {
  int16_t coef[N], want[N + 1], got[N + 1];
  symcross_make_symbolic(coef, sizeof coef, "coef");
  want[N] = (int16_t)quantize_c(coef, want);
  got[N] = (int16_t)quantize_sse2(coef, got);
  symcross_check_equal(want, got, sizeof want[0], N + 1, "quantized coefficients and end of block");
  return 0;
}
