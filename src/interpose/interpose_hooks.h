/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* Per-function hooks of the interposition library, generated from mpi_functions.def, for modules
 * that need a call's arguments (docs/architecture.md, "The interposition library"):
 *   mg_observe_<Name>: called with the arguments before the call (INTERPOSE_HOOKS_CALL_ENTER, rc 0)
 * and after it (INTERPOSE_HOOKS_CALL_EXIT, rc of the call): event capture. It must not call MPI.
 *   mg_impl_<Name>:    called instead of PMPI_<Name>, with the same signature: a module that routes
 *                      the call around a problem (collective protection). Its own MPI calls pass
 *                      straight to the library (the per-thread depth is already taken).
 * Both are NULL unless a module sets them in its init hook; at most one module owns each pointer.
 * The large-count `_c` collectives have them only where mpi.h declares those (MG_MPI_LARGE_COUNT).
 * Needs mpi.h. */
#ifndef MG_INTERPOSE_HOOKS_H
#define MG_INTERPOSE_HOOKS_H

#include <mpi.h>
#include "mpi_handles_weak.h"

#include "mpi_large_count.h"

enum interpose_hooks_call_phase { INTERPOSE_HOOKS_CALL_ENTER = 0, INTERPOSE_HOOKS_CALL_EXIT = 1 };

/* Thread-locals of the wrappers' hot path. The library is preloaded, never dlopen'ed, so its TLS
 * can live in the static block: an access is one instruction instead of a __tls_get_addr call. */
#define INTERPOSE_HOOKS_TLS_FAST __attribute__((tls_model("initial-exec")))

/* The application's call site of the outermost MPI call in progress on this thread (the return
 * address of the wrapper), set before the observer runs; resolved to file:line outside the rank. */
extern _Thread_local void *interpose_call_site INTERPOSE_HOOKS_TLS_FAST;

#define INTERPOSE_HOOKS_ARGS_OF(...) __VA_ARGS__
#define MG_FN(name, params, args, cls)                                                             \
    typedef void mg_observe_##name##_fn(int phase, int rc, INTERPOSE_HOOKS_ARGS_OF params);        \
    typedef int mg_impl_##name##_fn params;                                                        \
    extern mg_observe_##name##_fn *mg_observe_##name;                                              \
    extern mg_impl_##name##_fn *mg_impl_##name;
#include "mpi_wrapped_functions.def"

#endif
