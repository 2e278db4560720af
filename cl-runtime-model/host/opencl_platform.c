/* The modelled OpenCL runtime: platform, device and context (OpenCL 1.2).
 * One platform with one CPU-like device that reports cl_khr_fp64. The
 * answers are those of a plausible real implementation, so host programs
 * that size their work from device queries behave as they would there. */
#define CL_TARGET_OPENCL_VERSION 120
#include "symcross_cl.h"
#include <stdlib.h>
#include <string.h>

static struct _cl_platform_id the_platform;
static struct _cl_device_id the_device;

#define EXTENSIONS "cl_khr_fp64 cl_khr_global_int32_base_atomics cl_khr_global_int32_extended_atomics " \
                   "cl_khr_local_int32_base_atomics cl_khr_local_int32_extended_atomics cl_khr_byte_addressable_store"

cl_platform_id symcl_platform(void) { return &the_platform; }
cl_device_id symcl_device(void) { return &the_device; }

cl_int symcl_info(size_t size, void *value, size_t *size_ret, const void *src, size_t n) {
  if (value) {
    if (size < n)
      return CL_INVALID_VALUE;
    memcpy(value, src, n);
  }
  if (size_ret)
    *size_ret = n;
  return CL_SUCCESS;
}

cl_int symcl_info_string(size_t size, void *value, size_t *size_ret, const char *s) {
  return symcl_info(size, value, size_ret, s, strlen(s) + 1);
}

void symcl_set_error(cl_int *errcode_ret, cl_int code) {
  if (errcode_ret)
    *errcode_ret = code;
}

int symcl_valid_context(cl_context c) { return c && c->magic == SYMCL_MAGIC_CONTEXT; }

cl_int clGetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms) {
  if ((num_entries == 0 && platforms) || (!platforms && !num_platforms))
    return CL_INVALID_VALUE;
  if (platforms)
    platforms[0] = &the_platform;
  if (num_platforms)
    *num_platforms = 1;
  return CL_SUCCESS;
}

cl_int clGetPlatformInfo(cl_platform_id platform, cl_platform_info name, size_t size, void *value, size_t *size_ret) {
  if (platform && platform != &the_platform)
    return CL_INVALID_PLATFORM;
  switch (name) {
  case CL_PLATFORM_PROFILE:
    return symcl_info_string(size, value, size_ret, "FULL_PROFILE");
  case CL_PLATFORM_VERSION:
    return symcl_info_string(size, value, size_ret, "OpenCL 1.2 symcross");
  case CL_PLATFORM_NAME:
    return symcl_info_string(size, value, size_ret, "symcross");
  case CL_PLATFORM_VENDOR:
    return symcl_info_string(size, value, size_ret, "symcross");
  case CL_PLATFORM_EXTENSIONS:
    return symcl_info_string(size, value, size_ret, "");
  default:
    return CL_INVALID_VALUE;
  }
}

cl_int clGetDeviceIDs(cl_platform_id platform, cl_device_type type, cl_uint num_entries, cl_device_id *devices,
                      cl_uint *num_devices) {
  if (platform && platform != &the_platform)
    return CL_INVALID_PLATFORM;
  if ((num_entries == 0 && devices) || (!devices && !num_devices))
    return CL_INVALID_VALUE;
  if (!(type & (CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_DEFAULT)) && type != CL_DEVICE_TYPE_ALL) {
    if (type & ~(CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM))
      return CL_INVALID_DEVICE_TYPE;
    if (num_devices)
      *num_devices = 0;
    return CL_DEVICE_NOT_FOUND;
  }
  if (devices)
    devices[0] = &the_device;
  if (num_devices)
    *num_devices = 1;
  return CL_SUCCESS;
}

static cl_int device_string_info(cl_device_info name, size_t size, void *value, size_t *size_ret) {
  switch (name) {
  case CL_DEVICE_NAME:
    return symcl_info_string(size, value, size_ret, "symcross modelled CPU");
  case CL_DEVICE_VENDOR:
    return symcl_info_string(size, value, size_ret, "symcross");
  case CL_DRIVER_VERSION:
    return symcl_info_string(size, value, size_ret, "1.0");
  case CL_DEVICE_PROFILE:
    return symcl_info_string(size, value, size_ret, "FULL_PROFILE");
  case CL_DEVICE_VERSION:
    return symcl_info_string(size, value, size_ret, "OpenCL 1.2 symcross");
  case CL_DEVICE_OPENCL_C_VERSION:
    return symcl_info_string(size, value, size_ret, "OpenCL C 1.2 ");
  case CL_DEVICE_EXTENSIONS:
    return symcl_info_string(size, value, size_ret, EXTENSIONS);
  case CL_DEVICE_BUILT_IN_KERNELS:
    return symcl_info_string(size, value, size_ret, "");
  default:
    return 1;
  }
}

static cl_int device_size_info(cl_device_info name, size_t size, void *value, size_t *size_ret) {
  size_t s;
  switch (name) {
  case CL_DEVICE_MAX_WORK_GROUP_SIZE:
    s = SYMCL_MAX_WORK_GROUP;
    break;
  case CL_DEVICE_MAX_WORK_ITEM_SIZES: {
    size_t sizes[3] = {SYMCL_MAX_WORK_GROUP, SYMCL_MAX_WORK_GROUP, SYMCL_MAX_WORK_GROUP};
    return symcl_info(size, value, size_ret, sizes, sizeof sizes);
  }
  case CL_DEVICE_MAX_PARAMETER_SIZE:
    s = 1024;
    break;
  case CL_DEVICE_PROFILING_TIMER_RESOLUTION:
    s = 1;
    break;
  case CL_DEVICE_PRINTF_BUFFER_SIZE:
    s = 1 << 20;
    break;
  case CL_DEVICE_IMAGE2D_MAX_WIDTH:
  case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
  case CL_DEVICE_IMAGE3D_MAX_WIDTH:
  case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
  case CL_DEVICE_IMAGE3D_MAX_DEPTH:
  case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
  case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE:
    s = 0;
    break;
  default:
    return 1;
  }
  return symcl_info(size, value, size_ret, &s, sizeof s);
}

static cl_int device_uint_info(cl_device_info name, size_t size, void *value, size_t *size_ret) {
  cl_uint u;
  switch (name) {
  case CL_DEVICE_VENDOR_ID:
    u = 0x5c;
    break;
  case CL_DEVICE_MAX_COMPUTE_UNITS:
  case CL_DEVICE_PARTITION_MAX_SUB_DEVICES:
    u = 1;
    break;
  case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS:
    u = 3;
    break;
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
    u = 16;
    break;
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT:
    u = 8;
    break;
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT:
    u = 4;
    break;
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE:
    u = 2;
    break;
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF:
  case CL_DEVICE_MAX_READ_IMAGE_ARGS:
  case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
  case CL_DEVICE_MAX_SAMPLERS:
  case CL_DEVICE_PARTITION_PROPERTIES:
    u = 0;
    break;
  case CL_DEVICE_MAX_CLOCK_FREQUENCY:
    u = 1000;
    break;
  case CL_DEVICE_ADDRESS_BITS:
    u = 64;
    break;
  case CL_DEVICE_MEM_BASE_ADDR_ALIGN:
    u = 1024;
    break;
  case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE:
    u = 128;
    break;
  case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE:
    u = 64;
    break;
  case CL_DEVICE_MAX_CONSTANT_ARGS:
    u = 8;
    break;
  case CL_DEVICE_REFERENCE_COUNT:
    u = 1;
    break;
  default:
    return 1;
  }
  return symcl_info(size, value, size_ret, &u, sizeof u);
}

static cl_int device_ulong_info(cl_device_info name, size_t size, void *value, size_t *size_ret) {
  cl_ulong l;
  switch (name) {
  case CL_DEVICE_MAX_MEM_ALLOC_SIZE:
    l = 256ul << 20;
    break;
  case CL_DEVICE_GLOBAL_MEM_SIZE:
    l = 1ul << 30;
    break;
  case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE:
    l = 1ul << 20;
    break;
  case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE:
    l = 64ul << 10;
    break;
  case CL_DEVICE_LOCAL_MEM_SIZE:
    l = 32ul << 10;
    break;
  default:
    return 1;
  }
  return symcl_info(size, value, size_ret, &l, sizeof l);
}

static cl_int device_other_info(cl_device_info name, size_t size, void *value, size_t *size_ret) {
  cl_bool yes = CL_TRUE, no = CL_FALSE;
  cl_device_fp_config fp = CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO |
                           CL_FP_ROUND_TO_INF | CL_FP_FMA;
  cl_device_type type = CL_DEVICE_TYPE_CPU;
  cl_device_exec_capabilities exec = CL_EXEC_KERNEL;
  cl_command_queue_properties queue = CL_QUEUE_PROFILING_ENABLE;
  cl_device_mem_cache_type cache = CL_READ_WRITE_CACHE;
  cl_device_local_mem_type local = CL_GLOBAL;
  cl_platform_id p = &the_platform;
  cl_device_id parent = NULL;
  switch (name) {
  case CL_DEVICE_TYPE:
    return symcl_info(size, value, size_ret, &type, sizeof type);
  case CL_DEVICE_SINGLE_FP_CONFIG:
  case CL_DEVICE_DOUBLE_FP_CONFIG:
    return symcl_info(size, value, size_ret, &fp, sizeof fp);
  case CL_DEVICE_AVAILABLE:
  case CL_DEVICE_COMPILER_AVAILABLE:
  case CL_DEVICE_LINKER_AVAILABLE:
  case CL_DEVICE_ENDIAN_LITTLE:
  case CL_DEVICE_HOST_UNIFIED_MEMORY:
  case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC:
    return symcl_info(size, value, size_ret, &yes, sizeof yes);
  case CL_DEVICE_IMAGE_SUPPORT:
  case CL_DEVICE_ERROR_CORRECTION_SUPPORT:
    return symcl_info(size, value, size_ret, &no, sizeof no);
  case CL_DEVICE_EXECUTION_CAPABILITIES:
    return symcl_info(size, value, size_ret, &exec, sizeof exec);
  case CL_DEVICE_QUEUE_PROPERTIES:
    return symcl_info(size, value, size_ret, &queue, sizeof queue);
  case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE:
    return symcl_info(size, value, size_ret, &cache, sizeof cache);
  case CL_DEVICE_LOCAL_MEM_TYPE:
    return symcl_info(size, value, size_ret, &local, sizeof local);
  case CL_DEVICE_PLATFORM:
    return symcl_info(size, value, size_ret, &p, sizeof p);
  case CL_DEVICE_PARENT_DEVICE:
    return symcl_info(size, value, size_ret, &parent, sizeof parent);
  default:
    return 1;
  }
}

cl_int clGetDeviceInfo(cl_device_id device, cl_device_info name, size_t size, void *value, size_t *size_ret) {
  cl_int r;
  if (device != &the_device)
    return CL_INVALID_DEVICE;
  if ((r = device_string_info(name, size, value, size_ret)) != 1)
    return r;
  if ((r = device_size_info(name, size, value, size_ret)) != 1)
    return r;
  if ((r = device_uint_info(name, size, value, size_ret)) != 1)
    return r;
  if ((r = device_ulong_info(name, size, value, size_ret)) != 1)
    return r;
  if ((r = device_other_info(name, size, value, size_ret)) != 1)
    return r;
  return CL_INVALID_VALUE;
}

cl_int clRetainDevice(cl_device_id device) { return device == &the_device ? CL_SUCCESS : CL_INVALID_DEVICE; }
cl_int clReleaseDevice(cl_device_id device) { return device == &the_device ? CL_SUCCESS : CL_INVALID_DEVICE; }

static cl_context new_context(const cl_context_properties *props, cl_int *errcode_ret) {
  cl_context c = malloc(sizeof *c);
  size_t n = 0;
  c->magic = SYMCL_MAGIC_CONTEXT;
  c->refs = 1;
  if (props) {
    for (; props[n] && n + 2 < 8; n += 2) {
      if (props[n] != CL_CONTEXT_PLATFORM || (cl_platform_id)props[n + 1] != &the_platform) {
        free(c);
        symcl_set_error(errcode_ret, props[n] == CL_CONTEXT_PLATFORM ? CL_INVALID_PLATFORM : CL_INVALID_PROPERTY);
        return NULL;
      }
      c->properties[n] = props[n];
      c->properties[n + 1] = props[n + 1];
    }
    c->properties[n++] = 0;
  }
  c->num_properties = n;
  symcl_set_error(errcode_ret, CL_SUCCESS);
  return c;
}

cl_context clCreateContext(const cl_context_properties *props, cl_uint num_devices, const cl_device_id *devices,
                           void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *), void *user_data,
                           cl_int *errcode_ret) {
  cl_uint i;
  if (!devices || num_devices == 0 || (!notify && user_data)) {
    symcl_set_error(errcode_ret, CL_INVALID_VALUE);
    return NULL;
  }
  for (i = 0; i < num_devices; i++) {
    if (devices[i] != &the_device) {
      symcl_set_error(errcode_ret, CL_INVALID_DEVICE);
      return NULL;
    }
  }
  return new_context(props, errcode_ret);
}

cl_context clCreateContextFromType(const cl_context_properties *props, cl_device_type type,
                                   void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *),
                                   void *user_data, cl_int *errcode_ret) {
  cl_uint n = 0;
  cl_int r;
  if (!notify && user_data) {
    symcl_set_error(errcode_ret, CL_INVALID_VALUE);
    return NULL;
  }
  r = clGetDeviceIDs(NULL, type, 0, NULL, &n);
  if (r != CL_SUCCESS) {
    symcl_set_error(errcode_ret, r);
    return NULL;
  }
  return new_context(props, errcode_ret);
}

cl_int clRetainContext(cl_context c) {
  if (!symcl_valid_context(c))
    return CL_INVALID_CONTEXT;
  c->refs++;
  return CL_SUCCESS;
}

cl_int clReleaseContext(cl_context c) {
  if (!symcl_valid_context(c))
    return CL_INVALID_CONTEXT;
  if (--c->refs == 0) {
    c->magic = 0;
    free(c);
  }
  return CL_SUCCESS;
}

cl_int clGetContextInfo(cl_context c, cl_context_info name, size_t size, void *value, size_t *size_ret) {
  cl_uint one = 1;
  cl_device_id d = &the_device;
  if (!symcl_valid_context(c))
    return CL_INVALID_CONTEXT;
  switch (name) {
  case CL_CONTEXT_REFERENCE_COUNT:
    return symcl_info(size, value, size_ret, &c->refs, sizeof(cl_uint));
  case CL_CONTEXT_NUM_DEVICES:
    return symcl_info(size, value, size_ret, &one, sizeof one);
  case CL_CONTEXT_DEVICES:
    return symcl_info(size, value, size_ret, &d, sizeof d);
  case CL_CONTEXT_PROPERTIES:
    return symcl_info(size, value, size_ret, c->properties, c->num_properties * sizeof(cl_context_properties));
  default:
    return CL_INVALID_VALUE;
  }
}

cl_int clUnloadPlatformCompiler(cl_platform_id platform) {
  return platform == &the_platform ? CL_SUCCESS : CL_INVALID_PLATFORM;
}

cl_int clUnloadCompiler(void) { return CL_SUCCESS; }
