/* C++'s operator new and delete, by their Itanium ABI names (size_t is
 * `m` on both targets): blocks of the C heap, so that a C++ harness's
 * `new` and `delete` are checked as malloc and free are (out-of-bounds
 * reads, use after free, double free). `new` of an over-aligned type
 * asks for its alignment, as libstdc++'s does. */

#include <stddef.h>
#include <stdlib.h>

/* `new` of zero bytes still gives a distinct block. */
static void *cxx_block(size_t size) { return malloc(size ? size : 1); }

void *_Znwm(size_t size) { return cxx_block(size); }
void *_Znam(size_t size) { return cxx_block(size); }
void *_ZnwmRKSt9nothrow_t(size_t size, const void *tag) {
  (void)tag;
  return cxx_block(size);
}
void *_ZnamRKSt9nothrow_t(size_t size, const void *tag) {
  (void)tag;
  return cxx_block(size);
}
void *_ZnwmSt11align_val_t(size_t size, size_t align) { return aligned_alloc(align, size ? size : 1); }
void *_ZnamSt11align_val_t(size_t size, size_t align) { return aligned_alloc(align, size ? size : 1); }
void _ZdlPv(void *p) { free(p); }
void _ZdaPv(void *p) { free(p); }
void _ZdlPvm(void *p, size_t size) {
  (void)size;
  free(p);
}
void _ZdaPvm(void *p, size_t size) {
  (void)size;
  free(p);
}
void _ZdlPvSt11align_val_t(void *p, size_t align) {
  (void)align;
  free(p);
}
void _ZdaPvSt11align_val_t(void *p, size_t align) {
  (void)align;
  free(p);
}
void _ZdlPvmSt11align_val_t(void *p, size_t size, size_t align) {
  (void)size;
  (void)align;
  free(p);
}
void _ZdaPvmSt11align_val_t(void *p, size_t size, size_t align) {
  (void)size;
  (void)align;
  free(p);
}
