/* An MPI program that waits argv[1] seconds before MPI_Init, so that mpiguard looks at it first,
 * for tests/integration/observe.sh: linked statically with MPICH (Debian's static UCX then aborts
 * in MPI_Init), or run under the other MPI's launcher. */
#include <mpi.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    sleep(argc > 1 ? (unsigned)atoi(argv[1]) : 5);
    MPI_Init(&argc, &argv);
    MPI_Finalize();
    return 0;
}
