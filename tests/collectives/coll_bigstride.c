/* W1-B's block-stride rounds on a real MPI past INT_MAX. Regular collectives of MPI_CHAR on 2
 * ranks with n = 2^30 + 2^20 elements per block: P n = 2^31 + 2^21, so the displacement of a
 * V-form round's last block would not fit in int and each round passes every block's slice
 * through a type resized to the block (docs/collectives-engine.md §4.2). Built with COLL_LARGE
 * (coll_form.h) as coll_bigstride_c, the same in the MPI-4 `_c` forms with n = 2^31 + 2^20: the
 * application's own count is past INT_MAX. Run it under `mpiguard protect --bound 1073741824
 * --workaround W1B` (and `--bound-calls large` for the `_c` form): every call fires and runs in
 * rounds. Each collective is checked byte for byte on every rank, one after the other in one
 * buffer of P n bytes per rank: Gather and Scatter with the root in place (root 1), Allgather and
 * Alltoall in place. Prints one line per collective; exits 1 if any byte is wrong.
 * Usage: coll_bigstride[_c] (exactly 2 ranks; 2 GiB per rank, 4 GiB for the `_c` form) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_form.h"

#define PROG "coll_bigstride" FORM_SUFFIX

#ifdef COLL_NO_LARGE
int main(void)
{
    printf(PROG ": this MPI has no large-count (_c) collectives\n");
    return 77;
}
#else

enum { P = 2, ROOT = 1 };
#ifdef COLL_LARGE
static const int64_t N = (1LL << 31) + (1LL << 20);
#else
static const int64_t N = (1LL << 30) + (1LL << 20);
#endif

/* The byte that rank `from` sends rank `to` at offset k of its block. */
static unsigned char pattern(int from, int to, int64_t k)
{
    return (unsigned char)(from * 37 + to * 101 + k * 131 + (k >> 12) + 7);
}

static void fill(unsigned char *block, int from, int to)
{
    for (int64_t k = 0; k < N; k++)
        block[k] = pattern(from, to, k);
}

static int64_t wrong_in(const unsigned char *block, int from, int to)
{
    int64_t wrong = 0;
    for (int64_t k = 0; k < N; k++)
        wrong += block[k] != pattern(from, to, k);
    return wrong;
}

static void report(const char *name, int me, int64_t wrong, int64_t *total_wrong)
{
    int64_t all = 0;
    MPI_Reduce(&wrong, &all, 1, MPI_INT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    if (me == 0)
        printf(PROG ": %s of %lld elements per block: %lld wrong\n", name, (long long)N,
               (long long)all);
    *total_wrong += all;
}

int main(int argc, char **argv)
{
    int me, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != P) {
        if (me == 0)
            fprintf(stderr, PROG ": run it on exactly 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    unsigned char *buf = malloc((size_t)(P * N));
    if (!buf) {
        perror(PROG ": malloc");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    count_t n = (count_t)N;
    int other = 1 - me;
    int64_t wrong = 0, total_wrong = 0;

    /* Gather: the root's own block is in place; the other rank's lands in block `other`. */
    memset(buf, 0, (size_t)(P * N));
    fill(buf + (me == ROOT ? ROOT * N : 0), me, ROOT);
    FORM(MPI_Gather)(me == ROOT ? MPI_IN_PLACE : buf, n, MPI_CHAR, buf, n, MPI_CHAR, ROOT,
               MPI_COMM_WORLD);
    wrong = 0;
    for (int i = 0; i < P && me == ROOT; i++)
        wrong += wrong_in(buf + i * N, i, ROOT);
    report("Gather" FORM_SUFFIX, me, wrong, &total_wrong);

    /* Scatter: block i of the root's buffer goes to rank i; the root keeps its own in place. */
    memset(buf, 0, (size_t)(P * N));
    for (int i = 0; i < P && me == ROOT; i++)
        fill(buf + i * N, ROOT, i);
    FORM(MPI_Scatter)(buf, n, MPI_CHAR, me == ROOT ? MPI_IN_PLACE : buf, n, MPI_CHAR, ROOT,
                MPI_COMM_WORLD);
    wrong = wrong_in(buf + (me == ROOT ? ROOT * N : 0), ROOT, me);
    report("Scatter" FORM_SUFFIX, me, wrong, &total_wrong);

    /* Allgather in place: every rank's block me goes to block me of every rank. */
    memset(buf, 0, (size_t)(P * N));
    fill(buf + me * N, me, me);
    FORM(MPI_Allgather)(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, n, MPI_CHAR, MPI_COMM_WORLD);
    wrong = wrong_in(buf + me * N, me, me) + wrong_in(buf + other * N, other, other);
    report("Allgather" FORM_SUFFIX " (in place)", me, wrong, &total_wrong);

    /* Alltoall in place: block j goes to rank j, which receives it in block me. */
    for (int j = 0; j < P; j++)
        fill(buf + j * N, me, j);
    FORM(MPI_Alltoall)(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, n, MPI_CHAR, MPI_COMM_WORLD);
    wrong = wrong_in(buf + me * N, me, me) + wrong_in(buf + other * N, other, me);
    report("Alltoall" FORM_SUFFIX " (in place)", me, wrong, &total_wrong);

    free(buf);
    MPI_Finalize();
    return total_wrong ? 1 : 0;
}
#endif
