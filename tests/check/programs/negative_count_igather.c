/* Both ranks start a nonblocking gather whose count comes from an unsigned difference gone
 * negative when cast to int: MPI_Igather refuses it on every rank. Errors return here, so the job
 * goes on. Issue 28 items 2 and 8 (nonblocking collectives).
 * np: 2
 * slice: none
 * expect: negative_count ranks 0 line 19
 * expect: negative_count ranks 1 line 19
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int mine[2] = {0}, all[4];
    unsigned first = 3, last = 1;
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int count = (int)(last - first);
    MPI_Igather(mine, count, MPI_INT, all, count, MPI_INT, 0, MPI_COMM_WORLD,
                &request); /* <- reported */
    MPI_Finalize();
    return 0;
}
