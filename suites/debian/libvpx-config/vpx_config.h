/* The configuration libvpx's build would generate, as Debian configures the
   package for x86-64 (debian/rules: --enable-vp9-highbitdepth, so the
   transform coefficients are 32 bits wide). Only what the harnesses' files
   read is given; an unset CONFIG_ or HAVE_ name reads as 0. */
#ifndef SYMCROSS_VPX_CONFIG_H
#define SYMCROSS_VPX_CONFIG_H
#define INLINE inline
#define ARCH_X86_64 1
#define HAVE_SSE2 1
#define CONFIG_VP9_HIGHBITDEPTH 1
#define CONFIG_COEFFICIENT_RANGE_CHECKING 0
#endif
