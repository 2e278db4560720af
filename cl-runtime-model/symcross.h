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

/* How far apart two float or double results may be and still be close
 * (symcross_check_close). Build one with the macros below. Two NaNs are
 * close, a NaN and a number are not; an infinity is close only to the
 * same infinity. Otherwise:
 *   SYMCROSS_ULP(k)      at most k units in the last place apart (the
 *                        representable values between them, counted in
 *                        IEEE order; -0 and +0 are the same place)
 *   SYMCROSS_REL(x)      fabs(got - want) <= x * fabs(want)
 *   SYMCROSS_ABS(x)      fabs(got - want) <= x
 *   SYMCROSS_REL_TO(x, m) fabs(got - want) <= x * fabs(m[i]), m pointing at
 *                        count magnitudes of the elements' type (for a sum:
 *                        the sum of the absolute values of its terms)
 * The relative and absolute forms are evaluated in double arithmetic, as
 * written, both by symcross and natively. The struct is larger than two
 * registers, so every ABI passes it by reference: keep it that way. */
typedef struct {
  int kind;              /* 1 ulp, 2 rel, 3 abs, 4 rel-to */
  int reserved;
  double bound;
  const void *magnitude; /* rel-to only */
} symcross_tolerance;

#define SYMCROSS_TOL_ULP 1
#define SYMCROSS_TOL_REL 2
#define SYMCROSS_TOL_ABS 3
#define SYMCROSS_TOL_REL_TO 4
#define SYMCROSS_ULP(k) ((symcross_tolerance){SYMCROSS_TOL_ULP, 0, (double)(k), 0})
#define SYMCROSS_REL(x) ((symcross_tolerance){SYMCROSS_TOL_REL, 0, (double)(x), 0})
#define SYMCROSS_ABS(x) ((symcross_tolerance){SYMCROSS_TOL_ABS, 0, (double)(x), 0})
#define SYMCROSS_REL_TO(x, magnitude_ptr) ((symcross_tolerance){SYMCROSS_TOL_REL_TO, 0, (double)(x), (magnitude_ptr)})

/* Checks that count elements of elem_size bytes (4: float, 8: double) at
 * got and want are within tol of each other; each element that can be
 * further apart is a `mismatch` finding. The report also gives, for every
 * element, the largest error found and the input where it was found. */
void symcross_check_close(const void *got, const void *want, size_t elem_size,
                          size_t count, symcross_tolerance tol, const char *what);

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
