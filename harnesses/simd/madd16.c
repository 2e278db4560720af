// expect: equivalent
// cflags: -mavx2 -mfma
/* 16-bit multiply-add of 32 pairs: _mm256_madd_epi16 (AVX2) against
 * pairwise products summed in 32 bits, wrapping as PMADDWD does for the one
 * overflowing case (-32768 * -32768) * 2 = 2^31 -> INT32_MIN.
 * Expected verdict: equivalent. */
#include <immintrin.h>
#include <stdint.h>
#include "symcross.h"

#define N 32

static void scalar_ref(const int16_t *a, const int16_t *b, int32_t *out) {
  for (int i = 0; i < N / 2; i++) {
    uint32_t lo = (uint32_t)((int32_t)a[2 * i] * b[2 * i]);
    uint32_t hi = (uint32_t)((int32_t)a[2 * i + 1] * b[2 * i + 1]);
    out[i] = (int32_t)(lo + hi);
  }
}

static void simd(const int16_t *a, const int16_t *b, int32_t *out) {
  for (int i = 0; i < N; i += 16) {
    __m256i r = _mm256_madd_epi16(_mm256_loadu_si256((const __m256i *)(a + i)), _mm256_loadu_si256((const __m256i *)(b + i)));
    _mm256_storeu_si256((__m256i *)(out + i / 2), r);
  }
}

int main(void) {
  int16_t a[N], b[N];
  int32_t ref[N / 2], vec[N / 2];
  symcross_make_symbolic(a, sizeof a, "a");
  symcross_make_symbolic(b, sizeof b, "b");
  scalar_ref(a, b, ref);
  simd(a, b, vec);
  symcross_check_equal(ref, vec, 4, N / 2, "multiply-add");
  return 0;
}
