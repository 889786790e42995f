/* The next-pointer table of the interposition library (interpose_next.h): each starts at the MPI
 * library's PMPI_<Name>, resolved by the dynamic linker at load like the PLT entry a direct call
 * used, and moves to another tool's MPI_<Name> at MPI_Init when one follows mpiguard. */
#include <mpi.h>
#include "mpi_handles_weak.h"

#include "interpose_next.h"

#include <dlfcn.h>
#include <stddef.h>

#define PRAGMA(x) _Pragma(#x)
#define MG_FN(name, params, args, cls) PRAGMA(weak PMPI_##name)
#define MG_FN_SPECIAL(name, cls) PRAGMA(weak PMPI_##name)
#if MG_MPI_LARGE_COUNT
#define MG_FN_LARGE MG_FN
#endif
#include "mpi_functions.def"
#undef MG_FN
#undef MG_FN_SPECIAL
#undef MG_FN_LARGE

#define MG_FN(name, params, args, cls) mg_impl_##name##_fn *mg_next_##name = PMPI_##name;
#include "mpi_wrapped_functions.def"

int (*mg_next_Init)(int *argc, char ***argv) = PMPI_Init;
int (*mg_next_Init_thread)(int *argc, char ***argv, int required, int *provided) = PMPI_Init_thread;
int (*mg_next_Finalize)(void) = PMPI_Finalize;
int (*mg_next_Abort)(MPI_Comm comm, int errorcode) = PMPI_Abort;

/* The MPI_<Name> that follows mpiguard in the lookup order when it belongs to another tool, or NULL
 * when the next one is the MPI library's own (the object that defines pmpi, where MPI_<Name> is an
 * alias of PMPI_<Name>) or there is none. */
static void *other_tool_definition(const char *name, void *pmpi)
{
    void *next = dlsym(RTLD_NEXT, name);
    if (!next || !pmpi || next == pmpi)
        return NULL;
    Dl_info next_object, mpi_object;
    if (dladdr(next, &next_object) && dladdr(pmpi, &mpi_object) &&
        next_object.dli_fbase == mpi_object.dli_fbase)
        return NULL;
    return next;
}

/* Moves *slot to another tool's definition of name, if there is one; returns 1 if it moved. The
 * slot's type is a function pointer; void * is how dlsym gives them (POSIX makes the two
 * interchangeable). */
#define CHAIN(slot, name)                                                                          \
    do {                                                                                           \
        void *other = other_tool_definition(name, (void *)(slot));                                 \
        if (other) {                                                                               \
            *(void **)&(slot) = other;                                                             \
            chained++;                                                                             \
        }                                                                                          \
    } while (0)

int interpose_next_resolve(void)
{
    static int resolved, chained;
    if (resolved)
        return chained;
    resolved = 1;
    CHAIN(mg_next_Init, "MPI_Init");
    CHAIN(mg_next_Init_thread, "MPI_Init_thread");
    CHAIN(mg_next_Finalize, "MPI_Finalize");
    CHAIN(mg_next_Abort, "MPI_Abort");
#define MG_FN(name, params, args, cls) CHAIN(mg_next_##name, "MPI_" #name);
#include "mpi_wrapped_functions.def"
    return chained;
}
