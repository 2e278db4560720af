/* `#include <cuda_runtime.h>` in a .cu file: symcross_cuda.h is already
 * included by the compile command. */
#include "symcross_cuda.h"
