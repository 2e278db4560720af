/* A serial sum of products against a pairwise (tree) reduction, the way
 * numerically careful code sums. Equal under --assume
 * associativity,positive-zero,ordered; -D DROP loses one leaf. */
#include "symcross.h"

#ifndef N
#define N 16
#endif

int main(void) {
  float x[N], y[N];
  symcross_make_symbolic(x, sizeof x, "x");
  symcross_make_symbolic(y, sizeof y, "y");
  float serial = 0.0f;
  for (int i = 0; i < N; i++)
    serial += x[i] * y[i];

  float t[N];
  for (int i = 0; i < N; i++)
    t[i] = x[i] * y[i];
#ifdef DROP
  t[N / 2] = 0.0f;
#endif
  for (int width = N; width > 1; width = (width + 1) / 2) {
    for (int i = 0; i < width / 2; i++)
      t[i] = t[2 * i] + t[2 * i + 1];
    if (width % 2)
      t[width / 2] = t[width - 1];
  }
  symcross_check_equal(&serial, &t[0], sizeof(float), 1, "sum of products");
  return 0;
}
