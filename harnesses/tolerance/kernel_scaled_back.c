// expect: equivalent
/* An OpenCL kernel's own tolerance check: each work-item scales its
 * element by 4 and back by 1/4 (exact for x in [1, 2)) and checks the
 * result within 0 ulps of the input with symcross_check_close, declared
 * in the kernel's source (symcross_tolerance as symcross.h lays it out,
 * kind 1 = SYMCROSS_ULP). Each work-item's result is part of the host
 * program's report. (The native OpenCL implementation knows no
 * symcross_check_close, so a finding of such a check is not replayed.)
 * Expected verdict: equivalent (within bound, proved for each work-item). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <assert.h>
#include "symcross.h"

#define N 2

static const char *source =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "typedef struct { int kind; int reserved; double bound; const void *magnitude; } symcross_tolerance;\n"
    "void symcross_check_close(const __global void *got, const __global void *want, size_t elem_size,\n"
    "                          size_t count, symcross_tolerance tol, __constant char *what);\n"
    "__kernel void scale(__global const float *x, __global float *y) {\n"
    "  size_t i = get_global_id(0);\n"
    "  y[i] = (x[i] * 4.0f) * 0.25f;\n"
    "  symcross_tolerance exact = {1, 0, 0.0, 0}; /* SYMCROSS_ULP(0) */\n"
    "  symcross_check_close(&y[i], &x[i], sizeof(float), 1, exact, \"scaled back\");\n"
    "}\n";

int main(void) {
  float x[N], y[N];
  cl_int err;
  symcross_make_symbolic(x, sizeof x, "x");
  for (int i = 0; i < N; i++) symcross_assume(x[i] >= 1.0f && x[i] < 2.0f);
  cl_platform_id platform;
  cl_device_id device;
  assert(clGetPlatformIDs(1, &platform, NULL) == CL_SUCCESS);
  assert(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) == CL_SUCCESS);
  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  cl_command_queue q = clCreateCommandQueue(ctx, device, 0, &err);
  cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
  assert(clBuildProgram(prog, 1, &device, "", NULL, NULL) == CL_SUCCESS);
  cl_mem dx = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof x, x, &err);
  cl_mem dy = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof y, NULL, &err);
  cl_kernel k = clCreateKernel(prog, "scale", &err);
  clSetKernelArg(k, 0, sizeof(cl_mem), &dx);
  clSetKernelArg(k, 1, sizeof(cl_mem), &dy);
  size_t global = N;
  assert(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL) == CL_SUCCESS);
  assert(clEnqueueReadBuffer(q, dy, CL_TRUE, 0, sizeof y, y, 0, NULL, NULL) == CL_SUCCESS);
  clReleaseKernel(k);
  clReleaseMemObject(dx);
  clReleaseMemObject(dy);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  return 0;
}
