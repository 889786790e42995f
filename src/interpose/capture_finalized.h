/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* The capture module after MPI_Finalize: the MPI calls a rank makes too late, as
 * CHECK_EVENT_FN_AFTER_FINALIZE records (capture_finalized.c; docs/design/check-classes.md
 * "Lifecycles"). Only under `mpiguard check`. */
#ifndef MG_CAPTURE_FINALIZED_H
#define MG_CAPTURE_FINALIZED_H

#include "mpi_function_ids.h"

/* At MPI_Finalize's entry: writes the Finalize record and keeps the stream open for what follows,
 * until the process ends. */
void capture_finalized_begin(void);
/* The module's after_finalize hook (module.h): the entry of wrapped call fn after MPI_Finalize,
 * reported unless MPI-4.0 allows it then. */
void capture_finalized_call(mpi_function_ids_fn fn);
/* At the process's end (exit, a return from main, or _exit, which Open MPI's abort after
 * MPI_Finalize calls: exported for check's own _exit, check_exit.c): the MPI call it ends in, when
 * MPI_Finalize has been called and the call is not reported yet (MPI ends a process in a call made
 * too late, even one mpiguard does not wrap), then the stream's end. Not signal-safe. */
void capture_finalized_exit(void);

#endif
