/* SIMDe's portable implementation of the intrinsic OP (see
   simde_neon_port.c): no native instruction, the x86 definition in C. */
#define SIMDE_NO_NATIVE
#include <string.h>
#include <simde/x86/sse4.1.h>
#include "simde_neon_port.h"

SIMDE_PORT_DEFINE(port_portable)
