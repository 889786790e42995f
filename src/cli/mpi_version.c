/* Asking an MPI library for its version; see mpi_version.h. */
#include "mpi_version.h"

#include <ctype.h>
#include <dlfcn.h>
#include <string.h>

#include "mg_error.h"

int mpi_version_of(mg_mpi_flavor flavor, char *out, size_t len)
{
    const char *lib = flavor == MG_FLAVOR_OPENMPI ? "libmpi.so.40" : "libmpich.so.12";
    const char *marker = flavor == MG_FLAVOR_OPENMPI ? "Open MPI v" : "MPICH Version:";
    void *h = dlopen(lib, RTLD_LAZY | RTLD_LOCAL);
    if (!h)
        return MG_ENOENT;
    int (*get)(char *, int *) = (int (*)(char *, int *))dlsym(h, "MPI_Get_library_version");
    char text[8192] = "";
    int n = 0;
    if (!get || get(text, &n) != 0)
        return MG_ENOENT;
    /* The library stays loaded: unloading an MPI mid-process is not something it expects. */
    const char *p = strstr(text, marker);
    if (!p)
        return MG_EFORMAT;
    p += strlen(marker);
    while (*p && isspace((unsigned char)*p))
        p++;
    size_t k = 0;
    while (k + 1 < len && (isdigit((unsigned char)p[k]) || p[k] == '.'))
        out[k] = p[k], k++;
    out[k] = '\0';
    return k ? MG_OK : MG_EFORMAT;
}
