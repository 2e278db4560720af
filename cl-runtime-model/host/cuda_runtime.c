/* The modelled CUDA runtime (host API of cl-runtime-model/cuda/
 * symcross_cuda_runtime.h): device memory, copies, launches and the
 * sticky last error, as the toolkit's runtime returns them. One device
 * (0); a launch runs the kernel to its end before returning, so
 * cudaDeviceSynchronize has nothing left to wait for. Device memory is
 * global memory allocated by the engine; the allocations are listed here
 * so that a copy past one, or a free of something that is not one, gets
 * the runtime's error code instead of touching memory. */
#include "cuda/symcross_cuda_runtime.h"
#include <stdlib.h>
#include <string.h>

/* The largest allocation the model accepts (the device's memory is not
 * modelled; beyond this cudaMalloc fails as an exhausted device does). */
#define SYMCUDA_MAX_ALLOCATION (256ul << 20)

struct symcuda_allocation {
  unsigned char *base;
  size_t size;
  struct symcuda_allocation *next;
};

static struct symcuda_allocation *allocations;
static cudaError_t last_error = cudaSuccess;

/* The call configuration pushed by `<<<...>>>`, popped by the stub. */
#define SYMCUDA_MAX_PUSHED 8
static struct {
  dim3 grid, block;
  size_t shared;
} pushed[SYMCUDA_MAX_PUSHED];
static unsigned num_pushed;

static cudaError_t fail(cudaError_t e) {
  last_error = e;
  return e;
}

/* The allocation holding [p, p + n), or NULL. */
static struct symcuda_allocation *device_range(const void *p, size_t n) {
  unsigned long a = (unsigned long)p;
  for (struct symcuda_allocation *m = allocations; m; m = m->next) {
    unsigned long base = (unsigned long)m->base;
    if (a >= base && a - base <= m->size && n <= m->size - (a - base))
      return m;
  }
  return NULL;
}

/* Whether p points into some allocation at all (in or past its end). */
static int is_device_pointer(const void *p) { return device_range(p, 0) != NULL; }

cudaError_t cudaMalloc(void **dev_ptr, size_t size) {
  if (!dev_ptr)
    return fail(cudaErrorInvalidValue);
  if (size > SYMCUDA_MAX_ALLOCATION)
    return fail(cudaErrorMemoryAllocation);
  if (size == 0) {
    *dev_ptr = NULL;
    return cudaSuccess;
  }
  struct symcuda_allocation *m = malloc(sizeof *m);
  m->base = __symcross_cuda_alloc(size);
  m->size = size;
  m->next = allocations;
  allocations = m;
  *dev_ptr = m->base;
  return cudaSuccess;
}

cudaError_t cudaFree(void *dev_ptr) {
  if (!dev_ptr)
    return cudaSuccess;
  /* Only the pointer cudaMalloc returned frees; anything else (freed
   * already, host memory, an interior pointer) is cudaErrorInvalidValue,
   * as the runtime returns since CUDA 10.1 (cudaErrorInvalidDevicePointer
   * is deprecated). */
  for (struct symcuda_allocation **at = &allocations; *at; at = &(*at)->next) {
    struct symcuda_allocation *m = *at;
    if (m->base == dev_ptr) {
      *at = m->next;
      __symcross_cuda_free(m->base);
      free(m);
      return cudaSuccess;
    }
  }
  return fail(cudaErrorInvalidValue);
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind) {
  int dst_device, src_device;
  if (count == 0)
    return cudaSuccess;
  if (kind == cudaMemcpyDefault) {
    /* Unified addressing: the pointers say where they are. */
    dst_device = is_device_pointer(dst);
    src_device = is_device_pointer(src);
  } else if (kind >= cudaMemcpyHostToHost && kind <= cudaMemcpyDeviceToDevice) {
    dst_device = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    src_device = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  } else {
    return fail(cudaErrorInvalidMemcpyDirection);
  }
  /* A device side must lie inside one allocation; a host side is host
   * memory, checked by the copy itself like any host access. */
  if ((dst_device && !device_range(dst, count)) || (src_device && !device_range(src, count)))
    return fail(cudaErrorInvalidValue);
  if (!dst || !src)
    return fail(cudaErrorInvalidValue);
  memcpy(dst, src, count);
  return cudaSuccess;
}

cudaError_t cudaMemset(void *dev_ptr, int value, size_t count) {
  if (count == 0)
    return cudaSuccess;
  if (!device_range(dev_ptr, count))
    return fail(cudaErrorInvalidValue);
  memset(dev_ptr, value, count);
  return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }

cudaError_t cudaDeviceReset(void) {
  while (allocations)
    cudaFree(allocations->base);
  last_error = cudaSuccess;
  return cudaSuccess;
}

cudaError_t cudaGetLastError(void) {
  cudaError_t e = last_error;
  last_error = cudaSuccess;
  return e;
}

cudaError_t cudaPeekAtLastError(void) { return last_error; }

const char *cudaGetErrorName(cudaError_t error) {
  switch (error) {
  case cudaSuccess:
    return "cudaSuccess";
  case cudaErrorInvalidValue:
    return "cudaErrorInvalidValue";
  case cudaErrorMemoryAllocation:
    return "cudaErrorMemoryAllocation";
  case cudaErrorInitializationError:
    return "cudaErrorInitializationError";
  case cudaErrorInvalidConfiguration:
    return "cudaErrorInvalidConfiguration";
  case cudaErrorInvalidDevicePointer:
    return "cudaErrorInvalidDevicePointer";
  case cudaErrorInvalidMemcpyDirection:
    return "cudaErrorInvalidMemcpyDirection";
  case cudaErrorInvalidDeviceFunction:
    return "cudaErrorInvalidDeviceFunction";
  case cudaErrorInvalidDevice:
    return "cudaErrorInvalidDevice";
  case cudaErrorLaunchFailure:
    return "cudaErrorLaunchFailure";
  }
  return "cudaErrorUnknown";
}

const char *cudaGetErrorString(cudaError_t error) {
  switch (error) {
  case cudaSuccess:
    return "no error";
  case cudaErrorInvalidValue:
    return "invalid argument";
  case cudaErrorMemoryAllocation:
    return "out of memory";
  case cudaErrorInitializationError:
    return "initialization error";
  case cudaErrorInvalidConfiguration:
    return "invalid configuration argument";
  case cudaErrorInvalidDevicePointer:
    return "invalid device pointer";
  case cudaErrorInvalidMemcpyDirection:
    return "invalid copy direction for memcpy";
  case cudaErrorInvalidDeviceFunction:
    return "invalid device function";
  case cudaErrorInvalidDevice:
    return "invalid device ordinal";
  case cudaErrorLaunchFailure:
    return "unspecified launch failure";
  }
  return "unknown error";
}

cudaError_t cudaGetDeviceCount(int *count) {
  if (!count)
    return fail(cudaErrorInvalidValue);
  *count = 1;
  return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) { return device == 0 ? cudaSuccess : fail(cudaErrorInvalidDevice); }

cudaError_t cudaGetDevice(int *device) {
  if (!device)
    return fail(cudaErrorInvalidValue);
  *device = 0;
  return cudaSuccess;
}

unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared, void *stream) {
  (void)stream;
  if (num_pushed == SYMCUDA_MAX_PUSHED) {
    __symcross_unsupported("kernel launches nested more than 8 deep in launch arguments");
    return 1;
  }
  pushed[num_pushed].grid = grid;
  pushed[num_pushed].block = block;
  pushed[num_pushed].shared = shared;
  num_pushed++;
  return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shared, void *stream) {
  (void)stream;
  if (num_pushed == 0)
    return cudaErrorInvalidConfiguration;
  num_pushed--;
  *grid = pushed[num_pushed].grid;
  *block = pushed[num_pushed].block;
  *shared = pushed[num_pushed].shared;
  return cudaSuccess;
}

/* The device limits of compute capability 7.0 (the sm_70 the device code
 * is compiled for). */
#define SYMCUDA_MAX_THREADS_PER_BLOCK 1024u
#define SYMCUDA_MAX_SHARED_PER_BLOCK (48u << 10)

cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t stream) {
  (void)stream;
  if (block.x == 0 || block.y == 0 || block.z == 0 || grid.x == 0 || grid.y == 0 || grid.z == 0)
    return fail(cudaErrorInvalidConfiguration);
  if (block.x > 1024 || block.y > 1024 || block.z > 64 || grid.y > 65535 || grid.z > 65535)
    return fail(cudaErrorInvalidConfiguration);
  if ((unsigned long)block.x * block.y * block.z > SYMCUDA_MAX_THREADS_PER_BLOCK)
    return fail(cudaErrorInvalidConfiguration);
  /* More dynamic shared memory than a block may have without opting in
   * (cudaFuncSetAttribute, not modelled) fails the launch. */
  if (shared > SYMCUDA_MAX_SHARED_PER_BLOCK)
    return fail(cudaErrorInvalidValue);
  if (__symcross_cuda_launch(func, grid.x, grid.y, grid.z, block.x, block.y, block.z, args, shared) != 0)
    return fail(cudaErrorInvalidDeviceFunction);
  return cudaSuccess;
}
