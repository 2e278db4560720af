/* Reading files: fopen copies the whole file from disk (through the
 * executor's __symcross_read_file) and the stdio read functions work on
 * that copy, so host programs that load their kernels from .cl files run
 * unchanged. Files are read-only: opening one for writing is an
 * `unsupported` finding. stdout and stderr are written with fprintf/fputs
 * (built into the executor); stdin is empty. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *__symcross_read_file(const char *path, size_t *size);
void __symcross_unsupported(const char *what);

struct symcross_file {
  char *data;
  size_t size;
  size_t pos;
  int eof;
};

static struct symcross_file *file_of(FILE *stream) { return (struct symcross_file *)stream; }

/* The standard streams: stdin is empty (a run's inputs are the symbolic
 * ones, not a terminal), stdout and stderr are written through the
 * executor's fprintf/fputs/fwrite/fputc; all three are never freed. */
static struct symcross_file standard[3];
FILE *stdin = (FILE *)&standard[0];
FILE *stdout = (FILE *)&standard[1];
FILE *stderr = (FILE *)&standard[2];

static int is_standard(FILE *stream) {
  return stream == (FILE *)&standard[0] || stream == (FILE *)&standard[1] || stream == (FILE *)&standard[2];
}

FILE *fopen(const char *path, const char *mode) {
  if (strchr(mode, 'w') || strchr(mode, 'a') || strchr(mode, '+')) {
    __symcross_unsupported("fopen for writing (files are modelled read-only)");
    return NULL;
  }
  size_t size = 0;
  char *data = __symcross_read_file(path, &size);
  if (!data)
    return NULL;
  struct symcross_file *f = malloc(sizeof *f);
  f->data = data;
  f->size = size;
  f->pos = 0;
  f->eof = 0;
  return (FILE *)f;
}

int fclose(FILE *stream) {
  if (is_standard(stream))
    return 0;
  struct symcross_file *f = file_of(stream);
  free(f->data);
  free(f);
  return 0;
}

size_t fread(void *ptr, size_t size, size_t n, FILE *stream) {
  struct symcross_file *f = file_of(stream);
  if (size == 0 || n == 0)
    return 0;
  size_t available = f->pos < f->size ? f->size - f->pos : 0;
  size_t items = available / size < n ? available / size : n;
  memcpy(ptr, f->data + f->pos, items * size);
  f->pos += items * size;
  if (items < n) {
    /* A partial last item is consumed, as the C library does. */
    size_t rest = available - items * size;
    memcpy((char *)ptr + items * size, f->data + f->pos, rest);
    f->pos += rest;
    f->eof = 1;
  }
  return items;
}

int fgetc(FILE *stream) {
  struct symcross_file *f = file_of(stream);
  if (f->pos >= f->size) {
    f->eof = 1;
    return EOF;
  }
  return (unsigned char)f->data[f->pos++];
}

int getc(FILE *stream) { return fgetc(stream); }

int getchar(void) { return fgetc(stdin); }

char *fgets(char *s, int n, FILE *stream) {
  struct symcross_file *f = file_of(stream);
  if (n <= 0)
    return NULL;
  if (f->pos >= f->size) {
    f->eof = 1;
    return NULL;
  }
  int k = 0;
  while (k < n - 1 && f->pos < f->size) {
    char c = f->data[f->pos++];
    s[k++] = c;
    if (c == '\n')
      break;
  }
  s[k] = 0;
  return s;
}

int fseek(FILE *stream, long offset, int whence) {
  struct symcross_file *f = file_of(stream);
  long base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? (long)f->pos : (long)f->size;
  if (base + offset < 0)
    return -1;
  f->pos = (size_t)(base + offset);
  f->eof = 0;
  return 0;
}

long ftell(FILE *stream) { return (long)file_of(stream)->pos; }

void rewind(FILE *stream) { fseek(stream, 0, SEEK_SET); }

int feof(FILE *stream) { return file_of(stream)->eof; }

int ferror(FILE *stream) {
  (void)stream;
  return 0;
}
