/* Concrete interpretation speed: a loop-heavy program with no symbolic
 * input (integer arithmetic, array traffic, calls). */
static unsigned mix(unsigned h, unsigned v) {
  h ^= v;
  h *= 16777619u;
  return h;
}

int main(void) {
  unsigned table[256];
  for (int i = 0; i < 256; i++)
    table[i] = (unsigned)i * 2654435761u;
  unsigned h = 2166136261u;
  for (int round = 0; round < 2000; round++)
    for (int i = 0; i < 256; i++)
      h = mix(h, table[(i + round) & 255] >> (i & 7));
  return h == 0;
}
