/* symcross_cl.h: internal header of the modelled OpenCL runtime (host API).
 *
 * The host API is plain C (opencl_*.c next to this file) executed by
 * symcross like user code. It talks to the engine through a few primitives,
 * all named __symcross_cl_*, which symcross implements itself (see
 * src/exec/opencl/host.rs): compiling a program, looking up kernels and their
 * parameters, allocating and freeing buffer memory, and running an NDRange
 * on the current memory. Each source file defines CL_TARGET_OPENCL_VERSION
 * to 120 before including this header.
 */
#ifndef SYMCROSS_CL_H
#define SYMCROSS_CL_H

#include <CL/cl.h>
#include <stddef.h>

/* ---- Engine primitives ------------------------------------------------ */

/* Compiles an OpenCL C program with clang (OpenCL C 1.2, -ffp-contract=off)
 * plus the build options. Returns the program id, -1 when compilation
 * failed (log filled, NUL-terminated) or -2 for invalid options. */
int __symcross_cl_build(const char *source, size_t length, const char *options, char *log, size_t log_size);
/* Builds separately compiled units (clLinkProgram; clCompileProgram with
 * one unit): each with its own options, plus headers by include name. */
int __symcross_cl_build_units(unsigned n, const char **sources, const size_t *lengths, const char **unit_options,
                              const char *link_options, char *log, size_t log_size, unsigned num_headers,
                              const char **header_names, const char **header_sources);
/* Kernel id of `name` in a built program, or -1; *num_args set. */
int __symcross_cl_kernel(int program, const char *name, unsigned *num_args);
/* Address space (0 private value, 1 global, 2 constant, 3 local) and size
 * in bytes of a kernel parameter; returns 0, or -1 for a bad index. */
int __symcross_cl_kernel_arg(int program, int kernel, unsigned index, unsigned *addr_space, size_t *size);
/* The kernel names of a program separated by ';' into buf (NUL-terminated,
 * truncated to size); returns the number of kernels; *length the full
 * length including the NUL. */
unsigned __symcross_cl_kernel_names(int program, char *buf, size_t size, size_t *length);

/* One kernel argument as the NDRange receives it. A buffer argument also
 * carries what the host allowed kernels to do with the buffer (its
 * CL_MEM_READ_ONLY / CL_MEM_WRITE_ONLY flag), its size and where the host
 * created it: OpenCL 1.2 section 5.2.1 leaves a kernel's write into a
 * read-only buffer and its read of a write-only one undefined, and the
 * engine reports either (src/exec/opencl/host_access.rs). */
struct __symcross_cl_arg {
  unsigned kind;     /* SYMCL_ARG_BYTES or SYMCL_ARG_LOCAL */
  unsigned access;   /* buffer arguments: SYMCL_ACCESS_*, | SYMCL_ACCESS_SUB for a sub-buffer */
  size_t size;       /* bytes of the value, or of the __local allocation */
  const void *bytes; /* the value (a buffer argument is its data pointer) */
  size_t mem_size;   /* buffer arguments: the buffer's size in bytes (0: no buffer) */
  unsigned long long site; /* buffer arguments: __symcross_cl_site() at its creation */
};
#define SYMCL_ARG_BYTES 0u
#define SYMCL_ARG_LOCAL 1u
#define SYMCL_ACCESS_READ_WRITE 0u
#define SYMCL_ACCESS_READ_ONLY 1u
#define SYMCL_ACCESS_WRITE_ONLY 2u
#define SYMCL_ACCESS_SUB 16u

/* Runs every work-item of the NDRange on the current memory (local sizes
 * already chosen); returns when the kernel finished. */
void __symcross_cl_run(int program, int kernel, unsigned dims, const size_t *offset, const size_t *global,
                       const size_t *local, unsigned num_args, const struct __symcross_cl_arg *args);

/* Buffer memory: allocated as global-memory heap blocks named after the
 * user's clCreateBuffer line; freeing records the user's clRelease line. */
void *__symcross_cl_alloc(size_t size);
void __symcross_cl_free(void *p);

/* The user's line calling the OpenCL function running, as a number for
 * __symcross_cl_run to name it by (0: unknown). */
unsigned long long __symcross_cl_site(void);

/* An `unsupported` finding naming what is not modelled; ends the path. */
void __symcross_unsupported(const char *what);

/* ---- Objects ------------------------------------------------------------ */

#define SYMCL_MAGIC_CONTEXT 0x5c0c7e01u
#define SYMCL_MAGIC_QUEUE 0x5c0c7e02u
#define SYMCL_MAGIC_MEM 0x5c0c7e03u
#define SYMCL_MAGIC_PROGRAM 0x5c0c7e04u
#define SYMCL_MAGIC_KERNEL 0x5c0c7e05u
#define SYMCL_MAGIC_EVENT 0x5c0c7e06u

#define SYMCL_MAX_WORK_GROUP 1024
#define SYMCL_MAX_ARG_BYTES 128
#define SYMCL_LOG_SIZE 8192

struct _cl_platform_id {
  int unused;
};
struct _cl_device_id {
  int unused;
};

struct _cl_context {
  unsigned magic;
  unsigned refs;
  cl_context_properties properties[8];
  size_t num_properties; /* entries used, including the 0 terminator */
};

struct symcl_command;

/* A callback registered with clSetEventCallback (for the status `when`)
 * or clSetMemObjectDestructorCallback. */
struct symcl_callback {
  cl_int when;
  void(CL_CALLBACK *event_fn)(cl_event, cl_int, void *);
  void(CL_CALLBACK *mem_fn)(cl_mem, void *);
  void *user_data;
  struct symcl_callback *next;
};

struct _cl_command_queue {
  unsigned magic;
  unsigned refs;
  cl_context context;
  cl_command_queue_properties properties;
  struct symcl_command *head, *tail; /* commands not yet run, in order */
};

struct _cl_mem {
  unsigned magic;
  unsigned refs;
  cl_context context;
  cl_mem_flags flags;
  size_t size;
  unsigned char *data; /* the buffer's memory */
  void *host_ptr;      /* as given to clCreateBuffer */
  int owns_data;       /* data was allocated by the model (freed on release) */
  cl_mem parent;       /* sub-buffers: the buffer they view */
  size_t origin;
  unsigned map_count;
  unsigned long long site; /* where the user created it (__symcross_cl_site) */
  struct symcl_callback *destructors; /* newest first: called in that order */
};

struct _cl_program {
  unsigned magic;
  unsigned refs;
  cl_context context;
  char *source;
  size_t length;
  int id; /* engine program id once built, else -1 */
  cl_build_status status;
  char options[1024];
  char log[SYMCL_LOG_SIZE];
  unsigned kernels; /* kernel objects attached */
  int compiled;     /* clCompileProgram succeeded: an object for clLinkProgram */
  unsigned num_headers; /* the headers it was compiled with (copies) */
  char **header_names, **header_sources;
};

struct symcl_kernel_arg {
  int set;
  unsigned space;     /* as __symcross_cl_kernel_arg reports */
  size_t declared;    /* size of the parameter */
  unsigned kind;      /* SYMCL_ARG_BYTES or SYMCL_ARG_LOCAL */
  size_t size;        /* bytes of value, or __local size */
  cl_mem mem;         /* buffer arguments: the buffer (NULL allowed) */
  unsigned char value[SYMCL_MAX_ARG_BYTES];
};

struct _cl_kernel {
  unsigned magic;
  unsigned refs;
  cl_program program;
  int id;
  char name[256];
  unsigned num_args;
  struct symcl_kernel_arg *args;
};

struct _cl_event {
  unsigned magic;
  unsigned refs;
  cl_command_queue queue;
  cl_context context;
  cl_command_type type;
  cl_int status;
  struct symcl_callback *callbacks; /* waiting for their status */
};

enum symcl_command_kind { SYMCL_CMD_COPY, SYMCL_CMD_COPY_RECT, SYMCL_CMD_FILL, SYMCL_CMD_KERNEL, SYMCL_CMD_MARKER };

/* A command waiting in a queue. Buffers are resolved to their memory when
 * the command is enqueued, so a buffer released before the command runs
 * makes the command touch freed memory (KLEE-CL 4.6). */
struct symcl_command {
  enum symcl_command_kind kind;
  cl_event event; /* retained by the command, or NULL */
  struct symcl_command *next;
  /* copy / fill */
  unsigned char *dst;
  const unsigned char *src;
  size_t bytes;
  unsigned char pattern[SYMCL_MAX_ARG_BYTES];
  /* copy_rect: region[2] slices of region[1] rows of region[0] bytes */
  size_t region[3], dst_row, dst_slice, src_row, src_slice;
  size_t pattern_size;
  /* kernel */
  int program, kernel;
  unsigned dims;
  size_t offset[3], global[3], local[3];
  unsigned num_args;
  struct __symcross_cl_arg *args;
  unsigned char *arg_storage;
};

/* ---- Helpers shared by the opencl_*.c files --------------------------- */

/* clGet*Info: copies n bytes of src to value (CL_INVALID_VALUE if too small). */
cl_int symcl_info(size_t size, void *value, size_t *size_ret, const void *src, size_t n);
cl_int symcl_info_string(size_t size, void *value, size_t *size_ret, const char *s);
void symcl_set_error(cl_int *errcode_ret, cl_int code);

cl_platform_id symcl_platform(void);
cl_device_id symcl_device(void);
int symcl_valid_context(cl_context c);
int symcl_valid_queue(cl_command_queue q);
int symcl_valid_mem(cl_mem m);
int symcl_valid_program(cl_program p);
int symcl_valid_kernel(cl_kernel k);
int symcl_valid_event(cl_event e);

/* Queues: add a command (taking ownership), create its event if asked, and
 * run everything pending when the host blocks. */
cl_int symcl_check_wait_list(cl_command_queue q, cl_uint n, const cl_event *list);
void symcl_enqueue(cl_command_queue q, struct symcl_command *cmd, cl_command_type type, cl_event *event);
void symcl_run_queue(cl_command_queue q);
/* Sets an event's status and calls the callbacks it reaches. */
void symcl_set_event_status(cl_event e, cl_int status);
struct symcl_command *symcl_new_command(enum symcl_command_kind kind);
void symcl_release_kernel_args(cl_kernel k);

#endif /* SYMCROSS_CL_H */
