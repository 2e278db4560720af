/* One SSE intrinsic of SIMDe (Debian's libsimde-dev headers) as SIMDe
   builds it for AArch64 (--target aarch64: its NEON implementation)
   against SIMDe's portable implementation of the same intrinsic, the x86
   definition written in C (simde_neon_portable.c, SIMDE_NO_NATIVE), on
   two symbolic 128-bit operands, the result compared as four 32-bit
   lanes. OP names the intrinsic (-DOP=addsub_ps); with FLOAT the
   operands are four floats, with UNARY it takes one, and ROUND is the
   rounding argument of _mm_round_ps. */
#include <string.h>
#include <simde/x86/sse4.1.h>
#include "symcross.h"
#include "simde_neon_port.h"

SIMDE_PORT_DECLARE(port_neon);

int main(void) {
  unsigned char a[16], b[16], want[16], got[16];
  symcross_make_symbolic(a, sizeof a, "a");
  symcross_make_symbolic(b, sizeof b, "b");
  port_portable(a, b, want);
  port_neon(a, b, got);
  symcross_check_equal(want, got, 4, 4, "simde_mm_" "NEON against portable");
  return 0;
}

SIMDE_PORT_DEFINE(port_neon)
