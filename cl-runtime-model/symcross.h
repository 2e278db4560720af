/* symcross.h: the harness API of symcross.
 *
 * Include it from a harness; `symcross check` finds it without -I flags.
 * The same header builds natively for `symcross replay`, where
 * symcross_make_symbolic fills memory with a witness's bytes.
 */
#ifndef SYMCROSS_H
#define SYMCROSS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Makes nbytes at addr symbolic: every byte may hold any value. `name`
 * labels the bytes in reports and witnesses. */
void symcross_make_symbolic(void *addr, size_t nbytes, const char *name);

/* Prunes the paths on which cond is false. */
void symcross_assume(int cond);

/* Checks that count elements of elem_size bytes at a and b are bitwise
 * equal; each element that can differ is a `mismatch` finding. */
void symcross_check_equal(const void *a, const void *b, size_t elem_size,
                          size_t count, const char *what);

/* Aliases, including KLEE's names, so existing harnesses run unchanged. */
void make_symbolic(void *addr, size_t nbytes, const char *name);
void klee_make_symbolic(void *addr, size_t nbytes, const char *name);
void klee_assume(unsigned long cond);

/* Checks that cond is non-zero on every input that reaches it (KLEE's
 * name); an input that makes it zero is a `mismatch` finding. */
void klee_assert(int cond);

#ifdef __cplusplus
}
#endif

#endif /* SYMCROSS_H */
