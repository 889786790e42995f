/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* The interface every module of the interposition library implements, and the dispatch that calls
 * the enabled ones. Modules are switched on by MPIGUARD_MODULES (names separated by ':', or ',')
 * set by the CLI. */
#ifndef MG_MODULE_H
#define MG_MODULE_H

#include "mpi_function_ids.h"

/* What every module's init is told about the job, asked of MPI once by interpose.c. */
typedef struct module_job {
    int rank, size;   /* in MPI_COMM_WORLD */
    int thread_level; /* MPI_THREAD_* the library provided */
} module_job;

typedef struct module {
    const char *name;
    /* Called once after MPI_Init succeeded. Returns 0 to stay on; anything else switches the module
     * off (it must have logged why). Never ends the job. */
    int (*init)(const module_job *job);
    /* Called on entry to and exit from every outermost wrapped call of the calling thread.
     * Hot path: no malloc, no stdio, no locks. May be NULL. */
    void (*enter)(mpi_function_ids_fn fn);
    void (*leave)(mpi_function_ids_fn fn);
    /* Called at MPI_Finalize (before the library's, aborting 0) and at MPI_Abort (aborting 1,
     * before the library ends the job: the last chance to save what was recorded). May be NULL. */
    void (*finalize)(int aborting);
    /* Called on entry to every wrapped call after MPI_Finalize (and to a second MPI_Finalize or an
     * MPI_Abort), with the module stopped: check's capture module reports them. A module that
     * has it makes every wrapped call take the hooked route after MPI_Finalize; with none
     * (run, hang) every call goes straight to MPI. May be NULL. */
    void (*after_finalize)(mpi_function_ids_fn fn);
} module;

/* Modules available in this build. */
extern const module state_module;
extern const module protect_module; /* protect_module.c: collectives vs scaling problems */
extern const module capture_module; /* capture_module.c: check event records */

#endif
