/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* Where each MPI call goes once mpiguard has seen it (PnMPI-style chaining): to the next
 * definition of MPI_<Name> in the symbol lookup order when another PMPI tool (a profiler, a call
 * counter) is loaded after mpiguard, so that the tool sees the call and calls PMPI_<Name> itself;
 * to the MPI library's PMPI_<Name> otherwise. docs/cli.md, "Other tools and LD_PRELOAD".
 * Wrappers, and the modules' replacements when they pass the application's own call on, call
 * mg_next_<Name>; a module's own MPI calls (the tool's traffic, not the application's) stay on
 * PMPI_<Name>, so that the other tool counts only what the application calls. Needs mpi.h. */
#ifndef MG_INTERPOSE_NEXT_H
#define MG_INTERPOSE_NEXT_H

#include "interpose_hooks.h"

/* Hidden: a wrapper reaches its pointer with one load relative to its own code, as the PLT stub it
 * replaces reached the GOT. */
#define INTERPOSE_NEXT_HIDDEN __attribute__((visibility("hidden")))

#define MG_FN(name, params, args, cls)                                                             \
    extern mg_impl_##name##_fn *mg_next_##name INTERPOSE_NEXT_HIDDEN;
#include "mpi_wrapped_functions.def"

extern int (*mg_next_Init)(int *argc, char ***argv) INTERPOSE_NEXT_HIDDEN;
extern int (*mg_next_Init_thread)(int *argc, char ***argv, int required,
                                  int *provided) INTERPOSE_NEXT_HIDDEN;
extern int (*mg_next_Finalize)(void) INTERPOSE_NEXT_HIDDEN;
extern int (*mg_next_Abort)(MPI_Comm comm, int errorcode) INTERPOSE_NEXT_HIDDEN;

/* Points each mg_next_<Name> at the next tool's MPI_<Name> where one is loaded after mpiguard, and
 * leaves it on PMPI_<Name> elsewhere. Called at the start of MPI_Init and MPI_Init_thread, C or
 * Fortran, before any other thread can call MPI; calls made before it go to PMPI; the first call
 * decides, later ones return at once (under MPICH a Fortran MPI_Init reaches the C one too).
 * Returns how many functions go to another tool. Not thread-safe; does no MPI. */
int interpose_next_resolve(void) INTERPOSE_NEXT_HIDDEN;

#endif
