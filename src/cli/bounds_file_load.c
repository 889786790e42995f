/* The safe-bounds file as the tools load it; see bounds_file_load.h. */
#include "bounds_file_load.h"

#include <stdio.h>
#include <string.h>

#include "mg_error.h"
#include "mg_exit.h"
#include "mg_log.h"
#include "mpi_version.h"
#include "scaling_bounds.h"
#include "scaling_coll.h"

/* The name in e that the scaling engine does not know ("collective", "form"), or NULL. */
static const char *unknown_name(const bounds_file_entry *e)
{
    scaling_coll coll;
    scaling_bounds_form form;
    int nonblocking, large, in_place;
    if (scaling_coll_from_name(e->collective, &coll, &nonblocking, &large, &in_place) != 0)
        return "collective";
    return e->cls == 'G' && scaling_bounds_form_parse(e->form, &form) != 0 ? "form" : NULL;
}

/* Says why d was not measured on the installed library of flavor; 0 when it was. */
static int other_mpi(const char *path, mg_mpi_flavor flavor, const bounds_file_doc *d)
{
    char version[32];
    if (flavor == MG_MPI_FLAVOR_UNKNOWN)
        return 0;
    if (strcmp(d->flavor, mg_mpi_flavor_name(flavor)) != 0) {
        mg_log_error("%s was measured on %s %s, but this job uses %s", path, d->flavor, d->version,
                     mg_mpi_flavor_name(flavor));
        return MG_EXIT_DATAERR;
    }
    if (mpi_version_of(flavor, version, sizeof version) == 0 && strcmp(version, d->version) != 0) {
        mg_log_error("%s was measured on %s %s, but the installed %s is %s: measure it again with "
                     "mpiguard collectives",
                     path, d->flavor, d->version, d->flavor, version);
        return MG_EXIT_DATAERR;
    }
    return 0;
}

int bounds_file_load(const char *path, mg_mpi_flavor flavor, bounds_file_doc *d)
{
    char err[1024];
    int rc = bounds_file_read(path, d, err, sizeof err);
    if (rc) {
        mg_log_error("%s", err);
        return rc == MG_ERROR_ENOENT ? MG_EXIT_NOINPUT : MG_EXIT_DATAERR;
    }
    int status = 0;
    for (size_t i = 0; i < d->n && !status; i++) {
        const bounds_file_entry *e = &d->entries[i];
        const char *unknown = unknown_name(e);
        if (unknown) {
            mg_log_error("%s: entry %zu is malformed (unknown %s \"%s\")", path, i, unknown,
                         strcmp(unknown, "form") == 0 ? e->form : e->collective);
            status = MG_EXIT_DATAERR;
        }
    }
    if (!status)
        status = other_mpi(path, flavor, d);
    if (status)
        bounds_file_free(d);
    return status;
}
