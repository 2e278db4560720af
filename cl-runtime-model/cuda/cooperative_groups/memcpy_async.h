/* `#include <cooperative_groups/memcpy_async.h>`: memcpy_async, wait and
 * wait_prior are in symcross_cuda.h, which the compile command already
 * includes. */
#include "../symcross_cuda.h"
