/* <ctype.h> for the "C" locale. glibc's macros (isdigit, isspace, ...)
 * read a table of class bits through __ctype_b_loc, and toupper/tolower
 * are functions (or tables through __ctype_toupper_loc at higher
 * optimisation); all are modelled here with glibc's bit layout. */
#include <ctype.h>

/* glibc's class bits, in the byte order of a little-endian table entry. */
enum {
  UPPER = 0x100, LOWER = 0x200, ALPHA = 0x400, DIGIT = 0x800, XDIGIT = 0x1000, SPACE = 0x2000,
  PRINT = 0x4000, GRAPH = 0x8000, BLANK = 0x1, CNTRL = 0x2, PUNCT = 0x4, ALNUM = 0x8,
};

static unsigned short class_table[384];
static int upper_table[384], lower_table[384];
static const unsigned short *class_pointer;
static const int *upper_pointer, *lower_pointer;

static unsigned short classify(int c) {
  unsigned short b = 0;
  if (c < 0 || c > 127)
    return 0;
  if (c >= 'A' && c <= 'Z')
    b |= UPPER | ALPHA | ALNUM | GRAPH | PRINT;
  if (c >= 'a' && c <= 'z')
    b |= LOWER | ALPHA | ALNUM | GRAPH | PRINT;
  if (c >= '0' && c <= '9')
    b |= DIGIT | XDIGIT | ALNUM | GRAPH | PRINT;
  if ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))
    b |= XDIGIT;
  if (c == ' ' || (c >= '\t' && c <= '\r'))
    b |= SPACE;
  if (c == ' ' || c == '\t')
    b |= BLANK;
  if (c < 32 || c == 127)
    b |= CNTRL;
  if (c == ' ')
    b |= PRINT;
  if (c > 32 && c < 127 && !(b & ALNUM))
    b |= PUNCT | GRAPH | PRINT;
  return b;
}

/* Tables are indexed from -128 (signed char values) to 255. */
static void init_tables(void) {
  if (class_pointer)
    return;
  for (int c = -128; c < 256; c++) {
    class_table[c + 128] = classify(c);
    upper_table[c + 128] = c >= 'a' && c <= 'z' ? c - 32 : c;
    lower_table[c + 128] = c >= 'A' && c <= 'Z' ? c + 32 : c;
  }
  class_pointer = class_table + 128;
  upper_pointer = upper_table + 128;
  lower_pointer = lower_table + 128;
}

const unsigned short **__ctype_b_loc(void) {
  init_tables();
  return &class_pointer;
}

const int **__ctype_toupper_loc(void) {
  init_tables();
  return &upper_pointer;
}

const int **__ctype_tolower_loc(void) {
  init_tables();
  return &lower_pointer;
}

int toupper(int c) { return c >= 'a' && c <= 'z' ? c - 32 : c; }
int tolower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }
