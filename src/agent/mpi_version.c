/* Asking an MPI library for its version; see mpi_version.h. */
#include "mpi_version.h"

#include <ctype.h>
#include <dlfcn.h>
#include <string.h>

#include "mg_error.h"
#include "scaling_coll.h"

/* The flavour's library, loaded once. It stays loaded: unloading an MPI mid-process is not
 * something it expects. */
static void *library(mg_mpi_flavor flavor)
{
    return dlopen(flavor == MG_MPI_FLAVOR_OPENMPI ? "libmpi.so.40" : "libmpich.so.12",
                  RTLD_LAZY | RTLD_LOCAL);
}

int mpi_large_count_of(mg_mpi_flavor flavor, int *count)
{
    void *h = library(flavor);
    *count = 0;
    if (!h)
        return MG_ERROR_ENOENT;
    for (int c = 0; c < SCALING_COLL_COUNT; c++)
        for (int nb = 0; nb < 2; nb++) {
            char name[64] = "P";
            scaling_coll_mpi_name((scaling_coll)c, nb, 1, name + 1, sizeof name - 1);
            *count += dlsym(h, name) != NULL;
        }
    return MG_ERROR_OK;
}

int mpi_version_of(mg_mpi_flavor flavor, char *out, size_t len)
{
    const char *marker = flavor == MG_MPI_FLAVOR_OPENMPI ? "Open MPI v" : "MPICH Version:";
    void *h = library(flavor);
    if (!h)
        return MG_ERROR_ENOENT;
    int (*get)(char *, int *) = (int (*)(char *, int *))dlsym(h, "MPI_Get_library_version");
    char text[8192] = "";
    int n = 0;
    if (!get || get(text, &n) != 0)
        return MG_ERROR_ENOENT;
    const char *p = strstr(text, marker);
    if (!p)
        return MG_ERROR_EFORMAT;
    p += strlen(marker);
    while (*p && isspace((unsigned char)*p))
        p++;
    size_t k = 0;
    while (k + 1 < len && (isdigit((unsigned char)p[k]) || p[k] == '.'))
        out[k] = p[k], k++;
    out[k] = '\0';
    return k ? MG_ERROR_OK : MG_ERROR_EFORMAT;
}
