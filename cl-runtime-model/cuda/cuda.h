/* `#include <cuda.h>` in a .cu file: symcross_cuda.h is already
 * included by the compile command. cuRAND's device API comes with it,
 * as with GPUVerify's headers, so kernels written against those compile. */
#include "symcross_cuda.h"
#include "curand_kernel.h"
