/* A rank's call stack (rank_stack.h). */
#include "rank_stack.h"

#include "mpi_function_ids.h"

#include <ctype.h>
#include <string.h>

/* The MPI function a frame names, as the table spells it (PMPI_Recv, mpi_recv_: MPI_Recv); a name
 * the table does not hold without its profiling 'P'. */
static const char *public_name(const char *function)
{
    mg_fn fn = mg_fn_lookup(function);
    if (fn != MG_FN_NONE)
        return mg_fn_name(fn);
    return tolower((unsigned char)function[0]) == 'p' ? function + 1 : function;
}

size_t rank_stack_mpi_entry(const rank_stack *st)
{
    size_t entry = st->nframes;
    for (size_t i = 0; st->mpi_function[0] && i < st->nframes; i++)
        if (st->frames[i].function[0] &&
            strcmp(public_name(st->frames[i].function), st->mpi_function) == 0)
            entry = i;
    return entry;
}
