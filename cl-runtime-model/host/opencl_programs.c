/* The modelled OpenCL runtime: programs and kernels.
 *
 * clBuildProgram compiles the source with clang as OpenCL C 1.2 (through
 * the engine primitive __symcross_cl_build), honouring build options such as
 * -D and -cl-fp32-correctly-rounded-divide-sqrt and filling the build log on
 * errors. Kernel arguments are checked the way a real implementation checks
 * them, and their values copied at clSetKernelArg time. */
#define CL_TARGET_OPENCL_VERSION 120
#include "symcross_cl.h"
#include <stdlib.h>
#include <string.h>

int symcl_valid_program(cl_program p) { return p && p->magic == SYMCL_MAGIC_PROGRAM; }
int symcl_valid_kernel(cl_kernel k) { return k && k->magic == SYMCL_MAGIC_KERNEL; }

cl_program clCreateProgramWithSource(cl_context context, cl_uint count, const char **strings, const size_t *lengths,
                                     cl_int *errcode_ret) {
  cl_program p;
  size_t total = 0, at = 0;
  cl_uint i;
  if (!symcl_valid_context(context)) {
    symcl_set_error(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  if (count == 0 || !strings) {
    symcl_set_error(errcode_ret, CL_INVALID_VALUE);
    return NULL;
  }
  for (i = 0; i < count; i++) {
    if (!strings[i]) {
      symcl_set_error(errcode_ret, CL_INVALID_VALUE);
      return NULL;
    }
    total += (lengths && lengths[i]) ? lengths[i] : strlen(strings[i]);
  }
  p = calloc(1, sizeof *p);
  p->magic = SYMCL_MAGIC_PROGRAM;
  p->refs = 1;
  p->context = context;
  p->source = malloc(total + 1);
  for (i = 0; i < count; i++) {
    size_t n = (lengths && lengths[i]) ? lengths[i] : strlen(strings[i]);
    memcpy(p->source + at, strings[i], n);
    at += n;
  }
  p->source[total] = 0;
  p->length = total;
  p->id = -1;
  p->status = CL_BUILD_NONE;
  context->refs++;
  symcl_set_error(errcode_ret, CL_SUCCESS);
  return p;
}

cl_int clBuildProgram(cl_program p, cl_uint num_devices, const cl_device_id *devices, const char *options,
                      void(CL_CALLBACK *notify)(cl_program, void *), void *user_data) {
  int id;
  if (!symcl_valid_program(p))
    return CL_INVALID_PROGRAM;
  if ((num_devices == 0) != (devices == NULL) || (!notify && user_data))
    return CL_INVALID_VALUE;
  if (num_devices > 1 || (devices && devices[0] != symcl_device()))
    return CL_INVALID_DEVICE;
  if (p->kernels)
    return CL_INVALID_OPERATION;
  if (!options)
    options = "";
  if (strlen(options) >= sizeof p->options)
    return CL_INVALID_BUILD_OPTIONS;
  strcpy(p->options, options);
  p->log[0] = 0;
  id = __symcross_cl_build(p->source, p->length, options, p->log, sizeof p->log);
  if (id == -2)
    return CL_INVALID_BUILD_OPTIONS;
  p->id = id;
  p->status = id >= 0 ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
  if (notify)
    notify(p, user_data);
  return id >= 0 ? CL_SUCCESS : CL_BUILD_PROGRAM_FAILURE;
}

cl_int clRetainProgram(cl_program p) {
  if (!symcl_valid_program(p))
    return CL_INVALID_PROGRAM;
  p->refs++;
  return CL_SUCCESS;
}

cl_int clReleaseProgram(cl_program p) {
  if (!symcl_valid_program(p))
    return CL_INVALID_PROGRAM;
  if (--p->refs == 0) {
    clReleaseContext(p->context);
    for (unsigned i = 0; i < p->num_headers; i++) {
      free(p->header_names[i]);
      free(p->header_sources[i]);
    }
    free(p->header_names);
    free(p->header_sources);
    free(p->source);
    p->magic = 0;
    free(p);
  }
  return CL_SUCCESS;
}

static cl_int kernel_names_info(cl_program p, cl_program_info name, size_t size, void *value, size_t *size_ret) {
  char names[4096];
  size_t length = 0, count;
  if (p->id < 0)
    return CL_INVALID_PROGRAM_EXECUTABLE;
  count = __symcross_cl_kernel_names(p->id, names, sizeof names, &length);
  if (name == CL_PROGRAM_NUM_KERNELS)
    return symcl_info(size, value, size_ret, &count, sizeof count);
  return symcl_info_string(size, value, size_ret, names);
}

cl_int clGetProgramInfo(cl_program p, cl_program_info name, size_t size, void *value, size_t *size_ret) {
  cl_uint one = 1;
  cl_device_id d = symcl_device();
  size_t zero = 0;
  if (!symcl_valid_program(p))
    return CL_INVALID_PROGRAM;
  switch (name) {
  case CL_PROGRAM_REFERENCE_COUNT:
    return symcl_info(size, value, size_ret, &p->refs, sizeof(cl_uint));
  case CL_PROGRAM_CONTEXT:
    return symcl_info(size, value, size_ret, &p->context, sizeof p->context);
  case CL_PROGRAM_NUM_DEVICES:
    return symcl_info(size, value, size_ret, &one, sizeof one);
  case CL_PROGRAM_DEVICES:
    return symcl_info(size, value, size_ret, &d, sizeof d);
  case CL_PROGRAM_SOURCE:
    return symcl_info(size, value, size_ret, p->source, p->length + 1);
  case CL_PROGRAM_BINARY_SIZES:
    return symcl_info(size, value, size_ret, &zero, sizeof zero);
  case CL_PROGRAM_NUM_KERNELS:
  case CL_PROGRAM_KERNEL_NAMES:
    return kernel_names_info(p, name, size, value, size_ret);
  case CL_PROGRAM_BINARIES:
    __symcross_unsupported("clGetProgramInfo(CL_PROGRAM_BINARIES)");
    return CL_INVALID_VALUE;
  default:
    return CL_INVALID_VALUE;
  }
}

cl_int clGetProgramBuildInfo(cl_program p, cl_device_id device, cl_program_build_info name, size_t size,
                             void *value, size_t *size_ret) {
  cl_program_binary_type type;
  if (!symcl_valid_program(p))
    return CL_INVALID_PROGRAM;
  if (device != symcl_device())
    return CL_INVALID_DEVICE;
  switch (name) {
  case CL_PROGRAM_BUILD_STATUS:
    return symcl_info(size, value, size_ret, &p->status, sizeof p->status);
  case CL_PROGRAM_BUILD_OPTIONS:
    return symcl_info_string(size, value, size_ret, p->options);
  case CL_PROGRAM_BUILD_LOG:
    return symcl_info_string(size, value, size_ret, p->log);
  case CL_PROGRAM_BINARY_TYPE:
    type = p->id >= 0 ? CL_PROGRAM_BINARY_TYPE_EXECUTABLE
           : p->compiled ? CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT
                         : CL_PROGRAM_BINARY_TYPE_NONE;
    return symcl_info(size, value, size_ret, &type, sizeof type);
  default:
    return CL_INVALID_VALUE;
  }
}

static cl_kernel new_kernel(cl_program p, int id, const char *name, unsigned num_args) {
  cl_kernel k = calloc(1, sizeof *k);
  unsigned i;
  k->magic = SYMCL_MAGIC_KERNEL;
  k->refs = 1;
  k->program = p;
  k->id = id;
  strncpy(k->name, name, sizeof k->name - 1);
  k->num_args = num_args;
  k->args = calloc(num_args ? num_args : 1, sizeof *k->args);
  for (i = 0; i < num_args; i++)
    __symcross_cl_kernel_arg(p->id, id, i, &k->args[i].space, &k->args[i].declared);
  p->refs++;
  p->kernels++;
  return k;
}

cl_kernel clCreateKernel(cl_program p, const char *name, cl_int *errcode_ret) {
  unsigned num_args = 0;
  int id;
  if (!symcl_valid_program(p)) {
    symcl_set_error(errcode_ret, CL_INVALID_PROGRAM);
    return NULL;
  }
  if (p->id < 0) {
    symcl_set_error(errcode_ret, CL_INVALID_PROGRAM_EXECUTABLE);
    return NULL;
  }
  if (!name) {
    symcl_set_error(errcode_ret, CL_INVALID_VALUE);
    return NULL;
  }
  id = __symcross_cl_kernel(p->id, name, &num_args);
  if (id < 0) {
    symcl_set_error(errcode_ret, CL_INVALID_KERNEL_NAME);
    return NULL;
  }
  symcl_set_error(errcode_ret, CL_SUCCESS);
  return new_kernel(p, id, name, num_args);
}

cl_int clCreateKernelsInProgram(cl_program p, cl_uint num_kernels, cl_kernel *kernels, cl_uint *num_ret) {
  char names[4096];
  size_t length = 0;
  unsigned count, i = 0;
  char *name, *next;
  if (!symcl_valid_program(p))
    return CL_INVALID_PROGRAM;
  if (p->id < 0)
    return CL_INVALID_PROGRAM_EXECUTABLE;
  count = __symcross_cl_kernel_names(p->id, names, sizeof names, &length);
  if (kernels && num_kernels < count)
    return CL_INVALID_VALUE;
  if (num_ret)
    *num_ret = count;
  if (!kernels)
    return CL_SUCCESS;
  for (name = names; count && name; name = next, i++) {
    unsigned num_args = 0;
    int id;
    next = strchr(name, ';');
    if (next)
      *next++ = 0;
    id = __symcross_cl_kernel(p->id, name, &num_args);
    kernels[i] = new_kernel(p, id, name, num_args);
  }
  return CL_SUCCESS;
}

cl_int clRetainKernel(cl_kernel k) {
  if (!symcl_valid_kernel(k))
    return CL_INVALID_KERNEL;
  k->refs++;
  return CL_SUCCESS;
}

cl_int clReleaseKernel(cl_kernel k) {
  if (!symcl_valid_kernel(k))
    return CL_INVALID_KERNEL;
  if (--k->refs == 0) {
    k->program->kernels--;
    clReleaseProgram(k->program);
    free(k->args);
    k->magic = 0;
    free(k);
  }
  return CL_SUCCESS;
}

static cl_int set_buffer_arg(struct symcl_kernel_arg *a, size_t size, const void *value) {
  cl_mem m = NULL;
  if (size != sizeof(cl_mem))
    return CL_INVALID_ARG_SIZE;
  if (value)
    m = *(const cl_mem *)value;
  if (m && !symcl_valid_mem(m))
    return CL_INVALID_MEM_OBJECT;
  a->mem = m;
  a->kind = SYMCL_ARG_BYTES;
  a->size = sizeof(void *);
  return CL_SUCCESS;
}

cl_int clSetKernelArg(cl_kernel k, cl_uint index, size_t size, const void *value) {
  struct symcl_kernel_arg *a;
  cl_int r = CL_SUCCESS;
  if (!symcl_valid_kernel(k))
    return CL_INVALID_KERNEL;
  if (index >= k->num_args)
    return CL_INVALID_ARG_INDEX;
  a = &k->args[index];
  if (a->space == 1 || a->space == 2) {
    r = set_buffer_arg(a, size, value);
  } else if (a->space == 3) {
    if (value)
      return CL_INVALID_ARG_VALUE;
    if (size == 0)
      return CL_INVALID_ARG_SIZE;
    a->kind = SYMCL_ARG_LOCAL;
    a->size = size;
  } else {
    if (!value)
      return CL_INVALID_ARG_VALUE;
    if (size != a->declared || size > SYMCL_MAX_ARG_BYTES)
      return CL_INVALID_ARG_SIZE;
    memcpy(a->value, value, size);
    a->kind = SYMCL_ARG_BYTES;
    a->size = size;
    a->mem = NULL;
  }
  if (r == CL_SUCCESS)
    a->set = 1;
  return r;
}

cl_int clGetKernelInfo(cl_kernel k, cl_kernel_info name, size_t size, void *value, size_t *size_ret) {
  if (!symcl_valid_kernel(k))
    return CL_INVALID_KERNEL;
  switch (name) {
  case CL_KERNEL_FUNCTION_NAME:
    return symcl_info_string(size, value, size_ret, k->name);
  case CL_KERNEL_NUM_ARGS:
    return symcl_info(size, value, size_ret, &k->num_args, sizeof(cl_uint));
  case CL_KERNEL_REFERENCE_COUNT:
    return symcl_info(size, value, size_ret, &k->refs, sizeof(cl_uint));
  case CL_KERNEL_CONTEXT:
    return symcl_info(size, value, size_ret, &k->program->context, sizeof(cl_context));
  case CL_KERNEL_PROGRAM:
    return symcl_info(size, value, size_ret, &k->program, sizeof k->program);
  case CL_KERNEL_ATTRIBUTES:
    return symcl_info_string(size, value, size_ret, "");
  default:
    return CL_INVALID_VALUE;
  }
}

cl_int clGetKernelArgInfo(cl_kernel k, cl_uint index, cl_kernel_arg_info name, size_t size, void *value,
                          size_t *size_ret) {
  cl_kernel_arg_address_qualifier q;
  static const cl_kernel_arg_address_qualifier spaces[4] = {
      CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_ADDRESS_CONSTANT,
      CL_KERNEL_ARG_ADDRESS_LOCAL};
  if (!symcl_valid_kernel(k))
    return CL_INVALID_KERNEL;
  if (index >= k->num_args)
    return CL_INVALID_ARG_INDEX;
  if (name != CL_KERNEL_ARG_ADDRESS_QUALIFIER)
    return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
  q = spaces[k->args[index].space & 3];
  return symcl_info(size, value, size_ret, &q, sizeof q);
}

cl_int clGetKernelWorkGroupInfo(cl_kernel k, cl_device_id device, cl_kernel_work_group_info name, size_t size,
                                void *value, size_t *size_ret) {
  size_t wg = SYMCL_MAX_WORK_GROUP, multiple = 1, compile[3] = {0, 0, 0};
  cl_ulong zero = 0;
  if (!symcl_valid_kernel(k))
    return CL_INVALID_KERNEL;
  if (device && device != symcl_device())
    return CL_INVALID_DEVICE;
  switch (name) {
  case CL_KERNEL_WORK_GROUP_SIZE:
    return symcl_info(size, value, size_ret, &wg, sizeof wg);
  case CL_KERNEL_COMPILE_WORK_GROUP_SIZE:
    return symcl_info(size, value, size_ret, compile, sizeof compile);
  case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
    return symcl_info(size, value, size_ret, &multiple, sizeof multiple);
  case CL_KERNEL_LOCAL_MEM_SIZE:
  case CL_KERNEL_PRIVATE_MEM_SIZE:
    return symcl_info(size, value, size_ret, &zero, sizeof zero);
  default:
    return CL_INVALID_VALUE;
  }
}

static char *copy_string(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  memcpy(d, s, n);
  return d;
}

static cl_int check_devices(cl_uint num_devices, const cl_device_id *devices) {
  if ((num_devices == 0) != (devices == NULL))
    return CL_INVALID_VALUE;
  if (num_devices > 1 || (devices && devices[0] != symcl_device()))
    return CL_INVALID_DEVICE;
  return CL_SUCCESS;
}

/* Compiles to an "object": the source is checked now (errors fill the
 * log) and kept, with its options and headers, for clLinkProgram. */
cl_int clCompileProgram(cl_program p, cl_uint num_devices, const cl_device_id *devices, const char *options,
                        cl_uint num_headers, const cl_program *headers, const char **names,
                        void(CL_CALLBACK *notify)(cl_program, void *), void *user_data) {
  cl_int r;
  if (!symcl_valid_program(p))
    return CL_INVALID_PROGRAM;
  if ((r = check_devices(num_devices, devices)) != CL_SUCCESS)
    return r;
  if ((num_headers == 0) != (headers == NULL) || (num_headers == 0) != (names == NULL) || (!notify && user_data))
    return CL_INVALID_VALUE;
  if (!p->source || p->kernels)
    return CL_INVALID_OPERATION;
  for (cl_uint i = 0; i < num_headers; i++)
    if (!symcl_valid_program(headers[i]) || !headers[i]->source || !names[i])
      return CL_INVALID_VALUE;
  if (!options)
    options = "";
  if (strlen(options) >= sizeof p->options)
    return CL_INVALID_COMPILER_OPTIONS;
  for (unsigned i = 0; i < p->num_headers; i++) {
    free(p->header_names[i]);
    free(p->header_sources[i]);
  }
  free(p->header_names);
  free(p->header_sources);
  p->num_headers = num_headers;
  p->header_names = calloc(num_headers + 1, sizeof(char *));
  p->header_sources = calloc(num_headers + 1, sizeof(char *));
  for (cl_uint i = 0; i < num_headers; i++) {
    p->header_names[i] = copy_string(names[i]);
    p->header_sources[i] = copy_string(headers[i]->source);
  }
  strcpy(p->options, options);
  p->log[0] = 0;
  const char *src = p->source;
  const char *opts = p->options;
  int id = __symcross_cl_build_units(1, &src, &p->length, &opts, "", p->log, sizeof p->log, p->num_headers,
                                     (const char **)p->header_names, (const char **)p->header_sources);
  if (id == -2)
    return CL_INVALID_COMPILER_OPTIONS;
  p->compiled = id >= 0;
  p->status = id >= 0 ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
  if (notify)
    notify(p, user_data);
  return id >= 0 ? CL_SUCCESS : CL_COMPILE_PROGRAM_FAILURE;
}

/* Links compiled objects into an executable program: the units are built
 * together, each with the options and headers it was compiled with. */
cl_program clLinkProgram(cl_context context, cl_uint num_devices, const cl_device_id *devices, const char *options,
                         cl_uint n, const cl_program *inputs, void(CL_CALLBACK *notify)(cl_program, void *),
                         void *user_data, cl_int *errcode_ret) {
  cl_int r;
  if (!symcl_valid_context(context)) {
    symcl_set_error(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  if ((r = check_devices(num_devices, devices)) != CL_SUCCESS || n == 0 || !inputs || (!notify && user_data)) {
    symcl_set_error(errcode_ret, r != CL_SUCCESS ? r : CL_INVALID_VALUE);
    return NULL;
  }
  for (cl_uint i = 0; i < n; i++) {
    if (!symcl_valid_program(inputs[i]) || inputs[i]->context != context) {
      symcl_set_error(errcode_ret, CL_INVALID_PROGRAM);
      return NULL;
    }
    if (!inputs[i]->compiled) {
      symcl_set_error(errcode_ret, CL_INVALID_OPERATION);
      return NULL;
    }
  }
  if (!options)
    options = "";
  const char **sources = calloc(n, sizeof(char *)), **unit_options = calloc(n, sizeof(char *));
  size_t *lengths = calloc(n, sizeof(size_t));
  unsigned num_headers = 0;
  for (cl_uint i = 0; i < n; i++)
    num_headers += inputs[i]->num_headers;
  const char **names = calloc(num_headers + 1, sizeof(char *)), **texts = calloc(num_headers + 1, sizeof(char *));
  unsigned h = 0;
  for (cl_uint i = 0; i < n; i++) {
    sources[i] = inputs[i]->source;
    lengths[i] = inputs[i]->length;
    unit_options[i] = inputs[i]->options;
    for (unsigned k = 0; k < inputs[i]->num_headers; k++, h++) {
      names[h] = inputs[i]->header_names[k];
      texts[h] = inputs[i]->header_sources[k];
    }
  }
  cl_program p = calloc(1, sizeof *p);
  p->magic = SYMCL_MAGIC_PROGRAM;
  p->refs = 1;
  p->context = context;
  p->source = copy_string("");
  p->id = -1;
  context->refs++;
  if (strlen(options) < sizeof p->options)
    strcpy(p->options, options);
  int id = __symcross_cl_build_units(n, sources, lengths, unit_options, options, p->log, sizeof p->log, num_headers,
                                     names, texts);
  free(sources);
  free(unit_options);
  free(lengths);
  free(names);
  free(texts);
  if (id == -2) {
    clReleaseProgram(p);
    symcl_set_error(errcode_ret, CL_INVALID_LINKER_OPTIONS);
    return NULL;
  }
  p->id = id;
  p->status = id >= 0 ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
  if (notify)
    notify(p, user_data);
  /* A failed link still returns the program, so that its log can be read. */
  symcl_set_error(errcode_ret, id >= 0 ? CL_SUCCESS : CL_LINK_PROGRAM_FAILURE);
  return p;
}
