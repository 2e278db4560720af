/* Highway's 3-bit packing (hwy/contrib/bit_pack/bit_pack-inl.h, Pack8<3>)
   from the Debian highway source package: its SSSE3 code against its
   portable EMU128 code (Highway's per-lane loops, the library's scalar
   reference), the same source compiled for both targets in this one
   translation unit by Highway's own foreach_target.h (the row's cflags
   name the two targets). Then Highway's own test property: unpacking
   restores the bytes, which holds for 3-bit values (each byte masked to
   its low 3 bits). With -DFOUR_BIT_VALUES the bytes keep 4 bits: the top
   one is lost, and the round trip is refuted. */
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "hwy_bit_pack.cc"
#include "hwy/foreach_target.h"  // the file again, once per target
#include "hwy/highway.h"
#include "hwy/contrib/bit_pack/bit_pack-inl.h"
#include "symcross.h"

HWY_BEFORE_NAMESPACE();
namespace hwy {
namespace HWY_NAMESPACE {
void Pack3(const uint8_t* raw, uint8_t* packed) {
  const Full128<uint8_t> d8;
  Pack8<3>().Pack(d8, raw, packed);
}
void Unpack3(const uint8_t* packed, uint8_t* raw) {
  const Full128<uint8_t> d8;
  Pack8<3>().Unpack(d8, packed, raw);
}
}  // namespace HWY_NAMESPACE
}  // namespace hwy
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#ifdef FOUR_BIT_VALUES
#define LIMIT 16
#else
#define LIMIT 8
#endif
extern "C" int main(void) {  // unmangled for native-truth.sh (-Dmain=...)
  // Eight vectors of 16 bytes in, three out.
  uint8_t raw[8 * 16];
  symcross_make_symbolic(raw, sizeof raw, "raw");
  // Masked rather than assumed, so that every native trial counts.
  for (int i = 0; i < 8 * 16; ++i) raw[i] &= LIMIT - 1;
  uint8_t simd[3 * 16], emu[3 * 16];
  hwy::N_SSSE3::Pack3(raw, simd);
  hwy::N_EMU128::Pack3(raw, emu);
  symcross_check_equal(emu, simd, 1, sizeof simd, "Pack8<3>::Pack");
  uint8_t back[8 * 16];
  hwy::N_SSSE3::Unpack3(simd, back);
  symcross_check_equal(raw, back, 1, sizeof raw, "Pack8<3>::Unpack");
  return 0;
}
#endif
