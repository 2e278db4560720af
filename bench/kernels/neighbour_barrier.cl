/* Neighbour average through local memory, with a barrier: no race at any
 * size (the tile is a __local argument sized to the work-group). */
__kernel void avg(__global const float *in, __global float *out, __local float *tile) {
  size_t l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
  tile[l] = in[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  float right = l + 1 < n ? tile[l + 1] : 0.0f;
  out[g] = (tile[l] + right) * 0.5f;
}
