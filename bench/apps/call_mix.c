/* Which MPI functions an application calls, and how often, for the per-function bound of
 * bench/apps/cost_bound.sh (docs/apps.md "A bound from the cost per call"): preloaded alone into
 * a plain run, a PMPI wrapper per function of src/wire/mpi_functions.def counts its calls and, at
 * MPI_Finalize, writes them to $CALL_MIX_DIR/rank.<rank>, one "<Name> <calls>" a line. Not for
 * MPI's large-count functions (Open MPI 4.1 has none). */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>

#define INTERPOSE_HOOKS_ARGS_OF(...) __VA_ARGS__
#define MG_FN_SPECIAL(name, cls)
#define MG_FN_LARGE(name, params, args, cls)

enum {
#define MG_FN(name, params, args, cls) COUNT_##name,
#include "mpi_functions.def"
#undef MG_FN
    COUNTED_FUNCTIONS
};
static const char *const names[] = {
#define MG_FN(name, params, args, cls) #name,
#include "mpi_functions.def"
#undef MG_FN
};
static unsigned long calls[COUNTED_FUNCTIONS];

#define MG_FN(name, params, args, cls)                                                             \
    int MPI_##name params                                                                          \
    {                                                                                              \
        calls[COUNT_##name]++;                                                                     \
        return PMPI_##name args;                                                                   \
    }
#include "mpi_functions.def"
#undef MG_FN

int MPI_Finalize(void)
{
    int rank = 0;
    char path[4096];
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    snprintf(path, sizeof path, "%s/rank.%d", getenv("CALL_MIX_DIR"), rank);
    FILE *out = fopen(path, "w");
    for (int i = 0; out && i < COUNTED_FUNCTIONS; i++)
        if (calls[i])
            fprintf(out, "%s %lu\n", names[i], calls[i]);
    if (out)
        fclose(out);
    return PMPI_Finalize();
}
