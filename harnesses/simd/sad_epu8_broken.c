// expect: findings mismatch
// cflags: -mavx2
/* Broken: the portable loop accumulates in uint8_t, so a group whose
 * differences add up to 256 or more wraps (a = 255, b = 0 everywhere gives
 * 2040 natively, 248 here). Sums of absolute differences of 48 byte pairs: _mm_sad_epu8 (SSE2) on
 * the first 16, _mm256_sad_epu8 (AVX2) on the next 32, against a portable
 * loop in int with signed compares. Each 64-bit result is the sum of one
 * group of eight |a - b|. Proving it needs the integer sweeping of the
 * decision ladder (src/check/sweep.rs): the solver alone times out.
 * Expected verdict: a confirmed mismatch. */
#include <immintrin.h>
#include <stdint.h>
#include "symcross.h"

#define N 48

static void scalar_ref(const uint8_t *a, const uint8_t *b, uint64_t *out) {
  for (int g = 0; g < N / 8; g++) {
    uint8_t sum = 0;
    for (int i = 8 * g; i < 8 * g + 8; i++) {
      int d = a[i] - b[i];
      sum += d < 0 ? -d : d;
    }
    out[g] = (uint64_t)sum;
  }
}

static void simd(const uint8_t *a, const uint8_t *b, uint64_t *out) {
  __m128i s = _mm_sad_epu8(_mm_loadu_si128((const __m128i *)a), _mm_loadu_si128((const __m128i *)b));
  _mm_storeu_si128((__m128i *)out, s);
  __m256i t = _mm256_sad_epu8(_mm256_loadu_si256((const __m256i *)(a + 16)), _mm256_loadu_si256((const __m256i *)(b + 16)));
  _mm256_storeu_si256((__m256i *)(out + 2), t);
}

int main(void) {
  uint8_t a[N], b[N];
  uint64_t ref[N / 8], vec[N / 8];
  symcross_make_symbolic(a, sizeof a, "a");
  symcross_make_symbolic(b, sizeof b, "b");
  scalar_ref(a, b, ref);
  simd(a, b, vec);
  symcross_check_equal(ref, vec, 8, N / 8, "sums of absolute differences");
  return 0;
}
