/* The C library functions harnesses commonly call, written in plain C so
 * that symcross executes them like user code (symbolic bytes flow through
 * them unchanged). Allocation, memcpy/memmove/memset, printf and the harness
 * API are built into the executor instead. Compiled with -fno-builtin. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

size_t strlen(const char *s) {
  size_t n = 0;
  while (s[n])
    n++;
  return n;
}

int strcmp(const char *a, const char *b) {
  while (*a && *a == *b) {
    a++;
    b++;
  }
  return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n) {
  for (; n; n--, a++, b++) {
    if (*a != *b || !*a)
      return (unsigned char)*a - (unsigned char)*b;
  }
  return 0;
}

char *strcpy(char *d, const char *s) {
  char *r = d;
  while ((*d++ = *s++))
    ;
  return r;
}

char *strncpy(char *d, const char *s, size_t n) {
  size_t i = 0;
  for (; i < n && s[i]; i++)
    d[i] = s[i];
  for (; i < n; i++)
    d[i] = 0;
  return d;
}

char *strcat(char *d, const char *s) {
  strcpy(d + strlen(d), s);
  return d;
}

char *strchr(const char *s, int c) {
  for (;; s++) {
    if (*s == (char)c)
      return (char *)s;
    if (!*s)
      return 0;
  }
}

char *strrchr(const char *s, int c) {
  const char *last = 0;
  for (;; s++) {
    if (*s == (char)c)
      last = s;
    if (!*s)
      return (char *)last;
  }
}

size_t strnlen(const char *s, size_t max) {
  size_t n = 0;
  while (n < max && s[n])
    n++;
  return n;
}

char *strncat(char *d, const char *s, size_t n) {
  char *p = d + strlen(d);
  while (n-- && *s)
    *p++ = *s++;
  *p = 0;
  return d;
}

char *strstr(const char *h, const char *n) {
  size_t k = strlen(n);
  for (; *h; h++)
    if (strncmp(h, n, k) == 0)
      return (char *)h;
  return k == 0 ? (char *)h : 0;
}

/* memcmp is built into the executor (src/exec/compare.rs): it decides
 * whole chunks with the ladder instead of branching on every byte. */

void *memchr(const void *s, int c, size_t n) {
  const unsigned char *p = s;
  for (; n; n--, p++)
    if (*p == (unsigned char)c)
      return (void *)p;
  return 0;
}

int abs(int x) { return x < 0 ? -x : x; }
long labs(long x) { return x < 0 ? -x : x; }
long long llabs(long long x) { return x < 0 ? -x : x; }

char *strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d)
    memcpy(d, s, n);
  return d;
}

char *strndup(const char *s, size_t max) {
  size_t n = strnlen(s, max);
  char *d = malloc(n + 1);
  if (d) {
    memcpy(d, s, n);
    d[n] = 0;
  }
  return d;
}

size_t strspn(const char *s, const char *accept) {
  size_t n = 0;
  while (s[n] && strchr(accept, s[n]))
    n++;
  return n;
}

size_t strcspn(const char *s, const char *reject) {
  size_t n = 0;
  while (s[n] && !strchr(reject, s[n]))
    n++;
  return n;
}

char *strpbrk(const char *s, const char *accept) {
  s += strcspn(s, accept);
  return *s ? (char *)s : 0;
}

char *strtok_r(char *s, const char *delim, char **save) {
  if (!s)
    s = *save;
  s += strspn(s, delim);
  if (!*s) {
    *save = s;
    return 0;
  }
  char *end = s + strcspn(s, delim);
  if (*end)
    *end++ = 0;
  *save = end;
  return s;
}

char *strtok(char *s, const char *delim) {
  static char *save;
  return strtok_r(s, delim, &save);
}

static int lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

int strcasecmp(const char *a, const char *b) {
  while (*a && lower((unsigned char)*a) == lower((unsigned char)*b)) {
    a++;
    b++;
  }
  return lower((unsigned char)*a) - lower((unsigned char)*b);
}

int strncasecmp(const char *a, const char *b, size_t n) {
  for (; n; n--, a++, b++) {
    if (lower((unsigned char)*a) != lower((unsigned char)*b) || !*a)
      return lower((unsigned char)*a) - lower((unsigned char)*b);
  }
  return 0;
}
