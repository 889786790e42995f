/* A correct ring exchange with an allreduce per iteration; argv[1] iterations (default 100),
 * argv[2] microseconds of sleep per iteration (default 0). */
#include <mpi.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, size, x = 1, y = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int iterations = argc > 1 ? atoi(argv[1]) : 100;
    int pause = argc > 2 ? atoi(argv[2]) : 0;
    for (int i = 0; i < iterations; i++) {
        MPI_Request r[2];
        MPI_Irecv(&y, 1, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD, &r[0]);
        MPI_Isend(&x, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD, &r[1]);
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
        MPI_Allreduce(&y, &x, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (pause)
            usleep((useconds_t)pause);
    }
    MPI_Finalize();
    return 0;
}
