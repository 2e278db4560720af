/* A barrier does not order work-groups: the last work-item of a group
 * reads what the first of the next group writes. */
__kernel void shift(__global int *data) {
  size_t g = get_global_id(0);
  int v = data[g + 1];
  barrier(CLK_GLOBAL_MEM_FENCE);
  data[g] = v;
}
