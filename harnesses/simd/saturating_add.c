// expect: equivalent
/* Saturating unsigned byte addition of 64 bytes: _mm_adds_epu8 against a
 * scalar clamp. Expected verdict: equivalent. */
#include <emmintrin.h>
#include <stdint.h>
#include "symcross.h"

#define N 64

static void scalar_ref(const uint8_t *a, const uint8_t *b, uint8_t *out) {
  for (int i = 0; i < N; i++) {
    unsigned s = (unsigned)a[i] + b[i];
    out[i] = s > 255 ? 255 : (uint8_t)s;
  }
}

static void simd(const uint8_t *a, const uint8_t *b, uint8_t *out) {
  for (int i = 0; i < N; i += 16) {
    __m128i r = _mm_adds_epu8(_mm_loadu_si128((const __m128i *)(a + i)), _mm_loadu_si128((const __m128i *)(b + i)));
    _mm_storeu_si128((__m128i *)(out + i), r);
  }
}

int main(void) {
  uint8_t a[N], b[N], ref[N], vec[N];
  symcross_make_symbolic(a, sizeof a, "a");
  symcross_make_symbolic(b, sizeof b, "b");
  scalar_ref(a, b, ref);
  simd(a, b, vec);
  symcross_check_equal(ref, vec, 1, N, "saturating add");
  return 0;
}
