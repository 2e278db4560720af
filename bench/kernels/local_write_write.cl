/* Two work-items of a group write different values to one __local slot
 * (l and l+1 share l/2): a write-write race at any size. */
__kernel void pairs(__global float *out, __local float *tile) {
  size_t l = get_local_id(0), g = get_global_id(0);
  tile[l / 2] = (float)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = tile[l / 2];
}
