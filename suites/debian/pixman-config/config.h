/* The configuration pixman's build would generate (meson), for x86-64
   with SSE2, as far as the combiners the harnesses check read it. No
   thread-local storage: the harnesses run one thread and never reach the
   per-thread fast-path cache. */
#ifndef SYMCROSS_PIXMAN_CONFIG_H
#define SYMCROSS_PIXMAN_CONFIG_H
#define PACKAGE "pixman"
#define USE_SSE2 1
#define USE_X86_MMX 0
#define SIZEOF_LONG 8
#define HAVE_BUILTIN_CLZ 1
#define PIXMAN_NO_TLS 1
#endif
