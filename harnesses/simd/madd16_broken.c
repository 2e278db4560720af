// expect: findings mismatch
// cflags: -mavx2 -mfma
// Broken: the scalar reference saturates the pair sum to INT32_MAX, as if PMADDWD saturated like PMADDUBSW; PMADDWD wraps, so a = b = (-32768, -32768) gives INT32_MIN, not INT32_MAX.
#include <immintrin.h>
#include <stdint.h>
#include "symcross.h"

#define N 16

static void scalar_ref(const int16_t *a, const int16_t *b, int32_t *out) {
  for (int i = 0; i < N / 2; i++) {
    int32_t lo = (int32_t)a[2 * i] * b[2 * i], hi = (int32_t)a[2 * i + 1] * b[2 * i + 1];
    int64_t s = (int64_t)lo + hi;
    out[i] = s > INT32_MAX ? INT32_MAX : (int32_t)s;
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
