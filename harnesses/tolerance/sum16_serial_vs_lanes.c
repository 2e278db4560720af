// expect: equivalent
/* A 16-term float sum added serially against the same sum in 4 lanes
 * (as a 4-wide SIMD loop adds it, then the lanes pairwise), for terms in
 * [1, 2), relative to the sum of the terms' magnitudes: within 2^-19
 * (each order errs by at most about 15 roundings' worth).
 * Sixteen inputs: proved by rounding-error bounds.
 * Expected verdict: equivalent (within bound, proved). */
#include <math.h>
#include "symcross.h"

#pragma STDC FP_CONTRACT OFF

#ifndef SUM_BOUND
#define SUM_BOUND 0x1p-19
#endif

int main(void) {
  float v[16];
  symcross_make_symbolic(v, sizeof v, "v");
  for (int i = 0; i < 16; i++) symcross_assume(v[i] >= 1.0f && v[i] < 2.0f);
  float serial = 0.0f, magnitude = 0.0f;
  for (int i = 0; i < 16; i++) {
    serial += v[i];
    magnitude += fabsf(v[i]);
  }
  float lane[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int i = 0; i < 16; i += 4)
    for (int k = 0; k < 4; k++) lane[k] += v[i + k];
  float lanes = (lane[0] + lane[1]) + (lane[2] + lane[3]);
  symcross_check_close(&lanes, &serial, sizeof serial, 1, SYMCROSS_REL_TO(SUM_BOUND, &magnitude), "16-term sum");
  return 0;
}
