/* Jobs that hang, or only seem to, from their first MPI call, for tests/integration/hang_start.sh
 * (docs/hang.md "Hangs from the first call"). Usage: first_call CASE, CASE one of
 *   send-send   every rank sends 64 MiB to its partner before receiving: a deadlock at start
 *   recv        rank 0 receives from rank 1, which never sends; the others wait in a barrier
 *   poll        rank 0 polls MPI_Test for a message from any rank, which rank 1 would send had its
 *               own first receive not waited for what nobody sends; the others wait in a barrier
 *   poll-slow   the same, but rank 1 computes 8 s and sends: a healthy start, with a poller
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
    } else if (strcmp(mode, "poll") == 0 || strcmp(mode, "poll-slow") == 0) {
        int v = 0, done = 0;
        if (rank == 0) {
            MPI_Request req;
            MPI_Irecv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &req);
            while (!done)
                MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        } else if (rank == 1 && strcmp(mode, "poll") == 0) {
            MPI_Recv(&v, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            compute(8);
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
