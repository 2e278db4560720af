/* k*t*t against t*t*k (KLEE-CL 6.2): equal only if * reassociates.
 * Refuted by default; proved with --assume associativity. */
#include "symcross.h"

int main(void) {
  float in[2];
  symcross_make_symbolic(in, sizeof in, "in");
  float k = in[0], t = in[1];
  float a = k * t * t;
  float b = t * t * k;
  symcross_check_equal(&a, &b, sizeof(float), 1, "k*t*t");
  return 0;
}
