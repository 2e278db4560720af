/* The modelled OpenCL runtime: every function of <CL/cl.h> that symcross
 * does not model. Each stub ends the path with an `unsupported` finding
 * naming the function. Generated from Debian's cl.h (OpenCL 3.0 headers,
 * so that programs targeting any version link); regenerate when functions
 * are modelled. */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#include <CL/cl.h>
#include <stddef.h>

void __symcross_unsupported(const char *what);

cl_int clCreateSubDevices(cl_device_id in_device, const cl_device_partition_property * properties, cl_uint num_devices, cl_device_id * out_devices, cl_uint * num_devices_ret) {
  __symcross_unsupported("clCreateSubDevices");
  return CL_INVALID_OPERATION;
}

cl_int clSetDefaultDeviceCommandQueue(cl_context context, cl_device_id device, cl_command_queue command_queue) {
  __symcross_unsupported("clSetDefaultDeviceCommandQueue");
  return CL_INVALID_OPERATION;
}

cl_int clGetDeviceAndHostTimer(cl_device_id device, cl_ulong* device_timestamp, cl_ulong* host_timestamp) {
  __symcross_unsupported("clGetDeviceAndHostTimer");
  return CL_INVALID_OPERATION;
}

cl_int clGetHostTimer(cl_device_id device, cl_ulong * host_timestamp) {
  __symcross_unsupported("clGetHostTimer");
  return CL_INVALID_OPERATION;
}

cl_int clSetContextDestructorCallback(cl_context context, void (CL_CALLBACK* pfn_notify)(cl_context context, void* user_data), void* user_data) {
  __symcross_unsupported("clSetContextDestructorCallback");
  return CL_INVALID_OPERATION;
}

cl_command_queue clCreateCommandQueueWithProperties(cl_context context, cl_device_id device, const cl_queue_properties * properties, cl_int * errcode_ret) {
  __symcross_unsupported("clCreateCommandQueueWithProperties");
  return NULL;
}

cl_mem clCreateImage(cl_context context, cl_mem_flags flags, const cl_image_format * image_format, const cl_image_desc * image_desc, void * host_ptr, cl_int * errcode_ret) {
  __symcross_unsupported("clCreateImage");
  return NULL;
}

cl_mem clCreatePipe(cl_context context, cl_mem_flags flags, cl_uint pipe_packet_size, cl_uint pipe_max_packets, const cl_pipe_properties * properties, cl_int * errcode_ret) {
  __symcross_unsupported("clCreatePipe");
  return NULL;
}

cl_mem clCreateBufferWithProperties(cl_context context, const cl_mem_properties * properties, cl_mem_flags flags, size_t size, void * host_ptr, cl_int * errcode_ret) {
  __symcross_unsupported("clCreateBufferWithProperties");
  return NULL;
}

cl_mem clCreateImageWithProperties(cl_context context, const cl_mem_properties * properties, cl_mem_flags flags, const cl_image_format * image_format, const cl_image_desc * image_desc, void * host_ptr, cl_int * errcode_ret) {
  __symcross_unsupported("clCreateImageWithProperties");
  return NULL;
}

cl_int clGetSupportedImageFormats(cl_context context, cl_mem_flags flags, cl_mem_object_type image_type, cl_uint num_entries, cl_image_format * image_formats, cl_uint * num_image_formats) {
  __symcross_unsupported("clGetSupportedImageFormats");
  return CL_INVALID_OPERATION;
}

cl_int clGetImageInfo(cl_mem image, cl_image_info param_name, size_t param_value_size, void * param_value, size_t * param_value_size_ret) {
  __symcross_unsupported("clGetImageInfo");
  return CL_INVALID_OPERATION;
}

cl_int clGetPipeInfo(cl_mem pipe, cl_pipe_info param_name, size_t param_value_size, void * param_value, size_t * param_value_size_ret) {
  __symcross_unsupported("clGetPipeInfo");
  return CL_INVALID_OPERATION;
}


void * clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size, cl_uint alignment) {
  __symcross_unsupported("clSVMAlloc");
  return NULL;
}

void clSVMFree(cl_context context, void * svm_pointer) {
  __symcross_unsupported("clSVMFree");
}

cl_sampler clCreateSamplerWithProperties(cl_context context, const cl_sampler_properties * sampler_properties, cl_int * errcode_ret) {
  __symcross_unsupported("clCreateSamplerWithProperties");
  return NULL;
}

cl_int clRetainSampler(cl_sampler sampler) {
  __symcross_unsupported("clRetainSampler");
  return CL_INVALID_OPERATION;
}

cl_int clReleaseSampler(cl_sampler sampler) {
  __symcross_unsupported("clReleaseSampler");
  return CL_INVALID_OPERATION;
}

cl_int clGetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name, size_t param_value_size, void * param_value, size_t * param_value_size_ret) {
  __symcross_unsupported("clGetSamplerInfo");
  return CL_INVALID_OPERATION;
}

cl_program clCreateProgramWithBinary(cl_context context, cl_uint num_devices, const cl_device_id * device_list, const size_t * lengths, const unsigned char ** binaries, cl_int * binary_status, cl_int * errcode_ret) {
  __symcross_unsupported("clCreateProgramWithBinary");
  return NULL;
}

cl_program clCreateProgramWithBuiltInKernels(cl_context context, cl_uint num_devices, const cl_device_id * device_list, const char * kernel_names, cl_int * errcode_ret) {
  __symcross_unsupported("clCreateProgramWithBuiltInKernels");
  return NULL;
}

cl_program clCreateProgramWithIL(cl_context context, const void* il, size_t length, cl_int* errcode_ret) {
  __symcross_unsupported("clCreateProgramWithIL");
  return NULL;
}



cl_int clSetProgramReleaseCallback(cl_program program, void (CL_CALLBACK * pfn_notify)(cl_program program, void * user_data), void * user_data) {
  __symcross_unsupported("clSetProgramReleaseCallback");
  return CL_INVALID_OPERATION;
}

cl_int clSetProgramSpecializationConstant(cl_program program, cl_uint spec_id, size_t spec_size, const void* spec_value) {
  __symcross_unsupported("clSetProgramSpecializationConstant");
  return CL_INVALID_OPERATION;
}

cl_kernel clCloneKernel(cl_kernel source_kernel, cl_int* errcode_ret) {
  __symcross_unsupported("clCloneKernel");
  return NULL;
}

cl_int clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index, const void * arg_value) {
  __symcross_unsupported("clSetKernelArgSVMPointer");
  return CL_INVALID_OPERATION;
}

cl_int clSetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param_name, size_t param_value_size, const void * param_value) {
  __symcross_unsupported("clSetKernelExecInfo");
  return CL_INVALID_OPERATION;
}

cl_int clGetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device, cl_kernel_sub_group_info param_name, size_t input_value_size, const void* input_value, size_t param_value_size, void* param_value, size_t* param_value_size_ret) {
  __symcross_unsupported("clGetKernelSubGroupInfo");
  return CL_INVALID_OPERATION;
}





cl_int clEnqueueReadImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_read, const size_t * origin, const size_t * region, size_t row_pitch, size_t slice_pitch, void * ptr, cl_uint num_events_in_wait_list, const cl_event * event_wait_list, cl_event * event) {
  __symcross_unsupported("clEnqueueReadImage");
  return CL_INVALID_OPERATION;
}

cl_int clEnqueueWriteImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_write, const size_t * origin, const size_t * region, size_t input_row_pitch, size_t input_slice_pitch, const void * ptr, cl_uint num_events_in_wait_list, const cl_event * event_wait_list, cl_event * event) {
  __symcross_unsupported("clEnqueueWriteImage");
  return CL_INVALID_OPERATION;
}

cl_int clEnqueueFillImage(cl_command_queue command_queue, cl_mem image, const void * fill_color, const size_t * origin, const size_t * region, cl_uint num_events_in_wait_list, const cl_event * event_wait_list, cl_event * event) {
  __symcross_unsupported("clEnqueueFillImage");
  return CL_INVALID_OPERATION;
}

cl_int clEnqueueCopyImage(cl_command_queue command_queue, cl_mem src_image, cl_mem dst_image, const size_t * src_origin, const size_t * dst_origin, const size_t * region, cl_uint num_events_in_wait_list, const cl_event * event_wait_list, cl_event * event) {
  __symcross_unsupported("clEnqueueCopyImage");
  return CL_INVALID_OPERATION;
}

cl_int clEnqueueCopyImageToBuffer(cl_command_queue command_queue, cl_mem src_image, cl_mem dst_buffer, const size_t * src_origin, const size_t * region, size_t dst_offset, cl_uint num_events_in_wait_list, const cl_event * event_wait_list, cl_event * event) {
  __symcross_unsupported("clEnqueueCopyImageToBuffer");
  return CL_INVALID_OPERATION;
}

cl_int clEnqueueCopyBufferToImage(cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_image, size_t src_offset, const size_t * dst_origin, const size_t * region, cl_uint num_events_in_wait_list, const cl_event * event_wait_list, cl_event * event) {
  __symcross_unsupported("clEnqueueCopyBufferToImage");
  return CL_INVALID_OPERATION;
}

void * clEnqueueMapImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_map, cl_map_flags map_flags, const size_t * origin, const size_t * region, size_t * image_row_pitch, size_t * image_slice_pitch, cl_uint num_events_in_wait_list, const cl_event * event_wait_list, cl_event * event, cl_int * errcode_ret) {
  __symcross_unsupported("clEnqueueMapImage");
  return NULL;
}


cl_int clEnqueueNativeKernel(cl_command_queue command_queue, void (CL_CALLBACK * user_func)(void *), void * args, size_t cb_args, cl_uint num_mem_objects, const cl_mem * mem_list, const void ** args_mem_loc, cl_uint num_events_in_wait_list, const cl_event * event_wait_list, cl_event * event) {
  __symcross_unsupported("clEnqueueNativeKernel");
  return CL_INVALID_OPERATION;
}

cl_int clEnqueueSVMFree(cl_command_queue command_queue, cl_uint num_svm_pointers, void * svm_pointers[], void (CL_CALLBACK * pfn_free_func)(cl_command_queue queue, cl_uint num_svm_pointers, void * svm_pointers[], void * user_data), void * user_data, cl_uint num_events_in_wait_list, const cl_event * event_wait_list, cl_event * event) {
  __symcross_unsupported("clEnqueueSVMFree");
  return CL_INVALID_OPERATION;
}

cl_int clEnqueueSVMMemcpy(cl_command_queue command_queue, cl_bool blocking_copy, void * dst_ptr, const void * src_ptr, size_t size, cl_uint num_events_in_wait_list, const cl_event * event_wait_list, cl_event * event) {
  __symcross_unsupported("clEnqueueSVMMemcpy");
  return CL_INVALID_OPERATION;
}

cl_int clEnqueueSVMMemFill(cl_command_queue command_queue, void * svm_ptr, const void * pattern, size_t pattern_size, size_t size, cl_uint num_events_in_wait_list, const cl_event * event_wait_list, cl_event * event) {
  __symcross_unsupported("clEnqueueSVMMemFill");
  return CL_INVALID_OPERATION;
}

cl_int clEnqueueSVMMap(cl_command_queue command_queue, cl_bool blocking_map, cl_map_flags flags, void * svm_ptr, size_t size, cl_uint num_events_in_wait_list, const cl_event * event_wait_list, cl_event * event) {
  __symcross_unsupported("clEnqueueSVMMap");
  return CL_INVALID_OPERATION;
}

cl_int clEnqueueSVMUnmap(cl_command_queue command_queue, void * svm_ptr, cl_uint num_events_in_wait_list, const cl_event * event_wait_list, cl_event * event) {
  __symcross_unsupported("clEnqueueSVMUnmap");
  return CL_INVALID_OPERATION;
}

cl_int clEnqueueSVMMigrateMem(cl_command_queue command_queue, cl_uint num_svm_pointers, const void ** svm_pointers, const size_t * sizes, cl_mem_migration_flags flags, cl_uint num_events_in_wait_list, const cl_event * event_wait_list, cl_event * event) {
  __symcross_unsupported("clEnqueueSVMMigrateMem");
  return CL_INVALID_OPERATION;
}

void * clGetExtensionFunctionAddressForPlatform(cl_platform_id platform, const char * func_name) {
  __symcross_unsupported("clGetExtensionFunctionAddressForPlatform");
  return NULL;
}

cl_int clSetCommandQueueProperty(cl_command_queue command_queue, cl_command_queue_properties properties, cl_bool enable, cl_command_queue_properties * old_properties) {
  __symcross_unsupported("clSetCommandQueueProperty");
  return CL_INVALID_OPERATION;
}

cl_mem clCreateImage2D(cl_context context, cl_mem_flags flags, const cl_image_format * image_format, size_t image_width, size_t image_height, size_t image_row_pitch, void * host_ptr, cl_int * errcode_ret) {
  __symcross_unsupported("clCreateImage2D");
  return NULL;
}

cl_mem clCreateImage3D(cl_context context, cl_mem_flags flags, const cl_image_format * image_format, size_t image_width, size_t image_height, size_t image_depth, size_t image_row_pitch, size_t image_slice_pitch, void * host_ptr, cl_int * errcode_ret) {
  __symcross_unsupported("clCreateImage3D");
  return NULL;
}

void * clGetExtensionFunctionAddress(const char * func_name) {
  __symcross_unsupported("clGetExtensionFunctionAddress");
  return NULL;
}

cl_sampler clCreateSampler(cl_context context, cl_bool normalized_coords, cl_addressing_mode addressing_mode, cl_filter_mode filter_mode, cl_int * errcode_ret) {
  __symcross_unsupported("clCreateSampler");
  return NULL;
}
