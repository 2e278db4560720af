/* celt/vq.c's band quantiser (alg_quant, alg_unquant), which the pulse
   search harness compiles along with the search but never calls, codes
   its pulses with these functions of celt/cwrs.c, a file the harness does
   not compile: weak empty definitions are enough to link a native build
   (for replaying a witness and for ground truth). */
#include "arch.h"
#include "entenc.h"
#include "entdec.h"

__attribute__((weak)) void encode_pulses(const int *iy, int n, int k, ec_enc *enc) {
  (void)iy, (void)n, (void)k, (void)enc;
}
__attribute__((weak)) opus_val32 decode_pulses(int *iy, int n, int k, ec_dec *dec) {
  (void)iy, (void)n, (void)k, (void)dec;
  return 0;
}
