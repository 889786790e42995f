/* Names and classes of the wrapped MPI functions (mpi_function_ids.h). */
#include "mpi_function_ids.h"

#include <string.h>
#include <strings.h>

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
#define MG_FN(name, params, args, cls) [MG_FN_##name] = MG_MPI_FUNCTION_IDS_CLASS_##cls,
#define MG_FN_SPECIAL(name, cls) [MG_FN_##name] = MG_MPI_FUNCTION_IDS_CLASS_##cls,
#define MG_FN_LARGE(name, params, args, cls) [MG_FN_##name] = MG_MPI_FUNCTION_IDS_CLASS_##cls,
#include "mpi_functions.def"
#undef MG_FN
#undef MG_FN_SPECIAL
#undef MG_FN_LARGE
};

const char *mpi_function_ids_name(unsigned fn)
{
    return fn < MG_FN_COUNT ? names[fn] : "?";
}

mpi_function_ids_fn_class mpi_function_ids_class_of(unsigned fn)
{
    return fn < MG_FN_COUNT ? (mpi_function_ids_fn_class)classes[fn]
                            : MG_MPI_FUNCTION_IDS_CLASS_P2P;
}

/* The function's name inside a binding's spelling of it, without prefix and suffix, into base
 * ("send" of mpi_send_f08_); 0 when the name is no MPI binding or too long. */
static int binding_base(const char *name, char *base, size_t size)
{
    static const char *const suffixes[] = {"_f08ts_", "_f08_", "__", "_"};
    size_t len;
    /* Open MPI's one body of a Fortran binding: ompi_send_f */
    if (strncmp(name, "ompi_", 5) == 0) {
        name += 5;
        len = strlen(name);
        if (len < 3 || strcmp(name + len - 2, "_f") != 0)
            return 0;
        len -= 2;
    } else {
        if ((name[0] == 'P' || name[0] == 'p') && strncasecmp(name + 1, "mpi_", 4) == 0)
            name++;
        if (strncasecmp(name, "mpi_", 4) != 0)
            return 0;
        name += 4;
        len = strlen(name);
        for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
            size_t n = strlen(suffixes[i]);
            if (len > n && strcmp(name + len - n, suffixes[i]) == 0) {
                len -= n;
                break;
            }
        }
    }
    if (len == 0 || len >= size)
        return 0;
    memcpy(base, name, len);
    base[len] = '\0';
    return 1;
}

mpi_function_ids_fn mpi_function_ids_lookup(const char *name)
{
    char base[64];
    if (!name || !binding_base(name, base, sizeof base))
        return MG_FN_NONE;
    for (unsigned fn = 1; fn < MG_FN_COUNT; fn++)
        if (strcasecmp(names[fn] + 4, base) == 0)
            return (mpi_function_ids_fn)fn;
    return MG_FN_NONE;
}
