/* Times one collective in one job, in rounds: straight into the library (PMPI_*, the unprotected
 * collective), through MPI_* (which `mpiguard protect` intercepts: the check alone when nothing
 * fires, a workaround when --bound makes it fire), and straight into the library again, in an
 * order that turns from round to round. Same buffers, same size, so the ratio needs no second
 * run. A round's time is the slowest rank's per call. Prints the medians over the rounds: the
 * per-call times, "noise" (unprotected again / unprotected: two identical timings differ by
 * this), and "ratio" (through MPI_* / unprotected, paired within each round), with the quartiles
 * of both over the rounds.
 * Usage: coll_time COLLECTIVE N ITERS [ROUNDS [alternate]]   (COLLECTIVE: Bcast Gather Gatherv
 * Allgather Allgatherv Alltoall Alltoallv Reduce Allreduce Igather Igatherv; N MPI_CHAR, or N
 * MPI_INT summed for the reductions; ROUNDS 21 by default). With "alternate" last, the calls
 * alternate between MPI_COMM_WORLD and a duplicate of it, as a program alternating between the
 * rows and columns of a grid does: the module remembers one communicator per thread. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int P, me, n;
static char *sb, *rb;
static int *counts, *displs;
static MPI_Comm comms[2];
static unsigned alternate, calls;

static void once(const char *c, int prot)
{
    MPI_Comm w = comms[calls++ & alternate];
    MPI_Request rq;
    if (!strcmp(c, "Bcast"))
        prot ? MPI_Bcast(sb, n, MPI_CHAR, 0, w) : PMPI_Bcast(sb, n, MPI_CHAR, 0, w);
    else if (!strcmp(c, "Gather"))
        prot ? MPI_Gather(sb, n, MPI_CHAR, rb, n, MPI_CHAR, 0, w)
             : PMPI_Gather(sb, n, MPI_CHAR, rb, n, MPI_CHAR, 0, w);
    else if (!strcmp(c, "Gatherv"))
        prot ? MPI_Gatherv(sb, n, MPI_CHAR, rb, counts, displs, MPI_CHAR, 0, w)
             : PMPI_Gatherv(sb, n, MPI_CHAR, rb, counts, displs, MPI_CHAR, 0, w);
    else if (!strcmp(c, "Allgather"))
        prot ? MPI_Allgather(sb, n, MPI_CHAR, rb, n, MPI_CHAR, w)
             : PMPI_Allgather(sb, n, MPI_CHAR, rb, n, MPI_CHAR, w);
    else if (!strcmp(c, "Allgatherv"))
        prot ? MPI_Allgatherv(sb, n, MPI_CHAR, rb, counts, displs, MPI_CHAR, w)
             : PMPI_Allgatherv(sb, n, MPI_CHAR, rb, counts, displs, MPI_CHAR, w);
    else if (!strcmp(c, "Alltoall"))
        prot ? MPI_Alltoall(sb, n, MPI_CHAR, rb, n, MPI_CHAR, w)
             : PMPI_Alltoall(sb, n, MPI_CHAR, rb, n, MPI_CHAR, w);
    else if (!strcmp(c, "Alltoallv"))
        prot ? MPI_Alltoallv(sb, counts, displs, MPI_CHAR, rb, counts, displs, MPI_CHAR, w)
             : PMPI_Alltoallv(sb, counts, displs, MPI_CHAR, rb, counts, displs, MPI_CHAR, w);
    else if (!strcmp(c, "Reduce"))
        prot ? MPI_Reduce(sb, rb, n, MPI_INT, MPI_SUM, 0, w)
             : PMPI_Reduce(sb, rb, n, MPI_INT, MPI_SUM, 0, w);
    else if (!strcmp(c, "Allreduce"))
        prot ? MPI_Allreduce(sb, rb, n, MPI_INT, MPI_SUM, w)
             : PMPI_Allreduce(sb, rb, n, MPI_INT, MPI_SUM, w);
    else if (!strcmp(c, "Igather")) {
        prot ? MPI_Igather(sb, n, MPI_CHAR, rb, n, MPI_CHAR, 0, w, &rq)
             : PMPI_Igather(sb, n, MPI_CHAR, rb, n, MPI_CHAR, 0, w, &rq);
        PMPI_Wait(&rq, MPI_STATUS_IGNORE);
    } else if (!strcmp(c, "Igatherv")) {
        prot ? MPI_Igatherv(sb, n, MPI_CHAR, rb, counts, displs, MPI_CHAR, 0, w, &rq)
             : PMPI_Igatherv(sb, n, MPI_CHAR, rb, counts, displs, MPI_CHAR, 0, w, &rq);
        PMPI_Wait(&rq, MPI_STATUS_IGNORE);
    } else {
        if (me == 0)
            fprintf(stderr, "coll_time: unknown collective %s\n", c);
        PMPI_Abort(w, 2);
    }
}

/* Seconds per call of ITERS calls, the slowest rank's. */
static double timed(const char *c, int prot, int iters)
{
    PMPI_Barrier(MPI_COMM_WORLD);
    double t0 = PMPI_Wtime();
    for (int i = 0; i < iters; i++)
        once(c, prot);
    double t = (PMPI_Wtime() - t0) / iters, worst;
    PMPI_Allreduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return worst;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The q-quantile (0 <= q <= 1) of v[0..n); sorts v. */
static double quantile(double *v, int n, double q)
{
    qsort(v, (size_t)n, sizeof *v, by_value);
    return v[(int)(q * (n - 1) + 0.5)];
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    PMPI_Comm_rank(MPI_COMM_WORLD, &me);
    PMPI_Comm_size(MPI_COMM_WORLD, &P);
    if (argc < 4 || argc > 6 || (argc == 6 && strcmp(argv[5], "alternate") != 0)) {
        if (me == 0)
            fprintf(stderr, "usage: coll_time COLLECTIVE N ITERS [ROUNDS [alternate]]\n");
        PMPI_Abort(MPI_COMM_WORLD, 2);
    }
    alternate = argc == 6;
    comms[0] = MPI_COMM_WORLD;
    PMPI_Comm_dup(MPI_COMM_WORLD, &comms[1]);
    const char *c = argv[1];
    n = atoi(argv[2]);
    int iters = atoi(argv[3]), rounds = argc >= 5 ? atoi(argv[4]) : 21;
    if (rounds < 1)
        rounds = 1;
    size_t bytes = (size_t)n * (size_t)(P > 4 ? P : 4) + 64;
    sb = calloc(bytes, 1);
    rb = calloc(bytes, 1);
    counts = malloc((size_t)P * sizeof *counts);
    displs = malloc((size_t)P * sizeof *displs);
    for (int i = 0; i < P; i++)
        counts[i] = n, displs[i] = i * n;
    once(c, 0), once(c, 1); /* warm up both paths (connections, the module's communicators) */
    size_t row = (size_t)rounds * sizeof(double);
    double *u = malloc(row), *p = malloc(row), *again = malloc(row), *ratio = malloc(row);
    double *noise = malloc(row);
    for (int round = 0; round < rounds; round++) {
        double *slot[3] = {&u[round], &p[round], &again[round]};
        for (int k = 0; k < 3; k++) {
            int which = (k + round) % 3;
            *slot[which] = timed(c, which == 1, iters);
        }
        ratio[round] = p[round] / u[round];
        noise[round] = again[round] / u[round];
    }
    if (me == 0)
        printf("coll_time: %s n %d P %d, %d rounds of %d calls: unprotected %.3f us, "
               "through MPI_%s %.3f us; noise %.3f (quartiles %.3f-%.3f); quartiles %.3f-%.3f, "
               "ratio %.3f\n",
               c, n, P, rounds, iters, quantile(u, rounds, 0.5) * 1e6, c,
               quantile(p, rounds, 0.5) * 1e6, quantile(noise, rounds, 0.5),
               quantile(noise, rounds, 0.25), quantile(noise, rounds, 0.75),
               quantile(ratio, rounds, 0.25), quantile(ratio, rounds, 0.75),
               quantile(ratio, rounds, 0.5));
    free(u), free(p), free(again), free(ratio), free(noise);
    PMPI_Comm_free(&comms[1]);
    MPI_Finalize();
    return 0;
}
