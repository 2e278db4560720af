/* Quantization of the 16 coefficients of a 4x4 block with its end of block:
   libvpx's SSE2 path against its C reference, both from the Debian source
   package. The quantizer is the one VP9 derives (vp9_init_quantizer's
   formulas: zbin factor 84, rounding factor 48, the inverted quantizer and
   its shift) for dequantizers 8 (DC) and 10 (AC); the scan is in raster
   order. Coefficients are 16-bit, as the 4x4 transform produces them,
   but never -32768 (whose 16-bit absolute value the SSE2 path cannot
   form: there it is dropped, where the C reference quantizes it to -4095);
   with ANY_INPUT that value is allowed too. */
#include <stdint.h>
#include "symcross.h"
#include "vpx_dsp/quantize.c"
#include "vpx_dsp/x86/quantize_sse2.c"

/* As the encoder lays them out (and the SSE2 path loads them): 16-byte
   aligned rows of eight, the DC value then seven copies of the AC one. */
#define DC_AC(dc, ac) {dc, ac, ac, ac, ac, ac, ac, ac}
static const int16_t zbin[8] __attribute__((aligned(16))) = DC_AC(5, 7);
static const int16_t round_q[8] __attribute__((aligned(16))) = DC_AC(3, 3);
static const int16_t quant[8] __attribute__((aligned(16))) = DC_AC(1, -13107);
static const int16_t quant_shift[8] __attribute__((aligned(16))) = DC_AC(8192, 8192);
static const int16_t dequant[8] __attribute__((aligned(16))) = DC_AC(8, 10);
static const int16_t scan[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

int main(void) {
  int16_t coefficients[16];
  tran_low_t coeff[16] __attribute__((aligned(16)));
  tran_low_t want[33] __attribute__((aligned(16))), got[33] __attribute__((aligned(16)));
  uint16_t want_eob, got_eob;
  symcross_make_symbolic(coefficients, sizeof coefficients, "coefficients");
  for (int i = 0; i < 16; ++i) {
#ifndef ANY_INPUT
    symcross_assume(coefficients[i] != INT16_MIN);
#endif
    coeff[i] = coefficients[i];
  }
  vpx_quantize_b_c(coeff, 16, zbin, round_q, quant, quant_shift, want, want + 16, dequant, &want_eob, scan, scan);
  vpx_quantize_b_sse2(coeff, 16, zbin, round_q, quant, quant_shift, got, got + 16, dequant, &got_eob, scan, scan);
  want[32] = want_eob;
  got[32] = got_eob;
  symcross_check_equal(want, got, sizeof want[0], 33, "vpx_quantize_b (quantized, dequantized, end of block)");
  return 0;
}
