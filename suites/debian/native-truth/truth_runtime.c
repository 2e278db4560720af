/* A native stand-in for the symcross harness API, for ground truth: the
   harness's main runs many times, every symbolic byte drawn at random or
   from edge patterns, and the first pair of results that differ is
   printed and ends the run with status 1. A trial whose assumption fails
   is skipped (some edge patterns keep 16-bit words small, so that bounded
   inputs are drawn often). */
#undef main /* the harness's main is renamed on the command line */
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int symcross_harness_main(void);

static jmp_buf trial_exit;
static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static unsigned long trial;

static uint64_t next_random(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

static uint8_t draw(size_t i) {
  static const uint8_t edges[] = {0x00, 0x01, 0x7f, 0x80, 0xfe, 0xff};
  static const uint8_t small_high[] = {0x00, 0x01, 0x07, 0xf8, 0xfe, 0xff};
  switch (trial % 8) {
    case 0: return 0x00;
    case 1: return 0xff;
    case 2: return i % 2 ? 0xff : 0x00;
    case 3: return edges[next_random() % 6];
    case 4: return i % 2 ? small_high[next_random() % 6] : (uint8_t)next_random();
    default: return (uint8_t)next_random();
  }
}

void symcross_make_symbolic(void *addr, size_t nbytes, const char *name) {
  (void)name;
  for (size_t i = 0; i < nbytes; ++i) ((uint8_t *)addr)[i] = draw(i);
}
void make_symbolic(void *addr, size_t nbytes, const char *name) { symcross_make_symbolic(addr, nbytes, name); }
void klee_make_symbolic(void *addr, size_t nbytes, const char *name) { symcross_make_symbolic(addr, nbytes, name); }

void symcross_assume(int cond) {
  if (!cond) longjmp(trial_exit, 1);
}
void klee_assume(unsigned long cond) { symcross_assume(cond != 0); }

void symcross_check_equal(const void *a, const void *b, size_t elem_size, size_t count, const char *what) {
  for (size_t k = 0; k < count; ++k) {
    const uint8_t *x = (const uint8_t *)a + k * elem_size, *y = (const uint8_t *)b + k * elem_size;
    if (memcmp(x, y, elem_size) == 0) continue;
    printf("differs: %s, element %zu of %zu, trial %lu:", what, k, count, trial);
    for (size_t i = 0; i < elem_size; ++i) printf(" %02x/%02x", x[i], y[i]);
    printf(" (left/right bytes)\n");
    exit(1);
  }
}
void klee_assert(int cond) {
  if (!cond) {
    printf("differs: klee_assert fails, trial %lu\n", trial);
    exit(1);
  }
}

int main(int argc, char **argv) {
  unsigned long trials = argc > 1 ? strtoul(argv[1], 0, 10) : 1000000;
  unsigned long skipped = 0;
  for (trial = 0; trial < trials; ++trial) {
    if (setjmp(trial_exit)) {
      ++skipped;
      continue;
    }
    symcross_harness_main();
  }
  printf("no difference in %lu trials (%lu skipped by an assumption)\n", trials - skipped, skipped);
  return 0;
}
