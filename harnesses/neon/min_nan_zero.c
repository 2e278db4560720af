// expect: equivalent
// target: aarch64
/* Minimum of 8 float pairs with vminq_f32 (FMIN), against a scalar port of
 * the Arm rules: a NaN operand gives that NaN, quieted, a signalling NaN
 * before a quiet one and the first operand before the second; -0 counts as
 * less than +0. Compared bit for bit, NaN payloads included.
 * Expected verdict: equivalent. */
#include <arm_neon.h>
#include <stdint.h>
#include <string.h>
#include "symcross.h"

#define N 8
#define QUIET 0x00400000u

static uint32_t bits(float x) { uint32_t u; memcpy(&u, &x, 4); return u; }
/* Branch-free selection, so the 8 elements stay on one path. */
static uint32_t sel(int c, uint32_t a, uint32_t b) { uint32_t m = -(uint32_t)(c != 0); return (a & m) | (b & ~m); }
static int is_nan(uint32_t u) { return (u & 0x7fffffffu) > 0x7f800000u; }
static int is_snan(uint32_t u) { return is_nan(u) & !(u & QUIET); }

/* Later selections take precedence: a signalling NaN in a, then in b, then
 * a quiet NaN in a, then in b, then equal values, then the ordering. */
static uint32_t min_ref(float a, float b) {
  uint32_t ua = bits(a), ub = bits(b);
  uint32_t r = sel(a < b, ua, ub);
  r = sel(a == b, ua | ub, r); /* equal: only zeros differ in bits; -0 wins */
  r = sel(is_nan(ub), ub, r);
  r = sel(is_nan(ua), ua, r);
  r = sel(is_snan(ub), ub | QUIET, r);
  r = sel(is_snan(ua), ua | QUIET, r);
  return r;
}

static void scalar_ref(const float *a, const float *b, uint32_t *out) {
  for (int i = 0; i < N; i++) out[i] = min_ref(a[i], b[i]);
}

static void simd(const float *a, const float *b, uint32_t *out) {
  for (int i = 0; i < N; i += 4)
    vst1q_u32(out + i, vreinterpretq_u32_f32(vminq_f32(vld1q_f32(a + i), vld1q_f32(b + i))));
}

int main(void) {
  float a[N], b[N];
  uint32_t ref[N], vec[N];
  symcross_make_symbolic(a, sizeof a, "a");
  symcross_make_symbolic(b, sizeof b, "b");
  scalar_ref(a, b, ref);
  simd(a, b, vec);
  symcross_check_equal(vec, ref, 4, N, "min");
  return 0;
}
