/* A stand-in for an MPI library in tests: a shared object that the sampler is told belongs to MPI
 * (prefix "libmg_sampler_fake_mpi"), so a thread looping in it is "inside MPI mappings" without any
 * MPI_* entry frame, like Open MPI's and UCX's progress threads. Spec: docs/sampler.md. */
#include "fake_mpi_lib.h"

void fake_mpi_progress(void)
{
    for (;;) {
        __asm__ volatile("" ::: "memory");
    }
}
