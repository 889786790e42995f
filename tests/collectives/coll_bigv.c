/* A real displacement overflow: MPI_Gatherv of MPI_CHAR on 4 ranks whose receive layout holds more
 * than 2^31 elements, so the int displacement of rank 2 wraps negative (what an application that
 * computes displacements in int, or truncates 64-bit ones, passes). Unprotected, MPI writes 2 GiB
 * below the buffer, into a PROT_NONE guard: the rank crashes. Under `mpiguard protect` Detector D
 * fires, the true displacements are recovered and a workaround delivers every byte to its true
 * place, which this program checks, all 2^31 + 2^21 of them. Memory: ~2 GiB at the root (which
 * gathers its own block in place), 1 MiB elsewhere. Usage: coll_bigv (exactly 4 ranks). */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

enum { SMALL = 1 << 20 };
static const int64_t BIG = (1LL << 31) - (1LL << 20); /* the root's own block */

static unsigned char pattern(int rank, int64_t k)
{
    return (unsigned char)(rank * 37 + k * 131 + (k >> 12) + 7);
}

int main(int argc, char **argv)
{
    int me, P;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    if (P != 4) {
        if (me == 0)
            fprintf(stderr, "coll_bigv: run it on exactly 4 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int counts[4] = {(int)BIG, SMALL, SMALL, SMALL}, displs[4];
    int64_t true_d[4], at = 0;
    for (int i = 0; i < 4; i++) {
        true_d[i] = at;
        displs[i] = (int)(uint32_t)(uint64_t)at; /* rank 2's wraps to -2^31 */
        at += counts[i];
    }
    int64_t total = at, guard = 1LL << 32;
    unsigned char *buf = NULL;
    static unsigned char own[SMALL];
    if (me == 0) {
        /* The buffer sits on top of a 4 GiB PROT_NONE guard: a write at a negative offset faults.
         */
        unsigned char *region = mmap(NULL, (size_t)(guard + total), PROT_NONE,
                                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (region == MAP_FAILED ||
            mprotect(region + guard, (size_t)total, PROT_READ | PROT_WRITE) != 0) {
            perror("coll_bigv: mmap");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        buf = region + guard;
        for (int64_t k = 0; k < BIG; k++)
            buf[k] = pattern(0, k);
    } else {
        for (int64_t k = 0; k < SMALL; k++)
            own[k] = pattern(me, k);
    }
    MPI_Gatherv(me == 0 ? MPI_IN_PLACE : own, me == 0 ? 0 : SMALL, MPI_CHAR, buf, counts, displs,
                MPI_CHAR, 0, MPI_COMM_WORLD);
    int64_t wrong = 0;
    for (int i = 0; i < 4 && me == 0; i++)
        for (int64_t k = 0; k < counts[i]; k++)
            wrong += buf[true_d[i] + k] != pattern(i, k);
    if (me == 0)
        printf("coll_bigv: %lld elements gathered, %lld wrong\n", (long long)total,
               (long long)wrong);
    MPI_Finalize();
    return wrong ? 1 : 0;
}
