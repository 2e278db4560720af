/* C library functions of <stdlib.h> that host programs commonly call,
 * written in plain C so that symcross executes them like user code:
 * rand/srand (the glibc generator, so a seeded sequence is the one the
 * native program sees), integer parsing, atof, qsort (a stable merge sort,
 * as glibc's) and bsearch. strtod/strtof and getenv are built into the
 * executor. Compiled with -fno-builtin. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* glibc's TYPE_3 additive generator: r[i] = r[i-3] + r[i-31]. */
static int rand_state[34];
static int rand_front, rand_rear, rand_seeded;

void srand(unsigned seed) {
  int r[344];
  r[0] = (int)(seed ? seed : 1);
  for (int i = 1; i < 31; i++) {
    /* 16807 * r[i-1] mod (2^31 - 1), without overflow (Schrage). */
    long hi = r[i - 1] / 127773, lo = r[i - 1] % 127773;
    long word = 16807 * lo - 2836 * hi;
    r[i] = (int)(word < 0 ? word + 2147483647 : word);
  }
  for (int i = 31; i < 34; i++)
    r[i] = r[i - 31];
  for (int i = 34; i < 344; i++)
    r[i] = (int)((unsigned)r[i - 31] + (unsigned)r[i - 3]);
  /* Keep the last 34 words as a ring. */
  for (int i = 0; i < 34; i++)
    rand_state[i] = r[310 + i];
  rand_front = 0;
  rand_rear = 0;
  rand_seeded = 1;
}

int rand(void) {
  if (!rand_seeded)
    srand(1);
  /* rand_state holds r[n-34 .. n-1] at positions (n - 34 + k) mod 34. */
  int next = (int)((unsigned)rand_state[(rand_front + 3) % 34] + (unsigned)rand_state[(rand_front + 31) % 34]);
  rand_state[rand_front] = next;
  rand_front = (rand_front + 1) % 34;
  (void)rand_rear;
  return (int)((unsigned)next >> 1);
}

long strtol(const char *s, char **end, int base);

/* Digits of `s` in `base` (0: from the prefix), as unsigned, with the
 * sign and overflow reported to the caller. */
static unsigned long long parse_unsigned(const char *s, char **end, int base, int *negative, int *overflow) {
  const char *p = s;
  unsigned long long v = 0;
  int any = 0;
  *negative = 0;
  *overflow = 0;
  while (isspace((unsigned char)*p))
    p++;
  if (*p == '+' || *p == '-')
    *negative = *p++ == '-';
  if ((base == 0 || base == 16) && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && isxdigit((unsigned char)p[2])) {
    p += 2;
    base = 16;
  } else if (base == 0) {
    base = p[0] == '0' ? 8 : 10;
  }
  for (;; p++) {
    int d = isdigit((unsigned char)*p) ? *p - '0' : isalpha((unsigned char)*p) ? tolower((unsigned char)*p) - 'a' + 10 : 99;
    if (d >= base)
      break;
    any = 1;
    if (v > (ULLONG_MAX - (unsigned)d) / (unsigned)base)
      *overflow = 1;
    else
      v = v * (unsigned)base + (unsigned)d;
  }
  if (end)
    *end = (char *)(any ? p : s);
  return v;
}

long long strtoll(const char *s, char **end, int base) {
  int neg, over;
  unsigned long long v = parse_unsigned(s, end, base, &neg, &over);
  if (over || v > (unsigned long long)LLONG_MAX + neg) {
    errno = ERANGE;
    return neg ? LLONG_MIN : LLONG_MAX;
  }
  return neg ? (long long)(0 - v) : (long long)v;
}

unsigned long long strtoull(const char *s, char **end, int base) {
  int neg, over;
  unsigned long long v = parse_unsigned(s, end, base, &neg, &over);
  if (over) {
    errno = ERANGE;
    return ULLONG_MAX;
  }
  return neg ? 0 - v : v;
}

long strtol(const char *s, char **end, int base) { return (long)strtoll(s, end, base); }
unsigned long strtoul(const char *s, char **end, int base) { return (unsigned long)strtoull(s, end, base); }
int atoi(const char *s) { return (int)strtol(s, NULL, 10); }
long atol(const char *s) { return strtol(s, NULL, 10); }
long long atoll(const char *s) { return strtoll(s, NULL, 10); }
double atof(const char *s) { return strtod(s, NULL); }

/* A stable merge sort through a temporary buffer. */
static void merge_sort(char *base, char *tmp, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
  if (n < 2)
    return;
  size_t half = n / 2;
  merge_sort(base, tmp, half, size, cmp);
  merge_sort(base + half * size, tmp, n - half, size, cmp);
  size_t i = 0, j = half, k = 0;
  while (i < half && j < n) {
    if (cmp(base + j * size, base + i * size) < 0)
      memcpy(tmp + k++ * size, base + j++ * size, size);
    else
      memcpy(tmp + k++ * size, base + i++ * size, size);
  }
  while (i < half)
    memcpy(tmp + k++ * size, base + i++ * size, size);
  while (j < n)
    memcpy(tmp + k++ * size, base + j++ * size, size);
  memcpy(base, tmp, n * size);
}

void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
  if (n < 2 || size == 0)
    return;
  char *tmp = malloc(n * size);
  merge_sort(base, tmp, n, size, cmp);
  free(tmp);
}

void *bsearch(const void *key, const void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    const char *at = (const char *)base + mid * size;
    int c = cmp(key, at);
    if (c == 0)
      return (void *)at;
    if (c < 0)
      hi = mid;
    else
      lo = mid + 1;
  }
  return NULL;
}

/* errno: glibc reaches it through __errno_location. */
int *__errno_location(void) {
  static int error_number;
  return &error_number;
}
