/* Device-side assert() and __trap(): engine primitives that end the
 * thread's path and fail the kernel's launch, as on a GPU (the host's
 * runtime calls then return cudaErrorAssert or cudaErrorLaunchFailure).
 * glibc's assert() calls __assert_fail, which it declares for the host
 * only; this declaration is the device's, under the primitive's name, so
 * the call reaches the engine at the user's line. A failing assert is a
 * `mismatch` finding, as on the host; a reachable __trap() is one too. */
#ifndef SYMCROSS_CUDA_FAULTS_H
#define SYMCROSS_CUDA_FAULTS_H

extern "C" {
__device__ __attribute__((noreturn)) void __assert_fail(const char *assertion, const char *file, unsigned int line,
                                                        const char *function) __asm__("__symcross_cuda_assert_fail");
__device__ __attribute__((noreturn)) void __trap(void) __asm__("__symcross_cuda_trap");
}

#endif
