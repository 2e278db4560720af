/* symcross's stand-in for the CUDA toolkit's device headers: every .cu
 * file is compiled with it (clang -include), for nvptx64 without the
 * toolkit. The built-in variables and synchronisation map onto the OpenCL
 * work-item built-ins symcross models (a thread is a work-item, a block a
 * work-group), atomics onto LLVM's atomic instructions. What is not here
 * is not modelled: a call to it fails to compile or is reported as
 * unsupported, never given a guessed meaning. */
#ifndef SYMCROSS_CUDA_H
#define SYMCROSS_CUDA_H

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
/* clang knows `managed` for HIP only: a device variable the engine shares
 * with the host (src/exec/opencl/cuda_managed.rs). */
#define __managed__ __attribute__((device)) __attribute__((annotate("symcross_managed")))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
#define __align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __SYMCROSS_DI static __device__ __forceinline__

typedef __SIZE_TYPE__ size_t;

/* ---- memset and memcpy in device code (nvcc accepts both there): the
 * C library's functions, which clang lowers to its block fill and block
 * copy, whose accesses symcross checks like any other (a fill of another
 * thread's row is a race, past the object's end out of bounds). The C library's
 * <string.h>, its functions made host and device (as the toolkit's
 * headers do); a kernel's own later <string.h> is then already read. ---- */
#pragma clang force_cuda_host_device begin
#include <string.h>
#pragma clang force_cuda_host_device end

/* ---- vector types (the few kernels commonly use) ---- */
#define __SYMCROSS_VEC2(T, N, A) \
    struct __attribute__((aligned(A))) N##2 { T x, y; }; \
    __SYMCROSS_DI __host__ N##2 make_##N##2(T x, T y) { N##2 v = {x, y}; return v; }
#define __SYMCROSS_VEC3(T, N) \
    struct N##3 { T x, y, z; }; \
    __SYMCROSS_DI __host__ N##3 make_##N##3(T x, T y, T z) { N##3 v = {x, y, z}; return v; }
#define __SYMCROSS_VEC4(T, N, A) \
    struct __attribute__((aligned(A))) N##4 { T x, y, z, w; }; \
    __SYMCROSS_DI __host__ N##4 make_##N##4(T x, T y, T z, T w) { N##4 v = {x, y, z, w}; return v; }
#define __SYMCROSS_VECS(T, N, S) __SYMCROSS_VEC2(T, N, 2 * S) __SYMCROSS_VEC3(T, N) __SYMCROSS_VEC4(T, N, 4 * S)
__SYMCROSS_VECS(int, int, 4)
__SYMCROSS_VECS(float, float, 4)
__SYMCROSS_VECS(double, double, 8)
__SYMCROSS_VEC2(unsigned int, uint, 8)
__SYMCROSS_VEC4(unsigned int, uint, 16)
__SYMCROSS_VEC4(unsigned char, uchar, 4)
struct uint3 { unsigned int x, y, z; };
__SYMCROSS_DI __host__ uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z) { uint3 v = {x, y, z}; return v; }

struct dim3 {
    unsigned int x, y, z;
    __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
    __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    __host__ __device__ constexpr operator uint3() const { return uint3{x, y, z}; }
};

/* ---- ids: the OpenCL work-item built-ins, by their mangled names ---- */
__device__ size_t __symcross_local_id(unsigned int) __asm__("_Z12get_local_idj");
__device__ size_t __symcross_group_id(unsigned int) __asm__("_Z12get_group_idj");
__device__ size_t __symcross_local_size(unsigned int) __asm__("_Z14get_local_sizej");
__device__ size_t __symcross_num_groups(unsigned int) __asm__("_Z14get_num_groupsj");

/* threadIdx.x reads get_local_id(0) when it is used, as the toolkit's
 * properties read the special registers. */
#define __SYMCROSS_BUILTIN_VAR(TYPE, NAME, FN) \
    struct TYPE { \
        __declspec(property(get = __get_x)) unsigned int x; \
        __declspec(property(get = __get_y)) unsigned int y; \
        __declspec(property(get = __get_z)) unsigned int z; \
        static __device__ __forceinline__ unsigned int __get_x() { return (unsigned int)FN(0); } \
        static __device__ __forceinline__ unsigned int __get_y() { return (unsigned int)FN(1); } \
        static __device__ __forceinline__ unsigned int __get_z() { return (unsigned int)FN(2); } \
        __device__ __forceinline__ operator uint3() const { return uint3{__get_x(), __get_y(), __get_z()}; } \
        __device__ __forceinline__ operator dim3() const { return dim3(__get_x(), __get_y(), __get_z()); } \
    }; \
    static __device__ const TYPE NAME{};
__SYMCROSS_BUILTIN_VAR(__symcross_threadIdx_t, threadIdx, __symcross_local_id)
__SYMCROSS_BUILTIN_VAR(__symcross_blockIdx_t, blockIdx, __symcross_group_id)
__SYMCROSS_BUILTIN_VAR(__symcross_blockDim_t, blockDim, __symcross_local_size)
__SYMCROSS_BUILTIN_VAR(__symcross_gridDim_t, gridDim, __symcross_num_groups)
/* A constant, not a macro: `prop.warpSize` (cudaDeviceProp) must compile. */
static constexpr int warpSize = 32;

/* ---- synchronisation ---- */
/* __syncthreads orders shared and global memory among the block's
 * threads: an OpenCL barrier with both fences (CLK_LOCAL_MEM_FENCE |
 * CLK_GLOBAL_MEM_FENCE). clang's own __syncthreads built-in is replaced. */
__device__ void __symcross_barrier(unsigned int flags) __asm__("_Z7barrierj");
#define __syncthreads() __symcross_barrier(3u)
/* A fence orders one thread's accesses; it makes no access of another
 * thread visible at a known point, so for races it orders nothing (as
 * OpenCL's mem_fence). */
__device__ void __symcross_mem_fence(unsigned int flags) __asm__("_Z9mem_fencej");
__SYMCROSS_DI void __threadfence_block(void) { __symcross_mem_fence(3u); }
__SYMCROSS_DI void __threadfence(void) { __symcross_mem_fence(3u); }
__SYMCROSS_DI void __threadfence_system(void) { __symcross_mem_fence(3u); }

/* __syncthreads_count/and/or: a barrier whose result counts the block's
 * true predicates, written with three barriers and a shared counter.
 * Real calls (not inlined), so that a divergence names the user's call. */
template <typename T> __SYMCROSS_DI T __symcross_atomic_add(T *p, T v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
#define __SYMCROSS_BARRIER_CALL static __device__ __attribute__((noinline))
__SYMCROSS_BARRIER_CALL int __syncthreads_count(int predicate) {
    __shared__ int __symcross_votes;
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
        __symcross_votes = 0;
    __syncthreads();
    if (predicate)
        __symcross_atomic_add(&__symcross_votes, 1);
    __syncthreads();
    int n = __symcross_votes;
    __syncthreads();
    return n;
}
__SYMCROSS_BARRIER_CALL int __syncthreads_or(int predicate) { return __syncthreads_count(predicate) != 0; }
__SYMCROSS_BARRIER_CALL int __syncthreads_and(int predicate) {
    return __syncthreads_count(predicate) == (int)(blockDim.x * blockDim.y * blockDim.z);
}

/* Warp-level synchronisation, shuffles and votes: clang's NVVM built-ins,
 * which symcross models as meetings of the threads of a warp with their
 * mask semantics (README, CUDA kernels). The wrappers are real calls (not
 * inlined) so that a finding names the user's call site. */
#define __SYMCROSS_WARP static __device__ __attribute__((noinline))
#define __syncwarp(...) __nvvm_bar_warp_sync(__SYMCROSS_MASK(__VA_ARGS__))
#define __SYMCROSS_MASK(...) (0xffffffffu __VA_OPT__(& (__VA_ARGS__)))
#define __SYMCROSS_CLAMP(width) (((32 - (width)) << 8) | 0x1f)
__SYMCROSS_WARP int __shfl_sync(unsigned int mask, int v, int lane, int width = 32) {
    return __nvvm_shfl_sync_idx_i32(mask, v, lane, __SYMCROSS_CLAMP(width));
}
__SYMCROSS_WARP unsigned int __shfl_sync(unsigned int mask, unsigned int v, int lane, int width = 32) {
    return (unsigned int)__nvvm_shfl_sync_idx_i32(mask, (int)v, lane, __SYMCROSS_CLAMP(width));
}
__SYMCROSS_WARP float __shfl_sync(unsigned int mask, float v, int lane, int width = 32) {
    return __nvvm_shfl_sync_idx_f32(mask, v, lane, __SYMCROSS_CLAMP(width));
}
__SYMCROSS_WARP int __shfl_up_sync(unsigned int mask, int v, unsigned int delta, int width = 32) {
    return __nvvm_shfl_sync_up_i32(mask, v, (int)delta, (32 - width) << 8);
}
__SYMCROSS_WARP float __shfl_up_sync(unsigned int mask, float v, unsigned int delta, int width = 32) {
    return __nvvm_shfl_sync_up_f32(mask, v, (int)delta, (32 - width) << 8);
}
__SYMCROSS_WARP int __shfl_down_sync(unsigned int mask, int v, unsigned int delta, int width = 32) {
    return __nvvm_shfl_sync_down_i32(mask, v, (int)delta, __SYMCROSS_CLAMP(width));
}
__SYMCROSS_WARP float __shfl_down_sync(unsigned int mask, float v, unsigned int delta, int width = 32) {
    return __nvvm_shfl_sync_down_f32(mask, v, (int)delta, __SYMCROSS_CLAMP(width));
}
__SYMCROSS_WARP int __shfl_xor_sync(unsigned int mask, int v, int lane_mask, int width = 32) {
    return __nvvm_shfl_sync_bfly_i32(mask, v, lane_mask, __SYMCROSS_CLAMP(width));
}
__SYMCROSS_WARP float __shfl_xor_sync(unsigned int mask, float v, int lane_mask, int width = 32) {
    return __nvvm_shfl_sync_bfly_f32(mask, v, lane_mask, __SYMCROSS_CLAMP(width));
}
__SYMCROSS_WARP unsigned int __shfl_up_sync(unsigned int mask, unsigned int v, unsigned int delta, int width = 32) {
    return (unsigned int)__nvvm_shfl_sync_up_i32(mask, (int)v, (int)delta, (32 - width) << 8);
}
__SYMCROSS_WARP unsigned int __shfl_down_sync(unsigned int mask, unsigned int v, unsigned int delta, int width = 32) {
    return (unsigned int)__nvvm_shfl_sync_down_i32(mask, (int)v, (int)delta, __SYMCROSS_CLAMP(width));
}
__SYMCROSS_WARP unsigned int __shfl_xor_sync(unsigned int mask, unsigned int v, int lane_mask, int width = 32) {
    return (unsigned int)__nvvm_shfl_sync_bfly_i32(mask, (int)v, lane_mask, __SYMCROSS_CLAMP(width));
}
/* 64-bit shuffles: the two halves shuffled one after the other. */
#define __SYMCROSS_SHFL64(NAME, T, B)                                            \
    __SYMCROSS_WARP T NAME(unsigned int mask, T v, B b, int width = 32) {         \
        unsigned long long bits;                                                 \
        __builtin_memcpy(&bits, &v, 8);                                          \
        unsigned int lo = NAME(mask, (unsigned int)bits, b, width);              \
        unsigned int hi = NAME(mask, (unsigned int)(bits >> 32), b, width);      \
        bits = ((unsigned long long)hi << 32) | lo;                              \
        T r;                                                                     \
        __builtin_memcpy(&r, &bits, 8);                                          \
        return r;                                                                \
    }
#define __SYMCROSS_SHFL64_ALL(T)                                                 \
    __SYMCROSS_SHFL64(__shfl_sync, T, int)                                       \
    __SYMCROSS_SHFL64(__shfl_up_sync, T, unsigned int)                           \
    __SYMCROSS_SHFL64(__shfl_down_sync, T, unsigned int)                         \
    __SYMCROSS_SHFL64(__shfl_xor_sync, T, int)
__SYMCROSS_SHFL64_ALL(long long)
__SYMCROSS_SHFL64_ALL(unsigned long long)
__SYMCROSS_SHFL64_ALL(double)
__SYMCROSS_WARP unsigned int __ballot_sync(unsigned int mask, int predicate) { return __nvvm_vote_ballot_sync(mask, predicate != 0); }
__SYMCROSS_WARP int __all_sync(unsigned int mask, int predicate) { return __nvvm_vote_all_sync(mask, predicate != 0); }
__SYMCROSS_WARP int __any_sync(unsigned int mask, int predicate) { return __nvvm_vote_any_sync(mask, predicate != 0); }
__SYMCROSS_WARP unsigned int __activemask(void) { return __nvvm_activemask(); }
/* Matches: values of 32 or 64 bits, compared as bits (a float by its
 * encoding, as the hardware does). */
#define __SYMCROSS_MATCH(T, U, N)                                                                    \
    __SYMCROSS_WARP unsigned int __match_any_sync(unsigned int mask, T v) {                           \
        return __nvvm_match_any_sync_i##N(mask, __builtin_bit_cast(U, v));                           \
    }                                                                                                 \
    __SYMCROSS_WARP unsigned int __match_all_sync(unsigned int mask, T v, int *pred) {                \
        return __nvvm_match_all_sync_i##N##p(mask, __builtin_bit_cast(U, v), pred);                  \
    }
__SYMCROSS_MATCH(int, unsigned int, 32)
__SYMCROSS_MATCH(unsigned int, unsigned int, 32)
__SYMCROSS_MATCH(float, unsigned int, 32)
__SYMCROSS_MATCH(long, unsigned long long, 64)
__SYMCROSS_MATCH(unsigned long, unsigned long long, 64)
__SYMCROSS_MATCH(long long, unsigned long long, 64)
__SYMCROSS_MATCH(unsigned long long, unsigned long long, 64)
__SYMCROSS_MATCH(double, unsigned long long, 64)
/* Reductions (sm_80's redux.sync; clang offers its built-ins only from
 * sm_80 on, so the intrinsics are named directly). */
#define __SYMCROSS_REDUX(OP) __device__ unsigned int __symcross_redux_##OP(unsigned int v, unsigned int mask) __asm__("llvm.nvvm.redux.sync." #OP);
__SYMCROSS_REDUX(add)
__SYMCROSS_REDUX(min)
__SYMCROSS_REDUX(umin)
__SYMCROSS_REDUX(max)
__SYMCROSS_REDUX(umax)
__SYMCROSS_REDUX(and)
__SYMCROSS_REDUX(or)
__SYMCROSS_REDUX(xor)
__SYMCROSS_WARP unsigned int __reduce_add_sync(unsigned int mask, unsigned int v) { return __symcross_redux_add(v, mask); }
__SYMCROSS_WARP int __reduce_add_sync(unsigned int mask, int v) { return (int)__symcross_redux_add((unsigned int)v, mask); }
__SYMCROSS_WARP unsigned int __reduce_min_sync(unsigned int mask, unsigned int v) { return __symcross_redux_umin(v, mask); }
__SYMCROSS_WARP int __reduce_min_sync(unsigned int mask, int v) { return (int)__symcross_redux_min((unsigned int)v, mask); }
__SYMCROSS_WARP unsigned int __reduce_max_sync(unsigned int mask, unsigned int v) { return __symcross_redux_umax(v, mask); }
__SYMCROSS_WARP int __reduce_max_sync(unsigned int mask, int v) { return (int)__symcross_redux_max((unsigned int)v, mask); }
__SYMCROSS_WARP unsigned int __reduce_and_sync(unsigned int mask, unsigned int v) { return __symcross_redux_and(v, mask); }
__SYMCROSS_WARP unsigned int __reduce_or_sync(unsigned int mask, unsigned int v) { return __symcross_redux_or(v, mask); }
__SYMCROSS_WARP unsigned int __reduce_xor_sync(unsigned int mask, unsigned int v) { return __symcross_redux_xor(v, mask); }

/* ---- atomics: LLVM atomic instructions (relaxed, as CUDA's are) ---- */
#define __SYMCROSS_RMW(NAME, BUILTIN, T) \
    __SYMCROSS_DI T NAME(T *address, T val) { return BUILTIN(address, val, __ATOMIC_RELAXED); }
#define __SYMCROSS_RMW_INTS(NAME, BUILTIN) \
    __SYMCROSS_RMW(NAME, BUILTIN, int) \
    __SYMCROSS_RMW(NAME, BUILTIN, unsigned int) \
    __SYMCROSS_RMW(NAME, BUILTIN, unsigned long long int)
__SYMCROSS_RMW_INTS(atomicAdd, __atomic_fetch_add)
__SYMCROSS_RMW(atomicAdd, __atomic_fetch_add, float)
__SYMCROSS_RMW(atomicAdd, __atomic_fetch_add, double)
__SYMCROSS_RMW_INTS(atomicSub, __atomic_fetch_sub)
__SYMCROSS_RMW_INTS(atomicAnd, __atomic_fetch_and)
__SYMCROSS_RMW_INTS(atomicOr, __atomic_fetch_or)
__SYMCROSS_RMW_INTS(atomicXor, __atomic_fetch_xor)
__SYMCROSS_RMW_INTS(atomicMin, __atomic_fetch_min)
__SYMCROSS_RMW(atomicMin, __atomic_fetch_min, long long int)
__SYMCROSS_RMW_INTS(atomicMax, __atomic_fetch_max)
__SYMCROSS_RMW(atomicMax, __atomic_fetch_max, long long int)
__SYMCROSS_RMW_INTS(atomicExch, __atomic_exchange_n)
__SYMCROSS_DI float atomicExch(float *address, float val) {
    unsigned int old = __atomic_exchange_n((unsigned int *)address, __builtin_bit_cast(unsigned int, val), __ATOMIC_RELAXED);
    return __builtin_bit_cast(float, old);
}
template <typename T> __SYMCROSS_DI T __symcross_cas(T *address, T compare, T val) {
    __atomic_compare_exchange_n(address, &compare, val, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    return compare;
}
__SYMCROSS_DI int atomicCAS(int *a, int c, int v) { return __symcross_cas(a, c, v); }
__SYMCROSS_DI unsigned int atomicCAS(unsigned int *a, unsigned int c, unsigned int v) { return __symcross_cas(a, c, v); }
__SYMCROSS_DI unsigned long long int atomicCAS(unsigned long long int *a, unsigned long long int c, unsigned long long int v) {
    return __symcross_cas(a, c, v);
}
__SYMCROSS_DI unsigned short int atomicCAS(unsigned short int *a, unsigned short int c, unsigned short int v) {
    return __symcross_cas(a, c, v);
}
/* atomicInc/atomicDec wrap at `val`: ((old >= val) ? 0 : old + 1) and
 * ((old == 0) || (old > val)) ? val : old - 1, as a compare-and-swap
 * loop (a thread runs alone between synchronisation points here, so the
 * first exchange succeeds). */
__SYMCROSS_DI unsigned int atomicInc(unsigned int *address, unsigned int val) {
    unsigned int old = __atomic_fetch_or(address, 0u, __ATOMIC_RELAXED), assumed;
    do {
        assumed = old;
        old = __symcross_cas(address, assumed, assumed >= val ? 0u : assumed + 1u);
    } while (old != assumed);
    return old;
}
__SYMCROSS_DI unsigned int atomicDec(unsigned int *address, unsigned int val) {
    unsigned int old = __atomic_fetch_or(address, 0u, __ATOMIC_RELAXED), assumed;
    do {
        assumed = old;
        old = __symcross_cas(address, assumed, (assumed == 0u || assumed > val) ? val : assumed - 1u);
    } while (old != assumed);
    return old;
}

/* ---- 24-bit multiplies: the product of the low 24 bits of each
 * operand (sign-extended for __mul24), its low 32 bits kept ---- */
__SYMCROSS_DI int __mul24(int x, int y) {
    long long a = (int)((unsigned int)x << 8) >> 8, b = (int)((unsigned int)y << 8) >> 8;
    return (int)(unsigned int)(unsigned long long)(a * b);
}
__SYMCROSS_DI unsigned int __umul24(unsigned int x, unsigned int y) { return (x & 0xffffffu) * (y & 0xffffffu); }

/* ---- bit counts of the CUDA math API: __popc (bits set), __ffs (1 +
 * the index of the lowest bit set, 0 for 0), __clz (leading zeros, 32
 * or 64 for 0), __brev (bits reversed); 32- and 64-bit ---- */
__SYMCROSS_DI int __popc(unsigned int x) { return __builtin_popcount(x); }
__SYMCROSS_DI int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
__SYMCROSS_DI int __ffs(int x) { return x == 0 ? 0 : __builtin_ctz((unsigned int)x) + 1; }
__SYMCROSS_DI int __ffsll(long long x) { return x == 0 ? 0 : __builtin_ctzll((unsigned long long)x) + 1; }
__SYMCROSS_DI int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned int)x); }
__SYMCROSS_DI int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
__SYMCROSS_DI unsigned int __brev(unsigned int x) { return __builtin_bitreverse32(x); }
__SYMCROSS_DI unsigned long long __brevll(unsigned long long x) { return __builtin_bitreverse64(x); }

/* ---- cooperative groups: the block and the grid as groups ----
 * A block's sync is __syncthreads. A grid's sync is the same barrier
 * when the grid has one block; across blocks it is the grid barrier,
 * which every thread of every block meets (src/exec/opencl/cuda_grid_sync.rs). */
extern "C" __device__ void __symcross_grid_sync(void);
namespace cooperative_groups {
struct thread_block {
    __device__ void sync() const { __syncthreads(); }
    __device__ unsigned int thread_rank() const { return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x; }
    __device__ unsigned int size() const { return blockDim.x * blockDim.y * blockDim.z; }
    __device__ dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
    __device__ dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
    __device__ dim3 group_dim() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
};
struct grid_group {
    __device__ void sync() const {
        if (gridDim.x * gridDim.y * gridDim.z == 1)
            __syncthreads();
        else
            __symcross_grid_sync();
    }
    __device__ bool is_valid() const { return true; }
    __device__ unsigned long long size() const {
        return (unsigned long long)gridDim.x * gridDim.y * gridDim.z * blockDim.x * blockDim.y * blockDim.z;
    }
};
static __device__ __forceinline__ thread_block this_thread_block() { return thread_block(); }
static __device__ __forceinline__ grid_group this_grid() { return grid_group(); }
/* Real calls, so that a divergence names the user's call. */
static __device__ __attribute__((noinline)) void synchronize(const thread_block &g) { g.sync(); }
static __device__ __attribute__((noinline)) void synchronize(const grid_group &g) { g.sync(); }
} // namespace cooperative_groups

/* ---- asynchronous copies of a block (cooperative_groups::memcpy_async,
 * cg::wait, cg::wait_prior<N>) ----
 * The block copies together, each thread the elements whose index is its
 * rank modulo the block's size (how the hardware splits the copy does not
 * matter: the accesses are the copy's, not the thread's). They are
 * bracketed by __symcross_async_begin/__symcross_async_end, as OpenCL's
 * async_work_group_copy (cl-runtime-model/device/async_copy.cl), so they
 * are ordered only before what follows a wait completing the copy: a read
 * of the destination or a write of the source before it is a race with
 * the copy. The wait is the block's meeting
 * (src/exec/opencl/cuda_async_copies.rs). */
extern "C" __device__ unsigned long long __symcross_async_begin(unsigned long long event);
extern "C" __device__ void __symcross_async_end(void);
extern "C" __device__ void __symcross_cuda_async_wait(unsigned int pending);
/* A construct the model does not follow: an `unsupported` finding naming
 * it, which ends the path (the verdict is then no proof). */
extern "C" __device__ void __symcross_cuda_not_modelled(const char *what);
namespace cuda {
/* A size with a promised alignment (cuda::aligned_size_t<16>(bytes)). */
template <size_t Align> struct aligned_size_t {
    size_t value;
    __host__ __device__ constexpr explicit aligned_size_t(size_t v) : value(v) {}
    __host__ __device__ constexpr operator size_t() const { return value; }
};
} // namespace cuda
namespace cooperative_groups {
/* The copy and the wait are real calls whose parameters the whole block
 * passes alike (a collective call's arguments must agree, or it is a
 * divergence); the user-facing functions are inlined into the user's
 * call, so a finding names that line. n bytes: elements of T, or bytes
 * when they are not whole elements. */
template <class T>
static __device__ __attribute__((noinline)) void __symcross_block_copy(T *dst, const T *src, size_t bytes) {
    const thread_block g;
    __symcross_async_begin(0);
    if (bytes % sizeof(T) == 0) {
        for (size_t i = g.thread_rank(); i < bytes / sizeof(T); i += g.size())
            dst[i] = src[i];
    } else {
        for (size_t i = g.thread_rank(); i < bytes; i += g.size())
            ((char *)dst)[i] = ((const char *)src)[i];
    }
    __symcross_async_end();
}
static __device__ __attribute__((noinline)) void __symcross_block_wait(unsigned int pending) { __symcross_cuda_async_wait(pending); }
/* memcpy_async(group, dst, src, bytes): a copy of `bytes` bytes. */
template <class T> __SYMCROSS_DI void memcpy_async(const thread_block &, T *dst, const T *src, size_t bytes) {
    __symcross_block_copy<T>(dst, src, bytes);
}
template <class T, size_t Align>
__SYMCROSS_DI void memcpy_async(const thread_block &, T *dst, const T *src, cuda::aligned_size_t<Align> bytes) {
    __symcross_block_copy<T>(dst, src, (size_t)bytes);
}
/* memcpy_async(group, dst, dst_count, src, src_count): the fewer of the
 * two counts of elements. */
template <class T> __SYMCROSS_DI void memcpy_async(const thread_block &, T *dst, size_t dst_count, const T *src, size_t src_count) {
    __symcross_block_copy<T>(dst, src, (dst_count < src_count ? dst_count : src_count) * sizeof(T));
}
__SYMCROSS_DI void wait(const thread_block &) { __symcross_block_wait(0); }
template <unsigned int N> __SYMCROSS_DI void wait_prior(const thread_block &) { __symcross_block_wait(N); }
} // namespace cooperative_groups

/* ---- texture references (the legacy texture<T, dim, mode> API) ----
 * The memory the host binds to a texture is not known to a kernel run
 * alone: a fetch reads any value, which a finding resting on it does not
 * confirm (src/exec/opencl/cuda_textures.rs). Element reads only. */
#ifndef __SYMCROSS_TEXTURE_TYPES /* also in symcross_cuda_runtime.h */
#define __SYMCROSS_TEXTURE_TYPES
enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;
#endif
template <class T, int __dim = 1, enum cudaTextureReadMode __mode = cudaReadModeElementType>
struct __attribute__((device_builtin_texture_type)) texture {
    int __symcross_reserved; /* not empty: clang passes the handle by value only then */
};
template <class T, class __texture> __device__ T __symcross_texture_fetch(__texture t);
#define __SYMCROSS_ELEMENT_READS(M) \
    static_assert(M == cudaReadModeElementType, "symcross models texture reads of cudaReadModeElementType only")
template <class T, enum cudaTextureReadMode M> __SYMCROSS_DI T tex1Dfetch(texture<T, 1, M> t, int) {
    __SYMCROSS_ELEMENT_READS(M);
    return __symcross_texture_fetch<T>(t);
}
template <class T, enum cudaTextureReadMode M> __SYMCROSS_DI T tex1D(texture<T, 1, M> t, float) {
    __SYMCROSS_ELEMENT_READS(M);
    return __symcross_texture_fetch<T>(t);
}
template <class T, enum cudaTextureReadMode M> __SYMCROSS_DI T tex2D(texture<T, 2, M> t, float, float) {
    __SYMCROSS_ELEMENT_READS(M);
    return __symcross_texture_fetch<T>(t);
}
template <class T, enum cudaTextureReadMode M> __SYMCROSS_DI T tex3D(texture<T, 3, M> t, float, float, float) {
    __SYMCROSS_ELEMENT_READS(M);
    return __symcross_texture_fetch<T>(t);
}

/* ---- texture objects (cudaTextureObject_t) ----
 * The host creates the object over memory it chose (cudaCreateTextureObject).
 * In a host program, tex1Dfetch on an object over linear memory reads
 * that memory (zero past its ends), and tex1D/tex2D/tex3D on an object over a
 * CUDA array or pitched memory read it with nearest-point sampling and the
 * address modes (__symcross_texture_read, below); anything else (a kernel
 * run alone, linear filtering, tex2DLod) reads any value of its
 * type, afresh at each fetch, as a texture reference does, and a finding
 * resting on it is not confirmed (src/exec/opencl/cuda_texture_objects.rs). */
template <class T> __device__ T __symcross_texture_object_fetch(cudaTextureObject_t t, int i);
/* Any value of its type, for a read of an object the model made that the
 * model does not follow; `why` says which, for the messages of findings
 * resting on it (src/exec/opencl/cuda_textures.rs, UNFOLLOWED_READS):
 * 1 linear filtering, 2 cudaReadModeNormalizedFloat, 3 an element type
 * whose size is not the channel format's, 4 a coordinate not followed,
 * 5 a border colour other than zero, 6 a level-of-detail read. */
template <class T> __device__ T __symcross_texture_unfollowed(cudaTextureObject_t t, int why);
template <class T> __SYMCROSS_DI T tex1Dfetch(cudaTextureObject_t t, int i) { return __symcross_texture_object_fetch<T>(t, i); }
template <class T> __SYMCROSS_DI T __symcross_texture_read(cudaTextureObject_t t, float x, float y, float z, int dims);
template <class T> __SYMCROSS_DI T tex1D(cudaTextureObject_t t, float x) { return __symcross_texture_read<T>(t, x, 0.0f, 0.0f, 1); }
template <class T> __SYMCROSS_DI T tex2D(cudaTextureObject_t t, float x, float y) { return __symcross_texture_read<T>(t, x, y, 0.0f, 2); }
template <class T> __SYMCROSS_DI T tex3D(cudaTextureObject_t t, float x, float y, float z) { return __symcross_texture_read<T>(t, x, y, z, 3); }
template <class T> __SYMCROSS_DI T tex2DLod(cudaTextureObject_t t, float, float, float) { return __symcross_texture_unfollowed<T>(t, 6); }
template <class T> __SYMCROSS_DI void tex1Dfetch(T *r, cudaTextureObject_t t, int i) { *r = __symcross_texture_object_fetch<T>(t, i); }
template <class T> __SYMCROSS_DI void tex2D(T *r, cudaTextureObject_t t, float x, float y) { *r = __symcross_texture_read<T>(t, x, y, 0.0f, 2); }

/* ---- CUDA arrays, surface objects, coordinate reads of texture objects ----
 * In a host program the runtime model (cl-runtime-model/host/cuda_runtime.c)
 * makes a CUDA array, a surface object and a texture object over an array
 * or pitched memory the address of a tagged descriptor in device memory
 * (struct __symcross_image, the same layout there). The engine says
 * whether a handle is one (__symcross_cuda_descriptor: a fixed address at
 * the start of a live object holding the tag); the reads and writes below
 * are then plain loads and stores of the running thread on the bound
 * memory, so races between surface writes, or between a texture read and
 * a write of the same kernel, are found as any other.
 *
 * A handle the model did not make (a kernel run alone: an argument, any
 * value) is never dereferenced: a surface access is then an `unsupported`
 * finding naming it, a texture read any value of its type (as a texture
 * reference), which hides nothing and is never confirmed. Texture reads the
 * model does not follow read any value too: linear filtering (the
 * hardware's 9-bit fixed-point weights), cudaReadModeNormalizedFloat, a
 * border colour other than zero, wrap/mirror with unnormalised coordinates
 * (documented for normalised ones only), a NaN coordinate, an element type
 * whose size is not the channel format's, layered and mipmapped reads. */
#define __SYMCROSS_SURFACE_TAG 0x53594d5352463031ull /* "SYMSRF01" */
#define __SYMCROSS_IMAGE_TEXTURE_TAG 0x53594d5445583032ull /* "SYMTEX02" */
struct __symcross_image {
    unsigned long long tag;
    char *data;
    unsigned long long width, height, depth; /* elements; height 0: 1D */
    unsigned long long element;              /* bytes per element */
    unsigned long long pitch;                /* bytes from one row to the next */
    int address[3];                          /* cudaTextureAddressMode */
    int filter, read_mode, normalized;
    float border[4];
};
extern "C" __device__ void *__symcross_cuda_descriptor(unsigned long long handle, unsigned long long tag,
                                                       unsigned long long bytes);
extern "C" __device__ __attribute__((noreturn)) void __symcross_cuda_surface_trap(const char *what);

enum cudaSurfaceBoundaryMode { cudaBoundaryModeZero = 0, cudaBoundaryModeClamp = 1, cudaBoundaryModeTrap = 2 };

/* The element of a surface access at byte x, row y, slice z, or null when the
 * access is outside in the zero mode (a write does nothing, a read is
 * zero). Outside in the trap mode the kernel traps; the clamp mode moves
 * the access to the nearest element (x to the last element's first byte).
 * An x inside but not a multiple of the element size stays as given: the
 * access is then misaligned, which the engine reports. */
template <class T>
__SYMCROSS_DI T *__symcross_surface_element(const char *what, cudaSurfaceObject_t s, long long x, long long y,
                                            long long z, cudaSurfaceBoundaryMode mode) {
    const __symcross_image *d =
        (const __symcross_image *)__symcross_cuda_descriptor(s, __SYMCROSS_SURFACE_TAG, sizeof(__symcross_image));
    if (!d || sizeof(T) != d->element) {
        __symcross_cuda_not_modelled(what);
        return 0;
    }
    long long row = (long long)(d->width * d->element), rows = d->height ? (long long)d->height : 1;
    long long slices = d->depth ? (long long)d->depth : 1;
    if (x < 0 || x >= row || y < 0 || y >= rows || z < 0 || z >= slices) {
        if (mode == cudaBoundaryModeTrap)
            __symcross_cuda_surface_trap(what);
        if (mode != cudaBoundaryModeClamp)
            return 0;
        x = x < 0 ? 0 : x >= row ? row - (long long)d->element : x;
        y = y < 0 ? 0 : y >= rows ? rows - 1 : y;
        z = z < 0 ? 0 : z >= slices ? slices - 1 : z;
    }
    return (T *)(d->data + (z * rows + y) * (long long)d->pitch + x);
}
template <class T> __SYMCROSS_DI void surf1Dwrite(T v, cudaSurfaceObject_t s, int x, cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
    if (T *e = __symcross_surface_element<T>("surf1Dwrite (surface memory)", s, x, 0, 0, m))
        *e = v;
}
template <class T>
__SYMCROSS_DI void surf2Dwrite(T v, cudaSurfaceObject_t s, int x, int y, cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
    if (T *e = __symcross_surface_element<T>("surf2Dwrite (surface memory)", s, x, y, 0, m))
        *e = v;
}
template <class T> __SYMCROSS_DI T surf1Dread(cudaSurfaceObject_t s, int x, cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
    T *e = __symcross_surface_element<T>("surf1Dread (surface memory)", s, x, 0, 0, m);
    return e ? *e : T();
}
template <class T> __SYMCROSS_DI void surf1Dread(T *r, cudaSurfaceObject_t s, int x, cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
    T *e = __symcross_surface_element<T>("surf1Dread (surface memory)", s, x, 0, 0, m);
    *r = e ? *e : T();
}
template <class T> __SYMCROSS_DI T surf2Dread(cudaSurfaceObject_t s, int x, int y, cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
    T *e = __symcross_surface_element<T>("surf2Dread (surface memory)", s, x, y, 0, m);
    return e ? *e : T();
}
template <class T>
__SYMCROSS_DI void surf2Dread(T *r, cudaSurfaceObject_t s, int x, int y, cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
    T *e = __symcross_surface_element<T>("surf2Dread (surface memory)", s, x, y, 0, m);
    *r = e ? *e : T();
}
template <class T>
__SYMCROSS_DI void surf3Dwrite(T v, cudaSurfaceObject_t s, int x, int y, int z, cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
    if (T *e = __symcross_surface_element<T>("surf3Dwrite (surface memory)", s, x, y, z, m))
        *e = v;
}
template <class T> __SYMCROSS_DI T surf3Dread(cudaSurfaceObject_t s, int x, int y, int z, cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
    T *e = __symcross_surface_element<T>("surf3Dread (surface memory)", s, x, y, z, m);
    return e ? *e : T();
}
template <class T>
__SYMCROSS_DI void surf3Dread(T *r, cudaSurfaceObject_t s, int x, int y, int z, cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
    T *e = __symcross_surface_element<T>("surf3Dread (surface memory)", s, x, y, z, m);
    *r = e ? *e : T();
}

/* The texel index along one axis of `n` elements for coordinate x
 * (programming guide, texture fetching: nearest-point sampling reads
 * T[floor(u)], u = x, or x * n for normalised coordinates; wrap replaces
 * x by frac(x), mirror by frac(x) or 1 - frac(x) as floor(x) is even or
 * odd). 1: *i is the index; 0: outside in the border mode; -1: a read the
 * model does not follow (any value). */
__SYMCROSS_DI int __symcross_texel(float x, long long n, int mode, int normalized, long long *i) {
    if (!(x == x) || n <= 0 || n > (1ll << 24))
        return -1;
    if (mode == 0 || mode == 2) { /* cudaAddressModeWrap, cudaAddressModeMirror */
        if (!normalized || __builtin_isinf(x))
            return -1;
        float f = __builtin_floorf(x), frac = x - f;
        x = mode == 0 || __builtin_fmodf(f, 2.0f) == 0.0f ? frac : 1.0f - frac;
    } else if (mode != 1 && mode != 3) {
        return -1;
    }
    float u = normalized ? x * (float)n : x;
    if (u < 0.0f || u >= (float)n) {
        if (mode == 3) /* cudaAddressModeBorder */
            return 0;
        if (mode != 1) /* wrap/mirror landing on n by rounding: not followed */
            return -1;
        *i = u < 0.0f ? 0 : n - 1;
        return 1;
    }
    *i = (long long)u; /* u in [0, n): truncation is floor */
    return 1;
}

/* tex1D/tex2D through an object over a CUDA array or pitched memory:
 * nearest-point reads of the bound memory, else any value (see above). */
template <class T> __SYMCROSS_DI T __symcross_texture_read(cudaTextureObject_t t, float x, float y, float z, int dims) {
    const __symcross_image *d = (const __symcross_image *)__symcross_cuda_descriptor(t, __SYMCROSS_IMAGE_TEXTURE_TAG,
                                                                                     sizeof(__symcross_image));
    if (!d)
        return __symcross_texture_fetch<T>(t);
    if (d->filter != 0)
        return __symcross_texture_unfollowed<T>(t, 1);
    if (d->read_mode != 0)
        return __symcross_texture_unfollowed<T>(t, 2);
    if (sizeof(T) != d->element)
        return __symcross_texture_unfollowed<T>(t, 3);
    long long i = 0, j = 0, k = 0, rows = d->height ? (long long)d->height : 1;
    long long slices = d->depth ? (long long)d->depth : 1;
    int in_x = __symcross_texel(x, (long long)d->width, d->address[0], d->normalized, &i);
    int in_y = dims >= 2 ? __symcross_texel(y, rows, d->address[1], d->normalized, &j) : 1;
    int in_z = dims == 3 ? __symcross_texel(z, slices, d->address[2], d->normalized, &k) : 1;
    if (in_x < 0 || in_y < 0 || in_z < 0)
        return __symcross_texture_unfollowed<T>(t, 4);
    if (!in_x || !in_y || !in_z) {
        if (d->border[0] != 0.0f || d->border[1] != 0.0f || d->border[2] != 0.0f || d->border[3] != 0.0f)
            return __symcross_texture_unfollowed<T>(t, 5);
        return T();
    }
    return *(const T *)(d->data + (k * rows + j) * (long long)d->pitch + i * (long long)d->element);
}

#include "symcross_cuda_math.h"
#include "symcross_cuda_faults.h"

#endif
