/* A Porter-Duff combiner of four a8r8g8b8 pixels (one SSE2 vector; the
   destination 16-byte aligned so the vector loop runs): pixman's SSE2
   combiner against its C combiner, both from the Debian source package.
   COMBINER names the operator (-DCOMBINER=over_u: combine_over_u against
   sse2_combine_over_u); with MASKED, a per-pixel mask too (the unified
   combiners use its alpha, the component-alpha ones all four channels).
   The SSE2 file's constants are set as pixman sets them, by creating its
   implementation (pixman_stubs.c gives the zeroed structure). PIXELS and
   DEST_OFFSET (pixels past a 16-byte boundary) choose a run that also
   takes the SSE2 combiners' one-pixel loops before and after the vector
   loop (-DPIXELS=9 -DDEST_OFFSET=1: 3 + 4 + 2 pixels). */
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

#ifndef PIXELS
#define PIXELS 4
#endif
#ifndef DEST_OFFSET
#define DEST_OFFSET 0
#endif

int main(void) {
  /* Sets the SIMD constants the SSE2 combiners read. */
  _pixman_implementation_create_sse2(NULL);
  uint32_t src[PIXELS], mask[PIXELS];
  uint32_t want_run[DEST_OFFSET + PIXELS] __attribute__((aligned(16)));
  uint32_t got_run[DEST_OFFSET + PIXELS] __attribute__((aligned(16)));
  uint32_t *want = want_run + DEST_OFFSET, *got = got_run + DEST_OFFSET;
  symcross_make_symbolic(src, sizeof src, "src");
  symcross_make_symbolic(want, PIXELS * sizeof *want, "dest");
  symcross_make_symbolic(mask, sizeof mask, "mask");
  for (int i = 0; i < PIXELS; ++i) got[i] = want[i];
#ifdef MASKED
  const uint32_t *m = mask;
#else
  const uint32_t *m = NULL;
#endif
  JOIN(combine_, REFERENCE)(NULL, PIXMAN_OP_OVER, want, src, m, PIXELS);
  JOIN(sse2_combine_, COMBINER)(NULL, PIXMAN_OP_OVER, got, src, m, PIXELS);
  symcross_check_equal(want, got, sizeof *want, PIXELS, "pixman combiner");
  return 0;
}
