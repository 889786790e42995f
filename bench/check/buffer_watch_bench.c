/* Benchmark of the checksum of send buffers in flight (buffer_watch.h, no MPI): thread CPU time
 * per byte for messages of 8 B to 16 MiB, so other load on the shared machine does not count. A
 * watched send pays it twice (post and completion). Figures: docs/check-measurements-overhead.md.
 * Usage: check_buffer_watch_bench */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "buffer_watch.h"

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(void)
{
    enum { MAX_BYTES = 16 << 20, TOTAL = 256 << 20 };
    unsigned char *buf = malloc(MAX_BYTES + 8); /* room for the misaligned starts */
    if (!buf)
        return 1;
    for (size_t i = 0; i < MAX_BYTES + 8; i++)
        buf[i] = (unsigned char)(i * 131);
    printf("| message bytes | ns per sum | ns per byte |\n|---|---|---|\n");
    uint64_t sink = 0;
    for (size_t bytes = 8; bytes <= MAX_BYTES; bytes *= 16) {
        size_t reps = TOTAL / bytes;
        double start = cpu_s();
        for (size_t r = 0; r < reps; r++)
            sink ^= buffer_watch_sum(buf + (r & 7), bytes);
        double ns = (cpu_s() - start) * 1e9 / (double)reps;
        printf("| %zu | %.1f | %.3f |\n", bytes, ns, ns / (double)bytes);
    }
    free(buf);
    return sink == 42; /* keeps the sums computed */
}
