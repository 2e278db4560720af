/* `#include <cooperative_groups.h>` in a .cu file: the groups symcross
 * models (thread_block, grid_group) are in symcross_cuda.h, which the
 * compile command already includes. */
#include "symcross_cuda.h"
