/* A host program adding two vectors of N floats (2^20 by default) in one
 * NDRange of N work-items, then checking every sum. Plain OpenCL: it
 * builds natively against any OpenCL library (Oclgrind's, for bench
 * --peers) as well as under `symcross check`. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <assert.h>
#include <stdlib.h>

#ifndef N
#define N (1 << 20)
#endif

static const char *source =
    "__kernel void add(__global const float *a, __global const float *b, __global float *c) {\n"
    "  size_t i = get_global_id(0);\n"
    "  c[i] = a[i] + b[i];\n"
    "}\n";

int main(void) {
  cl_platform_id platform;
  cl_device_id device;
  cl_int err;
  assert(clGetPlatformIDs(1, &platform, NULL) == CL_SUCCESS);
  assert(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) == CL_SUCCESS);
  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  cl_command_queue q = clCreateCommandQueue(ctx, device, 0, &err);
  cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
  assert(clBuildProgram(prog, 1, &device, "", NULL, NULL) == CL_SUCCESS);
  float *a = malloc(N * sizeof(float)), *b = malloc(N * sizeof(float)), *c = malloc(N * sizeof(float));
  for (int i = 0; i < N; i++) {
    a[i] = (float)i;
    b[i] = (float)(2 * i);
  }
  cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof(float), a, &err);
  cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof(float), b, &err);
  cl_mem dc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, N * sizeof(float), NULL, &err);
  cl_kernel k = clCreateKernel(prog, "add", &err);
  clSetKernelArg(k, 0, sizeof da, &da);
  clSetKernelArg(k, 1, sizeof db, &db);
  clSetKernelArg(k, 2, sizeof dc, &dc);
  size_t global = N, local = 256;
  assert(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL) == CL_SUCCESS);
  assert(clEnqueueReadBuffer(q, dc, CL_TRUE, 0, N * sizeof(float), c, 0, NULL, NULL) == CL_SUCCESS);
  for (int i = 0; i < N; i++)
    assert(c[i] == 3.0f * (float)i);
  clReleaseKernel(k);
  clReleaseMemObject(da);
  clReleaseMemObject(db);
  clReleaseMemObject(dc);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  free(a);
  free(b);
  free(c);
  return 0;
}
