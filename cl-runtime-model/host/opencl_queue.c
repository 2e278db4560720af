/* The modelled OpenCL runtime: command queues and events.
 *
 * Queues are in order. Commands wait in the queue until the host blocks
 * (a blocking read/write/map, clFinish, clWaitForEvents): only then do they
 * run, kernels included, as in KLEE-CL section 4.6. A buffer released
 * before that is therefore a use-after-free inside the command that uses it.
 * Out-of-order queues are refused with an `unsupported` finding. */
#define CL_TARGET_OPENCL_VERSION 120
#include "symcross_cl.h"
#include <stdlib.h>
#include <string.h>

int symcl_valid_queue(cl_command_queue q) { return q && q->magic == SYMCL_MAGIC_QUEUE; }
int symcl_valid_event(cl_event e) { return e && e->magic == SYMCL_MAGIC_EVENT; }

cl_command_queue clCreateCommandQueue(cl_context context, cl_device_id device, cl_command_queue_properties props,
                                      cl_int *errcode_ret) {
  cl_command_queue q;
  if (!symcl_valid_context(context)) {
    symcl_set_error(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  if (device != symcl_device()) {
    symcl_set_error(errcode_ret, CL_INVALID_DEVICE);
    return NULL;
  }
  if (props & ~(cl_command_queue_properties)(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE)) {
    symcl_set_error(errcode_ret, CL_INVALID_VALUE);
    return NULL;
  }
  if (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
    __symcross_unsupported("clCreateCommandQueue with CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE "
                           "(only in-order queues are modelled)");
  q = malloc(sizeof *q);
  q->magic = SYMCL_MAGIC_QUEUE;
  q->refs = 1;
  q->context = context;
  q->properties = props;
  q->head = q->tail = NULL;
  context->refs++;
  symcl_set_error(errcode_ret, CL_SUCCESS);
  return q;
}

cl_int clRetainCommandQueue(cl_command_queue q) {
  if (!symcl_valid_queue(q))
    return CL_INVALID_COMMAND_QUEUE;
  q->refs++;
  return CL_SUCCESS;
}

cl_int clReleaseCommandQueue(cl_command_queue q) {
  if (!symcl_valid_queue(q))
    return CL_INVALID_COMMAND_QUEUE;
  if (--q->refs == 0) {
    /* Releasing a queue flushes it and waits for its commands. */
    symcl_run_queue(q);
    clReleaseContext(q->context);
    q->magic = 0;
    free(q);
  }
  return CL_SUCCESS;
}

cl_int clGetCommandQueueInfo(cl_command_queue q, cl_command_queue_info name, size_t size, void *value,
                             size_t *size_ret) {
  cl_device_id d = symcl_device();
  if (!symcl_valid_queue(q))
    return CL_INVALID_COMMAND_QUEUE;
  switch (name) {
  case CL_QUEUE_CONTEXT:
    return symcl_info(size, value, size_ret, &q->context, sizeof q->context);
  case CL_QUEUE_DEVICE:
    return symcl_info(size, value, size_ret, &d, sizeof d);
  case CL_QUEUE_REFERENCE_COUNT:
    return symcl_info(size, value, size_ret, &q->refs, sizeof(cl_uint));
  case CL_QUEUE_PROPERTIES:
    return symcl_info(size, value, size_ret, &q->properties, sizeof q->properties);
  default:
    return CL_INVALID_VALUE;
  }
}

struct symcl_command *symcl_new_command(enum symcl_command_kind kind) {
  struct symcl_command *c = calloc(1, sizeof *c);
  c->kind = kind;
  return c;
}

static cl_event new_event(cl_command_queue q, cl_command_type type) {
  cl_event e = malloc(sizeof *e);
  e->magic = SYMCL_MAGIC_EVENT;
  e->refs = 1;
  e->queue = q;
  e->context = q->context;
  e->type = type;
  e->status = CL_QUEUED;
  e->callbacks = NULL;
  return e;
}

cl_int symcl_check_wait_list(cl_command_queue q, cl_uint n, const cl_event *list) {
  cl_uint i;
  if ((n == 0) != (list == NULL))
    return CL_INVALID_EVENT_WAIT_LIST;
  for (i = 0; i < n; i++) {
    if (!symcl_valid_event(list[i]))
      return CL_INVALID_EVENT_WAIT_LIST;
    if (list[i]->context != q->context)
      return CL_INVALID_CONTEXT;
  }
  /* Events of another queue must complete first: run that queue now. */
  for (i = 0; i < n; i++) {
    if (list[i]->queue != q && list[i]->status != CL_COMPLETE)
      symcl_run_queue(list[i]->queue);
  }
  return CL_SUCCESS;
}

void symcl_enqueue(cl_command_queue q, struct symcl_command *cmd, cl_command_type type, cl_event *event) {
  if (event) {
    *event = new_event(q, type);
    cmd->event = *event;
    (*event)->refs++; /* the command's reference */
  }
  cmd->next = NULL;
  if (q->tail)
    q->tail->next = cmd;
  else
    q->head = cmd;
  q->tail = cmd;
}

static void run_fill(struct symcl_command *c) {
  size_t i;
  for (i = 0; i + c->pattern_size <= c->bytes; i += c->pattern_size)
    memcpy(c->dst + i, c->pattern, c->pattern_size);
}

static void run_command(struct symcl_command *c) {
  switch (c->kind) {
  case SYMCL_CMD_COPY:
    memmove(c->dst, c->src, c->bytes);
    break;
  case SYMCL_CMD_COPY_RECT:
    for (size_t z = 0; z < c->region[2]; z++)
      for (size_t y = 0; y < c->region[1]; y++)
        memmove(c->dst + z * c->dst_slice + y * c->dst_row, c->src + z * c->src_slice + y * c->src_row, c->region[0]);
    break;
  case SYMCL_CMD_FILL:
    run_fill(c);
    break;
  case SYMCL_CMD_KERNEL:
    __symcross_cl_run(c->program, c->kernel, c->dims, c->offset, c->global, c->local, c->num_args, c->args);
    free(c->args);
    free(c->arg_storage);
    break;
  case SYMCL_CMD_MARKER:
    break;
  }
}

void symcl_run_queue(cl_command_queue q) {
  while (q->head) {
    struct symcl_command *c = q->head;
    q->head = c->next;
    if (!q->head)
      q->tail = NULL;
    if (c->event)
      symcl_set_event_status(c->event, CL_RUNNING);
    run_command(c);
    if (c->event) {
      symcl_set_event_status(c->event, CL_COMPLETE);
      clReleaseEvent(c->event);
    }
    free(c);
  }
}

cl_int clFlush(cl_command_queue q) { return symcl_valid_queue(q) ? CL_SUCCESS : CL_INVALID_COMMAND_QUEUE; }

cl_int clFinish(cl_command_queue q) {
  if (!symcl_valid_queue(q))
    return CL_INVALID_COMMAND_QUEUE;
  symcl_run_queue(q);
  return CL_SUCCESS;
}

cl_int clWaitForEvents(cl_uint n, const cl_event *list) {
  cl_uint i;
  if (n == 0 || !list)
    return CL_INVALID_VALUE;
  for (i = 0; i < n; i++) {
    if (!symcl_valid_event(list[i]))
      return CL_INVALID_EVENT;
    if (list[i]->context != list[0]->context)
      return CL_INVALID_CONTEXT;
  }
  for (i = 0; i < n; i++) {
    if (list[i]->queue && list[i]->status != CL_COMPLETE)
      symcl_run_queue(list[i]->queue);
  }
  return CL_SUCCESS;
}

cl_int clEnqueueWaitForEvents(cl_command_queue q, cl_uint n, const cl_event *list) {
  if (!symcl_valid_queue(q))
    return CL_INVALID_COMMAND_QUEUE;
  if (n == 0 || !list)
    return CL_INVALID_VALUE;
  return symcl_check_wait_list(q, n, list);
}

cl_int clGetEventInfo(cl_event e, cl_event_info name, size_t size, void *value, size_t *size_ret) {
  if (!symcl_valid_event(e))
    return CL_INVALID_EVENT;
  switch (name) {
  case CL_EVENT_COMMAND_QUEUE:
    return symcl_info(size, value, size_ret, &e->queue, sizeof e->queue);
  case CL_EVENT_CONTEXT:
    return symcl_info(size, value, size_ret, &e->context, sizeof e->context);
  case CL_EVENT_COMMAND_TYPE:
    return symcl_info(size, value, size_ret, &e->type, sizeof e->type);
  case CL_EVENT_COMMAND_EXECUTION_STATUS:
    return symcl_info(size, value, size_ret, &e->status, sizeof e->status);
  case CL_EVENT_REFERENCE_COUNT:
    return symcl_info(size, value, size_ret, &e->refs, sizeof(cl_uint));
  default:
    return CL_INVALID_VALUE;
  }
}

cl_int clGetEventProfilingInfo(cl_event e, cl_profiling_info name, size_t size, void *value, size_t *size_ret) {
  cl_ulong t = 0;
  if (!symcl_valid_event(e))
    return CL_INVALID_EVENT;
  if (!e->queue || !(e->queue->properties & CL_QUEUE_PROFILING_ENABLE) || e->status != CL_COMPLETE)
    return CL_PROFILING_INFO_NOT_AVAILABLE;
  switch (name) {
  case CL_PROFILING_COMMAND_QUEUED:
  case CL_PROFILING_COMMAND_SUBMIT:
  case CL_PROFILING_COMMAND_START:
  case CL_PROFILING_COMMAND_END:
    return symcl_info(size, value, size_ret, &t, sizeof t);
  default:
    return CL_INVALID_VALUE;
  }
}

cl_event clCreateUserEvent(cl_context context, cl_int *errcode_ret) {
  cl_event e;
  if (!symcl_valid_context(context)) {
    symcl_set_error(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  e = malloc(sizeof *e);
  e->magic = SYMCL_MAGIC_EVENT;
  e->refs = 1;
  e->queue = NULL;
  e->context = context;
  e->type = CL_COMMAND_USER;
  e->status = CL_SUBMITTED;
  e->callbacks = NULL;
  symcl_set_error(errcode_ret, CL_SUCCESS);
  return e;
}

cl_int clSetUserEventStatus(cl_event e, cl_int status) {
  if (!symcl_valid_event(e) || e->type != CL_COMMAND_USER)
    return CL_INVALID_EVENT;
  if (status != CL_COMPLETE && status >= 0)
    return CL_INVALID_VALUE;
  if (e->status == CL_COMPLETE || e->status < 0)
    return CL_INVALID_OPERATION;
  symcl_set_event_status(e, status);
  return CL_SUCCESS;
}

cl_int clRetainEvent(cl_event e) {
  if (!symcl_valid_event(e))
    return CL_INVALID_EVENT;
  e->refs++;
  return CL_SUCCESS;
}

cl_int clReleaseEvent(cl_event e) {
  if (!symcl_valid_event(e))
    return CL_INVALID_EVENT;
  if (--e->refs == 0) {
    e->magic = 0;
    free(e);
  }
  return CL_SUCCESS;
}

cl_int clEnqueueMarkerWithWaitList(cl_command_queue q, cl_uint n, const cl_event *list, cl_event *event) {
  cl_int r;
  if (!symcl_valid_queue(q))
    return CL_INVALID_COMMAND_QUEUE;
  if ((r = symcl_check_wait_list(q, n, list)) != CL_SUCCESS)
    return r;
  symcl_enqueue(q, symcl_new_command(SYMCL_CMD_MARKER), CL_COMMAND_MARKER, event);
  return CL_SUCCESS;
}

cl_int clEnqueueBarrierWithWaitList(cl_command_queue q, cl_uint n, const cl_event *list, cl_event *event) {
  cl_int r;
  if (!symcl_valid_queue(q))
    return CL_INVALID_COMMAND_QUEUE;
  if ((r = symcl_check_wait_list(q, n, list)) != CL_SUCCESS)
    return r;
  symcl_enqueue(q, symcl_new_command(SYMCL_CMD_MARKER), CL_COMMAND_BARRIER, event);
  return CL_SUCCESS;
}

cl_int clEnqueueMarker(cl_command_queue q, cl_event *event) {
  if (!event)
    return CL_INVALID_VALUE;
  return clEnqueueMarkerWithWaitList(q, 0, NULL, event);
}

cl_int clEnqueueBarrier(cl_command_queue q) { return clEnqueueBarrierWithWaitList(q, 0, NULL, NULL); }

/* Statuses count down: CL_QUEUED 3, SUBMITTED 2, RUNNING 1, COMPLETE 0,
 * errors below 0. A callback for status S runs once the event reaches S or
 * beyond; an error reaches CL_COMPLETE callbacks with the error code. */
void symcl_set_event_status(cl_event e, cl_int status) {
  e->status = status;
  struct symcl_callback **link = &e->callbacks;
  while (*link) {
    struct symcl_callback *cb = *link;
    if (status <= cb->when) {
      *link = cb->next;
      cb->event_fn(e, status, cb->user_data);
      free(cb);
      clReleaseEvent(e); /* the reference the pending callback held */
    } else {
      link = &cb->next;
    }
  }
}

cl_int clSetEventCallback(cl_event e, cl_int when, void(CL_CALLBACK *fn)(cl_event, cl_int, void *), void *user_data) {
  if (!symcl_valid_event(e))
    return CL_INVALID_EVENT;
  if (!fn || (when != CL_COMPLETE && when != CL_RUNNING && when != CL_SUBMITTED))
    return CL_INVALID_VALUE;
  if (e->status <= when) {
    fn(e, e->status, user_data);
    return CL_SUCCESS;
  }
  struct symcl_callback *cb = calloc(1, sizeof *cb);
  cb->when = when;
  cb->event_fn = fn;
  cb->user_data = user_data;
  cb->next = e->callbacks;
  e->callbacks = cb;
  e->refs++; /* the event lives until its callbacks have run */
  return CL_SUCCESS;
}
