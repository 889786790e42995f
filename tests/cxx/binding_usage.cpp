// A usage error made through the MPI's C++ bindings: every rank reduces doubles with MPI::BAND,
// an op not defined for them (MPI 3.1 §5.9.2), under MPI::ERRORS_RETURN so that the job goes on.
// Built at -O0 -g, where the binding is a function of its own: the finding's site on every rank
// must be this file's line of the Allreduce, not the MPI header's.
#include <mpi.h>

int main(int argc, char **argv)
{
    MPI::Init(argc, argv);
    MPI::COMM_WORLD.Set_errhandler(MPI::ERRORS_RETURN);
    double value = 1.0, result = 0.0;
    MPI::COMM_WORLD.Allreduce(&value, &result, 1, MPI::DOUBLE, MPI::BAND);
    MPI::Finalize();
    return 0;
}
