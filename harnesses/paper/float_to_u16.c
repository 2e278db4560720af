/* Float to uint16 with saturation. The SIMD version subtracts 32768,
 * converts with CVTPS2DQ (round to nearest-even), packs with signed
 * saturation and adds 32768 back (KLEE-CL 8.3's offset trick); the scalar
 * reference rounds with CVTSS2SI and clamps to [0, 65535]. They differ: the
 * subtraction itself rounds. For x = 384.50003 (0x43c04001), x - 32768 is
 * rounded to -32383.5, which converts to -32384, giving 384, while the
 * scalar version gives 385. Refuted; the witness replays on the CPU. */
#include <emmintrin.h>
#include "symcross.h"

static unsigned short scalar_u16(float x) {
  int v = _mm_cvtss_si32(_mm_set_ss(x));
  if (v == (int)0x80000000) /* NaN or out of range: x86 gives INT_MIN */
    return x > 0 ? 65535 : 0;
  return v < 0 ? 0 : v > 65535 ? 65535 : (unsigned short)v;
}

int main(void) {
  float x[4];
  symcross_make_symbolic(x, sizeof x, "x");
  for (int i = 0; i < 4; i++)
    symcross_assume(x[i] > -1e6f && x[i] < 1e6f);
  __m128 v = _mm_sub_ps(_mm_loadu_ps(x), _mm_set1_ps(32768.f));
  __m128i i32 = _mm_cvtps_epi32(v);
  __m128i i16 = _mm_packs_epi32(i32, i32);
  i16 = _mm_add_epi16(i16, _mm_set1_epi16((short)-32768));
  unsigned short simd[8], scalar[4];
  _mm_storeu_si128((__m128i *)simd, i16);
  for (int k = 0; k < 4; k++)
    scalar[k] = scalar_u16(x[k]);
  symcross_check_equal(simd, scalar, sizeof(unsigned short), 4, "u16");
  return 0;
}
