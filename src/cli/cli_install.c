/* Where this build's files are, next to the mpiguard binary (cli.h). */
#include "cli.h"

#include "mg_error.h"

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int cli_install_path(const char *relative, char *out, size_t outlen)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return MG_ERROR_ESYS;
    exe[n] = '\0';
    char joined[8192];
    if (snprintf(joined, sizeof joined, "%s/../%s", dirname(exe), relative) >= (int)sizeof joined)
        return MG_ERROR_ERANGE;
    char resolved[4096];
    /* A path that does not exist (yet) stays as joined, for the caller's error message. */
    if (snprintf(out, outlen, "%s", realpath(joined, resolved) ? resolved : joined) >= (int)outlen)
        return MG_ERROR_ERANGE;
    return MG_ERROR_OK;
}
