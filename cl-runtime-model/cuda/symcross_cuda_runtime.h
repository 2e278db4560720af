/* symcross's stand-in for the CUDA runtime API (cuda_runtime_api.h): the
 * host side of a .cu file is compiled with it, and the modelled runtime
 * (cl-runtime-model/host/cuda_runtime.c, plain C) implements it over a few
 * engine primitives named __symcross_cuda_*. Error codes and enum values
 * are the toolkit's, so a harness that checks them reads as on a GPU. A
 * runtime function not declared here does not compile: nothing is given a
 * guessed meaning. */
#ifndef SYMCROSS_CUDA_RUNTIME_H
#define SYMCROSS_CUDA_RUNTIME_H

#include <stddef.h>

#ifdef __cplusplus
/* Default arguments: C++ only (`<<<grid, block>>>` leaves out the rest). */
#define __SYMCROSS_DEFAULT(value) = value
extern "C" {
#else
#define __SYMCROSS_DEFAULT(value)
/* C (the runtime model itself): the layout of the C++ dim3 of
 * symcross_cuda.h, which is passed the same way. */
typedef struct dim3 {
  unsigned int x, y, z;
} dim3;
#endif

typedef enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorInvalidDeviceFunction = 98,
  cudaErrorInvalidDevice = 101,
  cudaErrorLaunchFailure = 719
} cudaError_t;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};

typedef struct CUstream_st *cudaStream_t;

cudaError_t cudaMalloc(void **dev_ptr, size_t size);
cudaError_t cudaFree(void *dev_ptr);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemset(void *dev_ptr, int value, size_t count);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorString(cudaError_t error);
const char *cudaGetErrorName(cudaError_t error);
cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDevice(int *device);

/* What clang's `kernel<<<grid, block, shared, stream>>>(args)` becomes
 * (CUDA 9.2 and later): the configuration is pushed, and the kernel's
 * host stub pops it and calls cudaLaunchKernel with its own address and
 * an array of pointers to the argument values. */
unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared __SYMCROSS_DEFAULT(0),
                                     void *stream __SYMCROSS_DEFAULT(0));
cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shared, void *stream);
cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t stream);

/* ---- Engine primitives (src/exec/opencl/cuda_runtime.rs) ---- */
/* A block of device (global) memory named after the user's cudaMalloc
 * line. Host code dereferencing it is an out-of-bounds finding; the
 * runtime's own functions (cuda*) copy to and from it with memcpy. */
void *__symcross_cuda_alloc(size_t size);
/* Frees it, recording the user's cudaFree line. */
void __symcross_cuda_free(void *p);
/* Runs the kernel whose host stub is `stub` on the current memory; 0 when
 * it ran, 1 when the device code has no kernel of that name. */
int __symcross_cuda_launch(const void *stub, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                           void **args, size_t shared);
/* An `unsupported` finding naming what is not modelled; ends the path. */
void __symcross_unsupported(const char *what);

#ifdef __cplusplus
}

/* The toolkit's typed overload: cudaMalloc(&float_ptr, n). */
template <class T> static inline cudaError_t cudaMalloc(T **dev_ptr, size_t size) {
  return cudaMalloc((void **)dev_ptr, size);
}
#endif

#endif
