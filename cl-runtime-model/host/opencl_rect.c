/* The modelled OpenCL runtime: rectangular transfers (clEnqueue*BufferRect)
 * and clEnqueueMigrateMemObjects. A rectangle is region[2] slices of
 * region[1] rows of region[0] bytes; pitches of 0 mean tightly packed.
 * Errors are those OpenCL 1.2 specifies. */
#define CL_TARGET_OPENCL_VERSION 120
#include "symcross_cl.h"
#include <stdlib.h>
#include <string.h>

/* Resolves default pitches and checks them (CL_INVALID_VALUE if wrong). */
static cl_int pitches(const size_t *region, size_t *row, size_t *slice) {
  if (*row == 0)
    *row = region[0];
  else if (*row < region[0])
    return CL_INVALID_VALUE;
  if (*slice == 0)
    *slice = region[1] * *row;
  else if (*slice < region[1] * *row || *slice % *row != 0)
    return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

/* Byte offset of `origin` and one past the last byte of the rectangle. */
static size_t rect_start(const size_t *origin, size_t row, size_t slice) {
  return origin[2] * slice + origin[1] * row + origin[0];
}
static size_t rect_end(const size_t *origin, const size_t *region, size_t row, size_t slice) {
  return rect_start(origin, row, slice) + (region[2] - 1) * slice + (region[1] - 1) * row + region[0];
}

static cl_int check_region(const size_t *region) {
  if (!region || region[0] == 0 || region[1] == 0 || region[2] == 0)
    return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

static void rect_command(cl_command_queue q, unsigned char *dst, const unsigned char *src, const size_t *region,
                         size_t dst_row, size_t dst_slice, size_t src_row, size_t src_slice, cl_command_type type,
                         cl_bool blocking, cl_event *event) {
  struct symcl_command *c = symcl_new_command(SYMCL_CMD_COPY_RECT);
  c->dst = dst;
  c->src = src;
  memcpy(c->region, region, sizeof c->region);
  c->dst_row = dst_row;
  c->dst_slice = dst_slice;
  c->src_row = src_row;
  c->src_slice = src_slice;
  symcl_enqueue(q, c, type, event);
  if (blocking)
    symcl_run_queue(q);
}

/* Common checks of the read and write forms. */
static cl_int check_host_rect(cl_command_queue q, cl_mem m, const size_t *buffer_origin, const size_t *host_origin,
                              const size_t *region, size_t *buffer_row, size_t *buffer_slice, size_t *host_row,
                              size_t *host_slice, const void *ptr, cl_uint n, const cl_event *list) {
  cl_int r;
  if (!symcl_valid_queue(q))
    return CL_INVALID_COMMAND_QUEUE;
  if (!symcl_valid_mem(m))
    return CL_INVALID_MEM_OBJECT;
  if (m->context != q->context)
    return CL_INVALID_CONTEXT;
  if (!buffer_origin || !host_origin || !ptr || (r = check_region(region)) != CL_SUCCESS)
    return CL_INVALID_VALUE;
  if ((r = pitches(region, buffer_row, buffer_slice)) != CL_SUCCESS || (r = pitches(region, host_row, host_slice)) != CL_SUCCESS)
    return r;
  if (rect_end(buffer_origin, region, *buffer_row, *buffer_slice) > m->size)
    return CL_INVALID_VALUE;
  return symcl_check_wait_list(q, n, list);
}

cl_int clEnqueueReadBufferRect(cl_command_queue q, cl_mem m, cl_bool blocking, const size_t *buffer_origin,
                               const size_t *host_origin, const size_t *region, size_t buffer_row, size_t buffer_slice,
                               size_t host_row, size_t host_slice, void *ptr, cl_uint n, const cl_event *list,
                               cl_event *event) {
  cl_int r = check_host_rect(q, m, buffer_origin, host_origin, region, &buffer_row, &buffer_slice, &host_row,
                             &host_slice, ptr, n, list);
  if (r != CL_SUCCESS)
    return r;
  if (m->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS))
    return CL_INVALID_OPERATION;
  rect_command(q, (unsigned char *)ptr + rect_start(host_origin, host_row, host_slice),
               m->data + rect_start(buffer_origin, buffer_row, buffer_slice), region, host_row, host_slice, buffer_row,
               buffer_slice, CL_COMMAND_READ_BUFFER_RECT, blocking, event);
  return CL_SUCCESS;
}

cl_int clEnqueueWriteBufferRect(cl_command_queue q, cl_mem m, cl_bool blocking, const size_t *buffer_origin,
                                const size_t *host_origin, const size_t *region, size_t buffer_row, size_t buffer_slice,
                                size_t host_row, size_t host_slice, const void *ptr, cl_uint n, const cl_event *list,
                                cl_event *event) {
  cl_int r = check_host_rect(q, m, buffer_origin, host_origin, region, &buffer_row, &buffer_slice, &host_row,
                             &host_slice, ptr, n, list);
  if (r != CL_SUCCESS)
    return r;
  if (m->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS))
    return CL_INVALID_OPERATION;
  rect_command(q, m->data + rect_start(buffer_origin, buffer_row, buffer_slice),
               (const unsigned char *)ptr + rect_start(host_origin, host_row, host_slice), region, buffer_row,
               buffer_slice, host_row, host_slice, CL_COMMAND_WRITE_BUFFER_RECT, blocking, event);
  return CL_SUCCESS;
}

cl_int clEnqueueCopyBufferRect(cl_command_queue q, cl_mem src, cl_mem dst, const size_t *src_origin,
                               const size_t *dst_origin, const size_t *region, size_t src_row, size_t src_slice,
                               size_t dst_row, size_t dst_slice, cl_uint n, const cl_event *list, cl_event *event) {
  cl_int r;
  if (!symcl_valid_queue(q))
    return CL_INVALID_COMMAND_QUEUE;
  if (!symcl_valid_mem(src) || !symcl_valid_mem(dst))
    return CL_INVALID_MEM_OBJECT;
  if (src->context != q->context || dst->context != q->context)
    return CL_INVALID_CONTEXT;
  if (!src_origin || !dst_origin || check_region(region) != CL_SUCCESS)
    return CL_INVALID_VALUE;
  if ((r = pitches(region, &src_row, &src_slice)) != CL_SUCCESS || (r = pitches(region, &dst_row, &dst_slice)) != CL_SUCCESS)
    return r;
  if (rect_end(src_origin, region, src_row, src_slice) > src->size || rect_end(dst_origin, region, dst_row, dst_slice) > dst->size)
    return CL_INVALID_VALUE;
  if (src->data == dst->data) {
    /* Within one buffer the pitches must agree, and the two rectangles
     * must not overlap (checked on their byte ranges, as implementations
     * commonly do: conservative when the rows interleave). */
    if (src_row != dst_row || src_slice != dst_slice)
      return CL_INVALID_VALUE;
    size_t s0 = rect_start(src_origin, src_row, src_slice), s1 = rect_end(src_origin, region, src_row, src_slice);
    size_t d0 = rect_start(dst_origin, dst_row, dst_slice), d1 = rect_end(dst_origin, region, dst_row, dst_slice);
    if (s0 < d1 && d0 < s1)
      return CL_MEM_COPY_OVERLAP;
  }
  if ((r = symcl_check_wait_list(q, n, list)) != CL_SUCCESS)
    return r;
  rect_command(q, dst->data + rect_start(dst_origin, dst_row, dst_slice), src->data + rect_start(src_origin, src_row, src_slice),
               region, dst_row, dst_slice, src_row, src_slice, CL_COMMAND_COPY_BUFFER_RECT, CL_FALSE, event);
  return CL_SUCCESS;
}

/* One device, so there is nowhere to migrate to: a marker that checks its
 * arguments. */
cl_int clEnqueueMigrateMemObjects(cl_command_queue q, cl_uint num, const cl_mem *mems, cl_mem_migration_flags flags,
                                  cl_uint n, const cl_event *list, cl_event *event) {
  cl_int r;
  if (!symcl_valid_queue(q))
    return CL_INVALID_COMMAND_QUEUE;
  if (num == 0 || !mems)
    return CL_INVALID_VALUE;
  if (flags & ~(cl_mem_migration_flags)(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
    return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num; i++) {
    if (!symcl_valid_mem(mems[i]))
      return CL_INVALID_MEM_OBJECT;
    if (mems[i]->context != q->context)
      return CL_INVALID_CONTEXT;
  }
  if ((r = symcl_check_wait_list(q, n, list)) != CL_SUCCESS)
    return r;
  symcl_enqueue(q, symcl_new_command(SYMCL_CMD_MARKER), CL_COMMAND_MIGRATE_MEM_OBJECTS, event);
  return CL_SUCCESS;
}
