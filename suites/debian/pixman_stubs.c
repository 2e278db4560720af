/* pixman-sse2.c's fast paths and its implementation set-up call functions
   of other pixman files, which the harnesses do not compile. The harnesses
   call _pixman_implementation_create_sse2 once, for the SIMD constants it
   sets (mask_00ff, mask_0080, ...: the combiners read them), so creating
   an implementation gives a zeroed one here; the other functions are never
   reached, and their weak definitions only let a native build link (for
   replaying a witness) and stop a run that did reach one. */
#include <stdlib.h>
#include "config.h"
#include "pixman-private.h"

__attribute__((weak)) uint32_t _pixman_image_get_solid(pixman_implementation_t *imp, pixman_image_t *image,
                                                       pixman_format_code_t format) {
  abort();
}
__attribute__((weak)) pixman_implementation_t *_pixman_implementation_create(pixman_implementation_t *fallback,
                                                                            const pixman_fast_path_t *fast_paths) {
  pixman_implementation_t *imp = calloc(1, sizeof *imp);
  if (!imp) abort();
  imp->fallback = fallback;
  imp->fast_paths = fast_paths;
  imp->toplevel = imp;
  return imp;
}
__attribute__((weak)) void _pixman_iter_init_bits_stride(pixman_iter_t *iter, const pixman_iter_info_t *info) {
  abort();
}
__attribute__((weak)) pixman_bool_t pixman_fill(uint32_t *bits, int stride, int bpp, int x, int y, int width,
                                                int height, uint32_t filler) {
  abort();
}
__attribute__((weak)) pixman_bool_t pixman_transform_point_3d(const struct pixman_transform *transform,
                                                              struct pixman_vector *vector) {
  abort();
}
