/* 16-bit multiply-add: _mm_madd_epi16 against pairwise products summed in
 * 32 bits (wrapping, as PMADDWD does for (-32768)^2 * 2).
 * Expected verdict: equal. */
#include <emmintrin.h>
#include <stdint.h>
#include "symcross.h"

static void scalar_ref(const int16_t *a, const int16_t *b, int32_t *out) {
  for (int i = 0; i < 4; i++) {
    uint32_t lo = (uint32_t)((int32_t)a[2 * i] * b[2 * i]);
    uint32_t hi = (uint32_t)((int32_t)a[2 * i + 1] * b[2 * i + 1]);
    out[i] = (int32_t)(lo + hi);
  }
}

int main(void) {
  int16_t a[8], b[8];
  int32_t ref[4], vec[4];
  symcross_make_symbolic(a, sizeof a, "a");
  symcross_make_symbolic(b, sizeof b, "b");
  scalar_ref(a, b, ref);
  __m128i r = _mm_madd_epi16(_mm_loadu_si128((const __m128i *)a), _mm_loadu_si128((const __m128i *)b));
  _mm_storeu_si128((__m128i *)vec, r);
  symcross_check_equal(ref, vec, 4, 4, "multiply-add");
  return 0;
}
