// expect: equivalent
/* Porter-Duff OVER of four ARGB pixels onto a destination, as a
 * compositing library writes it. The C reference tests each pixel: an
 * opaque source pixel (alpha 0xff) replaces the destination, a zero one
 * leaves it, any other is blended, each channel s + d * (255 - a) / 255
 * (rounded, the division by 255 as (t + (t >> 8)) >> 8), saturated to a
 * byte. The SSE2 version tests all four pixels at once: when all four
 * alpha bytes are 0xff it stores the source, when the whole source is
 * zero it leaves the destination, and otherwise it blends all four, the
 * division as a multiply-high by 0x0101. The two agree on every input:
 * each fast path is the blend's value where it is taken.
 * Expected verdict: equivalent. */
#include <emmintrin.h>
#include <stdint.h>
#include "symcross.h"

#ifndef OPAQUE_LANES
#define OPAQUE_LANES 0x8888 /* the alpha byte of each of the four pixels */
#endif

static uint32_t div_255(uint32_t t) {
  t += 0x80;
  return (t + (t >> 8)) >> 8;
}

static uint32_t over_pixel(uint32_t s, uint32_t d) {
  const uint32_t a = s >> 24;
  if (a == 0xff)
    return s;
  if (s == 0)
    return d;
  uint32_t out = 0;
  for (int shift = 0; shift < 32; shift += 8) {
    uint32_t v = ((s >> shift) & 0xff) + div_255(((d >> shift) & 0xff) * (255 - a));
    v = v > 255 ? 255 : v;
    out |= v << shift;
  }
  return out;
}

static void over_c(const uint32_t *src, uint32_t *dst) {
  for (int i = 0; i < 4; ++i)
    dst[i] = over_pixel(src[i], dst[i]);
}

/* d * (255 - alpha) / 255 on the 16-bit lanes of two pixels. */
static __m128i scale_half(__m128i d16, __m128i s16) {
  const __m128i alpha = _mm_shufflehi_epi16(_mm_shufflelo_epi16(s16, 0xff), 0xff);
  const __m128i t = _mm_add_epi16(_mm_mullo_epi16(d16, _mm_sub_epi16(_mm_set1_epi16(255), alpha)), _mm_set1_epi16(0x80));
  return _mm_mulhi_epu16(t, _mm_set1_epi16(0x0101));
}

static void over_sse2(const uint32_t *src, uint32_t *dst) {
  const __m128i zero = _mm_setzero_si128();
  const __m128i s = _mm_loadu_si128((const __m128i *)src);
  const __m128i ones = _mm_cmpeq_epi8(s, s);
  if ((_mm_movemask_epi8(_mm_cmpeq_epi8(s, ones)) & OPAQUE_LANES) == OPAQUE_LANES) {
    _mm_storeu_si128((__m128i *)dst, s);
    return;
  }
  if (_mm_movemask_epi8(_mm_cmpeq_epi8(s, zero)) == 0xffff)
    return;
  const __m128i d = _mm_loadu_si128((const __m128i *)dst);
  const __m128i lo = scale_half(_mm_unpacklo_epi8(d, zero), _mm_unpacklo_epi8(s, zero));
  const __m128i hi = scale_half(_mm_unpackhi_epi8(d, zero), _mm_unpackhi_epi8(s, zero));
  _mm_storeu_si128((__m128i *)dst, _mm_adds_epu8(s, _mm_packus_epi16(lo, hi)));
}

int main(void) {
  uint32_t src[4], ref[4], vec[4];
  symcross_make_symbolic(src, sizeof src, "src");
  symcross_make_symbolic(ref, sizeof ref, "dst");
  for (int i = 0; i < 4; ++i)
    vec[i] = ref[i];
  over_c(src, ref);
  over_sse2(src, vec);
  symcross_check_equal(ref, vec, sizeof ref[0], 4, "composited pixels");
  return 0;
}
