/* A Porter-Duff combiner of four a8r8g8b8 pixels (one SSE2 vector; the
   destination 16-byte aligned so the vector loop runs): pixman's SSE2
   combiner against its C combiner, both from the Debian source package.
   COMBINER names the operator (-DCOMBINER=over_u: combine_over_u against
   sse2_combine_over_u); with MASKED, a per-pixel mask too (the unified
   combiners use its alpha, the component-alpha ones all four channels).
   The SSE2 file's constants are set as pixman sets them, by creating its
   implementation (pixman_stubs.c gives the zeroed structure). */
#include "config.h"
#include "symcross.h"
#include "pixman-combine32.c"
#include "pixman-sse2.c"

#ifndef COMBINER
#define COMBINER over_u
#endif
/* REFERENCE names a different C combiner, to see a difference found. */
#ifndef REFERENCE
#define REFERENCE COMBINER
#endif
#define JOIN2(a, b) a##b
#define JOIN(a, b) JOIN2(a, b)

#define PIXELS 4

int main(void) {
  /* Sets the SIMD constants the SSE2 combiners read. */
  _pixman_implementation_create_sse2(NULL);
  uint32_t src[PIXELS], mask[PIXELS];
  uint32_t want[PIXELS] __attribute__((aligned(16)));
  uint32_t got[PIXELS] __attribute__((aligned(16)));
  symcross_make_symbolic(src, sizeof src, "src");
  symcross_make_symbolic(want, sizeof want, "dest");
  symcross_make_symbolic(mask, sizeof mask, "mask");
  for (int i = 0; i < PIXELS; ++i) got[i] = want[i];
#ifdef MASKED
  const uint32_t *m = mask;
#else
  const uint32_t *m = NULL;
#endif
  JOIN(combine_, REFERENCE)(NULL, PIXMAN_OP_OVER, want, src, m, PIXELS);
  JOIN(sse2_combine_, COMBINER)(NULL, PIXMAN_OP_OVER, got, src, m, PIXELS);
  symcross_check_equal(want, got, sizeof want[0], PIXELS, "pixman combiner");
  return 0;
}
