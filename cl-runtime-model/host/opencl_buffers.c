/* The modelled OpenCL runtime: buffer objects and sub-buffers.
 *
 * A buffer is host memory: allocated by the engine (named after the user's
 * clCreateBuffer line, in the global address space) or, with
 * CL_MEM_USE_HOST_PTR, the user's own memory. Releasing the last reference
 * frees the memory, so a kernel still queued that uses it touches freed
 * memory and the executor reports the access and the release line. */
#define CL_TARGET_OPENCL_VERSION 120
#include "symcross_cl.h"
#include <stdlib.h>
#include <string.h>

int symcl_valid_mem(cl_mem m) { return m && m->magic == SYMCL_MAGIC_MEM; }

#define ACCESS_FLAGS (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)
#define HOST_ACCESS_FLAGS (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)
#define ALL_FLAGS (ACCESS_FLAGS | HOST_ACCESS_FLAGS | CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)

/* At most one bit of `mask` is set in `flags`. */
static int at_most_one(cl_mem_flags flags, cl_mem_flags mask) {
  cl_mem_flags f = flags & mask;
  return (f & (f - 1)) == 0;
}

static cl_int check_flags(cl_mem_flags flags, void *host_ptr) {
  int wants_ptr = (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) != 0;
  if ((flags & ~(cl_mem_flags)ALL_FLAGS) || !at_most_one(flags, ACCESS_FLAGS) ||
      !at_most_one(flags, HOST_ACCESS_FLAGS))
    return CL_INVALID_VALUE;
  if ((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)))
    return CL_INVALID_VALUE;
  if (wants_ptr != (host_ptr != NULL))
    return CL_INVALID_HOST_PTR;
  return CL_SUCCESS;
}

cl_mem clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void *host_ptr, cl_int *errcode_ret) {
  cl_mem m;
  cl_int r;
  if (!symcl_valid_context(context)) {
    symcl_set_error(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  if (flags == 0)
    flags = CL_MEM_READ_WRITE;
  if ((r = check_flags(flags, host_ptr)) != CL_SUCCESS) {
    symcl_set_error(errcode_ret, r);
    return NULL;
  }
  if (size == 0 || size > (256ul << 20)) {
    symcl_set_error(errcode_ret, CL_INVALID_BUFFER_SIZE);
    return NULL;
  }
  m = calloc(1, sizeof *m);
  m->magic = SYMCL_MAGIC_MEM;
  m->refs = 1;
  m->context = context;
  m->flags = flags;
  m->size = size;
  m->host_ptr = host_ptr;
  m->site = __symcross_cl_site();
  if (flags & CL_MEM_USE_HOST_PTR) {
    m->data = host_ptr;
  } else {
    m->data = __symcross_cl_alloc(size);
    m->owns_data = 1;
    if (flags & CL_MEM_COPY_HOST_PTR)
      memcpy(m->data, host_ptr, size);
  }
  context->refs++;
  symcl_set_error(errcode_ret, CL_SUCCESS);
  return m;
}

/* A sub-buffer's flags give no access its buffer's deny, for kernels
 * (a read-only buffer's sub-buffer cannot be written, a write-only one's
 * cannot be read) or for the host (CL_MEM_HOST_*): CL_INVALID_VALUE
 * otherwise (OpenCL 1.2, clCreateSubBuffer). */
static int narrows(cl_mem_flags buffer, cl_mem_flags sub) {
  if ((buffer & CL_MEM_WRITE_ONLY) && (sub & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY)))
    return 0;
  if ((buffer & CL_MEM_READ_ONLY) && (sub & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY)))
    return 0;
  if ((buffer & CL_MEM_HOST_WRITE_ONLY) && (sub & CL_MEM_HOST_READ_ONLY))
    return 0;
  if ((buffer & CL_MEM_HOST_READ_ONLY) && (sub & CL_MEM_HOST_WRITE_ONLY))
    return 0;
  if ((buffer & CL_MEM_HOST_NO_ACCESS) && (sub & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY)))
    return 0;
  return 1;
}

cl_mem clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags, cl_buffer_create_type type, const void *info,
                         cl_int *errcode_ret) {
  const cl_buffer_region *region = info;
  cl_mem m;
  if (!symcl_valid_mem(buffer) || buffer->parent) {
    symcl_set_error(errcode_ret, CL_INVALID_MEM_OBJECT);
    return NULL;
  }
  if ((flags & ~(cl_mem_flags)(ACCESS_FLAGS | HOST_ACCESS_FLAGS)) || !at_most_one(flags, ACCESS_FLAGS) ||
      !at_most_one(flags, HOST_ACCESS_FLAGS) || !narrows(buffer->flags, flags) ||
      type != CL_BUFFER_CREATE_TYPE_REGION || !region) {
    symcl_set_error(errcode_ret, CL_INVALID_VALUE);
    return NULL;
  }
  /* Each group of access flags not given is the buffer's (OpenCL 1.2,
   * clCreateSubBuffer): a sub-buffer of a read-only buffer is read-only. */
  if (!(flags & ACCESS_FLAGS))
    flags |= buffer->flags & ACCESS_FLAGS;
  if (!(flags & HOST_ACCESS_FLAGS))
    flags |= buffer->flags & HOST_ACCESS_FLAGS;
  if (region->size == 0) {
    symcl_set_error(errcode_ret, CL_INVALID_BUFFER_SIZE);
    return NULL;
  }
  if (region->origin > buffer->size || region->size > buffer->size - region->origin) {
    symcl_set_error(errcode_ret, CL_INVALID_VALUE);
    return NULL;
  }
  if (region->origin % 128 != 0) { /* CL_DEVICE_MEM_BASE_ADDR_ALIGN is 1024 bits */
    symcl_set_error(errcode_ret, CL_MISALIGNED_SUB_BUFFER_OFFSET);
    return NULL;
  }
  m = calloc(1, sizeof *m);
  m->magic = SYMCL_MAGIC_MEM;
  m->refs = 1;
  m->context = buffer->context;
  m->flags = flags | (buffer->flags & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR));
  m->size = region->size;
  m->data = buffer->data + region->origin;
  m->host_ptr = buffer->host_ptr ? (unsigned char *)buffer->host_ptr + region->origin : NULL;
  m->parent = buffer;
  m->origin = region->origin;
  m->site = __symcross_cl_site();
  buffer->refs++;
  symcl_set_error(errcode_ret, CL_SUCCESS);
  return m;
}

cl_int clRetainMemObject(cl_mem m) {
  if (!symcl_valid_mem(m))
    return CL_INVALID_MEM_OBJECT;
  m->refs++;
  return CL_SUCCESS;
}

cl_int clReleaseMemObject(cl_mem m) {
  if (!symcl_valid_mem(m))
    return CL_INVALID_MEM_OBJECT;
  if (--m->refs == 0) {
    /* Destructor callbacks, newest first, before the memory goes. */
    while (m->destructors) {
      struct symcl_callback *cb = m->destructors;
      m->destructors = cb->next;
      cb->mem_fn(m, cb->user_data);
      free(cb);
    }
    if (m->owns_data)
      __symcross_cl_free(m->data);
    if (m->parent)
      clReleaseMemObject(m->parent);
    else
      clReleaseContext(m->context);
    m->magic = 0;
    free(m);
  }
  return CL_SUCCESS;
}

cl_int clGetMemObjectInfo(cl_mem m, cl_mem_info name, size_t size, void *value, size_t *size_ret) {
  cl_mem_object_type type = CL_MEM_OBJECT_BUFFER;
  if (!symcl_valid_mem(m))
    return CL_INVALID_MEM_OBJECT;
  switch (name) {
  case CL_MEM_TYPE:
    return symcl_info(size, value, size_ret, &type, sizeof type);
  case CL_MEM_FLAGS:
    return symcl_info(size, value, size_ret, &m->flags, sizeof m->flags);
  case CL_MEM_SIZE:
    return symcl_info(size, value, size_ret, &m->size, sizeof m->size);
  case CL_MEM_HOST_PTR:
    return symcl_info(size, value, size_ret, &m->host_ptr, sizeof m->host_ptr);
  case CL_MEM_MAP_COUNT:
    return symcl_info(size, value, size_ret, &m->map_count, sizeof(cl_uint));
  case CL_MEM_REFERENCE_COUNT:
    return symcl_info(size, value, size_ret, &m->refs, sizeof(cl_uint));
  case CL_MEM_CONTEXT:
    return symcl_info(size, value, size_ret, &m->context, sizeof m->context);
  case CL_MEM_ASSOCIATED_MEMOBJECT:
    return symcl_info(size, value, size_ret, &m->parent, sizeof m->parent);
  case CL_MEM_OFFSET:
    return symcl_info(size, value, size_ret, &m->origin, sizeof m->origin);
  default:
    return CL_INVALID_VALUE;
  }
}

cl_int clSetMemObjectDestructorCallback(cl_mem m, void(CL_CALLBACK *fn)(cl_mem, void *), void *user_data) {
  if (!symcl_valid_mem(m))
    return CL_INVALID_MEM_OBJECT;
  if (!fn)
    return CL_INVALID_VALUE;
  struct symcl_callback *cb = calloc(1, sizeof *cb);
  cb->mem_fn = fn;
  cb->user_data = user_data;
  cb->next = m->destructors;
  m->destructors = cb;
  return CL_SUCCESS;
}
