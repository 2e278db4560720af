/* The modelled CUDA runtime (host API of cl-runtime-model/cuda/
 * symcross_cuda_runtime.h): device memory, copies, launches and the
 * last error, as the toolkit's runtime returns them. One device (0); a
 * launch runs the kernel to its end before returning, so
 * cudaDeviceSynchronize has nothing left to wait for. Device memory is
 * global memory allocated by the engine; the allocations are listed here
 * so that a copy past one, or a free of something that is not one, gets
 * the runtime's error code instead of touching memory.
 *
 * A kernel that faults fails the launch as on a GPU, with a sticky error
 * (every runtime call after it returns it and does nothing): an access
 * outside its memory gives cudaErrorIllegalAddress, a misaligned one
 * cudaErrorMisalignedAddress, a failed device-side assert()
 * cudaErrorAssert, __trap() cudaErrorLaunchFailure.
 *
 * Streams and events: every operation runs when it is issued, in program
 * order. That is one of the orders a GPU may run them in; the engine
 * records what each operation touches and compares it with the earlier
 * operations of other streams it is not ordered after (issue/done): a
 * conflict on some byte is a race between streams, and footprints apart
 * make program order stand for every order. */
#include "cuda/symcross_cuda_runtime.h"
#include "symcross.h"
#include <stdlib.h>
#include <string.h>

/* The largest allocation the model accepts (the device's memory is not
 * modelled; beyond this cudaMalloc fails as an exhausted device does). */
#define SYMCUDA_MAX_ALLOCATION (256ul << 20)

/* What an allocation is: which free releases it, where copies may go. */
enum symcuda_kind { SYMCUDA_DEVICE, SYMCUDA_MANAGED, SYMCUDA_PINNED, SYMCUDA_SYMBOL };

struct symcuda_allocation {
  unsigned char *base;
  size_t size;
  enum symcuda_kind kind;
  struct symcuda_allocation *next;
};

static struct symcuda_allocation *allocations;
static cudaError_t last_error = cudaSuccess;
/* Set by a faulting kernel: every call returns it from then on. */
static cudaError_t sticky_error = cudaSuccess;

/* The call configuration pushed by `<<<...>>>`, popped by the stub. */
#define SYMCUDA_MAX_PUSHED 8
static struct {
  dim3 grid, block;
  size_t shared;
  void *stream;
} pushed[SYMCUDA_MAX_PUSHED];
static unsigned num_pushed;

static cudaError_t fail(cudaError_t e) {
  last_error = e;
  return e;
}

/* Every runtime call after a kernel fault returns the fault. */
#define SYMCUDA_UNLESS_FAULTED()                                                                                         \
  do {                                                                                                                 \
    if (sticky_error != cudaSuccess)                                                                                   \
      return fail(sticky_error);                                                                                       \
  } while (0)

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

static void remember(void *base, size_t size, enum symcuda_kind kind) {
  struct symcuda_allocation *m = malloc(sizeof *m);
  m->base = base;
  m->size = size;
  m->kind = kind;
  m->next = allocations;
  allocations = m;
}

static cudaError_t allocate(void **ptr, size_t size, enum symcuda_kind kind) {
  SYMCUDA_UNLESS_FAULTED();
  if (!ptr)
    return fail(cudaErrorInvalidValue);
  if (size > SYMCUDA_MAX_ALLOCATION)
    return fail(cudaErrorMemoryAllocation);
  if (size == 0) {
    *ptr = NULL;
    return cudaSuccess;
  }
  void *base = kind == SYMCUDA_DEVICE ? __symcross_cuda_alloc(size) : __symcross_cuda_alloc_shared(size, kind == SYMCUDA_PINNED);
  remember(base, size, kind);
  *ptr = base;
  return cudaSuccess;
}

cudaError_t cudaMalloc(void **dev_ptr, size_t size) { return allocate(dev_ptr, size, SYMCUDA_DEVICE); }

cudaError_t cudaMallocManaged(void **dev_ptr, size_t size, unsigned flags) {
  if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost)
    return fail(cudaErrorInvalidValue);
  return allocate(dev_ptr, size, SYMCUDA_MANAGED);
}

cudaError_t cudaMallocHost(void **ptr, size_t size) { return allocate(ptr, size, SYMCUDA_PINNED); }

cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned flags) {
  (void)flags;
  return allocate(ptr, size, SYMCUDA_PINNED);
}

/* Only the pointer the matching allocation returned frees; anything else
 * (freed already, host memory, an interior pointer, the other kind of
 * memory) is cudaErrorInvalidValue, as the runtime returns since CUDA
 * 10.1 (cudaErrorInvalidDevicePointer is deprecated). */
static void synchronize_all(void);

static cudaError_t release(void *ptr, int pinned) {
  SYMCUDA_UNLESS_FAULTED();
  if (!ptr)
    return cudaSuccess;
  for (struct symcuda_allocation **at = &allocations; *at; at = &(*at)->next) {
    struct symcuda_allocation *m = *at;
    if (m->base == ptr && m->kind != SYMCUDA_SYMBOL && (m->kind == SYMCUDA_PINNED) == pinned) {
      /* A free waits for the device to finish first. */
      synchronize_all();
      *at = m->next;
      __symcross_cuda_free(m->base);
      free(m);
      return cudaSuccess;
    }
  }
  return fail(cudaErrorInvalidValue);
}

cudaError_t cudaFree(void *dev_ptr) { return release(dev_ptr, 0); }

cudaError_t cudaFreeHost(void *ptr) { return release(ptr, 1); }

static void issue(cudaStream_t stream, const char *what);
static void done(void);
static void host_waits_for_stream(unsigned s);
static int valid_stream(cudaStream_t stream);

/* Which sides of a copy of `kind` are device memory; 0 for no such kind. */
static int copy_sides(const void *dst, const void *src, enum cudaMemcpyKind kind, int *dst_device, int *src_device) {
  if (kind == cudaMemcpyDefault) {
    /* Unified addressing: the pointers say where they are. */
    *dst_device = is_device_pointer(dst);
    *src_device = is_device_pointer(src);
  } else if (kind >= cudaMemcpyHostToHost && kind <= cudaMemcpyDeviceToDevice) {
    *dst_device = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    *src_device = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  } else {
    return 0;
  }
  return 1;
}

/* A copy as the runtime checks it, whichever stream it is on. */
static cudaError_t copy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind) {
  int dst_device, src_device;
  if (count == 0)
    return cudaSuccess;
  if (!copy_sides(dst, src, kind, &dst_device, &src_device))
    return fail(cudaErrorInvalidMemcpyDirection);
  /* A device side must lie inside one allocation; a host side is host
   * memory, checked by the copy itself like any host access. */
  if ((dst_device && !device_range(dst, count)) || (src_device && !device_range(src, count)))
    return fail(cudaErrorInvalidValue);
  if (!dst || !src)
    return fail(cudaErrorInvalidValue);
  /* Into a variable by its cudaGetSymbolAddress address: the copy writes
   * it as cudaMemcpyToSymbol does (a __constant__ one included). */
  if (dst_device && device_range(dst, count)->kind == SYMCUDA_SYMBOL)
    __symcross_cuda_copy_to_symbol(dst, src, count);
  else
    memcpy(dst, src, count);
  return cudaSuccess;
}

static cudaError_t set(void *dev_ptr, int value, size_t count) {
  if (count == 0)
    return cudaSuccess;
  struct symcuda_allocation *m = device_range(dev_ptr, count);
  if (!m)
    return fail(cudaErrorInvalidValue);
  if (m->kind == SYMCUDA_SYMBOL) {
    /* A variable by its address, __constant__ ones included: the bytes
     * go in as a copy to the symbol. */
    unsigned char *bytes = malloc(count);
    memset(bytes, value, count);
    __symcross_cuda_copy_to_symbol(dev_ptr, bytes, count);
    free(bytes);
  } else {
    memset(dev_ptr, value, count);
  }
  return cudaSuccess;
}

/* ---- Pitched (2D) memory ---- */

/* Where cudaMallocPitch starts each row: at multiples of the modelled
 * device's texture alignment (prop.textureAlignment), as GPUs do, so a
 * program that takes the pitch for the row's width is caught. */
#define SYMCUDA_PITCH_ALIGNMENT 512u
/* The largest pitch a 2D copy takes (prop.memPitch). */
#define SYMCUDA_MAX_PITCH 2147483647ul

cudaError_t cudaMallocPitch(void **dev_ptr, size_t *pitch, size_t width, size_t height) {
  SYMCUDA_UNLESS_FAULTED();
  if (!dev_ptr || !pitch)
    return fail(cudaErrorInvalidValue);
  size_t rounded = (width + SYMCUDA_PITCH_ALIGNMENT - 1) / SYMCUDA_PITCH_ALIGNMENT * SYMCUDA_PITCH_ALIGNMENT;
  if (height && rounded > SYMCUDA_MAX_ALLOCATION / height)
    return fail(cudaErrorMemoryAllocation);
  cudaError_t e = allocate(dev_ptr, rounded * height, SYMCUDA_DEVICE);
  if (e == cudaSuccess)
    *pitch = rounded;
  return e;
}

/* Whether `height` rows of `width` bytes, `pitch` apart from p, lie in one
 * allocation (device memory) or are not checked here (host memory: the
 * row copies check it as any host access). */
static int rows_fit(const void *p, size_t pitch, size_t width, size_t height, int device) {
  return !device || device_range(p, pitch * (height - 1) + width) != NULL;
}

/* A 2D copy as the runtime checks it: whole before any row is copied, so
 * that a failing copy copies nothing. */
static cudaError_t copy_2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                           enum cudaMemcpyKind kind) {
  int dst_device, src_device;
  if (!copy_sides(dst, src, kind, &dst_device, &src_device))
    return fail(cudaErrorInvalidMemcpyDirection);
  if (width > dpitch || width > spitch || dpitch > SYMCUDA_MAX_PITCH || spitch > SYMCUDA_MAX_PITCH)
    return fail(cudaErrorInvalidPitchValue);
  if (width == 0 || height == 0)
    return cudaSuccess;
  if (!dst || !src || !rows_fit(dst, dpitch, width, height, dst_device) || !rows_fit(src, spitch, width, height, src_device))
    return fail(cudaErrorInvalidValue);
  for (size_t row = 0; row < height; row++) {
    cudaError_t e = copy((unsigned char *)dst + row * dpitch, (const unsigned char *)src + row * spitch, width, kind);
    if (e != cudaSuccess)
      return e;
  }
  return cudaSuccess;
}

static cudaError_t set_2d(void *dev_ptr, size_t pitch, int value, size_t width, size_t height) {
  if (width > pitch)
    return fail(cudaErrorInvalidValue);
  if (width == 0 || height == 0)
    return cudaSuccess;
  if (!rows_fit(dev_ptr, pitch, width, height, 1))
    return fail(cudaErrorInvalidValue);
  for (size_t row = 0; row < height; row++) {
    cudaError_t e = set((unsigned char *)dev_ptr + row * pitch, value, width);
    if (e != cudaSuccess)
      return e;
  }
  return cudaSuccess;
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                         enum cudaMemcpyKind kind) {
  SYMCUDA_UNLESS_FAULTED();
  issue(0, "cudaMemcpy2D");
  cudaError_t e = copy_2d(dst, dpitch, src, spitch, width, height, kind);
  done();
  host_waits_for_stream(0);
  return e;
}

cudaError_t cudaMemset2D(void *dev_ptr, size_t pitch, int value, size_t width, size_t height) {
  SYMCUDA_UNLESS_FAULTED();
  issue(0, "cudaMemset2D");
  cudaError_t e = set_2d(dev_ptr, pitch, value, width, height);
  done();
  return e;
}

/* On the legacy default stream, and the host waits for it to finish. */
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind) {
  SYMCUDA_UNLESS_FAULTED();
  issue(0, "cudaMemcpy");
  cudaError_t e = copy(dst, src, count, kind);
  done();
  host_waits_for_stream(0);
  return e;
}

/* On the legacy default stream (asynchronous to the host). */
cudaError_t cudaMemset(void *dev_ptr, int value, size_t count) {
  SYMCUDA_UNLESS_FAULTED();
  issue(0, "cudaMemset");
  cudaError_t e = set(dev_ptr, value, count);
  done();
  return e;
}

cudaError_t cudaDeviceSynchronize(void) {
  SYMCUDA_UNLESS_FAULTED();
  synchronize_all();
  return cudaSuccess;
}

/* After a fault the context cannot be used again (the toolkit: the
 * process must end), so a reset returns the fault too. */
cudaError_t cudaDeviceReset(void) {
  SYMCUDA_UNLESS_FAULTED();
  for (struct symcuda_allocation **at = &allocations; *at;) {
    struct symcuda_allocation *m = *at;
    if (m->kind == SYMCUDA_SYMBOL) {
      at = &m->next;
      continue;
    }
    *at = m->next;
    __symcross_cuda_free(m->base);
    free(m);
  }
  synchronize_all();
  last_error = cudaSuccess;
  return cudaSuccess;
}

/* A sticky error is returned and not cleared. */
cudaError_t cudaGetLastError(void) {
  cudaError_t e = last_error;
  last_error = sticky_error;
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
  case cudaErrorInvalidSymbol:
    return "cudaErrorInvalidSymbol";
  case cudaErrorInvalidPitchValue:
    return "cudaErrorInvalidPitchValue";
  case cudaErrorInvalidChannelDescriptor:
    return "cudaErrorInvalidChannelDescriptor";
  case cudaErrorInvalidResourceHandle:
    return "cudaErrorInvalidResourceHandle";
  case cudaErrorNotReady:
    return "cudaErrorNotReady";
  case cudaErrorIllegalAddress:
    return "cudaErrorIllegalAddress";
  case cudaErrorAssert:
    return "cudaErrorAssert";
  case cudaErrorMisalignedAddress:
    return "cudaErrorMisalignedAddress";
  case cudaErrorLaunchFailure:
    return "cudaErrorLaunchFailure";
  case cudaErrorCooperativeLaunchTooLarge:
    return "cudaErrorCooperativeLaunchTooLarge";
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
  case cudaErrorInvalidSymbol:
    return "invalid device symbol";
  case cudaErrorInvalidPitchValue:
    return "invalid pitch argument";
  case cudaErrorInvalidChannelDescriptor:
    return "invalid channel descriptor";
  case cudaErrorInvalidResourceHandle:
    return "invalid resource handle";
  case cudaErrorNotReady:
    return "device not ready";
  case cudaErrorIllegalAddress:
    return "an illegal memory access was encountered";
  case cudaErrorAssert:
    return "device-side assert triggered";
  case cudaErrorMisalignedAddress:
    return "misaligned address";
  case cudaErrorLaunchFailure:
    return "unspecified launch failure";
  case cudaErrorCooperativeLaunchTooLarge:
    return "too many blocks in cooperative launch";
  }
  return "unknown error";
}

cudaError_t cudaGetDeviceCount(int *count) {
  if (!count)
    return fail(cudaErrorInvalidValue);
  *count = 1;
  return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) {
  SYMCUDA_UNLESS_FAULTED();
  return device == 0 ? cudaSuccess : fail(cudaErrorInvalidDevice);
}

cudaError_t cudaGetDevice(int *device) {
  if (!device)
    return fail(cudaErrorInvalidValue);
  *device = 0;
  return cudaSuccess;
}

unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared, void *stream) {
  if (num_pushed == SYMCUDA_MAX_PUSHED) {
    __symcross_unsupported("kernel launches nested more than 8 deep in launch arguments");
    return 1;
  }
  pushed[num_pushed].grid = grid;
  pushed[num_pushed].block = block;
  pushed[num_pushed].shared = shared;
  pushed[num_pushed].stream = stream;
  num_pushed++;
  return 0;
}

/* `stream` points at the stub's cudaStream_t. */
cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shared, void *stream) {
  if (num_pushed == 0) {
    /* A stub called without `<<<...>>>`: a launch of no threads, which
     * cudaLaunchKernel refuses. */
    grid->x = grid->y = grid->z = 0;
    block->x = block->y = block->z = 0;
    *shared = 0;
    *(void **)stream = NULL;
    return cudaErrorInvalidConfiguration;
  }
  num_pushed--;
  *grid = pushed[num_pushed].grid;
  *block = pushed[num_pushed].block;
  *shared = pushed[num_pushed].shared;
  *(void **)stream = pushed[num_pushed].stream;
  return cudaSuccess;
}

/* The device limits of compute capability 7.0 (the sm_70 the device code
 * is compiled for). */
#define SYMCUDA_MAX_THREADS_PER_BLOCK 1024u
#define SYMCUDA_MAX_SHARED_PER_BLOCK (48u << 10)

/* The most shared memory, static and dynamic, a block may have when its
 * kernel opted in to more dynamic shared memory (cudaFuncSetAttribute). */
#define SYMCUDA_MAX_SHARED_OPTIN (96u << 10)
#define SYMCUDA_MAX_ATTRIBUTES 32
/* The carve-out a kernel asks for by default (cudaSharedmemCarveoutDefault). */
#define SYMCUDA_DEFAULT_CARVEOUT (-1)
static struct {
  const void *func;
  int max_dynamic_shared; /* -1: not set */
  int carveout;
} attributes[SYMCUDA_MAX_ATTRIBUTES];
static unsigned num_attributes;

/* The attributes set for `func`, a new entry when there is none (NULL when
 * the table is full: unsupported). */
static int attribute_slot(const void *func) {
  for (unsigned i = 0; i < num_attributes; i++)
    if (attributes[i].func == func)
      return (int)i;
  if (num_attributes == SYMCUDA_MAX_ATTRIBUTES) {
    __symcross_cuda_unsupported("cudaFuncSetAttribute on more than 32 kernels");
    return -1;
  }
  attributes[num_attributes].func = func;
  attributes[num_attributes].max_dynamic_shared = -1;
  attributes[num_attributes].carveout = SYMCUDA_DEFAULT_CARVEOUT;
  return (int)num_attributes++;
}

cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value) {
  SYMCUDA_UNLESS_FAULTED();
  if (!func)
    return fail(cudaErrorInvalidDeviceFunction);
  if (attr == cudaFuncAttributePreferredSharedMemoryCarveout) {
    if (value < -1 || value > 100)
      return fail(cudaErrorInvalidValue);
    int i = attribute_slot(func);
    if (i < 0)
      return cudaErrorInvalidValue;
    attributes[i].carveout = value;
    return cudaSuccess;
  }
  if (attr != cudaFuncAttributeMaxDynamicSharedMemorySize)
    return fail(cudaErrorInvalidValue);
  /* The kernel's static __shared__ arrays count against the same limit. */
  if (value < 0 || (size_t)value + __symcross_cuda_static_shared(func) > SYMCUDA_MAX_SHARED_OPTIN)
    return fail(cudaErrorInvalidValue);
  int i = attribute_slot(func);
  if (i < 0)
    return cudaErrorInvalidValue;
  attributes[i].max_dynamic_shared = value;
  return cudaSuccess;
}

/* The dynamic shared memory a launch of `func` may have: what
 * cudaFuncSetAttribute set, else what its static __shared__ arrays leave
 * of the 48 KiB a block has without opting in (the toolkit's default
 * maxDynamicSharedSizeBytes). */
static size_t max_dynamic_shared(const void *func) {
  for (unsigned i = 0; i < num_attributes; i++)
    if (attributes[i].func == func && attributes[i].max_dynamic_shared >= 0)
      return attributes[i].max_dynamic_shared;
  size_t fixed = __symcross_cuda_static_shared(func);
  return fixed < SYMCUDA_MAX_SHARED_PER_BLOCK ? SYMCUDA_MAX_SHARED_PER_BLOCK - fixed : 0;
}

cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t stream) {
  SYMCUDA_UNLESS_FAULTED();
  if (!valid_stream(stream))
    return fail(cudaErrorInvalidResourceHandle);
  if (block.x == 0 || block.y == 0 || block.z == 0 || grid.x == 0 || grid.y == 0 || grid.z == 0)
    return fail(cudaErrorInvalidConfiguration);
  if (block.x > 1024 || block.y > 1024 || block.z > 64 || grid.x > 2147483647u || grid.y > 65535 || grid.z > 65535)
    return fail(cudaErrorInvalidConfiguration);
  if ((unsigned long)block.x * block.y * block.z > SYMCUDA_MAX_THREADS_PER_BLOCK)
    return fail(cudaErrorInvalidConfiguration);
  /* More dynamic shared memory than a block may have without opting in
   * (cudaFuncSetAttribute) fails the launch. */
  if (shared > max_dynamic_shared(func))
    return fail(cudaErrorInvalidValue);
  issue(stream, "the kernel launch");
  int ran = __symcross_cuda_launch(func, grid.x, grid.y, grid.z, block.x, block.y, block.z, args, shared);
  done();
  /* A kernel fault (codes 2 to 5 of the engine, cuda_runtime.rs's
   * LaunchFault): the launch itself was accepted, and the fault is what
   * every later call returns (it has already happened here, the kernel
   * having run to its end). */
  switch (ran) {
  case 0:
    return cudaSuccess;
  case 2:
    sticky_error = cudaErrorIllegalAddress;
    break;
  case 3:
    sticky_error = cudaErrorMisalignedAddress;
    break;
  case 4:
    sticky_error = cudaErrorAssert;
    break;
  case 5:
    sticky_error = cudaErrorLaunchFailure;
    break;
  default:
    return fail(cudaErrorInvalidDeviceFunction);
  }
  last_error = sticky_error;
  return cudaSuccess;
}

/* The modelled device's multiprocessors (prop.multiProcessorCount). */
#define SYMCUDA_MULTIPROCESSORS 80u

/* A cooperative launch's blocks must all be resident on the device at
 * once. The occupancy below is an upper bound of the resident blocks per
 * multiprocessor (registers are not known to the model), and the model
 * assumes, as for every launch, that one block fits: more blocks than the
 * upper bound allows fail with cudaErrorCooperativeLaunchTooLarge and run
 * nothing, one per multiprocessor or fewer run; in between whether they
 * fit is not known, named as not checked (the verdict is then no proof),
 * and the launch runs. */
cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shared,
                                        cudaStream_t stream) {
  SYMCUDA_UNLESS_FAULTED();
  unsigned long threads = (unsigned long)block.x * block.y * block.z;
  unsigned long blocks = (unsigned long)grid.x * grid.y * grid.z;
  int per_multiprocessor = 0;
  if (blocks > SYMCUDA_MULTIPROCESSORS && threads >= 1 && threads <= SYMCUDA_MAX_THREADS_PER_BLOCK && func &&
      shared <= max_dynamic_shared(func) &&
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, func, (int)threads, shared) == cudaSuccess) {
    if (blocks > (unsigned long)per_multiprocessor * SYMCUDA_MULTIPROCESSORS)
      return fail(cudaErrorCooperativeLaunchTooLarge);
    __symcross_cuda_limit("whether all blocks of a cooperative launch are resident at once (more than one per "
                          "multiprocessor, and the registers per thread are not known to the model)");
  }
  return cudaLaunchKernel(func, grid, block, args, shared, stream);
}

/* ---- Device properties ---- */

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device) {
  SYMCUDA_UNLESS_FAULTED();
  if (!prop)
    return fail(cudaErrorInvalidValue);
  if (device != 0)
    return fail(cudaErrorInvalidDevice);
  memset(prop, 0, sizeof *prop);
  strcpy(prop->name, "symcross model of an sm_70 GPU (Tesla V100 limits)");
  prop->totalGlobalMem = 16ul << 30;
  prop->sharedMemPerBlock = SYMCUDA_MAX_SHARED_PER_BLOCK;
  prop->regsPerBlock = 65536;
  prop->warpSize = 32;
  prop->memPitch = 2147483647;
  prop->maxThreadsPerBlock = SYMCUDA_MAX_THREADS_PER_BLOCK;
  prop->maxThreadsDim[0] = 1024;
  prop->maxThreadsDim[1] = 1024;
  prop->maxThreadsDim[2] = 64;
  prop->maxGridSize[0] = 2147483647;
  prop->maxGridSize[1] = 65535;
  prop->maxGridSize[2] = 65535;
  prop->clockRate = 1530000;
  prop->totalConstMem = 65536;
  prop->major = 7;
  prop->minor = 0;
  prop->textureAlignment = 512;
  prop->deviceOverlap = 1;
  prop->multiProcessorCount = SYMCUDA_MULTIPROCESSORS;
  prop->canMapHostMemory = 1;
  prop->concurrentKernels = 1;
  prop->ECCEnabled = 1;
  prop->asyncEngineCount = 6;
  prop->unifiedAddressing = 1;
  prop->memoryClockRate = 877000;
  prop->memoryBusWidth = 4096;
  prop->l2CacheSize = 6 << 20;
  prop->maxThreadsPerMultiProcessor = 2048;
  prop->sharedMemPerMultiprocessor = 96 << 10;
  prop->regsPerMultiprocessor = 65536;
  prop->managedMemory = 1;
  prop->concurrentManagedAccess = 1;
  prop->sharedMemPerBlockOptin = SYMCUDA_MAX_SHARED_OPTIN;
  prop->maxBlocksPerMultiProcessor = 32;
  return cudaSuccess;
}

/* The toolkit version the host side is compiled for
 * (-target-sdk-version=12.0), for the runtime and the driver alike. */
#define SYMCUDA_VERSION 12000

cudaError_t cudaRuntimeGetVersion(int *version) {
  if (!version)
    return fail(cudaErrorInvalidValue);
  *version = SYMCUDA_VERSION;
  return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int *version) {
  if (!version)
    return fail(cudaErrorInvalidValue);
  *version = SYMCUDA_VERSION;
  return cudaSuccess;
}

/* How much device memory is free is not modelled (other processes, the
 * driver's own use): any amount up to what the program's own allocations
 * leave of the total, an input, so no answer rests on one value. */
cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes) {
  SYMCUDA_UNLESS_FAULTED();
  if (!free_bytes || !total_bytes)
    return fail(cudaErrorInvalidValue);
  size_t total = 16ul << 30, used = 0;
  for (struct symcuda_allocation *m = allocations; m; m = m->next)
    if (m->kind == SYMCUDA_DEVICE || m->kind == SYMCUDA_MANAGED)
      used += m->size;
  size_t free_now;
  symcross_make_symbolic(&free_now, sizeof free_now, "cudaMemGetInfo");
  symcross_assume(free_now <= (used < total ? total - used : 0));
  *free_bytes = free_now;
  *total_bytes = total;
  return cudaSuccess;
}

/* Cache preferences are hints: accepted when they name a preference. */
cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache config) {
  SYMCUDA_UNLESS_FAULTED();
  return config >= cudaFuncCachePreferNone && config <= cudaFuncCachePreferEqual ? cudaSuccess : fail(cudaErrorInvalidValue);
}

cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache config) {
  SYMCUDA_UNLESS_FAULTED();
  if (!func)
    return fail(cudaErrorInvalidDeviceFunction);
  return config >= cudaFuncCachePreferNone && config <= cudaFuncCachePreferEqual ? cudaSuccess : fail(cudaErrorInvalidValue);
}

/* The attributes listed in the header, read from the properties above. */
cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device) {
  SYMCUDA_UNLESS_FAULTED();
  if (!value)
    return fail(cudaErrorInvalidValue);
  struct cudaDeviceProp p;
  cudaError_t e = cudaGetDeviceProperties(&p, device);
  if (e != cudaSuccess)
    return e;
  switch (attr) {
  case cudaDevAttrMaxThreadsPerBlock:
    *value = p.maxThreadsPerBlock;
    break;
  case cudaDevAttrMaxBlockDimX:
  case cudaDevAttrMaxBlockDimY:
  case cudaDevAttrMaxBlockDimZ:
    *value = p.maxThreadsDim[attr - cudaDevAttrMaxBlockDimX];
    break;
  case cudaDevAttrMaxGridDimX:
  case cudaDevAttrMaxGridDimY:
  case cudaDevAttrMaxGridDimZ:
    *value = p.maxGridSize[attr - cudaDevAttrMaxGridDimX];
    break;
  case cudaDevAttrMaxSharedMemoryPerBlock:
    *value = (int)p.sharedMemPerBlock;
    break;
  case cudaDevAttrTotalConstantMemory:
    *value = (int)p.totalConstMem;
    break;
  case cudaDevAttrWarpSize:
    *value = p.warpSize;
    break;
  case cudaDevAttrMaxPitch:
    *value = (int)p.memPitch;
    break;
  case cudaDevAttrMaxRegistersPerBlock:
    *value = p.regsPerBlock;
    break;
  case cudaDevAttrClockRate:
    *value = p.clockRate;
    break;
  case cudaDevAttrTextureAlignment:
    *value = (int)p.textureAlignment;
    break;
  case cudaDevAttrGpuOverlap:
    *value = p.deviceOverlap;
    break;
  case cudaDevAttrMultiProcessorCount:
    *value = p.multiProcessorCount;
    break;
  case cudaDevAttrCanMapHostMemory:
    *value = p.canMapHostMemory;
    break;
  case cudaDevAttrConcurrentKernels:
    *value = p.concurrentKernels;
    break;
  case cudaDevAttrEccEnabled:
    *value = p.ECCEnabled;
    break;
  case cudaDevAttrMemoryClockRate:
    *value = p.memoryClockRate;
    break;
  case cudaDevAttrGlobalMemoryBusWidth:
    *value = p.memoryBusWidth;
    break;
  case cudaDevAttrL2CacheSize:
    *value = p.l2CacheSize;
    break;
  case cudaDevAttrMaxThreadsPerMultiProcessor:
    *value = p.maxThreadsPerMultiProcessor;
    break;
  case cudaDevAttrAsyncEngineCount:
    *value = p.asyncEngineCount;
    break;
  case cudaDevAttrUnifiedAddressing:
    *value = p.unifiedAddressing;
    break;
  case cudaDevAttrComputeCapabilityMajor:
    *value = p.major;
    break;
  case cudaDevAttrComputeCapabilityMinor:
    *value = p.minor;
    break;
  case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
    *value = (int)p.sharedMemPerMultiprocessor;
    break;
  case cudaDevAttrMaxRegistersPerMultiprocessor:
    *value = p.regsPerMultiprocessor;
    break;
  case cudaDevAttrManagedMemory:
    *value = p.managedMemory;
    break;
  case cudaDevAttrConcurrentManagedAccess:
    *value = p.concurrentManagedAccess;
    break;
  case cudaDevAttrMaxSharedMemoryPerBlockOptin:
    *value = (int)p.sharedMemPerBlockOptin;
    break;
  case cudaDevAttrMaxBlocksPerMultiprocessor:
    *value = p.maxBlocksPerMultiProcessor;
    break;
  default:
    /* A number the header does not list (a cast): its value is not
     * modelled, and no value is guessed. */
    __symcross_cuda_unsupported("cudaDeviceGetAttribute of an attribute the model does not list");
    return fail(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

/* Blocks of `block_size` threads and `dynamic_shared` bytes that fit on
 * one multiprocessor of the modelled device: at most 32 blocks, 2048
 * threads (whole warps) and 96 KiB of shared memory, static and dynamic.
 * Registers are not known here: an upper bound. */
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *num_blocks, const void *func, int block_size,
                                                          size_t dynamic_shared) {
  SYMCUDA_UNLESS_FAULTED();
  if (!num_blocks || !func || block_size <= 0 || (unsigned)block_size > SYMCUDA_MAX_THREADS_PER_BLOCK)
    return fail(cudaErrorInvalidValue);
  if (dynamic_shared > max_dynamic_shared(func)) {
    *num_blocks = 0;
    return cudaSuccess;
  }
  unsigned warps = ((unsigned)block_size + 31) / 32;
  unsigned blocks = 2048 / 32 / warps;
  if (blocks > 32)
    blocks = 32;
  size_t per_block = dynamic_shared + __symcross_cuda_static_shared(func);
  if (per_block && (96u << 10) / per_block < blocks)
    blocks = (unsigned)((96u << 10) / per_block);
  *num_blocks = (int)blocks;
  return cudaSuccess;
}

/* ---- Symbols ---- */

cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol) {
  SYMCUDA_UNLESS_FAULTED();
  size_t n = __symcross_cuda_symbol_size(symbol);
  if (!n)
    return fail(cudaErrorInvalidSymbol);
  if (!size)
    return fail(cudaErrorInvalidValue);
  *size = n;
  return cudaSuccess;
}

cudaError_t cudaGetSymbolAddress(void **dev_ptr, const void *symbol) {
  SYMCUDA_UNLESS_FAULTED();
  unsigned char *at = __symcross_cuda_symbol(symbol);
  if (!at)
    return fail(cudaErrorInvalidSymbol);
  if (!dev_ptr)
    return fail(cudaErrorInvalidValue);
  /* Listed once, so that cudaMemcpy to and from it is a device copy. */
  if (!device_range(at, 0))
    remember(at, __symcross_cuda_symbol_size(symbol), SYMCUDA_SYMBOL);
  *dev_ptr = at;
  return cudaSuccess;
}

/* The range [offset, offset + count) of the variable at `symbol`, or
 * NULL with the error set. */
static unsigned char *symbol_range(const void *symbol, size_t count, size_t offset) {
  unsigned char *at = __symcross_cuda_symbol(symbol);
  if (!at) {
    fail(cudaErrorInvalidSymbol);
    return NULL;
  }
  size_t size = __symcross_cuda_symbol_size(symbol);
  if (offset > size || count > size - offset) {
    fail(cudaErrorInvalidValue);
    return NULL;
  }
  return at + offset;
}

static cudaError_t copy_to_symbol(const void *symbol, const void *src, size_t count, size_t offset, enum cudaMemcpyKind kind) {
  if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
    return fail(cudaErrorInvalidMemcpyDirection);
  unsigned char *at = symbol_range(symbol, count, offset);
  if (!at)
    return last_error;
  if (kind == cudaMemcpyDeviceToDevice && !device_range(src, count))
    return fail(cudaErrorInvalidValue);
  if (count)
    __symcross_cuda_copy_to_symbol(at, src, count);
  return cudaSuccess;
}

static cudaError_t copy_from_symbol(void *dst, const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind) {
  if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
    return fail(cudaErrorInvalidMemcpyDirection);
  unsigned char *at = symbol_range(symbol, count, offset);
  if (!at)
    return last_error;
  if (kind == cudaMemcpyDeviceToDevice && !device_range(dst, count))
    return fail(cudaErrorInvalidValue);
  if (count)
    memcpy(dst, at, count);
  return cudaSuccess;
}

cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset, enum cudaMemcpyKind kind) {
  SYMCUDA_UNLESS_FAULTED();
  issue(0, "cudaMemcpyToSymbol");
  cudaError_t e = copy_to_symbol(symbol, src, count, offset, kind);
  done();
  host_waits_for_stream(0);
  return e;
}

cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind) {
  SYMCUDA_UNLESS_FAULTED();
  issue(0, "cudaMemcpyFromSymbol");
  cudaError_t e = copy_from_symbol(dst, symbol, count, offset, kind);
  done();
  host_waits_for_stream(0);
  return e;
}

/* ---- Streams and events ----
 * Each stream (0: the legacy default stream) counts the operations issued
 * to it; `after[s][t]` is how many of stream t's operations stream s is
 * ordered after (it waited for them). An operation issued to s while
 * another stream t has operations s is not ordered after may run at the
 * same time as them on a GPU: that is what the model does not check. The
 * legacy default stream and the blocking streams wait for each other. */
#define SYMCUDA_MAX_STREAMS 16
/* The per-thread default stream's slot: a stream of its own that, like a
 * blocking stream, waits for the legacy one and is waited for by it. */
#define SYMCUDA_PER_THREAD (SYMCUDA_MAX_STREAMS + 1)
#define SYMCUDA_SLOTS (SYMCUDA_MAX_STREAMS + 2)

struct CUstream_st {
  unsigned index;
};

struct CUevent_st {
  int live;
  unsigned flags;
  int recorded;
  unsigned stream;
  unsigned long count;
  /* What the stream was ordered after when the event was recorded. */
  unsigned long ordered[SYMCUDA_SLOTS];
};

static struct CUstream_st stream_handles[SYMCUDA_SLOTS];
static int stream_live[SYMCUDA_SLOTS] = {[0] = 1, [SYMCUDA_PER_THREAD] = 1};
static int stream_blocking[SYMCUDA_SLOTS] = {[0] = 1, [SYMCUDA_PER_THREAD] = 1};
static unsigned long issued[SYMCUDA_SLOTS];
static unsigned long after[SYMCUDA_SLOTS][SYMCUDA_SLOTS];
/* How many of each stream's operations the host waited for; the engine
 * reads it when host code touches managed or pinned memory while device
 * work may still run, to compare the access with what that work touches
 * (src/exec/opencl/cuda_streams.rs). */
unsigned long __symcross_cuda_host_after[SYMCUDA_SLOTS];
#define host_after __symcross_cuda_host_after
/* Non-zero while some stream has work the host has not waited for: the
 * engine reads it when host code touches managed or pinned memory
 * (src/exec/opencl/cuda_runtime.rs), which it may not do then. */
int __symcross_cuda_device_busy;

static void update_busy(void) {
  __symcross_cuda_device_busy = 0;
  for (unsigned t = 0; t < SYMCUDA_SLOTS; t++)
    if (issued[t] > host_after[t])
      __symcross_cuda_device_busy = 1;
}

/* The slot of a stream handle: 0 for the legacy default stream. The
 * default streams' handles are small integers (compared as such). */
static unsigned stream_index(cudaStream_t stream) {
  unsigned long handle = (unsigned long)stream;
  if (handle == 0 || handle == 1)
    return 0;
  if (handle == 2)
    return SYMCUDA_PER_THREAD;
  return stream->index;
}

static int valid_stream(cudaStream_t stream) {
  if ((unsigned long)stream <= 2)
    return 1;
  for (unsigned i = 1; i <= SYMCUDA_MAX_STREAMS; i++)
    if (stream == &stream_handles[i])
      return stream_live[i];
  return 0;
}

/* Whether the operations of s and t are ordered by the default stream's
 * rule (one is the legacy default stream, the other blocks on it). */
static int ordered_by_default(unsigned s, unsigned t) {
  return (s == 0 && stream_blocking[t]) || (t == 0 && stream_blocking[s]);
}

/* Stream s is ordered after all of stream t's operations so far, and so
 * after everything they are ordered after. */
static void join(unsigned s, unsigned t) {
  after[s][t] = issued[t];
  for (unsigned u = 0; u < SYMCUDA_SLOTS; u++)
    if (u != s && after[s][u] < after[t][u])
      after[s][u] = after[t][u];
}

/* An operation issued to `stream`: the engine records what it touches
 * until done() and compares that with the operations of other streams it
 * is not ordered after (src/exec/opencl/cuda_streams.rs). */
static void issue(cudaStream_t stream, const char *what) {
  unsigned s = stream_index(stream);
  for (unsigned t = 0; t < SYMCUDA_SLOTS; t++)
    if (t != s && issued[t] != after[s][t] && ordered_by_default(s, t))
      join(s, t);
  __symcross_cuda_op_begin(s, after[s], SYMCUDA_SLOTS, what);
  issued[s]++;
  after[s][s] = issued[s];
  update_busy();
}

static void done(void) { __symcross_cuda_op_end(); }

/* The host waited for stream t's operations so far: everything issued
 * from now on is ordered after them. */
static void host_waited_for(unsigned t, unsigned long count) {
  for (unsigned s = 0; s < SYMCUDA_SLOTS; s++)
    if (after[s][t] < count)
      after[s][t] = count;
  if (host_after[t] < count)
    host_after[t] = count;
  update_busy();
}

static void synchronize_all(void) {
  for (unsigned t = 0; t < SYMCUDA_SLOTS; t++)
    host_waited_for(t, issued[t]);
}

/* The host waited for everything issued to stream s so far (and so, for
 * the legacy default stream, for what it waited for in the others). */
static void host_waits_for_stream(unsigned s) {
  host_waited_for(s, issued[s]);
  for (unsigned t = 0; t < SYMCUDA_SLOTS; t++)
    if (t != s && after[s][t])
      host_waited_for(t, after[s][t]);
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned flags) {
  SYMCUDA_UNLESS_FAULTED();
  if (!stream || (flags & ~(unsigned)cudaStreamNonBlocking))
    return fail(cudaErrorInvalidValue);
  for (unsigned i = 1; i <= SYMCUDA_MAX_STREAMS; i++)
    if (!stream_live[i] && issued[i] == 0) {
      stream_live[i] = 1;
      stream_blocking[i] = !(flags & cudaStreamNonBlocking);
      stream_handles[i].index = i;
      *stream = &stream_handles[i];
      __symcross_cuda_stream_created(i);
      return cudaSuccess;
    }
  __symcross_cuda_unsupported("more than 16 CUDA streams created");
  return cudaErrorMemoryAllocation;
}

cudaError_t cudaStreamCreate(cudaStream_t *stream) { return cudaStreamCreateWithFlags(stream, cudaStreamDefault); }

/* A destroyed stream's handle stays invalid (it is not reused), so that a
 * later use of it is cudaErrorInvalidResourceHandle. */
cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  SYMCUDA_UNLESS_FAULTED();
  if (stream_index(stream) == 0 || !valid_stream(stream))
    return fail(cudaErrorInvalidResourceHandle);
  stream_live[stream_index(stream)] = 0;
  return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  SYMCUDA_UNLESS_FAULTED();
  if (!valid_stream(stream))
    return fail(cudaErrorInvalidResourceHandle);
  host_waits_for_stream(stream_index(stream));
  return cudaSuccess;
}

cudaError_t cudaStreamQuery(cudaStream_t stream) {
  SYMCUDA_UNLESS_FAULTED();
  return valid_stream(stream) ? cudaSuccess : fail(cudaErrorInvalidResourceHandle);
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t stream) {
  SYMCUDA_UNLESS_FAULTED();
  if (!valid_stream(stream))
    return fail(cudaErrorInvalidResourceHandle);
  issue(stream, "cudaMemcpyAsync");
  cudaError_t e = copy(dst, src, count, kind);
  done();
  return e;
}

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                              enum cudaMemcpyKind kind, cudaStream_t stream) {
  SYMCUDA_UNLESS_FAULTED();
  if (!valid_stream(stream))
    return fail(cudaErrorInvalidResourceHandle);
  issue(stream, "cudaMemcpy2DAsync");
  cudaError_t e = copy_2d(dst, dpitch, src, spitch, width, height, kind);
  done();
  return e;
}

cudaError_t cudaMemset2DAsync(void *dev_ptr, size_t pitch, int value, size_t width, size_t height, cudaStream_t stream) {
  SYMCUDA_UNLESS_FAULTED();
  if (!valid_stream(stream))
    return fail(cudaErrorInvalidResourceHandle);
  issue(stream, "cudaMemset2DAsync");
  cudaError_t e = set_2d(dev_ptr, pitch, value, width, height);
  done();
  return e;
}

/* Managed memory hints move no data in the model (one memory for host
 * and device), so they order nothing: a prefetch is a stream operation
 * that touches no byte. The range must be managed memory. */
static int managed_range(const void *p, size_t count) {
  struct symcuda_allocation *m = device_range(p, count);
  return m && m->kind == SYMCUDA_MANAGED;
}

cudaError_t cudaMemPrefetchAsync(const void *dev_ptr, size_t count, int dst_device, cudaStream_t stream) {
  SYMCUDA_UNLESS_FAULTED();
  if (!valid_stream(stream))
    return fail(cudaErrorInvalidResourceHandle);
  if (dst_device != 0 && dst_device != cudaCpuDeviceId)
    return fail(cudaErrorInvalidDevice);
  if (!count || !managed_range(dev_ptr, count))
    return fail(cudaErrorInvalidValue);
  issue(stream, "cudaMemPrefetchAsync");
  done();
  return cudaSuccess;
}

cudaError_t cudaMemAdvise(const void *dev_ptr, size_t count, enum cudaMemoryAdvise advice, int device) {
  SYMCUDA_UNLESS_FAULTED();
  if (advice < cudaMemAdviseSetReadMostly || advice > cudaMemAdviseUnsetAccessedBy)
    return fail(cudaErrorInvalidValue);
  int needs_device = advice == cudaMemAdviseSetPreferredLocation || advice == cudaMemAdviseSetAccessedBy ||
                     advice == cudaMemAdviseUnsetAccessedBy;
  if (needs_device && device != 0 && device != cudaCpuDeviceId)
    return fail(cudaErrorInvalidDevice);
  if (!count || !managed_range(dev_ptr, count))
    return fail(cudaErrorInvalidValue);
  return cudaSuccess;
}

cudaError_t cudaMemsetAsync(void *dev_ptr, int value, size_t count, cudaStream_t stream) {
  SYMCUDA_UNLESS_FAULTED();
  if (!valid_stream(stream))
    return fail(cudaErrorInvalidResourceHandle);
  issue(stream, "cudaMemsetAsync");
  cudaError_t e = set(dev_ptr, value, count);
  done();
  return e;
}

cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset, enum cudaMemcpyKind kind,
                                    cudaStream_t stream) {
  SYMCUDA_UNLESS_FAULTED();
  if (!valid_stream(stream))
    return fail(cudaErrorInvalidResourceHandle);
  issue(stream, "cudaMemcpyToSymbolAsync");
  cudaError_t e = copy_to_symbol(symbol, src, count, offset, kind);
  done();
  return e;
}

cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind,
                                      cudaStream_t stream) {
  SYMCUDA_UNLESS_FAULTED();
  if (!valid_stream(stream))
    return fail(cudaErrorInvalidResourceHandle);
  issue(stream, "cudaMemcpyFromSymbolAsync");
  cudaError_t e = copy_from_symbol(dst, symbol, count, offset, kind);
  done();
  return e;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned flags) {
  SYMCUDA_UNLESS_FAULTED();
  if (!event || (flags & ~(unsigned)(cudaEventBlockingSync | cudaEventDisableTiming)))
    return fail(cudaErrorInvalidValue);
  /* Never freed: a destroyed event's handle stays invalid. */
  struct CUevent_st *e = malloc(sizeof *e);
  e->live = 1;
  e->flags = flags;
  e->recorded = 0;
  e->stream = 0;
  e->count = 0;
  *event = e;
  return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t *event) { return cudaEventCreateWithFlags(event, cudaEventDefault); }

cudaError_t cudaEventDestroy(cudaEvent_t event) {
  SYMCUDA_UNLESS_FAULTED();
  if (!event || !event->live)
    return fail(cudaErrorInvalidResourceHandle);
  event->live = 0;
  return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  SYMCUDA_UNLESS_FAULTED();
  if (!event || !event->live || !valid_stream(stream))
    return fail(cudaErrorInvalidResourceHandle);
  event->recorded = 1;
  event->stream = stream_index(stream);
  /* A record is a stream operation too: on the legacy default stream it
   * waits for the blocking streams' work, as a launch there does. */
  for (unsigned t = 0; t < SYMCUDA_SLOTS; t++)
    if (t != event->stream && issued[t] != after[event->stream][t] && ordered_by_default(event->stream, t))
      join(event->stream, t);
  event->count = issued[event->stream];
  for (unsigned t = 0; t < SYMCUDA_SLOTS; t++)
    event->ordered[t] = t == event->stream ? event->count : after[event->stream][t];
  return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  SYMCUDA_UNLESS_FAULTED();
  if (!event || !event->live)
    return fail(cudaErrorInvalidResourceHandle);
  if (event->recorded)
    for (unsigned t = 0; t < SYMCUDA_SLOTS; t++)
      host_waited_for(t, event->ordered[t]);
  return cudaSuccess;
}

cudaError_t cudaEventQuery(cudaEvent_t event) {
  SYMCUDA_UNLESS_FAULTED();
  if (!event || !event->live)
    return fail(cudaErrorInvalidResourceHandle);
  return cudaSuccess;
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags) {
  SYMCUDA_UNLESS_FAULTED();
  if (!event || !event->live || !valid_stream(stream))
    return fail(cudaErrorInvalidResourceHandle);
  if (flags)
    return fail(cudaErrorInvalidValue);
  unsigned s = stream_index(stream);
  if (event->recorded)
    for (unsigned t = 0; t < SYMCUDA_SLOTS; t++)
      if (t != s && after[s][t] < event->ordered[t])
        after[s][t] = event->ordered[t];
  return cudaSuccess;
}

/* The time between two events is not modelled: any whole number of
 * microseconds up to 2^32 (a fresh input), so no answer rests on it. */
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end) {
  SYMCUDA_UNLESS_FAULTED();
  if (!ms)
    return fail(cudaErrorInvalidValue);
  if (!start || !end || !start->live || !end->live || (start->flags & cudaEventDisableTiming) ||
      (end->flags & cudaEventDisableTiming))
    return fail(cudaErrorInvalidResourceHandle);
  if (!start->recorded || !end->recorded)
    return fail(cudaErrorInvalidResourceHandle);
  unsigned microseconds;
  symcross_make_symbolic(&microseconds, sizeof microseconds, "cudaEventElapsedTime");
  *ms = microseconds * 1e-3f;
  return cudaSuccess;
}

/* A kernel's attributes. Known to the model: its static __shared__ bytes,
 * the dynamic shared memory its launches may have, the carve-out asked
 * for, the sm_70 it is compiled for. Decided by ptxas, so inputs within
 * the device's limits: registers per thread (at most 255), local bytes
 * per thread (at most 512 KiB), constant bytes (at most 64 KiB), and the
 * largest block those registers allow (a multiple of 32, at most 1024). */
cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func) {
  SYMCUDA_UNLESS_FAULTED();
  if (!attr)
    return fail(cudaErrorInvalidValue);
  if (!func)
    return fail(cudaErrorInvalidDeviceFunction);
  struct cudaFuncAttributes a;
  int regs, max_threads;
  size_t local_bytes, const_bytes;
  symcross_make_symbolic(&regs, sizeof regs, "cudaFuncGetAttributes.numRegs");
  symcross_make_symbolic(&max_threads, sizeof max_threads, "cudaFuncGetAttributes.maxThreadsPerBlock");
  symcross_make_symbolic(&local_bytes, sizeof local_bytes, "cudaFuncGetAttributes.localSizeBytes");
  symcross_make_symbolic(&const_bytes, sizeof const_bytes, "cudaFuncGetAttributes.constSizeBytes");
  symcross_assume(regs >= 0 && regs <= 255);
  symcross_assume(max_threads >= 32 && max_threads <= (int)SYMCUDA_MAX_THREADS_PER_BLOCK && max_threads % 32 == 0);
  symcross_assume(local_bytes <= (512ul << 10));
  symcross_assume(const_bytes <= (64ul << 10));
  a.sharedSizeBytes = __symcross_cuda_static_shared(func);
  a.constSizeBytes = const_bytes;
  a.localSizeBytes = local_bytes;
  a.maxThreadsPerBlock = max_threads;
  a.numRegs = regs;
  a.ptxVersion = 70;
  a.binaryVersion = 70;
  a.cacheModeCA = 0;
  a.maxDynamicSharedSizeBytes = (int)max_dynamic_shared(func);
  a.preferredShmemCarveout = SYMCUDA_DEFAULT_CARVEOUT;
  for (unsigned i = 0; i < num_attributes; i++)
    if (attributes[i].func == func)
      a.preferredShmemCarveout = attributes[i].carveout;
  *attr = a;
  return cudaSuccess;
}

/* Not modelled (symcross_cuda_runtime.h says why): an `unsupported`
 * finding naming the function, which ends the path. */
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *user_data) {
  (void)stream, (void)fn, (void)user_data;
  __symcross_cuda_unsupported("cudaLaunchHostFunc: the host function runs on another CPU thread, at the same time as the host "
                              "program, and its accesses to host memory are not compared with the program's");
  return cudaErrorInvalidValue; /* not reached: the path ends above */
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void *user_data, unsigned flags) {
  (void)stream, (void)callback, (void)user_data, (void)flags;
  __symcross_cuda_unsupported("cudaStreamAddCallback: the callback runs on another CPU thread, at the same time as the host "
                              "program, and its accesses to host memory are not compared with the program's");
  return cudaErrorInvalidValue; /* not reached: the path ends above */
}

cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned flags) {
  (void)ptr, (void)size, (void)flags;
  __symcross_cuda_unsupported("cudaHostRegister: registered host memory is reachable from kernels and its asynchronous copies "
                              "run while the host goes on, which the model does not follow for memory it did not allocate");
  return cudaErrorInvalidValue; /* not reached: the path ends above */
}

cudaError_t cudaHostUnregister(void *ptr) {
  (void)ptr;
  __symcross_cuda_unsupported("cudaHostUnregister: registered host memory is not modelled");
  return cudaErrorInvalidValue; /* not reached: the path ends above */
}

/* Graphs: not modelled (symcross_cuda_runtime.h). */
#define SYMCUDA_GRAPHS_NOT_MODELLED(function)                                                                                      \
  __symcross_cuda_unsupported(function ": CUDA graphs (stream capture, cudaGraph*) are not modelled: the operations a graph "      \
                                       "records run when it is launched, which the model does not follow")

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode) {
  (void)stream, (void)mode;
  SYMCUDA_GRAPHS_NOT_MODELLED("cudaStreamBeginCapture");
  return cudaErrorInvalidValue; /* not reached: the path ends above */
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *graph) {
  (void)stream, (void)graph;
  SYMCUDA_GRAPHS_NOT_MODELLED("cudaStreamEndCapture");
  return cudaErrorInvalidValue; /* not reached: the path ends above */
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *status) {
  SYMCUDA_UNLESS_FAULTED();
  if (!valid_stream(stream))
    return fail(cudaErrorInvalidResourceHandle);
  if (!status)
    return fail(cudaErrorInvalidValue);
  *status = cudaStreamCaptureStatusNone;
  return cudaSuccess;
}

cudaError_t cudaGraphCreate(cudaGraph_t *graph, unsigned flags) {
  (void)graph, (void)flags;
  SYMCUDA_GRAPHS_NOT_MODELLED("cudaGraphCreate");
  return cudaErrorInvalidValue; /* not reached: the path ends above */
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t *exec, cudaGraph_t graph, unsigned long long flags) {
  (void)exec, (void)graph, (void)flags;
  SYMCUDA_GRAPHS_NOT_MODELLED("cudaGraphInstantiate");
  return cudaErrorInvalidValue; /* not reached: the path ends above */
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *exec, cudaGraph_t graph, unsigned long long flags) {
  (void)exec, (void)graph, (void)flags;
  SYMCUDA_GRAPHS_NOT_MODELLED("cudaGraphInstantiateWithFlags");
  return cudaErrorInvalidValue; /* not reached: the path ends above */
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream) {
  (void)exec, (void)stream;
  SYMCUDA_GRAPHS_NOT_MODELLED("cudaGraphLaunch");
  return cudaErrorInvalidValue; /* not reached: the path ends above */
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec) {
  (void)exec;
  SYMCUDA_GRAPHS_NOT_MODELLED("cudaGraphExecDestroy");
  return cudaErrorInvalidValue; /* not reached: the path ends above */
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
  (void)graph;
  SYMCUDA_GRAPHS_NOT_MODELLED("cudaGraphDestroy");
  return cudaErrorInvalidValue; /* not reached: the path ends above */
}

/* Texture objects, CUDA arrays and surface objects (symcross_cuda_runtime.h).
 * A texture object over linear memory is the address of a descriptor in
 * device memory, which a kernel's tex1Dfetch reads
 * (src/exec/opencl/cuda_texture_objects.rs, which knows the tag and the
 * layout). A CUDA array is device memory of width x height elements, rows
 * packed; a surface object over one, and a texture object over one or
 * over pitched memory, is the address of a `struct symcuda_image` in
 * device memory (the layout of symcross_cuda.h's __symcross_image), whose
 * tag the kernel's header asks the engine to check before it reads it. */
#define SYMCUDA_TEXTURE_TAG 0x53594d5445583031ull
#define SYMCUDA_SURFACE_TAG 0x53594d5352463031ull
#define SYMCUDA_IMAGE_TEXTURE_TAG 0x53594d5445583032ull
struct symcuda_texture {
  unsigned long long tag;
  const void *ptr;
  unsigned long long bytes;
};
struct symcuda_image {
  unsigned long long tag;
  char *data;
  unsigned long long width, height, depth;
  unsigned long long element;
  unsigned long long pitch;
  int address[3];
  int filter, read_mode, normalized;
  float border[4];
};
/* A CUDA array on the host side: its image (tag unset) and flags. The
 * handle the program holds is this host record; `self` tells one made
 * here from any other pointer. */
struct cudaArray {
  const struct cudaArray *self;
  struct symcuda_image image;
  unsigned flags;
};

struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, enum cudaChannelFormatKind f) {
  struct cudaChannelFormatDesc d = {x, y, z, w, f};
  return d;
}

/* The bytes of one element of a channel format: 1, 2 or 4 channels of the
 * same 8, 16 or 32 bits, as CUDA arrays take them; 0 for any other. */
static unsigned long long channel_bytes(const struct cudaChannelFormatDesc *d) {
  int bits[4] = {d->x, d->y, d->z, d->w}, n = 0;
  while (n < 4 && bits[n] != 0)
    n++;
  for (int k = n; k < 4; k++)
    if (bits[k] != 0)
      return 0;
  if ((n != 1 && n != 2 && n != 4) || (bits[0] != 8 && bits[0] != 16 && bits[0] != 32))
    return 0;
  for (int k = 1; k < n; k++)
    if (bits[k] != bits[0])
      return 0;
  if (d->f != cudaChannelFormatKindSigned && d->f != cudaChannelFormatKindUnsigned && d->f != cudaChannelFormatKindFloat)
    return 0;
  return (unsigned long long)(n * bits[0] / 8);
}

/* A copy of the `bytes` at `host` in device memory: the handle of a
   texture or surface object is its descriptor's device address. */
static cudaError_t device_descriptor(const void *host, size_t bytes, unsigned long long *handle) {
  void *device = 0;
  cudaError_t e = cudaMalloc(&device, bytes);
  if (e != cudaSuccess)
    return e;
  e = cudaMemcpy(device, host, bytes, cudaMemcpyHostToDevice);
  if (e != cudaSuccess)
    return e;
  *handle = (unsigned long long)device;
  return cudaSuccess;
}

/* A copy of `image` tagged `tag` in device memory: the handle. */
static cudaError_t device_image(const struct symcuda_image *image, unsigned long long tag, unsigned long long *handle) {
  struct symcuda_image host = *image;
  host.tag = tag;
  return device_descriptor(&host, sizeof host, handle);
}

static int is_array(cudaArray_const_t a) { return a && a->self == a; }

cudaError_t cudaCreateTextureObject(cudaTextureObject_t *tex, const struct cudaResourceDesc *res,
                                    const struct cudaTextureDesc *desc, const struct cudaResourceViewDesc *view) {
  (void)view;
  if (!tex || !res || !desc)
    return fail(cudaErrorInvalidValue);
  struct symcuda_image image;
  memset(&image, 0, sizeof image);
  switch (res->resType) {
  case cudaResourceTypeLinear: {
    if (!res->res.linear.devPtr || !is_device_pointer(res->res.linear.devPtr))
      return fail(cudaErrorInvalidValue);
    struct symcuda_texture host = {SYMCUDA_TEXTURE_TAG, res->res.linear.devPtr, res->res.linear.sizeInBytes};
    return device_descriptor(&host, sizeof host, tex);
  }
  case cudaResourceTypePitch2D: {
    unsigned long long element = channel_bytes(&res->res.pitch2D.desc);
    size_t width = res->res.pitch2D.width, height = res->res.pitch2D.height, pitch = res->res.pitch2D.pitchInBytes;
    if (!element || !width || !height || width * element > pitch ||
        !device_range(res->res.pitch2D.devPtr, pitch * (height - 1) + width * element))
      return fail(cudaErrorInvalidValue);
    image.data = res->res.pitch2D.devPtr;
    image.width = width, image.height = height, image.element = element, image.pitch = pitch;
    break;
  }
  case cudaResourceTypeArray:
    if (!is_array(res->res.array.array))
      return fail(cudaErrorInvalidResourceHandle);
    image = res->res.array.array->image;
    break;
  default:
    __symcross_cuda_unsupported("cudaCreateTextureObject over a mipmapped array (not modelled)");
    return cudaErrorInvalidValue; /* not reached: the path ends above */
  }
  for (int k = 0; k < 3; k++)
    image.address[k] = desc->addressMode[k];
  image.filter = desc->filterMode;
  image.read_mode = desc->readMode;
  image.normalized = desc->normalizedCoords != 0;
  for (int k = 0; k < 4; k++)
    image.border[k] = desc->borderColor[k];
  return device_image(&image, SYMCUDA_IMAGE_TEXTURE_TAG, tex);
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t tex) {
  if (tex)
    return cudaFree((void *)tex);
  return cudaSuccess;
}

cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width, size_t height,
                            unsigned flags) {
  return cudaMalloc3DArray(array, desc, make_cudaExtent(width, height, 0), flags);
}

/* width x max(height, 1) x max(depth, 1) elements, rows packed; a depth
 * needs a height (CUDA has no width x depth array). */
cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, struct cudaExtent extent,
                              unsigned flags) {
  SYMCUDA_UNLESS_FAULTED();
  size_t width = extent.width, height = extent.height, depth = extent.depth;
  if (!array || !desc || width == 0 || (depth && !height))
    return fail(cudaErrorInvalidValue);
  if (flags & ~(unsigned)(cudaArraySurfaceLoadStore | cudaArrayTextureGather)) {
    __symcross_cuda_unsupported("cudaMallocArray with layered or cubemap flags (not modelled)");
    return cudaErrorInvalidValue; /* not reached: the path ends above */
  }
  unsigned long long element = channel_bytes(desc);
  if (!element)
    return fail(cudaErrorInvalidChannelDescriptor);
  size_t rows = (height ? height : 1) * (depth ? depth : 1);
  if (height > SYMCUDA_MAX_ALLOCATION || depth > SYMCUDA_MAX_ALLOCATION || width > SYMCUDA_MAX_ALLOCATION / element / rows)
    return fail(cudaErrorMemoryAllocation);
  struct cudaArray *a = malloc(sizeof *a);
  memset(a, 0, sizeof *a);
  void *data = 0;
  cudaError_t e = allocate(&data, width * element * rows, SYMCUDA_DEVICE);
  if (e != cudaSuccess) {
    free(a);
    return e;
  }
  a->self = a;
  a->flags = flags;
  a->image.data = data;
  a->image.width = width, a->image.height = height, a->image.depth = depth;
  a->image.element = element;
  a->image.pitch = width * element;
  *array = a;
  return cudaSuccess;
}

cudaError_t cudaFreeArray(cudaArray_t array) {
  SYMCUDA_UNLESS_FAULTED();
  if (!array)
    return cudaSuccess;
  if (!is_array(array))
    return fail(cudaErrorInvalidResourceHandle);
  cudaError_t e = cudaFree(array->image.data);
  array->self = 0;
  free(array);
  return e;
}

/* The byte offset of (w_offset bytes, h_offset rows) in `a` when `width`
 * bytes by `height` rows from there lie inside it; -1 otherwise. */
static long long array_offset(cudaArray_const_t a, size_t w_offset, size_t h_offset, size_t width, size_t height) {
  size_t row = a->image.pitch, rows = a->image.height ? a->image.height : 1;
  if (w_offset > row || width > row - w_offset || h_offset > rows || height > rows - h_offset)
    return -1;
  return (long long)(h_offset * row + w_offset);
}

/* A 2D copy between an array and linear memory (array_is_dst says which
 * side the array is), on the legacy default stream, the host waiting. */
static cudaError_t copy_2d_array(cudaArray_const_t a, int array_is_dst, void *other, size_t other_pitch, size_t w_offset,
                                 size_t h_offset, size_t width, size_t height, enum cudaMemcpyKind kind,
                                 const char *what) {
  SYMCUDA_UNLESS_FAULTED();
  if (!is_array(a))
    return fail(cudaErrorInvalidResourceHandle);
  long long at = array_offset(a, w_offset, h_offset, width, height);
  if (at < 0)
    return fail(cudaErrorInvalidValue);
  char *inside = a->image.data + at;
  issue(0, what);
  cudaError_t e = array_is_dst ? copy_2d(inside, a->image.pitch, other, other_pitch, width, height, kind)
                               : copy_2d(other, other_pitch, inside, a->image.pitch, width, height, kind);
  done();
  host_waits_for_stream(0);
  return e;
}

cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t w_offset, size_t h_offset, const void *src, size_t spitch,
                                size_t width, size_t height, enum cudaMemcpyKind kind) {
  return copy_2d_array(dst, 1, (void *)src, spitch, w_offset, h_offset, width, height, kind, "cudaMemcpy2DToArray");
}

cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t w_offset, size_t h_offset,
                                  size_t width, size_t height, enum cudaMemcpyKind kind) {
  return copy_2d_array(src, 0, dst, dpitch, w_offset, h_offset, width, height, kind, "cudaMemcpy2DFromArray");
}

/* The deprecated linear copies: `count` bytes from (w_offset, h_offset)
 * on, running on past a row's end into the next rows. */
static cudaError_t copy_linear_array(cudaArray_const_t a, int array_is_dst, void *other, size_t w_offset,
                                     size_t h_offset, size_t count, enum cudaMemcpyKind kind, const char *what) {
  SYMCUDA_UNLESS_FAULTED();
  if (!is_array(a))
    return fail(cudaErrorInvalidResourceHandle);
  long long at = array_offset(a, w_offset, h_offset, 0, 0);
  size_t total = a->image.pitch * (a->image.height ? a->image.height : 1) * (a->image.depth ? a->image.depth : 1);
  if (at < 0 || count > total - (size_t)at)
    return fail(cudaErrorInvalidValue);
  char *inside = a->image.data + at;
  issue(0, what);
  cudaError_t e = array_is_dst ? copy(inside, other, count, kind) : copy(other, inside, count, kind);
  done();
  host_waits_for_stream(0);
  return e;
}

cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t w_offset, size_t h_offset, const void *src, size_t count,
                              enum cudaMemcpyKind kind) {
  return copy_linear_array(dst, 1, (void *)src, w_offset, h_offset, count, kind, "cudaMemcpyToArray");
}

cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t w_offset, size_t h_offset, size_t count,
                                enum cudaMemcpyKind kind) {
  return copy_linear_array(src, 0, dst, w_offset, h_offset, count, kind, "cudaMemcpyFromArray");
}

/* One side of a 3D copy: an array (positions and widths in elements) or
 * pitched memory (in bytes). Sets the first byte, the row and slice
 * pitches and the bytes the side holds from its start along each axis;
 * 0 when the side is malformed. */
struct symcuda_side {
  char *at;
  size_t pitch, slice, row_bytes, rows, slices;
};
static int copy_side(cudaArray_const_t a, struct cudaPos pos, struct cudaPitchedPtr ptr, struct symcuda_side *side) {
  if (a) {
    if (!is_array(a))
      return 0;
    size_t e = a->image.element, rows = a->image.height ? a->image.height : 1;
    size_t slices = a->image.depth ? a->image.depth : 1;
    if (pos.x > a->image.width || pos.y > rows || pos.z > slices)
      return 0;
    side->pitch = a->image.pitch, side->slice = a->image.pitch * rows;
    side->row_bytes = (a->image.width - pos.x) * e, side->rows = rows - pos.y, side->slices = slices - pos.z;
    side->at = a->image.data + pos.z * side->slice + pos.y * side->pitch + pos.x * e;
    return 1;
  }
  if (!ptr.ptr || ptr.pitch == 0 || pos.x > ptr.pitch || pos.y > ptr.ysize)
    return 0;
  side->pitch = ptr.pitch, side->slice = ptr.pitch * ptr.ysize;
  side->row_bytes = ptr.pitch - pos.x, side->rows = ptr.ysize - pos.y, side->slices = (size_t)-1;
  side->at = (char *)ptr.ptr + pos.z * side->slice + pos.y * ptr.pitch + pos.x;
  return 1;
}

/* cudaMemcpy3D between an array and pitched memory or two arrays: whole
 * rows checked first, then copied row by row (each row checked as any
 * copy), on the legacy default stream, the host waiting. Pitched to
 * pitched memory is left to cudaMemcpy2D (not modelled here). */
cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p) {
  SYMCUDA_UNLESS_FAULTED();
  if (!p || (p->srcArray && p->srcPtr.ptr) || (p->dstArray && p->dstPtr.ptr))
    return fail(cudaErrorInvalidValue);
  if (!p->srcArray && !p->dstArray) {
    __symcross_cuda_unsupported("cudaMemcpy3D between two pitched pointers (not modelled)");
    return cudaErrorInvalidValue; /* not reached: the path ends above */
  }
  struct symcuda_side src, dst;
  if (!copy_side(p->srcArray, p->srcPos, p->srcPtr, &src) || !copy_side(p->dstArray, p->dstPos, p->dstPtr, &dst))
    return fail(cudaErrorInvalidValue);
  /* An array involved: the extent's width is in its elements. */
  size_t element = (p->srcArray ? p->srcArray : p->dstArray)->image.element;
  size_t width = p->extent.width * element, height = p->extent.height ? p->extent.height : 1;
  size_t depth = p->extent.depth ? p->extent.depth : 1;
  if (p->extent.width == 0 || width > src.row_bytes || width > dst.row_bytes || height > src.rows ||
      height > dst.rows || depth > src.slices || depth > dst.slices)
    return fail(cudaErrorInvalidValue);
  issue(0, "cudaMemcpy3D");
  cudaError_t e = cudaSuccess;
  for (size_t z = 0; z < depth && e == cudaSuccess; z++)
    for (size_t y = 0; y < height && e == cudaSuccess; y++)
      e = copy(dst.at + z * dst.slice + y * dst.pitch, src.at + z * src.slice + y * src.pitch, width, p->kind);
  done();
  host_waits_for_stream(0);
  return e;
}

/* A surface needs an array made with cudaArraySurfaceLoadStore. */
cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *surf, const struct cudaResourceDesc *res) {
  SYMCUDA_UNLESS_FAULTED();
  if (!surf || !res || res->resType != cudaResourceTypeArray)
    return fail(cudaErrorInvalidValue);
  if (!is_array(res->res.array.array))
    return fail(cudaErrorInvalidResourceHandle);
  if (!(res->res.array.array->flags & cudaArraySurfaceLoadStore))
    return fail(cudaErrorInvalidValue);
  return device_image(&res->res.array.array->image, SYMCUDA_SURFACE_TAG, surf);
}

cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surf) {
  if (surf)
    return cudaFree((void *)surf);
  return cudaSuccess;
}
