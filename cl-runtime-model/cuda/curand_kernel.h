/* `#include <curand_kernel.h>` in a .cu file: cuRAND's device API as
 * symcross models it. A generator's state is memory the kernel passes by
 * pointer, so what matters for races is kept exactly: every draw reads the
 * generator's words and writes them back, and curand_init writes them all
 * (two threads drawing from one state race; threads each with their own
 * state do not). The numbers themselves are not cuRAND's: each draw is a
 * fresh input named `curand` (any 32-bit value; the float forms map it as
 * cuRAND documents, into (0, 1] for the uniform ones), so a witness shows
 * the draw it needs rather than a seed that gives it. curand_init writes
 * words that depend only on its arguments, so two threads initialising one
 * state with the same arguments store the same values (a benign race). */
#ifndef SYMCROSS_CURAND_KERNEL_H
#define SYMCROSS_CURAND_KERNEL_H

#include "symcross_cuda.h"

/* Real calls (not inlined), so that a race inside a draw is reported at
 * the user's call (races.rs). */
#define __SYMCROSS_CURAND static __device__ __attribute__((noinline))

extern "C" __device__ int klee_int(const char *name);

/* A fresh draw: a witness input of its own. */
__SYMCROSS_DI unsigned int __symcross_curand_draw(void) { return (unsigned int)klee_int("curand"); }

/* Words that depend only on curand_init's arguments (not cuRAND's). */
__SYMCROSS_DI unsigned int __symcross_curand_mix(unsigned long long seed, unsigned long long sub, unsigned long long off, unsigned int k) {
    unsigned long long x = seed * 0x9E3779B97F4A7C15ull ^ (sub + 0xBF58476D1CE4E5B9ull * (k + 1)) ^ (off << 17);
    x ^= x >> 31;
    return (unsigned int)(x ^ (x >> 32));
}

/* The per-thread generators: a counter word and the generator's words. */
#define __SYMCROSS_CURAND_STATE(NAME, WORDS)                                                                     \
    struct NAME {                                                                                                \
        unsigned int d, v[WORDS];                                                                                \
        int boxmuller_flag, boxmuller_flag_double;                                                               \
        float boxmuller_extra;                                                                                   \
        double boxmuller_extra_double;                                                                           \
    };                                                                                                           \
    __SYMCROSS_CURAND void curand_init(unsigned long long seed, unsigned long long sub, unsigned long long off, NAME *s) { \
        s->d = __symcross_curand_mix(seed, sub, off, WORDS);                                                     \
        for (unsigned int k = 0; k < WORDS; k++)                                                                 \
            s->v[k] = __symcross_curand_mix(seed, sub, off, k);                                                  \
        s->boxmuller_flag = 0;                                                                                   \
        s->boxmuller_flag_double = 0;                                                                            \
        s->boxmuller_extra = 0.0f;                                                                               \
        s->boxmuller_extra_double = 0.0;                                                                         \
    }                                                                                                            \
    __SYMCROSS_CURAND unsigned int curand(NAME *s) {                                                                 \
        unsigned int carry = s->d;                                                                               \
        for (unsigned int k = 0; k < WORDS; k++)                                                                 \
            carry ^= s->v[k];                                                                                    \
        for (unsigned int k = 0; k < WORDS; k++)                                                                 \
            s->v[k] = __symcross_curand_draw();                                                                  \
        s->d = carry + 362437u;                                                                                  \
        return __symcross_curand_draw();                                                                         \
    }                                                                                                            \
    __SYMCROSS_CURAND void skipahead(unsigned long long n, NAME *s) { (void)n, (void)curand(s); }                     \
    __SYMCROSS_CURAND void skipahead_sequence(unsigned long long n, NAME *s) { (void)n, (void)curand(s); }
__SYMCROSS_CURAND_STATE(curandStateXORWOW, 5)
__SYMCROSS_CURAND_STATE(curandStatePhilox4_32_10, 10)
__SYMCROSS_CURAND_STATE(curandStateMRG32k3a, 6)
#undef __SYMCROSS_CURAND_STATE
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;
typedef struct curandStateMRG32k3a curandStateMRG32k3a_t;

/* MTGP32: one state shared by the threads of a block (at most 256 of
 * them). A draw reads the block's window of the state at the thread's
 * rank and writes the element N (351) further on, then thread 0 moves the
 * window on between two __syncthreads: as the generator does, so a block
 * of more than 351 - pos threads races on its state, and a draw in
 * divergent code is a barrier divergence. The generator's `pos` comes from
 * its parameter set; the model reads at 95, the largest that lets 256
 * threads run, so more than 256 threads race (cuRAND allows 256). */
#define __SYMCROSS_MTGP32_N 351u
#define __SYMCROSS_MTGP32_MASK 1023u
struct mtgp32_kernel_params;
typedef struct mtgp32_kernel_params mtgp32_kernel_params_t;
struct curandStateMtgp32 {
    unsigned int s[__SYMCROSS_MTGP32_MASK + 1];
    int offset;
    int pIdx;
    mtgp32_kernel_params_t *k;
    int precise_double_flag;
};
typedef struct curandStateMtgp32 curandStateMtgp32_t;
__SYMCROSS_CURAND unsigned int curand(curandStateMtgp32_t *st) {
    unsigned int t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    unsigned int threads = blockDim.x * blockDim.y * blockDim.z;
    unsigned int pos = 95u;
    /* The window's start shifts every access of the block alike, so which
     * threads' accesses meet does not depend on it: it is read (a race
     * with its update counts) and the indices are taken from 0. */
    unsigned int at = ((unsigned int)st->offset & 0u) + t;
    unsigned int mixed = st->s[at & __SYMCROSS_MTGP32_MASK] ^ st->s[(at + 1u) & __SYMCROSS_MTGP32_MASK] ^
                         st->s[(at + pos) & __SYMCROSS_MTGP32_MASK];
    st->s[(at + __SYMCROSS_MTGP32_N) & __SYMCROSS_MTGP32_MASK] = mixed ^ __symcross_curand_draw();
    __syncthreads();
    if (t == 0)
        st->offset = (int)((at + threads) & __SYMCROSS_MTGP32_MASK);
    __syncthreads();
    return __symcross_curand_draw();
}

/* The distributions, for every state: the uniform ones map a draw into
 * (0, 1] as cuRAND documents; the others are any value of their range. */
#define __SYMCROSS_CURAND_TWO_POW_32_INV 2.3283064e-10f
#define __SYMCROSS_CURAND_TWO_POW_32_INV_DOUBLE 2.3283064365386963e-10
template <typename S> __SYMCROSS_CURAND float curand_uniform(S *s) {
    return curand(s) * __SYMCROSS_CURAND_TWO_POW_32_INV + __SYMCROSS_CURAND_TWO_POW_32_INV / 2.0f;
}
template <typename S> __SYMCROSS_CURAND double curand_uniform_double(S *s) {
    unsigned long long hi = curand(s), lo = curand(s);
    return (double)((hi << 21) ^ lo) * 0x1p-53 + 0x1p-54;
}
/* Any finite float: Box-Muller's result is never NaN or infinite. */
__SYMCROSS_DI float __symcross_curand_finite(unsigned int bits) {
    if ((bits & 0x7f800000u) == 0x7f800000u)
        bits &= 0xff7fffffu;
    return __builtin_bit_cast(float, bits);
}
template <typename S> __SYMCROSS_CURAND float curand_normal(S *s) { return __symcross_curand_finite(curand(s)); }
template <typename S> __SYMCROSS_CURAND double curand_normal_double(S *s) { return (double)curand_normal(s); }
template <typename S> __SYMCROSS_CURAND float2 curand_normal2(S *s) {
    float a = curand_normal(s);
    return make_float2(a, curand_normal(s));
}
template <typename S> __SYMCROSS_CURAND float curand_log_normal(S *s, float mean, float stddev) {
    (void)mean, (void)stddev;
    float x = curand_normal(s);
    return x < 0.0f ? -x : x;
}
template <typename S> __SYMCROSS_CURAND unsigned int curand_poisson(S *s, double lambda) {
    (void)lambda;
    return curand(s);
}
__SYMCROSS_CURAND uint4 curand4(curandStatePhilox4_32_10_t *s) {
    unsigned int a = curand(s), b = curand(s), c = curand(s);
    return make_uint4(a, b, c, curand(s));
}
__SYMCROSS_CURAND float4 curand_uniform4(curandStatePhilox4_32_10_t *s) {
    float a = curand_uniform(s), b = curand_uniform(s), c = curand_uniform(s);
    return make_float4(a, b, c, curand_uniform(s));
}

#endif
