/* Each rank says where it runs (its node's hostname) and the sum of the ranks, which an allreduce
 * across the nodes computed: the test checks every rank ran on its own node and they talked.
 * argv[1], when given: seconds to wait before MPI_Init (a job mpiguard stops before it); argv[2]:
 * seconds to wait after the allreduce, every rank alike, so that the ranks enter MPI_Finalize
 * together with nothing in flight (the wrong-secret case of multinode.sh says why). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, size, sum = 0, len;
    char node[MPI_MAX_PROCESSOR_NAME];
    if (argc > 1)
        sleep((unsigned)atoi(argv[1]));
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_processor_name(node, &len);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("rank %d of %d on %s: sum %d\n", rank, size, node, sum);
    if (argc > 2)
        sleep((unsigned)atoi(argv[2]));
    MPI_Finalize();
    return 0;
}
