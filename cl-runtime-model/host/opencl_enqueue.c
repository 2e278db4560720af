/* The modelled OpenCL runtime: enqueueing buffer transfers and kernels.
 *
 * Every command resolves its buffers to their memory when enqueued and
 * waits in the queue; blocking calls run the queue before returning
 * (opencl_queue.c). clEnqueueNDRangeKernel validates the NDRange as an
 * OpenCL 1.2 implementation does, chooses a local size when none is given,
 * and captures the argument values. */
#define CL_TARGET_OPENCL_VERSION 120
#include "symcross_cl.h"
#include <stdlib.h>
#include <string.h>

static cl_int check_queue_mem(cl_command_queue q, cl_mem m) {
  if (!symcl_valid_queue(q))
    return CL_INVALID_COMMAND_QUEUE;
  if (!symcl_valid_mem(m))
    return CL_INVALID_MEM_OBJECT;
  if (m->context != q->context)
    return CL_INVALID_CONTEXT;
  return CL_SUCCESS;
}

static cl_int check_range(cl_mem m, size_t offset, size_t size) {
  if (size == 0 || offset > m->size || size > m->size - offset)
    return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

/* Enqueues a copy of `bytes` and runs the queue when blocking. */
static void copy_command(cl_command_queue q, unsigned char *dst, const unsigned char *src, size_t bytes,
                         cl_command_type type, cl_bool blocking, cl_event *event) {
  struct symcl_command *c = symcl_new_command(SYMCL_CMD_COPY);
  c->dst = dst;
  c->src = src;
  c->bytes = bytes;
  symcl_enqueue(q, c, type, event);
  if (blocking)
    symcl_run_queue(q);
}

cl_int clEnqueueReadBuffer(cl_command_queue q, cl_mem m, cl_bool blocking, size_t offset, size_t size, void *ptr,
                           cl_uint n, const cl_event *list, cl_event *event) {
  cl_int r;
  if ((r = check_queue_mem(q, m)) != CL_SUCCESS)
    return r;
  if ((r = check_range(m, offset, size)) != CL_SUCCESS || !ptr)
    return r != CL_SUCCESS ? r : CL_INVALID_VALUE;
  if (m->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS))
    return CL_INVALID_OPERATION;
  if ((r = symcl_check_wait_list(q, n, list)) != CL_SUCCESS)
    return r;
  copy_command(q, ptr, m->data + offset, size, CL_COMMAND_READ_BUFFER, blocking, event);
  return CL_SUCCESS;
}

cl_int clEnqueueWriteBuffer(cl_command_queue q, cl_mem m, cl_bool blocking, size_t offset, size_t size,
                            const void *ptr, cl_uint n, const cl_event *list, cl_event *event) {
  cl_int r;
  if ((r = check_queue_mem(q, m)) != CL_SUCCESS)
    return r;
  if ((r = check_range(m, offset, size)) != CL_SUCCESS || !ptr)
    return r != CL_SUCCESS ? r : CL_INVALID_VALUE;
  if (m->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS))
    return CL_INVALID_OPERATION;
  if ((r = symcl_check_wait_list(q, n, list)) != CL_SUCCESS)
    return r;
  copy_command(q, m->data + offset, ptr, size, CL_COMMAND_WRITE_BUFFER, blocking, event);
  return CL_SUCCESS;
}

cl_int clEnqueueCopyBuffer(cl_command_queue q, cl_mem src, cl_mem dst, size_t src_offset, size_t dst_offset,
                           size_t size, cl_uint n, const cl_event *list, cl_event *event) {
  cl_int r;
  if ((r = check_queue_mem(q, src)) != CL_SUCCESS || (r = check_queue_mem(q, dst)) != CL_SUCCESS)
    return r;
  if ((r = check_range(src, src_offset, size)) != CL_SUCCESS || (r = check_range(dst, dst_offset, size)) != CL_SUCCESS)
    return r;
  if (src->data + src_offset < dst->data + dst_offset + size && dst->data + dst_offset < src->data + src_offset + size)
    return CL_MEM_COPY_OVERLAP;
  if ((r = symcl_check_wait_list(q, n, list)) != CL_SUCCESS)
    return r;
  copy_command(q, dst->data + dst_offset, src->data + src_offset, size, CL_COMMAND_COPY_BUFFER, CL_FALSE, event);
  return CL_SUCCESS;
}

cl_int clEnqueueFillBuffer(cl_command_queue q, cl_mem m, const void *pattern, size_t pattern_size, size_t offset,
                           size_t size, cl_uint n, const cl_event *list, cl_event *event) {
  struct symcl_command *c;
  cl_int r;
  if ((r = check_queue_mem(q, m)) != CL_SUCCESS)
    return r;
  if (!pattern || pattern_size == 0 || pattern_size > 128 || (pattern_size & (pattern_size - 1)) ||
      offset % pattern_size || size % pattern_size)
    return CL_INVALID_VALUE;
  if ((r = check_range(m, offset, size)) != CL_SUCCESS)
    return r;
  if ((r = symcl_check_wait_list(q, n, list)) != CL_SUCCESS)
    return r;
  c = symcl_new_command(SYMCL_CMD_FILL);
  c->dst = m->data + offset;
  c->bytes = size;
  memcpy(c->pattern, pattern, pattern_size);
  c->pattern_size = pattern_size;
  symcl_enqueue(q, c, CL_COMMAND_FILL_BUFFER, event);
  return CL_SUCCESS;
}

/* The buffer's memory is host memory, so a map returns it directly once
 * the queue has run (maps always complete before returning here). */
void *clEnqueueMapBuffer(cl_command_queue q, cl_mem m, cl_bool blocking, cl_map_flags flags, size_t offset,
                         size_t size, cl_uint n, const cl_event *list, cl_event *event, cl_int *errcode_ret) {
  cl_int r;
  (void)blocking;
  if ((r = check_queue_mem(q, m)) != CL_SUCCESS || (r = check_range(m, offset, size)) != CL_SUCCESS ||
      (r = symcl_check_wait_list(q, n, list)) != CL_SUCCESS) {
    symcl_set_error(errcode_ret, r);
    return NULL;
  }
  if (flags & ~(cl_map_flags)(CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) {
    symcl_set_error(errcode_ret, CL_INVALID_VALUE);
    return NULL;
  }
  /* The host promised with CL_MEM_HOST_* not to read (or write) the
   * buffer: a map for that is refused (OpenCL 1.2, clEnqueueMapBuffer). */
  if (((flags & CL_MAP_READ) && (m->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS))) ||
      ((flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) &&
       (m->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)))) {
    symcl_set_error(errcode_ret, CL_INVALID_OPERATION);
    return NULL;
  }
  symcl_enqueue(q, symcl_new_command(SYMCL_CMD_MARKER), CL_COMMAND_MAP_BUFFER, event);
  symcl_run_queue(q);
  m->map_count++;
  symcl_set_error(errcode_ret, CL_SUCCESS);
  return m->data + offset;
}

cl_int clEnqueueUnmapMemObject(cl_command_queue q, cl_mem m, void *mapped, cl_uint n, const cl_event *list,
                               cl_event *event) {
  cl_int r;
  if ((r = check_queue_mem(q, m)) != CL_SUCCESS)
    return r;
  if (!mapped || m->map_count == 0 || (unsigned char *)mapped < m->data ||
      (unsigned char *)mapped >= m->data + m->size)
    return CL_INVALID_VALUE;
  if ((r = symcl_check_wait_list(q, n, list)) != CL_SUCCESS)
    return r;
  m->map_count--;
  symcl_enqueue(q, symcl_new_command(SYMCL_CMD_MARKER), CL_COMMAND_UNMAP_MEM_OBJECT, event);
  return CL_SUCCESS;
}

/* Checks the NDRange and fills local[] (chosen when not given). */
static cl_int ndrange(cl_uint dims, const size_t *global, const size_t *local_in, size_t *local) {
  size_t total = 1;
  cl_uint d;
  if (dims < 1 || dims > 3)
    return CL_INVALID_WORK_DIMENSION;
  if (!global)
    return CL_INVALID_GLOBAL_WORK_SIZE;
  for (d = 0; d < dims; d++) {
    if (global[d] == 0)
      return CL_INVALID_GLOBAL_WORK_SIZE;
    if (local_in) {
      if (local_in[d] == 0 || global[d] % local_in[d] != 0)
        return CL_INVALID_WORK_GROUP_SIZE;
      local[d] = local_in[d];
    } else {
      /* The largest divisor of the global size that keeps the group within
       * the device limit, as implementations commonly choose. */
      size_t l = global[d] < SYMCL_MAX_WORK_GROUP / total ? global[d] : SYMCL_MAX_WORK_GROUP / total;
      while (global[d] % l)
        l--;
      local[d] = l;
    }
    total *= local[d];
  }
  /* The total is checked before each dimension, as pocl does; with every
   * dimension's limit equal to the total's, a dimension over its limit
   * always makes the total too large. */
  if (total > SYMCL_MAX_WORK_GROUP)
    return CL_INVALID_WORK_GROUP_SIZE;
  for (cl_uint e = 0; e < dims; e++)
    if (local[e] > SYMCL_MAX_WORK_GROUP)
      return CL_INVALID_WORK_ITEM_SIZE;
  for (; d < 3; d++)
    local[d] = 1;
  return CL_SUCCESS;
}

/* What the buffer's flags let a kernel do with it (CL_MEM_READ_WRITE when
 * neither read-only nor write-only). */
static unsigned symcl_kernel_access(cl_mem m) {
  unsigned sub = m->parent ? SYMCL_ACCESS_SUB : 0;
  if (m->flags & CL_MEM_READ_ONLY)
    return SYMCL_ACCESS_READ_ONLY | sub;
  if (m->flags & CL_MEM_WRITE_ONLY)
    return SYMCL_ACCESS_WRITE_ONLY | sub;
  return SYMCL_ACCESS_READ_WRITE | sub;
}

/* Captures the argument values: buffers become their data pointers, with
 * the access their flags allow a kernel. */
static cl_int capture_args(cl_kernel k, struct symcl_command *c) {
  size_t bytes = 0, at = 0;
  unsigned i;
  for (i = 0; i < k->num_args; i++) {
    if (!k->args[i].set)
      return CL_INVALID_KERNEL_ARGS;
    bytes += SYMCL_MAX_ARG_BYTES;
  }
  c->num_args = k->num_args;
  c->args = calloc(k->num_args ? k->num_args : 1, sizeof *c->args);
  c->arg_storage = malloc(bytes ? bytes : 1);
  for (i = 0; i < k->num_args; i++) {
    struct symcl_kernel_arg *a = &k->args[i];
    unsigned char *slot = c->arg_storage + at;
    c->args[i].kind = a->kind;
    c->args[i].size = a->size;
    c->args[i].bytes = slot;
    if (a->kind == SYMCL_ARG_BYTES && (a->space == 1 || a->space == 2)) {
      void *data = a->mem ? a->mem->data : NULL;
      memcpy(slot, &data, sizeof data);
      if (a->mem) {
        c->args[i].access = symcl_kernel_access(a->mem);
        c->args[i].mem_size = a->mem->size;
        c->args[i].site = a->mem->site;
      }
    } else if (a->kind == SYMCL_ARG_BYTES) {
      memcpy(slot, a->value, a->size);
    }
    at += SYMCL_MAX_ARG_BYTES;
  }
  return CL_SUCCESS;
}

cl_int clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t *offset,
                              const size_t *global, const size_t *local, cl_uint n, const cl_event *list,
                              cl_event *event) {
  struct symcl_command *c;
  size_t chosen[3];
  cl_int r;
  cl_uint d;
  if (!symcl_valid_queue(q))
    return CL_INVALID_COMMAND_QUEUE;
  if (!symcl_valid_kernel(k))
    return CL_INVALID_KERNEL;
  if (k->program->context != q->context)
    return CL_INVALID_CONTEXT;
  if ((r = ndrange(dims, global, local, chosen)) != CL_SUCCESS)
    return r;
  if ((r = symcl_check_wait_list(q, n, list)) != CL_SUCCESS)
    return r;
  c = symcl_new_command(SYMCL_CMD_KERNEL);
  if ((r = capture_args(k, c)) != CL_SUCCESS) {
    free(c);
    return r;
  }
  c->program = k->program->id;
  c->kernel = k->id;
  c->dims = dims;
  for (d = 0; d < 3; d++) {
    c->offset[d] = (offset && d < dims) ? offset[d] : 0;
    c->global[d] = d < dims ? global[d] : 1;
    c->local[d] = chosen[d];
  }
  symcl_enqueue(q, c, CL_COMMAND_NDRANGE_KERNEL, event);
  return CL_SUCCESS;
}

cl_int clEnqueueTask(cl_command_queue q, cl_kernel k, cl_uint n, const cl_event *list, cl_event *event) {
  size_t one = 1;
  return clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, n, list, event);
}
