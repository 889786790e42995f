// Two ranks, each receiving from the other first through the MPI's C++ bindings: a deadlock whose
// call site, with the binding inlined at -O2, must be this file's line, not the MPI header's.
#include <mpi.h>

int main(int argc, char **argv)
{
    MPI::Init(argc, argv);
    const int rank = MPI::COMM_WORLD.Get_rank(), other = 1 - rank;
    int got = -1;
    MPI::COMM_WORLD.Recv(&got, 1, MPI::INT, other, 0);
    MPI::COMM_WORLD.Send(&rank, 1, MPI::INT, other, 0);
    MPI::Finalize();
    return got == other ? 0 : 1;
}
