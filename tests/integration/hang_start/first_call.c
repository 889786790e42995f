/* Jobs that hang, or only seem to, from their first MPI call, for tests/integration/hang_start.sh
 * (docs/hang.md "Hangs from the first call"). Usage: first_call CASE, CASE one of
 *   send-send   every rank sends 64 MiB to its partner before receiving: a deadlock at start
 *   recv        rank 0 receives from rank 1, which never sends; the others wait in a barrier
 *   poll        rank 0 polls MPI_Test for a message from any rank, which rank 1 would send had its
 *               own first receive not waited for what nobody sends; the others wait in a barrier
 *   poll-slow   the same, but rank 1 computes 8 s and sends: a healthy start, with a poller
 *   poll-long   the same, but rank 1 computes 25 s, past the first-call rule's still period
 *   poll-transfer  rank 0 polls for a message from rank 2, which first sends rank 3 one message
 *               of single bytes at a stride, sized to take about 25 s to pack: every other rank
 *               blocked, their counters still, while bytes move (issue 29, the one-poller rule)
 *   late-start  sleeps 6 s before MPI_Init and computes 6 s after it, then a short allreduce loop
 *   slow-first  rank 0 computes 8 s before the first collective, which the others wait in */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Keeps the CPU busy outside MPI for the given seconds. */
static double compute(double seconds)
{
    volatile double x = 1;
    for (double end = now() + seconds; now() < end;)
        for (int i = 0; i < 100000; i++)
            x = x * 1.0000001 + 1e-9;
    return x;
}

/* One message of n 1-byte blocks at a stride of 2 from rank 2 to rank 3; the seconds it took. */
static double strided_transfer(int rank, char *buf, int n)
{
    MPI_Datatype strided;
    MPI_Type_vector(n, 1, 2, MPI_CHAR, &strided);
    MPI_Type_commit(&strided);
    double t0 = MPI_Wtime();
    if (rank == 2)
        MPI_Send(buf, 1, strided, 3, 9, MPI_COMM_WORLD);
    else
        MPI_Recv(buf, 1, strided, 2, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Type_free(&strided);
    return MPI_Wtime() - t0;
}

/* Ranks 2 and 3: one strided message that takes about `seconds` to move under the load of the
 * moment, sized by trials that double until one takes a second (at most 2^30 blocks: 2 GiB of
 * buffer); rank 2 decides, rank 3 is told. */
static void slow_transfer(int rank, double seconds)
{
    char *buf = calloc((size_t)1 << 31, 1);
    int n = 1 << 20, go = 1;
    while (go) {
        double took = strided_transfer(rank, buf, n);
        if (rank == 2) {
            go = took < 1 && n < (1 << 30);
            double want = (double)n * (go ? 2 : seconds / (took > 1e-3 ? took : 1e-3));
            n = want > (double)(1 << 30) ? 1 << 30 : (int)want;
            int next[2] = {go, n};
            MPI_Send(next, 2, MPI_INT, 3, 10, MPI_COMM_WORLD);
        } else {
            int next[2];
            MPI_Recv(next, 2, MPI_INT, 2, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            go = next[0], n = next[1];
        }
    }
    strided_transfer(rank, buf, n);
    free(buf);
}

static void allreduce_loop(double seconds)
{
    double end = MPI_Wtime() + seconds, sum = 0, one = 1;
    int go = 1;
    while (go) {
        MPI_Allreduce(&one, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        go = MPI_Wtime() < end;
        MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "late-start") == 0)
        sleep(6);
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    fprintf(stderr, "first_call: rank %d of %d pid %d\n", rank, size, (int)getpid());
    if (strcmp(mode, "send-send") == 0) {
        size_t bytes = 64u << 20;
        char *buf = calloc(bytes, 1);
        MPI_Send(buf, (int)bytes, MPI_CHAR, rank ^ 1, 0, MPI_COMM_WORLD);
        MPI_Recv(buf, (int)bytes, MPI_CHAR, rank ^ 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        free(buf);
    } else if (strcmp(mode, "recv") == 0) {
        int v = 0;
        if (rank == 0)
            MPI_Recv(&v, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Barrier(MPI_COMM_WORLD);
    } else if (strcmp(mode, "poll-transfer") == 0) {
        int v = 0, done = 0;
        if (rank == 0) {
            MPI_Request req;
            MPI_Irecv(&v, 1, MPI_INT, 2, 7, MPI_COMM_WORLD, &req);
            while (!done)
                MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        } else if (rank >= 2) {
            slow_transfer(rank, 25);
            if (rank == 2)
                MPI_Send(&v, 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
        }
        allreduce_loop(4);
    } else if (strcmp(mode, "poll") == 0 || strcmp(mode, "poll-slow") == 0 ||
               strcmp(mode, "poll-long") == 0) {
        int v = 0, done = 0;
        if (rank == 0) {
            MPI_Request req;
            MPI_Irecv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &req);
            while (!done)
                MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        } else if (rank == 1 && strcmp(mode, "poll") == 0) {
            MPI_Recv(&v, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            compute(strcmp(mode, "poll-slow") == 0 ? 8 : 25);
            MPI_Send(&v, 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
        }
        allreduce_loop(4);
    } else if (strcmp(mode, "late-start") == 0) {
        compute(6);
        allreduce_loop(4);
    } else if (strcmp(mode, "slow-first") == 0) {
        if (rank == 0)
            compute(8);
        allreduce_loop(4);
    } else {
        fprintf(stderr, "first_call: unknown case '%s'\n", mode);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (rank == 0)
        printf("first_call: %s done on %d ranks\n", mode, size);
    MPI_Finalize();
    return 0;
}
