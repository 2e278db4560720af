/* The KLEE-CL walkthrough example (papers/klee-cl.txt, section 3): clamp
 * negative values to zero, once with SSE and once with a scalar loop. The
 * scalar loop branches on every element; state merging keeps it one path.
 * Expected: a mismatch (-0.0 is kept by the scalar loop, cleared by SSE). */
#include <xmmintrin.h>
#include "symcross.h"

#ifndef N
#define N 64
#endif

static void zlimit(int simd, const float *src, float *dst, int size) {
  if (simd) {
    __m128 zero4 = _mm_set1_ps(0.f);
    while (size >= 4) {
      __m128 srcv = _mm_loadu_ps(src);
      __m128 cmpv = _mm_cmpgt_ps(srcv, zero4);
      __m128 dstv = _mm_and_ps(cmpv, srcv);
      _mm_storeu_ps(dst, dstv);
      src += 4;
      dst += 4;
      size -= 4;
    }
  }
  while (size) {
    *dst = *src >= 0.f ? *src : 0.f; /* broken: keeps -0.0 */
    src++;
    dst++;
    size--;
  }
}

int main(void) {
  float src[N], dstv[N], dsts[N];
  symcross_make_symbolic(src, sizeof src, "src");
  zlimit(0, src, dsts, N);
  zlimit(1, src, dstv, N);
  symcross_check_equal(dstv, dsts, sizeof(float), N, "dst");
  return 0;
}
