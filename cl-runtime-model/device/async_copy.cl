/* async_work_group_copy, async_work_group_strided_copy, wait_group_events
 * and prefetch (OpenCL 1.2 section 6.12.10). Every work-item of the group
 * makes the same call; here each copies the elements whose index is its
 * linear local id modulo the group size, so together they copy everything
 * without two of them writing one element.
 *
 * The copy is asynchronous: its accesses are bracketed by
 * __symcross_async_begin/__symcross_async_end, which tell the executor that
 * they belong to the copy, not to the work-item. They are ordered only
 * before accesses after a wait_group_events on the copy's event (a barrier
 * is not enough), also for the work-item that issued them. The event is a
 * handle the executor gives out: the same for every work-item making the
 * same call, or `e` when the call names an existing event. */
#include "vectorize.h"

event_t __symcross_async_begin(event_t e);
void __symcross_async_end(void);

static size_t linear_local_id(void) {
  return get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2));
}

static size_t group_size(void) { return get_local_size(0) * get_local_size(1) * get_local_size(2); }

#define ASYNC_ONE(T, DST, SRC)                                                                         \
  OVL event_t async_work_group_copy(DST T *dst, const SRC T *src, size_t n, event_t e) {              \
    event_t ev = __symcross_async_begin(e);                                                           \
    for (size_t i = linear_local_id(); i < n; i += group_size())                                      \
      dst[i] = src[i];                                                                                \
    __symcross_async_end();                                                                           \
    return ev;                                                                                        \
  }
#define ASYNC_STRIDED(T)                                                                              \
  OVL event_t async_work_group_strided_copy(__local T *dst, const __global T *src, size_t n,          \
                                            size_t stride, event_t e) {                              \
    event_t ev = __symcross_async_begin(e);                                                           \
    for (size_t i = linear_local_id(); i < n; i += group_size())                                      \
      dst[i] = src[i * stride];                                                                       \
    __symcross_async_end();                                                                           \
    return ev;                                                                                        \
  }                                                                                                   \
  OVL event_t async_work_group_strided_copy(__global T *dst, const __local T *src, size_t n,          \
                                            size_t stride, event_t e) {                              \
    event_t ev = __symcross_async_begin(e);                                                           \
    for (size_t i = linear_local_id(); i < n; i += group_size())                                      \
      dst[i * stride] = src[i];                                                                       \
    __symcross_async_end();                                                                           \
    return ev;                                                                                        \
  }                                                                                                   \
  OVL void prefetch(const __global T *p, size_t n) {}
#define ASYNC(T) ASYNC_ONE(T, __local, __global) ASYNC_ONE(T, __global, __local) ASYNC_STRIDED(T)
#define ASYNC_VECTORS(T)                                                                              \
  ASYNC(T) ASYNC(T##2) ASYNC(T##3) ASYNC(T##4) ASYNC(T##8) ASYNC(T##16)

ASYNC_VECTORS(char) ASYNC_VECTORS(uchar) ASYNC_VECTORS(short) ASYNC_VECTORS(ushort)
ASYNC_VECTORS(int) ASYNC_VECTORS(uint) ASYNC_VECTORS(long) ASYNC_VECTORS(ulong)
ASYNC_VECTORS(float) ASYNC_VECTORS(double)

/* wait_group_events takes a generic-address-space pointer that OpenCL C 1.2
   source cannot spell; the executor implements it (src/exec/opencl.rs): a
   barrier on both address spaces that also completes the copies of the
   events it names, which every work-item must name alike. */
