/* The harness API for native replay (`symcross replay`): the harness runs
 * on the real CPU; symcross_make_symbolic fills memory with the bytes of a
 * witness, symcross_check_equal prints both sides of every element that
 * differs. The witness file (path in SYMCROSS_WITNESS) has one line per
 * input: `name hexbytes`. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int mismatches;

static int hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static void report_at_exit(void) {
  if (mismatches)
    printf("symcross replay: %d element(s) differ on the CPU\n", mismatches);
  else
    printf("symcross replay: every check held on the CPU\n");
  fflush(stdout);
  if (mismatches)
    _exit(1);
}

void symcross_make_symbolic(void *addr, size_t nbytes, const char *name) {
  static int registered;
  if (!registered) {
    atexit(report_at_exit);
    registered = 1;
  }
  memset(addr, 0, nbytes);
  const char *path = getenv("SYMCROSS_WITNESS");
  FILE *f = path ? fopen(path, "r") : NULL;
  if (!f) {
    fprintf(stderr, "symcross replay: no witness file (SYMCROSS_WITNESS)\n");
    return;
  }
  char key[256];
  static char hex[1 << 22];
  while (fscanf(f, "%255s %4194303s", key, hex) == 2) {
    if (strcmp(key, name) != 0) continue;
    size_t n = strlen(hex) / 2;
    for (size_t i = 0; i < n && i < nbytes; i++)
      ((unsigned char *)addr)[i] = (unsigned char)(hexval(hex[2 * i]) * 16 + hexval(hex[2 * i + 1]));
    break;
  }
  fclose(f);
}

void make_symbolic(void *a, size_t n, const char *name) { symcross_make_symbolic(a, n, name); }
void klee_make_symbolic(void *a, size_t n, const char *name) { symcross_make_symbolic(a, n, name); }

void symcross_assume(int cond) {
  if (!cond) {
    printf("symcross replay: an assumption does not hold for this witness\n");
    exit(3);
  }
}
void klee_assume(unsigned long cond) { symcross_assume(cond != 0); }
void klee_assert(int cond) {
  if (!cond) {
    mismatches++;
    printf("klee_assert fails for this witness\n");
  }
}

static void print_element(const unsigned char *p, size_t n) {
  printf("0x");
  for (size_t i = n; i-- > 0;) printf("%02x", p[i]);
  if (n == 4) {
    float f;
    memcpy(&f, p, 4);
    printf(" (%g as float)", f);
  } else if (n == 8) {
    double d;
    memcpy(&d, p, 8);
    printf(" (%g as double)", d);
  }
}

void symcross_check_equal(const void *a, const void *b, size_t elem_size, size_t count, const char *what) {
  const unsigned char *x = a, *y = b;
  for (size_t i = 0; i < count; i++) {
    if (memcmp(x + i * elem_size, y + i * elem_size, elem_size) == 0) continue;
    mismatches++;
    printf("%s: element %zu differs: left ", what ? what : "values", i);
    print_element(x + i * elem_size, elem_size);
    printf(", right ");
    print_element(y + i * elem_size, elem_size);
    printf("\n");
  }
}
