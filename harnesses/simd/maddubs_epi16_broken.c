// expect: findings mismatch
// cflags: -mavx2
/* Broken: the portable loop wraps the pair sum to 16 bits instead of
 * saturating it, as PMADDWD would; PMADDUBSW saturates (a = 255, b = 127
 * gives 32767, not 64770 - 65536). Multiply-add of bytes: _mm_maddubs_epi16 (SSSE3) on 16 byte pairs and
 * _mm256_maddubs_epi16 (AVX2) on 32 more, against a portable loop: each
 * 16-bit result is a[2i]*b[2i] + a[2i+1]*b[2i+1] with a unsigned and b
 * signed, saturated to [-32768, 32767] (255*127*2 = 64770 saturates; the
 * products alone never overflow int). Expected verdict: a confirmed mismatch. */
#include <immintrin.h>
#include <stdint.h>
#include "symcross.h"

#define N 48

static void scalar_ref(const uint8_t *a, const int8_t *b, int16_t *out) {
  for (int i = 0; i < N / 2; i++) out[i] = (int16_t)(a[2 * i] * b[2 * i] + a[2 * i + 1] * b[2 * i + 1]);
}

static void simd(const uint8_t *a, const int8_t *b, int16_t *out) {
  __m128i r = _mm_maddubs_epi16(_mm_loadu_si128((const __m128i *)a), _mm_loadu_si128((const __m128i *)b));
  _mm_storeu_si128((__m128i *)out, r);
  __m256i s = _mm256_maddubs_epi16(_mm256_loadu_si256((const __m256i *)(a + 16)), _mm256_loadu_si256((const __m256i *)(b + 16)));
  _mm256_storeu_si256((__m256i *)(out + 8), s);
}

int main(void) {
  uint8_t a[N];
  int8_t b[N];
  int16_t ref[N / 2], vec[N / 2];
  symcross_make_symbolic(a, sizeof a, "a");
  symcross_make_symbolic(b, sizeof b, "b");
  scalar_ref(a, b, ref);
  simd(a, b, vec);
  symcross_check_equal(ref, vec, 2, N / 2, "multiply-add of bytes");
  return 0;
}
