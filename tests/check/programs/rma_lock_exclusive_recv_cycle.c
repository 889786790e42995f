/* A lock cycle: rank 0 holds an exclusive lock on rank 1's window and waits in a Recv for a
 * message rank 1 sends only after its own exclusive lock on that window, which it never gets.
 * Issue 28 item 5.
 * np: 2
 * slice: mpich
 * expect: deadlock ranks 0,1 line 22
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, *cells, value = 3, token = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &cells, &win);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
        MPI_Put(&value, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
        MPI_Win_flush(1, win); /* the lock is held from here on */
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Recv(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Win_unlock(1, win);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
        MPI_Get(&token, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
        MPI_Win_unlock(1, win);
        MPI_Send(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
