/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* The entries into the interposition library's shared core for bindings other than C's (the
 * Fortran ones of fortran_entry.c): the same routes, counter and modules as the C wrapper MPI_X,
 * with the call site given by the caller. docs/architecture.md, "Fortran entry points". Needs
 * mpi.h. */
#ifndef MG_INTERPOSE_ENTRY_H
#define MG_INTERPOSE_ENTRY_H

#include <mpi.h>

#include "interpose_hooks.h"
#include "mpi_function_ids.h"

/* mg_enter_<Name>(site, C arguments): MPI_<Name> as if called from site, the return address of
 * the binding's own caller. Thread-safe as MPI_<Name> is. */
#define MG_FN(name, params, args, cls)                                                             \
    int mg_enter_##name(void *site, INTERPOSE_HOOKS_ARGS_OF params);
#include "mpi_wrapped_functions.def"

/* mg_enter_<Name>_binding(site, binding, C arguments), for the MG_FN_BINDING lines of
 * mpi_functions.def: mg_enter_<Name>, except that the call goes on to binding (with the arguments
 * as the modules saw them) where mg_enter_<Name> calls the C function; a module that replaces the
 * function calls the C one still. binding is the caller's way through the MPI's own binding: the
 * MPI's Fortran MPI_Grequest_start tells the MPI that the functions it takes are Fortran's. */
#define MG_FN(name, params, args, cls)
#define MG_FN_SPECIAL(name, cls)
#define MG_FN_BINDING(name, params, args, cls)                                                     \
    int mg_enter_##name##_binding(void *site, mg_impl_##name##_fn *binding,                        \
                                  INTERPOSE_HOOKS_ARGS_OF params);
#include "mpi_functions.def"
#undef MG_FN
#undef MG_FN_SPECIAL
#undef MG_FN_BINDING

/* Turns the modules on after the MPI library's own Init or Init_thread succeeded; once per process,
 * whichever binding asks first. */
void interpose_start(void);
/* Turns the modules off before the MPI library's Finalize (fn MG_FN_Finalize) or Abort
 * (MG_FN_Abort), called from the program's site (the caller's return address, the call site of
 * the modules' last records); idempotent. */
void interpose_end(mpi_function_ids_fn fn, void *site);
/* After the MPI library's Finalize returned: a Finalize called from then on is a second one. */
void interpose_finalize_returned(void);

#endif
