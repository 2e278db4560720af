/* The wrapper both builds of simde_neon_port.c's intrinsic share: bytes
   in, bytes out, so nothing but pointers crosses between the two. */
#ifndef OP
#define OP addsub_ps
#endif
#define JOIN2(a, b) a##b
#define JOIN(a, b) JOIN2(a, b)
#ifdef FLOAT
typedef simde__m128 port_t;
#else
typedef simde__m128i port_t;
#endif
#ifdef ROUND
#define PORT_CALL(x, y) JOIN(simde_mm_, OP)(x, ROUND)
#elif defined(UNARY)
#define PORT_CALL(x, y) JOIN(simde_mm_, OP)(x)
#else
#define PORT_CALL(x, y) JOIN(simde_mm_, OP)(x, y)
#endif
#define SIMDE_PORT_DECLARE(name) void name(const unsigned char *a, const unsigned char *b, unsigned char *r); \
  void port_portable(const unsigned char *a, const unsigned char *b, unsigned char *r)
#define SIMDE_PORT_DEFINE(name) \
  void name(const unsigned char *a, const unsigned char *b, unsigned char *r) { \
    port_t x, y, z; \
    memcpy(&x, a, 16); \
    memcpy(&y, b, 16); \
    z = PORT_CALL(x, y); \
    memcpy(r, &z, 16); \
  }
