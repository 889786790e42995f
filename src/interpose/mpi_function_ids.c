/* Names and classes of the wrapped MPI functions (mpi_function_ids.h). */
#include "mpi_function_ids.h"

#include <string.h>

static const char *const names[MG_FN_COUNT] = {
    [MG_FN_NONE] = "(none)",
#define MG_FN(name, params, args, cls) [MG_FN_##name] = "MPI_" #name,
#define MG_FN_SPECIAL(name, cls) [MG_FN_##name] = "MPI_" #name,
#define MG_FN_LARGE(name, params, args, cls) [MG_FN_##name] = "MPI_" #name,
#include "mpi_functions.def"
#undef MG_FN
#undef MG_FN_SPECIAL
#undef MG_FN_LARGE
};

static const unsigned char classes[MG_FN_COUNT] = {
#define MG_FN(name, params, args, cls) [MG_FN_##name] = MG_CLASS_##cls,
#define MG_FN_SPECIAL(name, cls) [MG_FN_##name] = MG_CLASS_##cls,
#define MG_FN_LARGE(name, params, args, cls) [MG_FN_##name] = MG_CLASS_##cls,
#include "mpi_functions.def"
#undef MG_FN
#undef MG_FN_SPECIAL
#undef MG_FN_LARGE
};

const char *mg_fn_name(unsigned fn)
{
    return fn < MG_FN_COUNT ? names[fn] : "?";
}

mg_fn_class mg_fn_class_of(unsigned fn)
{
    return fn < MG_FN_COUNT ? (mg_fn_class)classes[fn] : MG_CLASS_P2P;
}

mg_fn mg_fn_lookup(const char *name)
{
    if (!name)
        return MG_FN_NONE;
    if (name[0] == 'P')
        name++;
    for (unsigned fn = 1; fn < MG_FN_COUNT; fn++)
        if (strcmp(names[fn], name) == 0)
            return (mg_fn)fn;
    return MG_FN_NONE;
}
