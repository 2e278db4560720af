/* The harness API for native replay (`symcross replay`): the harness runs
 * on the real CPU; symcross_make_symbolic fills memory with the bytes of a
 * witness, symcross_check_equal prints both sides of every element that
 * differs.
 *
 * Environment:
 *   SYMCROSS_WITNESS     the witness file: one line per input, `name hexbytes`
 *                        (without it every input is zero)
 *   SYMCROSS_NAN         `equal` (the default) or `exact`, as `check --nan`:
 *                        under `equal` two elements of 2, 4 or 8 bytes that
 *                        are both NaN (as half, float, double) are equal
 *   SYMCROSS_REPLAY_LOG  where to append one line per event, read by
 *                        `symcross replay` to decide what reproduced:
 *     symbolic ok|missing|size NAME NBYTES WITNESSBYTES
 *     differ FILE:LINE COUNT WHAT   (a symcross_check_equal with COUNT differing elements)
 *     values FILE:LINE SIZE COUNT LEFT RIGHT
 *                                   (every symcross_check_equal: the compared bytes as
 *                                   hex, at most MAX_LOGGED_BYTES of each side, so that
 *                                   symcross compares the element it reported by its
 *                                   own rule and shows the CPU's values)
 *     assert FILE:LINE              (a failing klee_assert or assert())
 *     assume FILE:LINE              (a symcross_assume whose condition is false)
 *   FILE:LINE is `?:0` when the call site cannot be found (no sanitizer
 *   runtime to symbolize it).
 *
 * A witness input whose size differs from the make_symbolic call that asks
 * for it stops the run at once (exit status 86): the witness does not fit
 * this harness, and running on with a part of it would prove nothing.
 *
 * Batch mode, so that every witness of a run is replayed by one process of
 * the build (one start of the sanitizer runtime or of qemu, not one per
 * witness):
 *   SYMCROSS_BATCH_DIR   a directory holding, for run I, witness-I.txt
 *   SYMCROSS_BATCH       a file in it with one line per run: `I NAN TOL`
 *                        (TOL: the --tolerance a check_equal finding
 *                        exceeded, or `-`; see tolerance_decides)
 *   SYMCROSS_RUN_LIMIT   seconds after which a run is stopped (SIGALRM)
 * Before main, the process forks once per line; the child takes the
 * witness, log (events-I.log), standard output and error (stdout-I.txt,
 * stderr-I.txt) of its run and goes on into main, while the parent waits
 * for it and writes `exit CODE` or `signal NUMBER` into status-I.txt. Each
 * witness runs in a process of its own, so a crash, abort or global state
 * left by one cannot reach the next. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SYMCROSS_HAVE_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define SYMCROSS_HAVE_SANITIZER 1
#endif
#ifdef SYMCROSS_HAVE_SANITIZER
void __sanitizer_symbolize_pc(void *pc, const char *fmt, char *out_buf, size_t out_buf_size);
#endif

/* Exit status of a run stopped because the witness does not fit. */
#define SYMCROSS_EXIT_WITNESS_MISFIT 86

static int mismatches;

/* Points standard output or error (fd) at DIR/NAME-INDEX.txt. */
static void redirect(int fd, const char *dir, const char *name, long index) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s-%ld.txt", dir, name, index);
  int o = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (o < 0) _exit(88);
  dup2(o, fd);
  close(o);
}

/* Batch mode (see the top of this file). Runs before the harness's own
   constructors, so that each child runs them afresh as a process of its
   own would. */
__attribute__((constructor(101))) static void symcross_replay_batch(void) {
  const char *dir = getenv("SYMCROSS_BATCH_DIR");
  const char *list = getenv("SYMCROSS_BATCH");
  if (!dir || !*dir || !list || !*list) return;
  const char *limit_text = getenv("SYMCROSS_RUN_LIMIT");
  unsigned limit = limit_text ? (unsigned)strtoul(limit_text, NULL, 10) : 0;
  FILE *runs = fopen(list, "r");
  if (!runs) {
    fprintf(stderr, "symcross replay: cannot read the batch file %s\n", list);
    _exit(87);
  }
  long index;
  char nan[16], tolerance[64];
  while (fscanf(runs, "%ld %15s %63s", &index, nan, tolerance) == 3) {
    char path[4096];
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
      fclose(runs);
      snprintf(path, sizeof path, "%s/witness-%ld.txt", dir, index);
      setenv("SYMCROSS_WITNESS", path, 1);
      snprintf(path, sizeof path, "%s/events-%ld.log", dir, index);
      setenv("SYMCROSS_REPLAY_LOG", path, 1);
      setenv("SYMCROSS_NAN", nan, 1);
      if (strcmp(tolerance, "-") != 0) setenv("SYMCROSS_TOLERANCE", tolerance, 1);
      unsetenv("SYMCROSS_BATCH");
      unsetenv("SYMCROSS_BATCH_DIR");
      redirect(1, dir, "stdout", index);
      redirect(2, dir, "stderr", index);
      if (limit) alarm(limit);
      return; /* on into main, with this witness */
    }
    int status = 0;
    int waited = pid > 0 && waitpid(pid, &status, 0) == pid;
    snprintf(path, sizeof path, "%s/status-%ld.txt", dir, index);
    FILE *out = fopen(path, "w");
    if (!out) continue;
    if (!waited)
      fprintf(out, "failed %s\n", pid < 0 ? "fork" : "wait");
    else if (WIFEXITED(status))
      fprintf(out, "exit %d\n", WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
      fprintf(out, "signal %d\n", WTERMSIG(status));
    fclose(out);
  }
  fclose(runs);
  _exit(0);
}

static int hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* Appends one line to the event log, if there is one. */
static void log_event(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void log_event(const char *fmt, ...) {
  const char *path = getenv("SYMCROSS_REPLAY_LOG");
  if (!path || !*path) return;
  FILE *f = fopen(path, "a");
  if (!f) return;
  va_list ap;
  va_start(ap, fmt);
  vfprintf(f, fmt, ap);
  va_end(ap);
  fputc('\n', f);
  fclose(f);
}

/* `file:line` of the call that called the function calling this one. */
static void call_site(void *ret, char *buf, size_t size) {
  snprintf(buf, size, "?:0");
#ifdef SYMCROSS_HAVE_SANITIZER
  char out[1024] = "";
  __sanitizer_symbolize_pc(ret, "%s:%l", out, sizeof out);
  if (out[0] && strchr(out, ':') && !strstr(out, "<null>")) snprintf(buf, size, "%s", out);
#else
  (void)ret;
#endif
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

/* The names symcross gives inputs: the name, then name_2, name_3, ... when
 * it was already used (the executor's rule, so witnesses match). */
#define MAX_INPUTS 4096
static char *used_names[MAX_INPUTS];
static int used_count;

static int name_used(const char *n) {
  for (int i = 0; i < used_count; i++)
    if (strcmp(used_names[i], n) == 0) return 1;
  return 0;
}

static void unique_name(const char *name, char *out, size_t size) {
  snprintf(out, size, "%s", name);
  for (int k = 2; name_used(out); k++) snprintf(out, size, "%s_%d", name, k);
  if (used_count < MAX_INPUTS) used_names[used_count++] = strdup(out);
}

void symcross_make_symbolic(void *addr, size_t nbytes, const char *name) {
  static int registered;
  if (!registered) {
    atexit(report_at_exit);
    registered = 1;
  }
  char unique[512];
  unique_name(name ? name : "input", unique, sizeof unique);
  memset(addr, 0, nbytes);
  const char *path = getenv("SYMCROSS_WITNESS");
  FILE *f = path ? fopen(path, "r") : NULL;
  if (!f) {
    fprintf(stderr, "symcross replay: no witness file (SYMCROSS_WITNESS)\n");
    return;
  }
  char key[512];
  static char hex[1 << 22];
  int found = 0;
  while (fscanf(f, "%511s %4194303s", key, hex) == 2) {
    if (strcmp(key, unique) != 0) continue;
    found = 1;
    size_t n = strlen(hex) / 2;
    if (n != nbytes) {
      log_event("symbolic size %s %zu %zu", unique, nbytes, n);
      fprintf(stderr, "symcross replay: the witness gives %zu byte(s) for `%s`, the harness asks for %zu\n", n, unique, nbytes);
      fclose(f);
      _exit(SYMCROSS_EXIT_WITNESS_MISFIT);
    }
    for (size_t i = 0; i < n; i++)
      ((unsigned char *)addr)[i] = (unsigned char)(hexval(hex[2 * i]) * 16 + hexval(hex[2 * i + 1]));
    break;
  }
  fclose(f);
  if (found)
    log_event("symbolic ok %s %zu %zu", unique, nbytes, nbytes);
  else
    log_event("symbolic missing %s %zu 0", unique, nbytes);
}

void make_symbolic(void *a, size_t n, const char *name) { symcross_make_symbolic(a, n, name); }
void klee_make_symbolic(void *a, size_t n, const char *name) { symcross_make_symbolic(a, n, name); }

static void assume_at(int cond, void *ret) {
  if (!cond) {
    char site[1100];
    call_site(ret, site, sizeof site);
    log_event("assume %s", site);
    printf("symcross replay: an assumption does not hold for this witness (%s)\n", site);
    fflush(stdout);
    exit(3);
  }
}
void symcross_assume(int cond) { assume_at(cond, __builtin_return_address(0)); }
void klee_assume(unsigned long cond) { assume_at(cond != 0, __builtin_return_address(0)); }

void klee_assert(int cond) {
  if (!cond) {
    char site[1100];
    call_site(__builtin_return_address(0), site, sizeof site);
    log_event("assert %s", site);
    mismatches++;
    printf("klee_assert fails for this witness (%s)\n", site);
  }
}

/* assert(): glibc's message and abort, with the failure logged first. */
void __assert_fail(const char *assertion, const char *file, unsigned int line, const char *function) {
  log_event("assert %s:%u", file, line);
  fflush(stdout);
  fprintf(stderr, "%s:%u: %s: Assertion `%s' failed.\n", file, line, function ? function : "?", assertion);
  abort();
}

/* An element's bits, then its readings: 9 significant digits for a float
   and 17 for a double always read back as the same value, so two different
   elements never print alike (%g's 6 digits print 0x426ffffe and
   0x426fffff both as 60); 8 bytes are as likely a size_t as a double. */
static void print_element(const unsigned char *p, size_t n) {
  printf("0x");
  for (size_t i = n; i-- > 0;) printf("%02x", p[i]);
  if (n == 4) {
    float f;
    memcpy(&f, p, 4);
    printf(" (%.9g as float)", f);
  } else if (n == 8) {
    double d;
    unsigned long long u;
    memcpy(&d, p, 8);
    memcpy(&u, p, 8);
    printf(" (%llu as an integer, %.17g as double)", u, d);
  }
}

/* Whether the elem_size bytes at p are a NaN of the IEEE format of that
 * size (half, float, double): exponent all ones, significand nonzero. */
static int is_nan_bits(const unsigned char *p, size_t elem_size) {
  uint64_t v = 0;
  unsigned exp_bits;
  switch (elem_size) {
  case 2: exp_bits = 5; break;
  case 4: exp_bits = 8; break;
  case 8: exp_bits = 11; break;
  default: return 0;
  }
  memcpy(&v, p, elem_size); /* little-endian: the value's low bytes */
  unsigned frac_bits = (unsigned)(elem_size * 8) - 1 - exp_bits;
  uint64_t exp = (v >> frac_bits) & ((1ull << exp_bits) - 1);
  uint64_t frac = v & ((1ull << frac_bits) - 1);
  return exp == (1ull << exp_bits) - 1 && frac != 0;
}

/* Under --nan equal (the default) two NaNs are equal whatever their bits. */
static int nans_equal(void) {
  const char *mode = getenv("SYMCROSS_NAN");
  return !mode || strcmp(mode, "exact") != 0;
}

/* Bytes of each side of a symcross_check_equal written to the event log. */
#define MAX_LOGGED_BYTES 65536

static void log_values(const char *site, const unsigned char *x, const unsigned char *y, size_t elem_size, size_t count) {
  const char *path = getenv("SYMCROSS_REPLAY_LOG");
  if (!path || !*path || elem_size == 0) return;
  size_t n = elem_size * count;
  if (n > MAX_LOGGED_BYTES) n = MAX_LOGGED_BYTES - MAX_LOGGED_BYTES % elem_size;
  FILE *f = fopen(path, "a");
  if (!f) return;
  fprintf(f, "values %s %zu %zu ", site, elem_size, n / elem_size);
  for (size_t i = 0; i < n; i++) fprintf(f, "%02x", x[i]);
  fputc(' ', f);
  for (size_t i = 0; i < n; i++) fprintf(f, "%02x", y[i]);
  fputc('\n', f);
  fclose(f);
}

static int tolerance_decides(const unsigned char *x, const unsigned char *y, size_t elem_size, size_t i, int *exceeds);

void symcross_check_equal(const void *a, const void *b, size_t elem_size, size_t count, const char *what) {
  const unsigned char *x = a, *y = b;
  char values_site[1100];
  call_site(__builtin_return_address(0), values_site, sizeof values_site);
  log_values(values_site, x, y, elem_size, count);
  size_t differing = 0;
  int nan_blind = nans_equal();
  for (size_t i = 0; i < count; i++) {
    int exceeds;
    if (tolerance_decides(x + i * elem_size, y + i * elem_size, elem_size, i, &exceeds)) {
      if (!exceeds) continue;
    } else {
      if (memcmp(x + i * elem_size, y + i * elem_size, elem_size) == 0) continue;
      if (nan_blind && is_nan_bits(x + i * elem_size, elem_size) && is_nan_bits(y + i * elem_size, elem_size)) continue;
    }
    differing++;
    mismatches++;
    printf("%s: element %zu differs: left ", what ? what : "values", i);
    print_element(x + i * elem_size, elem_size);
    printf(", right ");
    print_element(y + i * elem_size, elem_size);
    printf("\n");
  }
  if (differing) log_event("differ %s %zu %s", values_site, differing, what ? what : "values");
  fflush(stdout);
}

/* symcross_check_close natively: the rule of symcross.h, computed as the
 * symbolic check computes it (ulps over the IEEE order, the relative and
 * absolute forms in double arithmetic as written). The layout of the
 * tolerance is symcross.h's. */
typedef struct {
  int kind;
  int reserved;
  double bound;
  const void *magnitude;
} symcross_tolerance;

static double element_as_double(const unsigned char *p, size_t elem_size) {
  if (elem_size == 4) {
    float f;
    memcpy(&f, p, 4);
    return (double)f;
  }
  double d;
  memcpy(&d, p, 8);
  return d;
}

/* The IEEE bits of an element, as an integer in IEEE order (-0 and +0 both 0). */
static long long element_ordinal(const unsigned char *p, size_t elem_size) {
  unsigned long long v = 0;
  memcpy(&v, p, elem_size);
  unsigned long long sign = v >> (elem_size * 8 - 1);
  long long magnitude = (long long)(v & ((1ull << (elem_size * 8 - 1)) - 1));
  return sign ? -magnitude : magnitude;
}

/* Whether got is further from want than tol allows (element i). */
static int exceeds_tolerance(const unsigned char *got, const unsigned char *want, size_t elem_size, symcross_tolerance tol, size_t i) {
  double g = element_as_double(got, elem_size), w = element_as_double(want, elem_size);
  int nan_g = g != g, nan_w = w != w;
  if (nan_g || nan_w) return nan_g != nan_w;
  if ((__builtin_isinf(g) || __builtin_isinf(w)) && memcmp(got, want, elem_size) != 0) return 1;
  switch (tol.kind) {
  case 1: {
    long long d = element_ordinal(got, elem_size) - element_ordinal(want, elem_size);
    unsigned long long distance = d < 0 ? 0ull - (unsigned long long)d : (unsigned long long)d;
    /* 2^64 ulps never fit a double bound's integer; a bound that large is never exceeded. */
    return tol.bound < 18446744073709551616.0 && distance > (unsigned long long)tol.bound;
  }
  case 2: {
    volatile double err = __builtin_fabs(g - w);
    volatile double limit = tol.bound * __builtin_fabs(w);
    return err > limit;
  }
  case 3: {
    volatile double err = __builtin_fabs(g - w);
    return err > tol.bound;
  }
  case 4: {
    double m = element_as_double((const unsigned char *)tol.magnitude + i * elem_size, elem_size);
    volatile double err = __builtin_fabs(g - w);
    volatile double limit = tol.bound * __builtin_fabs(m);
    return err > limit;
  }
  default:
    return 1;
  }
}

/* A symcross_check_equal finding of floats under --tolerance is replayed
 * with that tolerance (SYMCROSS_TOLERANCE, as the command line writes it:
 * ulp:K, rel:X or abs:X), so "reproduced" means the CPU's values exceed
 * it too, not merely differ. Returns whether the tolerance decides. */
static int tolerance_decides(const unsigned char *x, const unsigned char *y, size_t elem_size, size_t i, int *exceeds) {
  const char *t = getenv("SYMCROSS_TOLERANCE");
  if (!t || !*t || (elem_size != 4 && elem_size != 8)) return 0;
  symcross_tolerance tol = {0, 0, 0.0, 0};
  if (strncmp(t, "ulp:", 4) == 0) tol.kind = 1;
  else if (strncmp(t, "rel:", 4) == 0) tol.kind = 2;
  else if (strncmp(t, "abs:", 4) == 0) tol.kind = 3;
  else return 0;
  char *end;
  tol.bound = strtod(t + 4, &end);
  if (end == t + 4 || *end) return 0;
  *exceeds = exceeds_tolerance(x, y, elem_size, tol, i);
  return 1;
}

void symcross_check_close(const void *got, const void *want, size_t elem_size, size_t count, symcross_tolerance tol, const char *what) {
  const unsigned char *x = got, *y = want;
  char site[1100];
  call_site(__builtin_return_address(0), site, sizeof site);
  size_t exceeding = 0;
  for (size_t i = 0; i < count; i++) {
    if (!exceeds_tolerance(x + i * elem_size, y + i * elem_size, elem_size, tol, i)) continue;
    exceeding++;
    mismatches++;
    printf("%s: element %zu exceeds the tolerance: got ", what ? what : "values", i);
    print_element(x + i * elem_size, elem_size);
    printf(", want ");
    print_element(y + i * elem_size, elem_size);
    printf("\n");
  }
  if (exceeding) log_event("differ %s %zu %s", site, exceeding, what ? what : "values");
  fflush(stdout);
}
