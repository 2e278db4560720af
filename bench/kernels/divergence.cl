/* A barrier under an id-dependent branch: divergence at any size >= 2. */
__kernel void k(__global int *data) {
  if (get_local_id(0) * 2 < get_local_size(0))
    barrier(CLK_GLOBAL_MEM_FENCE);
  data[get_global_id(0)] = 2;
}
