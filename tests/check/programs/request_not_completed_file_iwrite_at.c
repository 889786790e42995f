/* Each rank writes its number at its offset of a shared file with MPI_File_iwrite_at and never
 * completes the request: one nonblocking file request per rank still active at MPI_Finalize.
 * Issue 28 (requests of nonblocking file I/O).
 * np: 2
 * slice: mpich
 * expect: request_not_completed ranks 0 line 26
 * expect: request_not_completed ranks 1 line 26
 */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank;
    long owner = (long)getpid();
    char path[64];
    MPI_Request req;
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Bcast(&owner, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    snprintf(path, sizeof path, "/tmp/mpiguard-iwrite-%ld", owner);
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                  MPI_INFO_NULL, &fh);
    MPI_File_iwrite_at(fh, (MPI_Offset)(rank * sizeof rank), &rank, 1, MPI_INT, &req);
    MPI_File_close(&fh);
    MPI_Finalize();
    return 0;
}
