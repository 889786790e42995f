/* The checksum of send buffers in flight (buffer_watch.h, issue 28 item 4): equal bytes give
 * equal sums at any alignment, and one changed bit anywhere, in the whole words or in the tail,
 * changes the sum. */
#include <string.h>

#include "buffer_watch.h"
#include "mg_test.h"

static void test_alignment_and_length(void)
{
    unsigned char a[64], b[80];
    for (int i = 0; i < 64; i++)
        a[i] = (unsigned char)(i * 37 + 1);
    memcpy(b + 3, a, sizeof a);
    MG_CHECK(buffer_watch_sum(a, 64) == buffer_watch_sum(b + 3, 64));
    MG_CHECK(buffer_watch_sum(a, 61) == buffer_watch_sum(b + 3, 61));
    /* a prefix is another message: its length is part of the sum */
    MG_CHECK(buffer_watch_sum(a, 61) != buffer_watch_sum(a, 64));
    MG_CHECK(buffer_watch_sum(a, 0) == buffer_watch_sum(b, 0));
}

static void test_every_bit_counts(void)
{
    unsigned char a[29];
    for (size_t i = 0; i < sizeof a; i++)
        a[i] = (unsigned char)i;
    uint64_t before = buffer_watch_sum(a, sizeof a);
    for (size_t byte = 0; byte < sizeof a; byte++)
        for (int bit = 0; bit < 8; bit++) {
            a[byte] ^= (unsigned char)(1u << bit);
            MG_CHECK(buffer_watch_sum(a, sizeof a) != before);
            a[byte] ^= (unsigned char)(1u << bit);
        }
    MG_CHECK(buffer_watch_sum(a, sizeof a) == before);
}

int main(void)
{
    MG_RUN(test_alignment_and_length);
    MG_RUN(test_every_bit_counts);
    MG_TEST_END();
}
