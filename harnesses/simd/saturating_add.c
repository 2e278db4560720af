/* Saturating unsigned byte addition: _mm_adds_epu8 against a scalar clamp.
 * Expected verdict: equal. */
#include <emmintrin.h>
#include <stdint.h>
#include "symcross.h"

static void scalar_ref(const uint8_t *a, const uint8_t *b, uint8_t *out) {
  for (int i = 0; i < 16; i++) {
    unsigned s = (unsigned)a[i] + b[i];
    out[i] = s > 255 ? 255 : (uint8_t)s;
  }
}

int main(void) {
  uint8_t a[16], b[16], ref[16], vec[16];
  symcross_make_symbolic(a, sizeof a, "a");
  symcross_make_symbolic(b, sizeof b, "b");
  scalar_ref(a, b, ref);
  __m128i r = _mm_adds_epu8(_mm_loadu_si128((const __m128i *)a), _mm_loadu_si128((const __m128i *)b));
  _mm_storeu_si128((__m128i *)vec, r);
  symcross_check_equal(ref, vec, 1, 16, "saturating add");
  return 0;
}
