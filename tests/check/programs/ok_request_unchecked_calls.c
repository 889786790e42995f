/* Requests of calls no peer completes, on handles MPI may hand out again after a completed
 * Isend's: a nonblocking write of each rank's number at its offset of a shared file, and a
 * generalized request completed at once, each waited on. Neither is taken for a freed request
 * (request_freed), nor left incomplete, nor reported otherwise, and no rank says they are not
 * checked (tests/cli/check_findings_report.sh asserts it). Issue 28 item 3.
 * np: 2
 * slice: mpich
 * expect: clean
 */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

#include "grequest_callbacks.h"

int main(int argc, char **argv)
{
    int rank, size, token, got = -1;
    long owner;
    char path[64];
    MPI_Request req;
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    owner = (long)getpid();
    MPI_Bcast(&owner, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    snprintf(path, sizeof path, "/tmp/mpiguard-unchecked-%ld", owner);
    token = rank;
    MPI_Isend(&token, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD, &req);
    MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    MPI_File_iwrite_at(fh, (MPI_Offset)(rank * sizeof rank), &rank, 1, MPI_INT, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_File_close(&fh);
    MPI_Grequest_start(query, release, cancel, NULL, &req);
    MPI_Grequest_complete(req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        MPI_File_delete(path, MPI_INFO_NULL);
    MPI_Finalize();
    return got == (rank + size - 1) % size ? 0 : 1;
}
