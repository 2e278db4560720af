/* One SSE intrinsic of SIMDe (Debian's libsimde-dev headers), its portable
   implementation forced (SIMDE_NO_NATIVE: the C code SIMDe runs where the
   instruction is missing) against the x86 instruction itself, on two
   symbolic 128-bit operands. OP names the intrinsic (-DOP=madd_epi16:
   simde_mm_madd_epi16 against _mm_madd_epi16); with FLOAT its operands and
   result are four floats. PORTABLE names a different SIMDe intrinsic for
   the portable side, to see a difference found. */
#define SIMDE_NO_NATIVE
#include <string.h>
#include <simde/x86/ssse3.h>
#include <immintrin.h>
#include "symcross.h"

#ifndef OP
#define OP madd_epi16
#endif
#ifndef PORTABLE
#define PORTABLE OP
#endif
#define JOIN2(a, b) a##b
#define JOIN(a, b) JOIN2(a, b)

#ifdef FLOAT
typedef __m128 native_t;
typedef simde__m128 portable_t;
#else
typedef __m128i native_t;
typedef simde__m128i portable_t;
#endif

int main(void) {
  unsigned char a[16], b[16];
  native_t na, nb, want;
  portable_t pa, pb, got;
  symcross_make_symbolic(a, sizeof a, "a");
  symcross_make_symbolic(b, sizeof b, "b");
  memcpy(&na, a, 16);
  memcpy(&nb, b, 16);
  memcpy(&pa, a, 16);
  memcpy(&pb, b, 16);
  want = JOIN(_mm_, OP)(na, nb);
  got = JOIN(simde_mm_, PORTABLE)(pa, pb);
#ifdef FLOAT
  symcross_check_equal(&want, &got, 4, 4, "simde_mm_" "portable against native");
#else
  symcross_check_equal(&want, &got, 1, 16, "simde_mm_" "portable against native");
#endif
  return 0;
}
