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
  cudaErrorInvalidPitchValue = 12,
  cudaErrorInvalidSymbol = 13,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidChannelDescriptor = 20,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorInvalidDeviceFunction = 98,
  cudaErrorInvalidDevice = 101,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700,
  cudaErrorAssert = 710,
  cudaErrorMisalignedAddress = 716,
  cudaErrorLaunchFailure = 719,
  cudaErrorCooperativeLaunchTooLarge = 720
} cudaError_t;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};

typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;

/* The two default streams' handles (0 is the legacy one too). */
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02
#define cudaHostAllocDefault 0x00

/* The device attributes cudaDeviceGetAttribute answers: the fields of
 * cudaDeviceProp below that the model sets. Another attribute does not
 * compile. */
enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxBlockDimX = 2,
  cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4,
  cudaDevAttrMaxGridDimX = 5,
  cudaDevAttrMaxGridDimY = 6,
  cudaDevAttrMaxGridDimZ = 7,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrTotalConstantMemory = 9,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrMaxPitch = 11,
  cudaDevAttrMaxRegistersPerBlock = 12,
  cudaDevAttrClockRate = 13,
  cudaDevAttrTextureAlignment = 14,
  cudaDevAttrGpuOverlap = 15,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrCanMapHostMemory = 19,
  cudaDevAttrConcurrentKernels = 31,
  cudaDevAttrEccEnabled = 32,
  cudaDevAttrMemoryClockRate = 36,
  cudaDevAttrGlobalMemoryBusWidth = 37,
  cudaDevAttrL2CacheSize = 38,
  cudaDevAttrMaxThreadsPerMultiProcessor = 39,
  cudaDevAttrAsyncEngineCount = 40,
  cudaDevAttrUnifiedAddressing = 41,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
  cudaDevAttrMaxRegistersPerMultiprocessor = 82,
  cudaDevAttrManagedMemory = 83,
  cudaDevAttrConcurrentManagedAccess = 89,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
  cudaDevAttrMaxBlocksPerMultiprocessor = 106
};

/* Hints for managed memory (cudaMemAdvise); the host's own device id. */
enum cudaMemoryAdvise {
  cudaMemAdviseSetReadMostly = 1,
  cudaMemAdviseUnsetReadMostly = 2,
  cudaMemAdviseSetPreferredLocation = 3,
  cudaMemAdviseUnsetPreferredLocation = 4,
  cudaMemAdviseSetAccessedBy = 5,
  cudaMemAdviseUnsetAccessedBy = 6
};
#define cudaCpuDeviceId ((int)-1)

/* Cache preferences (hints the model accepts and ignores). */
enum cudaFuncCache {
  cudaFuncCachePreferNone = 0,
  cudaFuncCachePreferShared = 1,
  cudaFuncCachePreferL1 = 2,
  cudaFuncCachePreferEqual = 3
};

enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9
};

/* The modelled device's properties (cudaGetDeviceProperties): the limits
 * of compute capability 7.0, with a Tesla V100's sizes. The fields are
 * the toolkit's names; a field not listed here does not compile. */
struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  int deviceOverlap;
  int multiProcessorCount;
  int kernelExecTimeoutEnabled;
  int integrated;
  int canMapHostMemory;
  int computeMode;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryClockRate;
  int memoryBusWidth;
  int l2CacheSize;
  int maxThreadsPerMultiProcessor;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int concurrentManagedAccess;
  size_t sharedMemPerBlockOptin;
  int maxBlocksPerMultiProcessor;
};

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
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);
cudaError_t cudaRuntimeGetVersion(int *version);
cudaError_t cudaDriverGetVersion(int *version);
/* Free device memory is an input (see cuda_runtime.c); the total is the
 * modelled device's. */
cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes);
cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache config);
cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache config);

/* Pitched memory: rows of `width` bytes, `pitch` bytes apart. */
cudaError_t cudaMallocPitch(void **dev_ptr, size_t *pitch, size_t width, size_t height);
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                         enum cudaMemcpyKind kind);
cudaError_t cudaMemset2D(void *dev_ptr, size_t pitch, int value, size_t width, size_t height);

/* Managed (host and device) and pinned host memory. */
cudaError_t cudaMallocManaged(void **dev_ptr, size_t size, unsigned flags __SYMCROSS_DEFAULT(cudaMemAttachGlobal));
cudaError_t cudaMallocHost(void **ptr, size_t size);
cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned flags);
cudaError_t cudaFreeHost(void *ptr);
/* Hints that move no data: the range must be managed memory. */
cudaError_t cudaMemPrefetchAsync(const void *dev_ptr, size_t count, int dst_device, cudaStream_t stream __SYMCROSS_DEFAULT(0));
cudaError_t cudaMemAdvise(const void *dev_ptr, size_t count, enum cudaMemoryAdvise advice, int device);

/* __device__ and __constant__ variables, reached from the host by their
 * host-side name (C++: the variable itself; C: its address). */
cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset __SYMCROSS_DEFAULT(0),
                               enum cudaMemcpyKind kind __SYMCROSS_DEFAULT(cudaMemcpyHostToDevice));
cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset __SYMCROSS_DEFAULT(0),
                                 enum cudaMemcpyKind kind __SYMCROSS_DEFAULT(cudaMemcpyDeviceToHost));
cudaError_t cudaGetSymbolAddress(void **dev_ptr, const void *symbol);
cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol);

/* Streams and events: every operation runs in program order when issued
 * (see cuda_runtime.c for what that leaves unchecked). */
cudaError_t cudaStreamCreate(cudaStream_t *stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags __SYMCROSS_DEFAULT(0));
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                            cudaStream_t stream __SYMCROSS_DEFAULT(0));
cudaError_t cudaMemsetAsync(void *dev_ptr, int value, size_t count, cudaStream_t stream __SYMCROSS_DEFAULT(0));
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                              enum cudaMemcpyKind kind, cudaStream_t stream __SYMCROSS_DEFAULT(0));
cudaError_t cudaMemset2DAsync(void *dev_ptr, size_t pitch, int value, size_t width, size_t height,
                              cudaStream_t stream __SYMCROSS_DEFAULT(0));
cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset,
                                    enum cudaMemcpyKind kind, cudaStream_t stream __SYMCROSS_DEFAULT(0));
cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                      enum cudaMemcpyKind kind, cudaStream_t stream __SYMCROSS_DEFAULT(0));
cudaError_t cudaEventCreate(cudaEvent_t *event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned flags);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream __SYMCROSS_DEFAULT(0));
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaEventDestroy(cudaEvent_t event);

/* Kernel attributes: dynamic shared memory beyond what the kernel's static
 * __shared__ arrays leave of 48 KiB needs
 * cudaFuncAttributeMaxDynamicSharedMemorySize (both together up to 96 KiB
 * on sm_70). */
cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value);
/* A kernel's attributes (the toolkit's first fields). What ptxas decides
 * and the model does not know (registers, local and constant bytes, the
 * largest block the registers allow) is an input within the device's
 * limits: no answer rests on one value. */
struct cudaFuncAttributes {
  size_t sharedSizeBytes;
  size_t constSizeBytes;
  size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int ptxVersion;
  int binaryVersion;
  int cacheModeCA;
  int maxDynamicSharedSizeBytes;
  int preferredShmemCarveout;
};
cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func);

/* Host functions run by a stream (cudaLaunchHostFunc,
 * cudaStreamAddCallback) run on another CPU thread, at the same time as
 * the host program, and registered host memory (cudaHostRegister) makes
 * copies from pageable memory asynchronous: neither is modelled, each is
 * an `unsupported` finding (the verdict is no proof). */
/* The calling convention callbacks are declared with (empty off Windows):
 * `void CUDART_CB done(...)` is how CUDA code spells a callback. */
#ifndef CUDART_CB
#define CUDART_CB
#endif
typedef void (*cudaHostFn_t)(void *user_data);
typedef void (*cudaStreamCallback_t)(cudaStream_t stream, cudaError_t status, void *user_data);
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *user_data);
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void *user_data, unsigned flags);
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterPortable 0x01
#define cudaHostRegisterMapped 0x02
#define cudaHostRegisterIoMemory 0x04
#define cudaHostRegisterReadOnly 0x08
cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned flags);
cudaError_t cudaHostUnregister(void *ptr);
/* Texture objects, CUDA arrays and surface objects. A texture object over
 * linear memory is read by tex1Dfetch, one over a CUDA array or pitched
 * memory by tex1D/tex2D (nearest-point sampling, the four address modes;
 * linear filtering and normalised-float reads are any value, not
 * confirmed); a surface object over an array made with
 * cudaArraySurfaceLoadStore by surf1D/surf2D read and write (byte x, the
 * boundary modes). Null descriptors and handles the model did not make are
 * the toolkit's error codes. 3D, layered, cubemap and mipmapped arrays are
 * not modelled. */
#ifndef __SYMCROSS_TEXTURE_TYPES
#define __SYMCROSS_TEXTURE_TYPES
enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;
#endif
typedef struct cudaArray *cudaArray_t;
typedef const struct cudaArray *cudaArray_const_t;
typedef struct cudaMipmappedArray *cudaMipmappedArray_t;
enum cudaChannelFormatKind {
  cudaChannelFormatKindSigned = 0,
  cudaChannelFormatKindUnsigned = 1,
  cudaChannelFormatKindFloat = 2,
  cudaChannelFormatKindNone = 3
};
struct cudaChannelFormatDesc {
  int x, y, z, w;
  enum cudaChannelFormatKind f;
};
enum cudaResourceType {
  cudaResourceTypeArray = 0,
  cudaResourceTypeMipmappedArray = 1,
  cudaResourceTypeLinear = 2,
  cudaResourceTypePitch2D = 3
};
struct cudaResourceDesc {
  enum cudaResourceType resType;
  union {
    struct {
      cudaArray_t array;
    } array;
    struct {
      cudaMipmappedArray_t mipmap;
    } mipmap;
    struct {
      void *devPtr;
      struct cudaChannelFormatDesc desc;
      size_t sizeInBytes;
    } linear;
    struct {
      void *devPtr;
      struct cudaChannelFormatDesc desc;
      size_t width;
      size_t height;
      size_t pitchInBytes;
    } pitch2D;
  } res;
};
enum cudaTextureAddressMode {
  cudaAddressModeWrap = 0,
  cudaAddressModeClamp = 1,
  cudaAddressModeMirror = 2,
  cudaAddressModeBorder = 3
};
enum cudaTextureFilterMode { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 };
struct cudaTextureDesc {
  enum cudaTextureAddressMode addressMode[3];
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int seamlessCubemap;
};
struct cudaResourceViewDesc;
struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, enum cudaChannelFormatKind f);
cudaError_t cudaCreateTextureObject(cudaTextureObject_t *tex, const struct cudaResourceDesc *res,
                                    const struct cudaTextureDesc *desc, const struct cudaResourceViewDesc *view);
cudaError_t cudaDestroyTextureObject(cudaTextureObject_t tex);
cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width,
                            size_t height __SYMCROSS_DEFAULT(0), unsigned flags __SYMCROSS_DEFAULT(0));
cudaError_t cudaFreeArray(cudaArray_t array);
cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t w_offset, size_t h_offset, const void *src, size_t spitch,
                                size_t width, size_t height, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t w_offset, size_t h_offset, const void *src, size_t count,
                              enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t w_offset, size_t h_offset,
                                  size_t width, size_t height, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t w_offset, size_t h_offset, size_t count,
                                enum cudaMemcpyKind kind);
/* 3D arrays: cudaMalloc3DArray and cudaMemcpy3D between an array and
 * pitched memory (cudaPitchedPtr, host or device). */
struct cudaExtent {
  size_t width, height, depth;
};
struct cudaPos {
  size_t x, y, z;
};
struct cudaPitchedPtr {
  void *ptr;
  size_t pitch, xsize, ysize;
};
struct cudaMemcpy3DParms {
  cudaArray_t srcArray;
  struct cudaPos srcPos;
  struct cudaPitchedPtr srcPtr;
  cudaArray_t dstArray;
  struct cudaPos dstPos;
  struct cudaPitchedPtr dstPtr;
  struct cudaExtent extent;
  enum cudaMemcpyKind kind;
};
static inline struct cudaExtent make_cudaExtent(size_t w, size_t h, size_t d) {
  struct cudaExtent e = {w, h, d};
  return e;
}
static inline struct cudaPos make_cudaPos(size_t x, size_t y, size_t z) {
  struct cudaPos p = {x, y, z};
  return p;
}
static inline struct cudaPitchedPtr make_cudaPitchedPtr(void *d, size_t p, size_t xsz, size_t ysz) {
  struct cudaPitchedPtr r = {d, p, xsz, ysz};
  return r;
}
cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, struct cudaExtent extent,
                              unsigned flags __SYMCROSS_DEFAULT(0));
cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p);
#define cudaArrayDefault 0x00
#define cudaArrayLayered 0x01
#define cudaArraySurfaceLoadStore 0x02
#define cudaArrayCubemap 0x04
#define cudaArrayTextureGather 0x08
cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *surf, const struct cudaResourceDesc *res);
cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surf);

/* Graphs (stream capture, cudaGraph*) record operations to run later as
 * one launch: not modelled. Each call that would make or run a graph is
 * an `unsupported` finding naming the function (the verdict is no proof);
 * cudaStreamIsCapturing answers None, which holds on every followed path
 * since capture never starts on one. */
typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;
enum cudaStreamCaptureMode {
  cudaStreamCaptureModeGlobal = 0,
  cudaStreamCaptureModeThreadLocal = 1,
  cudaStreamCaptureModeRelaxed = 2
};
enum cudaStreamCaptureStatus {
  cudaStreamCaptureStatusNone = 0,
  cudaStreamCaptureStatusActive = 1,
  cudaStreamCaptureStatusInvalidated = 2
};
cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode);
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *graph);
cudaError_t cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *status);
cudaError_t cudaGraphCreate(cudaGraph_t *graph, unsigned flags);
cudaError_t cudaGraphInstantiate(cudaGraphExec_t *exec, cudaGraph_t graph, unsigned long long flags __SYMCROSS_DEFAULT(0));
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *exec, cudaGraph_t graph, unsigned long long flags __SYMCROSS_DEFAULT(0));
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec);
cudaError_t cudaGraphDestroy(cudaGraph_t graph);
/* Resident blocks per multiprocessor of the modelled device, from the
 * block size and the shared memory, static and dynamic (registers are not
 * known to the model, so this is an upper bound). */
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *num_blocks, const void *func, int block_size,
                                                          size_t dynamic_shared);

/* What clang's `kernel<<<grid, block, shared, stream>>>(args)` becomes
 * (CUDA 9.2 and later): the configuration is pushed, and the kernel's
 * host stub pops it and calls cudaLaunchKernel with its own address and
 * an array of pointers to the argument values. */
unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared __SYMCROSS_DEFAULT(0),
                                     void *stream __SYMCROSS_DEFAULT(0));
cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shared, void *stream);
cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t stream);
/* A launch whose blocks must all be resident at once (grid-wide sync). */
cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shared __SYMCROSS_DEFAULT(0),
                                        cudaStream_t stream __SYMCROSS_DEFAULT(0));

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
/* The bytes of static __shared__ memory of the kernel whose host stub is
 * `stub` (0 when the device code has no such kernel). */
size_t __symcross_cuda_static_shared(const void *stub);
/* Memory both host and kernels may touch, named after the user's line:
 * managed memory, or pinned host memory when `pinned`. */
void *__symcross_cuda_alloc_shared(size_t size, int pinned);
/* The device address of the __device__/__constant__ variable whose host
 * shadow is at `symbol` (null if it is none), and its size. */
void *__symcross_cuda_symbol(const void *symbol);
size_t __symcross_cuda_symbol_size(const void *symbol);
/* The host's copy into a device variable (__constant__ included). */
void __symcross_cuda_copy_to_symbol(void *dst, const void *src, size_t n);
/* Something the model does not check: an `unsupported` finding (the
 * verdict is then no proof); the path goes on. */
void __symcross_cuda_limit(const char *what);
/* An `unsupported` finding naming what is not modelled; ends the path. */
void __symcross_cuda_unsupported(const char *what);
/* A stream operation issued to stream slot `slot`, ordered after the
 * first after[t] operations of each of the `slots` streams t: what it
 * touches is recorded until __symcross_cuda_op_end, which compares it
 * with the operations of other streams it is not ordered after (a race
 * between streams). */
void __symcross_cuda_op_begin(unsigned slot, const unsigned long *after, unsigned slots, const char *what);
void __symcross_cuda_op_end(void);
/* Stream slot `slot` was created here (named so in reports). */
void __symcross_cuda_stream_created(unsigned slot);
void __symcross_unsupported(const char *what);

#ifdef __cplusplus
}

/* The toolkit's typed overloads: cudaMalloc(&float_ptr, n), symbols by
 * the variable itself, kernels by the function itself. */
template <class T> static inline cudaError_t cudaMalloc(T **dev_ptr, size_t size) {
  return cudaMalloc((void **)dev_ptr, size);
}
template <class T> static inline cudaError_t cudaMallocManaged(T **dev_ptr, size_t size, unsigned flags = cudaMemAttachGlobal) {
  return cudaMallocManaged((void **)dev_ptr, size, flags);
}
template <class T> static inline cudaError_t cudaMallocPitch(T **dev_ptr, size_t *pitch, size_t width, size_t height) {
  return cudaMallocPitch((void **)dev_ptr, pitch, width, height);
}
template <class T> static inline cudaError_t cudaMallocHost(T **ptr, size_t size) {
  return cudaMallocHost((void **)ptr, size);
}
template <class T> static inline cudaError_t cudaHostAlloc(T **ptr, size_t size, unsigned flags) {
  return cudaHostAlloc((void **)ptr, size, flags);
}
template <class T>
static inline cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count, size_t offset = 0,
                                             enum cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return cudaMemcpyToSymbol((const void *)&symbol, src, count, offset, kind);
}
template <class T>
static inline cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count, size_t offset = 0,
                                               enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return cudaMemcpyFromSymbol(dst, (const void *)&symbol, count, offset, kind);
}
template <class T>
static inline cudaError_t cudaMemcpyToSymbolAsync(const T &symbol, const void *src, size_t count, size_t offset = 0,
                                                  enum cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t stream = 0) {
  return cudaMemcpyToSymbolAsync((const void *)&symbol, src, count, offset, kind, stream);
}
template <class T>
static inline cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const T &symbol, size_t count, size_t offset = 0,
                                                    enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost, cudaStream_t stream = 0) {
  return cudaMemcpyFromSymbolAsync(dst, (const void *)&symbol, count, offset, kind, stream);
}
template <class T, class S> static inline cudaError_t cudaGetSymbolAddress(T **dev_ptr, const S &symbol) {
  return cudaGetSymbolAddress((void **)dev_ptr, (const void *)&symbol);
}
template <class T> static inline cudaError_t cudaGetSymbolSize(size_t *size, const T &symbol) {
  return cudaGetSymbolSize(size, (const void *)&symbol);
}
template <class T>
static inline cudaError_t cudaLaunchCooperativeKernel(T *func, dim3 grid, dim3 block, void **args, size_t shared = 0,
                                                      cudaStream_t stream = 0) {
  return cudaLaunchCooperativeKernel((const void *)func, grid, block, args, shared, stream);
}
template <class T> static inline cudaError_t cudaFuncSetCacheConfig(T *func, enum cudaFuncCache config) {
  return cudaFuncSetCacheConfig((const void *)func, config);
}
template <class T> static inline cudaError_t cudaFuncSetAttribute(T *entry, enum cudaFuncAttribute attr, int value) {
  return cudaFuncSetAttribute((const void *)entry, attr, value);
}
template <class T> static inline cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, T *entry) {
  return cudaFuncGetAttributes(attr, (const void *)entry);
}
template <class T>
static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *num_blocks, T *func, int block_size,
                                                                        size_t dynamic_shared) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(num_blocks, (const void *)func, block_size, dynamic_shared);
}
/* cudaCreateChannelDesc<T>(): the channels of T, as the toolkit's. */
template <class T> struct __symcross_channels;
#define __SYMCROSS_CHANNELS(T, X, Y, Z, W, K) \
  template <> struct __symcross_channels<T> { \
    static struct cudaChannelFormatDesc desc() { return cudaCreateChannelDesc(X, Y, Z, W, K); } \
  };
__SYMCROSS_CHANNELS(char, 8, 0, 0, 0, cudaChannelFormatKindSigned)
__SYMCROSS_CHANNELS(unsigned char, 8, 0, 0, 0, cudaChannelFormatKindUnsigned)
__SYMCROSS_CHANNELS(short, 16, 0, 0, 0, cudaChannelFormatKindSigned)
__SYMCROSS_CHANNELS(unsigned short, 16, 0, 0, 0, cudaChannelFormatKindUnsigned)
__SYMCROSS_CHANNELS(int, 32, 0, 0, 0, cudaChannelFormatKindSigned)
__SYMCROSS_CHANNELS(unsigned int, 32, 0, 0, 0, cudaChannelFormatKindUnsigned)
__SYMCROSS_CHANNELS(float, 32, 0, 0, 0, cudaChannelFormatKindFloat)
__SYMCROSS_CHANNELS(float2, 32, 32, 0, 0, cudaChannelFormatKindFloat)
__SYMCROSS_CHANNELS(float4, 32, 32, 32, 32, cudaChannelFormatKindFloat)
__SYMCROSS_CHANNELS(uchar4, 8, 8, 8, 8, cudaChannelFormatKindUnsigned)
template <class T> static inline struct cudaChannelFormatDesc cudaCreateChannelDesc(void) { return __symcross_channels<T>::desc(); }
static inline cudaError_t cudaEventCreate(cudaEvent_t *event, unsigned flags) { return cudaEventCreateWithFlags(event, flags); }
#endif

#endif
