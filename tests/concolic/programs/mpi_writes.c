/* Memory an MPI call writes (tests/concolic/mpi_writes.sh): two marked ints, buf[0] (input 1,
 * default 3) and buf[1] (input 2, default 5); on rank 0 the call of argv[1] overwrites buf[1]
 * with rank 1's 1000 and leaves buf[0] alone. Two planted aborts on rank 0:
 *   - input 2 == 7 behind `buf[1] > 500`: found only if the call made buf[1] concrete (a stale
 *     expression logs `input 2 > 500`, which with `input 2 == 7` is unsatisfiable);
 *   - input 1 == 9: found only if the call left buf[0]'s expression alone (the extent, the root's
 *     buffer of a broadcast, the root's own block of an in-place gather).
 * Needs 2 processes (another count is rejected). Modes: recv irecv sendrecv bcast allreduce
 * gatherv. */
#include <mpi.h>
#include <mpiguard/concolic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rank 1 holds 1000 in buf[1]; after this, so does rank 0. */
static void overwrite(const char *mode, int rank, int *buf)
{
    int peer = 1 - rank, other = 0;
    if (!strcmp(mode, "recv")) {
        if (rank == 0)
            MPI_Recv(&buf[1], 1, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        else
            MPI_Send(&buf[1], 1, MPI_INT, peer, 0, MPI_COMM_WORLD);
    } else if (!strcmp(mode, "irecv")) {
        MPI_Request req;
        if (rank == 0) {
            MPI_Irecv(&buf[1], 1, MPI_INT, peer, 0, MPI_COMM_WORLD, &req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        } else
            MPI_Send(&buf[1], 1, MPI_INT, peer, 0, MPI_COMM_WORLD);
    } else if (!strcmp(mode, "sendrecv")) {
        other = buf[1];
        MPI_Sendrecv(&other, 1, MPI_INT, peer, 0, &buf[1], 1, MPI_INT, peer, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        if (rank == 1)
            buf[1] = other;
    } else if (!strcmp(mode, "bcast")) {
        MPI_Bcast(&buf[0], 1, MPI_INT, 0, MPI_COMM_WORLD); /* rank 0 is the root: buf[0] kept */
        MPI_Bcast(&buf[1], 1, MPI_INT, 1, MPI_COMM_WORLD);
    } else if (!strcmp(mode, "allreduce")) {
        MPI_Allreduce(MPI_IN_PLACE, &buf[1], 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    } else if (!strcmp(mode, "gatherv")) {
        int counts[2] = {1, 1}, displs[2] = {0, 1};
        if (rank == 0) /* in place: the root's own block, buf[0], is not written */
            MPI_Gatherv(MPI_IN_PLACE, 1, MPI_INT, buf, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
        else
            MPI_Gatherv(&buf[1], 1, MPI_INT, NULL, NULL, NULL, MPI_INT, 0, MPI_COMM_WORLD);
    }
}

int main(int argc, char **argv)
{
    int rank, size, buf[2] = {3, 5};
    const char *mode = argc > 1 ? argv[1] : "recv";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mpiguard_int(&buf[0]);
    mpiguard_int(&buf[1]);
    int seen = buf[1];
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "needs 2 processes\n");
        MPI_Finalize();
        return 1;
    }
    if (rank == 1)
        buf[1] = 1000;
    overwrite(mode, rank, buf);
    /* abort's bug is keyed by the line of the last branch before it: the tags are there. */
    if (rank == 0 && buf[1] > 500 && seen == 7) /* W1 */
        abort();
    if (rank == 0 && buf[0] == 9) /* W2 */
        abort();
    MPI_Finalize();
    return 0;
}
