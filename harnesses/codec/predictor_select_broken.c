// expect: findings mismatch
/* The "select" predictor of a lossless image codec: for one ARGB pixel with
 * its left, top and top-left neighbours, predict the neighbour (left or
 * top) whose channels are closer, by the sum over the four channels of
 * |top - topleft| - |left - topleft|. The C reference takes abs() of int
 * differences; the SSE2 version takes |x - y| of bytes as the OR of two
 * saturating differences, widens to 16 bits, subtracts and adds the lanes.
 * The predicted pixel is then added to the residual, channel by channel.
 * Broken: the SSE2 version keeps one saturating difference of the left
 * pixel (left - topleft, 0 where topleft is larger), not its absolute value.
 * Expected verdict: findings (mismatch). */
#include <emmintrin.h>
#include <stdint.h>
#include <stdlib.h>
#include "symcross.h"

static int channel(uint32_t p, int k) { return (int)((p >> (8 * k)) & 0xff); }

static uint32_t select_c(uint32_t left, uint32_t top, uint32_t topleft) {
  int score = 0;
  for (int k = 0; k < 4; ++k)
    score += abs(channel(top, k) - channel(topleft, k)) - abs(channel(left, k) - channel(topleft, k));
  return score <= 0 ? top : left;
}

static uint32_t select_sse2(uint32_t left, uint32_t top, uint32_t topleft) {
  const __m128i zero = _mm_setzero_si128();
  const __m128i l = _mm_cvtsi32_si128((int)left);
  const __m128i t = _mm_cvtsi32_si128((int)top);
  const __m128i tl = _mm_cvtsi32_si128((int)topleft);
  const __m128i dt = _mm_or_si128(_mm_subs_epu8(t, tl), _mm_subs_epu8(tl, t));
  const __m128i dl = _mm_subs_epu8(l, tl);
  const __m128i diff = _mm_sub_epi16(_mm_unpacklo_epi8(dt, zero), _mm_unpacklo_epi8(dl, zero));
  int16_t lanes[8];
  _mm_storeu_si128((__m128i *)lanes, diff);
  const int score = lanes[0] + lanes[1] + lanes[2] + lanes[3];
  return score <= 0 ? top : left;
}

static uint32_t add_pixels(uint32_t a, uint32_t b) {
  const uint32_t ag = (a & 0xff00ff00u) + (b & 0xff00ff00u);
  const uint32_t rb = (a & 0x00ff00ffu) + (b & 0x00ff00ffu);
  return (ag & 0xff00ff00u) | (rb & 0x00ff00ffu);
}

int main(void) {
  uint32_t left, top, topleft, residual;
  symcross_make_symbolic(&left, sizeof left, "left");
  symcross_make_symbolic(&top, sizeof top, "top");
  symcross_make_symbolic(&topleft, sizeof topleft, "topleft");
  symcross_make_symbolic(&residual, sizeof residual, "residual");
  uint32_t want = add_pixels(residual, select_c(left, top, topleft));
  uint32_t got = add_pixels(residual, select_sse2(left, top, topleft));
  symcross_check_equal(&want, &got, sizeof want, 1, "select predictor");
  return 0;
}
