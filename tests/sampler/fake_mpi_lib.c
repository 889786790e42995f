/* A stand-in for an MPI library in tests: a shared object that the sampler is told belongs to MPI
 * (prefix "libmg_sampler_fake_mpi"), so a thread looping in it is "inside MPI mappings" without any
 * MPI_* entry frame, like Open MPI's and UCX's progress threads, and a thread it starts itself.
 * Spec: docs/sampler.md. */
#include "fake_mpi_lib.h"

#include <stddef.h>

void fake_mpi_progress(void)
{
    for (;;) {
        __asm__ volatile("" ::: "memory");
    }
}

void *fake_mpi_thread_main(void *arg)
{
    (void)arg;
    fake_mpi_progress();
    return NULL;
}
