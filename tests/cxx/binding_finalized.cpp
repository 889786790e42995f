// Rank 0 finalizes through the C++ binding while rank 1 waits in the binding's Recv for its
// message. Built at -O0 -g, where the bindings are functions of their own: the stuck_on_terminated
// names rank 0 at this file's line of the Finalize and rank 1 at the Recv's, not the MPI header's.
#include <mpi.h>

int main(int argc, char **argv)
{
    MPI::Init(argc, argv);
    int value = 0;
    if (MPI::COMM_WORLD.Get_rank() == 1)
        MPI::COMM_WORLD.Recv(&value, 1, MPI::INT, 0, 0);
    MPI::Finalize();
    return value;
}
