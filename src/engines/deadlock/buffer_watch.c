/* Buffers in flight: the checksum (buffer_watch.h). */
#include "buffer_watch.h"

#include <string.h>

static uint64_t fold(uint64_t h, uint64_t word)
{
    h ^= word * 0x9e3779b97f4a7c15ULL;
    h = (h << 27 | h >> 37) * 0xbf58476d1ce4e5b9ULL;
    return h;
}

uint64_t buffer_watch_sum(const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t h = 0x6a09e667f3bcc908ULL ^ n, word;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        memcpy(&word, b + i, 8);
        h = fold(h, word);
    }
    if (i < n) {
        word = 0;
        memcpy(&word, b + i, n - i);
        h = fold(h, word);
    }
    return h ^ (h >> 31);
}
