/* Eleven marked values that must lie in [0, 9] and differ pairwise, checked value by value (a run
 * ends at its first failed check). The defaults 0..9 and 9 fail only the last pair; a DFS without
 * constraint reduction reaches, at run 77, the negation asking eleven values in [0, 9] to
 * differ: the pigeonhole problem, unsatisfiable and hard for Z3's arithmetic, a solve of
 * seconds (tests/concolic/solver_limits.sh). */
#include <mpi.h>
#include <mpiguard/concolic.h>

#define PIGEONS 11

int main(int argc, char **argv)
{
    int x[PIGEONS], rc = 0;
    MPI_Init(&argc, &argv);
    for (int i = 0; i < PIGEONS; i++) {
        x[i] = i < PIGEONS - 1 ? i : PIGEONS - 2;
        mpiguard_int(&x[i]);
    }
    for (int j = 0; j < PIGEONS && !rc; j++) {
        if (x[j] < 0 || x[j] > PIGEONS - 2)
            rc = 1;
        for (int i = 0; i < j && !rc; i++)
            if (x[i] == x[j])
                rc = 1;
    }
    MPI_Finalize();
    return rc;
}
