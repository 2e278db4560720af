/* Serial float sum against four SSE partial sums, for any N divisible by 4
 * (-D N=...). Equal only under --assume associativity,positive-zero,ordered:
 * the serial loop starts from +0.0 and adds in another order. With -D DROP
 * the vector loop forgets the last element: refuted under any assumption. */
#include <xmmintrin.h>
#include "symcross.h"

#ifndef N
#define N 16
#endif

int main(void) {
  float v[N];
  symcross_make_symbolic(v, sizeof v, "v");
  float serial = 0.0f;
  for (int i = 0; i < N; i++)
    serial += v[i];

  __m128 acc = _mm_setzero_ps();
  for (int i = 0; i < N; i += 4)
    acc = _mm_add_ps(acc, _mm_loadu_ps(v + i));
  float lanes[4];
  _mm_storeu_ps(lanes, acc);
  float vector = (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
#ifdef DROP
  vector -= v[N - 1];
#endif
  symcross_check_equal(&serial, &vector, sizeof(float), 1, "sum");
  return 0;
}
