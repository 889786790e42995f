/* After MPI_Finalize each rank asks only what MPI-4.0 allows then (§11.4.1, Table 11.1): whether
 * MPI is initialized and finalized, the standard's version and the library's. Correct. Issue 28
 * (bad input: MPI after Finalize).
 * np: 2
 * slice: mpich
 * expect: clean
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, initialized = 0, finalized = 0, version, subversion, len;
    char library[MPI_MAX_LIBRARY_VERSION_STRING];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    MPI_Get_version(&version, &subversion);
    MPI_Get_library_version(library, &len);
    printf("rank %d: initialized %d finalized %d, MPI %d.%d, %.20s\n", rank, initialized, finalized,
           version, subversion, library);
    return !(initialized && finalized);
}
