/* A stand-in for an MPI library's progress loop (see fake_mpi_lib.c). */
#ifndef FAKE_MPI_LIB_H
#define FAKE_MPI_LIB_H

/* Loops forever inside the shared object. */
void fake_mpi_progress(void);

/* A thread's start routine inside the library (as MPI's progress threads have): loops forever. */
void *fake_mpi_thread_main(void *arg);

#endif
