/* variance_sse2.c's sub-pixel variances call kernels that libvpx writes in
   assembly (subpel_variance_sse2.asm), which neither clang nor symcross
   compiles, and sad.c's averaging SADs call helpers of variance.c. The
   harnesses never reach them; these weak definitions only let a native
   build of a harness link (for replaying a witness), and stop a run that
   did reach one. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#define SUBPEL(w, opt)                                                                                       \
  __attribute__((weak)) int vpx_sub_pixel_variance##w##xh_##opt(                                            \
      const uint8_t *src_ptr, ptrdiff_t src_stride, int x_offset, int y_offset, const uint8_t *ref_ptr,     \
      ptrdiff_t ref_stride, int height, unsigned int *sse, void *unused0, void *unused) {                   \
    abort();                                                                                                 \
  }                                                                                                          \
  __attribute__((weak)) int vpx_sub_pixel_avg_variance##w##xh_##opt(                                        \
      const uint8_t *src_ptr, ptrdiff_t src_stride, int x_offset, int y_offset, const uint8_t *ref_ptr,     \
      ptrdiff_t ref_stride, const uint8_t *second_pred, ptrdiff_t second_stride, int height,                \
      unsigned int *sse, void *unused0, void *unused) {                                                      \
    abort();                                                                                                 \
  }

SUBPEL(4, sse2)
SUBPEL(8, sse2)
SUBPEL(16, sse2)
SUBPEL(4, ssse3)
SUBPEL(8, ssse3)
SUBPEL(16, ssse3)

__attribute__((weak)) void vpx_comp_avg_pred_c(uint8_t *comp_pred, const uint8_t *pred, int width, int height,
                                               const uint8_t *ref, int ref_stride) {
  abort();
}
__attribute__((weak)) void vpx_highbd_comp_avg_pred_c(uint16_t *comp_pred, const uint16_t *pred, int width,
                                                      int height, const uint16_t *ref, int ref_stride) {
  abort();
}
