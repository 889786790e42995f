/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* MPI's own errors as check records (capture_errors.c, issue 28 item 6). Needs mpi.h. */
#ifndef MG_CAPTURE_ERRORS_H
#define MG_CAPTURE_ERRORS_H

/* Where MPI_COMM_WORLD and MPI_COMM_SELF still have MPI_ERRORS_ARE_FATAL, puts a handler in its
 * place that writes the error's CHECK_EVENT_FN_MPI_ERROR record, then aborts the job as
 * MPI_ERRORS_ARE_FATAL would. Communicators made from them inherit it (MPI 3.1 §8.3). A handler
 * the program sets replaces it: under MPI_ERRORS_RETURN the program handles its errors. */
void capture_errors_install(void);
/* The return address of the program's MPI call in progress: the first frame of the stack outside
 * the MPI library, its runtimes, libc and mpiguard (a wrapper that routes a call straight to MPI
 * sets no call site), or NULL. *mpi_function (when not NULL) gets the name of the frame it called,
 * NULL when it has none. Not signal-safe (backtrace, dladdr). */
void *capture_errors_program_site(const char **mpi_function);

#endif
