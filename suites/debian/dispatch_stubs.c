/* The package's run-time CPU dispatch (its DspInit functions) names these
   symbols, which live in files the harnesses do not compile. The harnesses
   call both versions of a function directly and never dispatch, so weak
   empty definitions are enough to link a native build (for replaying a
   witness); a definition in a compiled package file takes precedence. */
#include <stdint.h>

typedef int (*cpu_info_fn)(int feature);
__attribute__((weak)) cpu_info_fn VP8GetCPUInfo = 0;
__attribute__((weak)) void VP8DspInit(void) {}
__attribute__((weak)) void VP8EncDspInitSSE41(void) {}
__attribute__((weak)) void VP8LDspInitSSE41(void) {}
__attribute__((weak)) void WebPInitAlphaProcessingSSE41(void) {}
__attribute__((weak)) void (*WebPApplyAlphaMultiply)(uint8_t *rgba, int alpha_first, int w, int h, int stride) = 0;
__attribute__((weak)) void (*WebPApplyAlphaMultiply4444)(uint8_t *rgba4444, int w, int h, int stride) = 0;
