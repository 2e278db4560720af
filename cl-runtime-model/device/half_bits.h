/* The value of a half's bit pattern, exactly (every half is a float):
 * shared by the vload_half and vstore_half families. */
#ifndef SYMCL_HALF_BITS_H
#define SYMCL_HALF_BITS_H
static float symcl_half_to_float(ushort h) {
  uint s = (uint)(h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e == 0) /* zero or subnormal: m * 2^-24, exact in float */
    return as_float(as_uint((float)m * 0x1p-24f) | s);
  if (e == 31)
    return as_float(s | 0x7f800000u | (m << 13));
  return as_float(s | ((e + 112) << 23) | (m << 13));
}
#endif
