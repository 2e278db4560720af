/* klee/klee.h for symcross: KLEE's harness API, so harnesses written for
 * KLEE run unchanged under `symcross check` (found without -I flags, like
 * symcross.h). Each function behaves as KLEE documents it. */
#ifndef SYMCROSS_KLEE_H
#define SYMCROSS_KLEE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Makes nbytes at addr symbolic, labelled `name` in witnesses. */
void klee_make_symbolic(void *addr, size_t nbytes, const char *name);

/* A fresh symbolic int named `name`. */
int klee_int(const char *name);

/* A symbolic int in [begin, end) (signed), named `name`. */
int klee_range(int begin, int end, const char *name);

/* Prunes the paths on which condition is zero. */
void klee_assume(uintptr_t condition);

/* A check: an input reaching it with expr zero is a finding. */
void klee_assert(int expr);
#ifndef klee_assert
#define klee_assert(expr) klee_assert(!!(expr))
#endif

/* Ends the path without a finding. */
__attribute__((noreturn)) void klee_silent_exit(int status);

/* Hints KLEE uses to choose nicer witnesses; accepted and ignored. */
void klee_prefer_cex(void *object, uintptr_t condition);
void klee_warning(const char *message);
void klee_warning_once(const char *message);
void klee_print_expr(const char *message, ...);

/* Non-zero when the value depends on a symbolic input. */
unsigned klee_is_symbolic(uintptr_t n);

#ifdef __cplusplus
}
#endif

#endif /* SYMCROSS_KLEE_H */
