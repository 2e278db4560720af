// expect: findings undefined-behaviour
/* mulhi_rotation.c on coefficients of any 16-bit value: the C
 * reference's int product x * 85627 overflows for |x| above 25079, which
 * is undefined behaviour, found with a witness UBSan reproduces.
 * Expected: an undefined-behaviour finding (signed overflow of `*`). */
#define UNBOUNDED
#include "mulhi_rotation.c"
