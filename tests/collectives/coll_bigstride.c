/* W1-B's block-stride rounds on a real MPI past INT_MAX. Regular collectives of MPI_CHAR on 2
 * ranks with n = 2^30 + 2^20 elements per block: P n = 2^31 + 2^21, so the displacement of a
 * V-form round's last block would not fit in int and each round passes every block's slice
 * through a type resized to the block (docs/collectives-engine.md §4.2). Built with COLL_LARGE
 * (coll_form.h) as coll_bigstride_c, the same in the MPI-4 `_c` forms with n = 2^31 + 2^20: the
 * application's own count is past INT_MAX. Run it under `mpiguard protect --bound 1073741824
 * --workaround W1B` (and `--bound-calls large` for the `_c` form): every call fires and runs in
 * rounds. Each collective is checked byte for byte on every rank, one after the other in one
 * buffer of P n bytes per rank: Gather and Scatter with the root in place (root 1), Allgather and
 * Alltoall in place. Prints one line per collective; exits 1 if any byte is wrong. Collectives
 * named on the command line run alone: a workaround that cannot serve one of them (W2 on MPICH's
 * Scatter, whose failure grows with s n P) leaves the others to be shown.
 * Usage: coll_bigstride[_c] [Gather|Scatter|Allgather|Alltoall ...]
 *        (exactly 2 ranks; 2 GiB per rank, 4 GiB for the `_c` form) */
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

/* Each check fills buf, runs its collective and returns the wrong bytes of this rank. */

/* Gather: the root's own block is in place; the other rank's lands in block `other`. */
static int64_t check_gather(unsigned char *buf, int me)
{
    memset(buf, 0, (size_t)(P * N));
    fill(buf + (me == ROOT ? ROOT * N : 0), me, ROOT);
    FORM(MPI_Gather)
    (me == ROOT ? MPI_IN_PLACE : buf, (count_t)N, MPI_CHAR, buf, (count_t)N, MPI_CHAR, ROOT,
     MPI_COMM_WORLD);
    int64_t wrong = 0;
    for (int i = 0; i < P && me == ROOT; i++)
        wrong += wrong_in(buf + i * N, i, ROOT);
    return wrong;
}

/* Scatter: block i of the root's buffer goes to rank i; the root keeps its own in place. */
static int64_t check_scatter(unsigned char *buf, int me)
{
    memset(buf, 0, (size_t)(P * N));
    for (int i = 0; i < P && me == ROOT; i++)
        fill(buf + i * N, ROOT, i);
    FORM(MPI_Scatter)
    (buf, (count_t)N, MPI_CHAR, me == ROOT ? MPI_IN_PLACE : buf, (count_t)N, MPI_CHAR, ROOT,
     MPI_COMM_WORLD);
    return wrong_in(buf + (me == ROOT ? ROOT * N : 0), ROOT, me);
}

/* Allgather in place: every rank's block me goes to block me of every rank. */
static int64_t check_allgather(unsigned char *buf, int me)
{
    memset(buf, 0, (size_t)(P * N));
    fill(buf + me * N, me, me);
    FORM(MPI_Allgather)
    (MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, (count_t)N, MPI_CHAR, MPI_COMM_WORLD);
    return wrong_in(buf + me * N, me, me) + wrong_in(buf + (1 - me) * N, 1 - me, 1 - me);
}

/* Alltoall in place: block j goes to rank j, which receives it in block me. */
static int64_t check_alltoall(unsigned char *buf, int me)
{
    for (int j = 0; j < P; j++)
        fill(buf + j * N, me, j);
    FORM(MPI_Alltoall)
    (MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, (count_t)N, MPI_CHAR, MPI_COMM_WORLD);
    return wrong_in(buf + me * N, me, me) + wrong_in(buf + (1 - me) * N, 1 - me, me);
}

static const struct {
    const char *name, *printed;
    int64_t (*check)(unsigned char *buf, int me);
} checks[] = {
    {"Gather", "Gather" FORM_SUFFIX, check_gather},
    {"Scatter", "Scatter" FORM_SUFFIX, check_scatter},
    {"Allgather", "Allgather" FORM_SUFFIX " (in place)", check_allgather},
    {"Alltoall", "Alltoall" FORM_SUFFIX " (in place)", check_alltoall},
};

/* Whether the command line asks for collective name (no names: every one). */
static int wanted(int argc, char **argv, const char *name)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], name) == 0)
            return 1;
    return argc < 2;
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
    for (int i = 1; i < argc; i++) {
        int known = 0;
        for (size_t c = 0; c < sizeof checks / sizeof checks[0]; c++)
            known |= strcmp(argv[i], checks[c].name) == 0;
        if (!known) {
            if (me == 0)
                fprintf(stderr, PROG ": unknown collective '%s'\n", argv[i]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    unsigned char *buf = malloc((size_t)(P * N));
    if (!buf) {
        perror(PROG ": malloc");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int64_t total_wrong = 0;
    for (size_t c = 0; c < sizeof checks / sizeof checks[0]; c++)
        if (wanted(argc, argv, checks[c].name))
            report(checks[c].printed, me, checks[c].check(buf, me), &total_wrong);
    free(buf);
    MPI_Finalize();
    return total_wrong ? 1 : 0;
}
#endif
