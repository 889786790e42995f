/* Another program: its campaign directory must not be reused by planted (another build id). */
#include <mpi.h>
#include <mpiguard/concolic.h>

int main(int argc, char **argv)
{
    int x = 0;
    MPI_Init(&argc, &argv);
    mpiguard_int(&x);
    MPI_Finalize();
    return x == 7;
}
