/* The sum of a row of 16 bytes (the column projection of motion search):
   libvpx's SSE2 path against its C reference, both from the Debian source
   package. */
#include <stdint.h>
#include "symcross.h"
#include "vpx_dsp/avg.c"
#include "vpx_dsp/x86/avg_intrin_sse2.c"

int main(void) {
  uint8_t row[16];
  symcross_make_symbolic(row, sizeof row, "row");
  int16_t want = vpx_int_pro_col_c(row, 16);
  int16_t got = vpx_int_pro_col_sse2(row, 16);
  symcross_check_equal(&want, &got, sizeof want, 1, "vpx_int_pro_col");
  return 0;
}
