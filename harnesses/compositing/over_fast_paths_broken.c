// expect: findings mismatch
/* over_fast_paths.c with the opaque fast path testing the alpha bytes of
 * three pixels only (mask 0x0888): when the first three are opaque the
 * fourth pixel's source is stored whatever its alpha, where the blend
 * differs. Expected verdict: mismatch, with a witness whose fourth alpha
 * is not 0xff. */
#define OPAQUE_LANES 0x0888
#include "over_fast_paths.c"
