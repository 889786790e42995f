/* Which protected nonblocking calls return at once (docs/design/collectives.md, "Nonblocking
 * calls"): the last rank reaches each call LATE seconds after the others, which post the call, time
 * how long posting took, then wait for it. A call the module keeps nonblocking (W2, W3) is posted
 * at once; a call it completes eagerly (W1-A, W1-B) or one that needs the ranks' agreement first
 * (Igatherv/Iscatterv with a late root, Ialltoallv) waits for the late rank.
 * Run under `mpiguard protect --bound 40 --workaround W` with 4 ranks (n = 16 fires G).
 * Prints "coll_nonblock: <call> rank <r> posted in <seconds>" for every rank but the late one,
 * then "coll_nonblock: <call> correct" when the received data is right. Built twice, like
 * coll_check: coll_nonblock_c posts the `_c` forms (MPI_Iallgather_c, ...; coll_form.h), which
 * without a bound of their own agree on nothing and are posted at once. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "coll_form.h"

#ifdef COLL_NO_LARGE
int main(void)
{
    printf("coll_nonblock_c: this MPI has no large-count (_c) collectives\n");
    return 77;
}
#else

enum { N = 16, LATE = 2 };

static int P, me, *rb;

/* The last rank arrives LATE seconds after the others; returns the time this rank posts at. */
static double arrive(void)
{
    PMPI_Barrier(MPI_COMM_WORLD);
    if (me == P - 1)
        sleep(LATE);
    return MPI_Wtime();
}

/* Element i of the data a rank receives: from rank i / N, its element at offset `at` + i % N. */
static int received_ok(int at)
{
    for (int i = 0; i < N * P; i++)
        if (rb[i] != (i / N) * 1000 + at + i % N)
            return 0;
    return 1;
}

/* Says how long posting call took (since t0), waits for it, and says whether its data is right. */
static void report(const char *call, double t0, MPI_Request *rq, int check, int at)
{
    double posted = MPI_Wtime() - t0;
    MPI_Wait(rq, MPI_STATUS_IGNORE);
    int ok = !check || received_ok(at), all_ok = 0;
    if (me != P - 1)
        printf("coll_nonblock: %s%s rank %d posted in %.2f\n", call, FORM_SUFFIX, me, posted);
    fflush(stdout);
    PMPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (me == 0 && all_ok)
        printf("coll_nonblock: %s%s correct\n", call, FORM_SUFFIX);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    PMPI_Comm_rank(MPI_COMM_WORLD, &me);
    PMPI_Comm_size(MPI_COMM_WORLD, &P);
    if (P > 64)
        MPI_Abort(MPI_COMM_WORLD, 2);
    int late = P - 1, *sb = malloc(sizeof(int) * N * (size_t)P);
    count_t counts[64];
    displ_t displs[64];
    rb = malloc(sizeof(int) * N * (size_t)P);
    for (int i = 0; i < P; i++)
        counts[i] = N, displs[i] = i * N;
    for (int i = 0; i < N * P; i++)
        sb[i] = me * 1000 + i;
    MPI_Request rq;
    double t;
    /* Iallgather: every rank sees the same arguments, no agreement. */
    t = arrive();
    FORM(MPI_Iallgather)(sb, N, MPI_INT, rb, N, MPI_INT, MPI_COMM_WORLD, &rq);
    report("MPI_Iallgather", t, &rq, 1, 0);
    /* Igatherv rooted at the late rank: the others need its decision. */
    t = arrive();
    FORM(MPI_Igatherv)(sb, N, MPI_INT, rb, counts, displs, MPI_INT, late, MPI_COMM_WORLD, &rq);
    report("MPI_Igatherv", t, &rq, me == late, 0);
    /* Ialltoallv: every rank holds only its own vectors; they agree with an allreduce. */
    t = arrive();
    FORM(MPI_Ialltoallv)
    (sb, counts, displs, MPI_INT, rb, counts, displs, MPI_INT, MPI_COMM_WORLD, &rq);
    report("MPI_Ialltoallv", t, &rq, 1, me * N);

    free(sb);
    free(rb);
    MPI_Finalize();
    return 0;
}
#endif
