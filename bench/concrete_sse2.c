/* Concrete interpretation speed with SSE2: a checksum over a table, four
 * lanes at a time (16-bit multiplies, 32-bit adds, lane shuffles, byte
 * shifts), with no symbolic input. */
#include <emmintrin.h>

int main(void) {
  unsigned table[256];
  for (int i = 0; i < 256; i++)
    table[i] = (unsigned)i * 2654435761u;
  __m128i acc = _mm_set1_epi32((int)2166136261u);
  const __m128i k = _mm_set1_epi16(0x01b3);
  for (int round = 0; round < 400; round++)
    for (int i = 0; i < 256; i += 4) {
      __m128i v = _mm_loadu_si128((const __m128i *)&table[(i + round) & 252]);
      acc = _mm_xor_si128(acc, v);
      acc = _mm_mullo_epi16(acc, k);
      acc = _mm_add_epi32(acc, _mm_slli_si128(acc, 4));
      acc = _mm_shuffle_epi32(acc, _MM_SHUFFLE(0, 3, 2, 1));
    }
  unsigned out[4];
  _mm_storeu_si128((__m128i *)out, acc);
  return (out[0] ^ out[1] ^ out[2] ^ out[3]) == 0;
}
