/* Heap blocks that end on a guard page, for native replay where no
 * sanitizer exists (AArch64 under qemu-aarch64): the harness's malloc,
 * calloc, realloc, posix_memalign, aligned_alloc and free are linked to
 * the __wrap_ functions here (-Wl,--wrap=malloc and so on), so a read or
 * write past the end of a block, or of a freed block, faults at once
 * (SIGSEGV) instead of reading whatever lies beyond it.
 *
 * Each block is a mapping of its own: a header, the block ending exactly
 * where the next page begins, and that page mapped PROT_NONE. The block
 * is aligned to the largest power of two (at most 16) dividing its size,
 * so it can end on the page boundary: an array of floats is 4-aligned.
 * A block asked for with a larger alignment (posix_memalign,
 * aligned_alloc) starts at the highest address of that alignment from
 * which it fits: when its size is not a multiple of the alignment, up to
 * alignment - 1 bytes lie between its end and the guard page.
 * A freed block's pages are made PROT_NONE and kept (never reused), so
 * a use after free faults too. Pointers this file did not hand out (from
 * the C library's own functions, or once too many blocks exist) go to
 * the real functions. C++'s operator new and delete are defined here too
 * (see the end), so blocks from `new` end on guard pages as well. */

#include <stddef.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void __real_free(void *p);
int __real_posix_memalign(void **out, size_t align, size_t size);
void *__real_aligned_alloc(size_t align, size_t size);

/* Marks a header of this file's. */
#define GUARD_MAGIC 0x5359584755415244ull
/* Beyond these the real allocator serves: a harness allocating in a long
   loop must not run out of mappings. */
#define GUARD_MAX_BLOCKS 65536
#define GUARD_MAX_SIZE ((size_t)1 << 28)
#define GUARD_MAX_ALIGN ((size_t)1 << 16)

struct guard_header {
  uint64_t magic;
  void *mapping;
  size_t mapping_size;
  size_t size;
};

static size_t guarded_blocks;

/* The blocks handed out, by address (open addressing, twice as many
   slots as blocks), so that free and realloc know them without reading
   memory before a pointer they did not make. */
#define GUARD_SLOTS (2 * GUARD_MAX_BLOCKS)
static void *guarded[GUARD_SLOTS];

static size_t slot_of(void *p) {
  return (size_t)(((uintptr_t)p >> 4) * 0x9E3779B97F4A7C15ull >> 47) % GUARD_SLOTS;
}

static void remember(void *p) {
  size_t i = slot_of(p);
  while (guarded[i]) i = (i + 1) % GUARD_SLOTS;
  guarded[i] = p;
}

static size_t page_size(void) {
  static size_t page;
  if (!page) page = (size_t)sysconf(_SC_PAGESIZE);
  return page;
}

/* The header of a block this file handed out, or NULL. A freed block's
   header is inaccessible: asking for it again (a double free) faults. */
static struct guard_header *header_of(void *p) {
  if (!p) return NULL;
  for (size_t i = slot_of(p); guarded[i]; i = (i + 1) % GUARD_SLOTS)
    if (guarded[i] == p) return (struct guard_header *)((char *)p - sizeof(struct guard_header));
  return NULL;
}

/* A block of `size` bytes at a multiple of `align` (a power of two),
   ending as near the guard page as that allows; NULL when this file
   does not serve it (the caller asks the real allocator). */
static void *guarded_alloc(size_t size, size_t align) {
  if (size > GUARD_MAX_SIZE || align > GUARD_MAX_ALIGN || guarded_blocks >= GUARD_MAX_BLOCKS) return NULL;
  size_t page = page_size();
  size_t body = sizeof(struct guard_header) + 16 + align + size;
  size_t mapping_size = (body + page - 1) / page * page + page;
  char *m = mmap(NULL, mapping_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) return NULL;
  char *guard = m + mapping_size - page;
  if (mprotect(guard, page, PROT_NONE) != 0) {
    munmap(m, mapping_size);
    return NULL;
  }
  /* The size's own alignment lets the block end on the guard page. */
  char *p = guard - size;
  if (size == 0) p -= 16;
  p = (char *)((uintptr_t)p & ~(uintptr_t)(align - 1));
  struct guard_header h = {GUARD_MAGIC, m, mapping_size, size == 0 ? 16 : size};
  memcpy(p - sizeof h, &h, sizeof h);
  guarded_blocks++;
  remember(p);
  return p;
}

void *__wrap_malloc(size_t size) {
  void *p = guarded_alloc(size, 1);
  return p ? p : __real_malloc(size);
}

/* EINVAL for an alignment that is not a power of two times the size
   of a pointer, as POSIX says. */
int __wrap_posix_memalign(void **out, size_t align, size_t size) {
  if (align < sizeof(void *) || (align & (align - 1)) != 0) return 22;
  void *p = guarded_alloc(size, align);
  if (!p) return __real_posix_memalign(out, align, size);
  *out = p;
  return 0;
}

void *__wrap_aligned_alloc(size_t align, size_t size) {
  if (align == 0 || (align & (align - 1)) != 0) return __real_aligned_alloc(align, size);
  void *p = guarded_alloc(size, align);
  return p ? p : __real_aligned_alloc(align, size);
}

void *__wrap_calloc(size_t n, size_t size) {
  if (size && n > SIZE_MAX / size) return NULL;
  /* A fresh mapping is zero already. */
  void *p = __wrap_malloc(n * size);
  if (p && !header_of(p)) memset(p, 0, n * size);
  return p;
}

void __wrap_free(void *p) {
  struct guard_header *h = header_of(p);
  if (!h) {
    __real_free(p);
    return;
  }
  /* Kept, inaccessible: a later use or free of it faults. */
  volatile uint64_t magic = h->magic;
  (void)magic;
  mprotect(h->mapping, h->mapping_size, PROT_NONE);
}

void *__wrap_realloc(void *p, size_t size) {
  struct guard_header *h = header_of(p);
  if (p && !h) return __real_realloc(p, size);
  void *q = __wrap_malloc(size);
  if (q && p) {
    memcpy(q, p, h->size < size ? h->size : size);
    __wrap_free(p);
  }
  return q;
}

/* C++'s operator new and delete, by their Itanium ABI names (size_t is
 * `m`), so that blocks from `new` end on guard pages too: libstdc++'s own
 * operator new calls malloc inside the shared library, which --wrap does
 * not reach, and the program's definitions take its place. C cannot throw
 * std::bad_alloc: a failed `new` aborts, a failed nothrow `new` gives
 * NULL. */
static void *new_block(size_t size, size_t align) {
  void *p = guarded_alloc(size, align);
  if (p) return p;
  if (align <= 16) return __real_malloc(size ? size : 1);
  return __real_posix_memalign(&p, align, size ? size : 1) == 0 ? p : NULL;
}

static void *new_or_abort(size_t size, size_t align) {
  void *p = new_block(size, align);
  if (!p) abort();
  return p;
}

void *_Znwm(size_t size) { return new_or_abort(size, 1); }
void *_Znam(size_t size) { return new_or_abort(size, 1); }
void *_ZnwmRKSt9nothrow_t(size_t size, const void *tag) { (void)tag; return new_block(size, 1); }
void *_ZnamRKSt9nothrow_t(size_t size, const void *tag) { (void)tag; return new_block(size, 1); }
void *_ZnwmSt11align_val_t(size_t size, size_t align) { return new_or_abort(size, align); }
void *_ZnamSt11align_val_t(size_t size, size_t align) { return new_or_abort(size, align); }
void _ZdlPv(void *p) { __wrap_free(p); }
void _ZdaPv(void *p) { __wrap_free(p); }
void _ZdlPvm(void *p, size_t size) { (void)size; __wrap_free(p); }
void _ZdaPvm(void *p, size_t size) { (void)size; __wrap_free(p); }
void _ZdlPvSt11align_val_t(void *p, size_t align) { (void)align; __wrap_free(p); }
void _ZdaPvSt11align_val_t(void *p, size_t align) { (void)align; __wrap_free(p); }
void _ZdlPvmSt11align_val_t(void *p, size_t size, size_t align) { (void)size; (void)align; __wrap_free(p); }
void _ZdaPvmSt11align_val_t(void *p, size_t size, size_t align) { (void)size; (void)align; __wrap_free(p); }
