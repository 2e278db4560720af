// expect: equivalent
// target: aarch64
/* _mm_rcp_ps as a NEON port writes it: FRECPE's estimate refined by
 * Newton steps, each FRECPS (2 - a*x, fused) times the estimate, against
 * Intel's documented bound for RCPPS, 1.5 * 2^-12 relative to 1/x, for
 * |x| in [2^-100, 2^100]. FRECPE is exact in the model (the Arm ARM's
 * table); proofs read it as the exact reciprocal times (1 + e v), e its
 * largest relative error over the table, so one step squares it.
 * -DSTEPS=0 (the estimate alone, error up to 2^-9) exceeds the bound.
 * Expected verdict: equivalent (within bound, proved by estimate bound). */
#include <arm_neon.h>
#include <math.h>
#include "symcross.h"

#ifndef STEPS
#define STEPS 1
#endif

static float32x4_t rcp_ps(float32x4_t a) {
  float32x4_t r = vrecpeq_f32(a);
  for (int i = 0; i < STEPS; i++) r = vmulq_f32(r, vrecpsq_f32(r, a));
  return r;
}

int main(void) {
  float x[4], got[4], want[4];
  symcross_make_symbolic(x, sizeof x, "x");
  for (int i = 0; i < 4; i++) symcross_assume(fabsf(x[i]) >= 0x1p-100f && fabsf(x[i]) <= 0x1p100f);
  vst1q_f32(got, rcp_ps(vld1q_f32(x)));
  for (int i = 0; i < 4; i++) want[i] = 1.0f / x[i];
  symcross_check_close(got, want, sizeof(float), 4, SYMCROSS_REL(0x1.8p-12), "rcp_ps port");
  return 0;
}
