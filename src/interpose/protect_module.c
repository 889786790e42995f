/* The "protect" module: protection of the collectives against scaling problems. At MPI_Init it
 * reads the safe bounds and the measured cost model (MPIGUARD_PROTECT_BOUNDS, the text file
 * `mpiguard protect` writes), the artificial bound (MPIGUARD_PROTECT_ARTIFICIAL) and a forced
 * workaround (MPIGUARD_PROTECT_WORKAROUND), whether the ranks agree on the plans of the irregular
 * collectives (MPIGUARD_PROTECT_AGREE), looks up the library's MPI-4 large-count collectives (W3,
 * and the plan calls for the application's own `_c` calls), then routes the collectives, and their
 * `_c` forms where mpi.h declares them, through protect_run (docs/design/collectives.md). Trouble
 * of its own turns the module off with one line; the job runs on. */
#include <string.h>
#include <stdlib.h>

#include "interpose_log.h"
#include "module.h"
#include "protect_bounds.h"
#include "protect_pmpi.h"
#include "protect_comm.h"
#include "protect_entry.h"
#include "protect_exec.h"
#include "protect_large.h"
#include "protect_pending.h"
#include "protect_run.h"
#include "protect_site.h"
#include "mg_env.h"

static int parse_force(const char *text, scaling_choice_workaround *out)
{
    static const char *const names[] = {"W3", "W2", "W1A", "W1B"};
    static const scaling_choice_workaround ws[] = {SCALING_CHOICE_WA_W3, SCALING_CHOICE_WA_W2,
                                                   SCALING_CHOICE_WA_W1A, SCALING_CHOICE_WA_W1B};
    *out = SCALING_CHOICE_WA_NONE;
    if (!text || !*text)
        return 0;
    for (size_t i = 0; i < sizeof ws / sizeof *ws; i++)
        if (strcmp(text, names[i]) == 0) {
            *out = ws[i];
            return 0;
        }
    return -1;
}

/* The bounds file names the MPI it was measured on; bounds of another library mean nothing here. */
static int same_mpi(const scaling_bounds *b)
{
    if (!b->mpi_impl[0])
        return 1;
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    if (PMPI_Get_library_version(version, &len) != MPI_SUCCESS)
        return 0;
    int ompi = strstr(version, "Open MPI") != NULL;
    int flavor_ok = strcmp(b->mpi_impl, ompi ? "openmpi" : "mpich") == 0;
    return flavor_ok && strstr(version, b->mpi_version) != NULL;
}

static int protect_init(const module_job *job)
{
    char err[512];
    scaling_params_default(&protect_run_cfg.params);
#ifdef MPICH_VERSION
    /* MPICH's Allgatherv costs more than its Allgather into a strided type (scaling_params.h);
     * a bounds file with measured costs says so for the installed library. */
    protect_run_cfg.params.allgather_block_stride = 1;
#endif
    if (parse_force(getenv(MG_ENV_PROTECT_WORKAROUND), &protect_run_cfg.force) != 0) {
        interpose_log("protect module off: unknown workaround ", getenv(MG_ENV_PROTECT_WORKAROUND));
        return -1;
    }
    /* A forced W1-A, W1-B or W3 changes every rank's side of the call: the ranks must agree. */
    const char *agree = getenv(MG_ENV_PROTECT_AGREE);
    protect_run_cfg.agree = (agree && strcmp(agree, "1") == 0) ||
                            protect_run_cfg.force == SCALING_CHOICE_WA_W1A ||
                            protect_run_cfg.force == SCALING_CHOICE_WA_W1B ||
                            protect_run_cfg.force == SCALING_CHOICE_WA_W3;
    if (protect_large_setup() == 0 && protect_run_cfg.force == SCALING_CHOICE_WA_W3 &&
        job->rank == 0) {
        /* The CLI refuses this (69); set by hand, the cost model chooses instead. */
        interpose_log("protect: W3 was asked for, but this MPI has no MPI-4 large-count "
                      "collectives (MPI_Gatherv_c, ...): the cost model chooses",
                      NULL);
    }
    if (protect_bounds_load(getenv(MG_ENV_PROTECT_BOUNDS), getenv(MG_ENV_PROTECT_ARTIFICIAL),
                            job->size, protect_run_cfg.tables, &protect_run_cfg.params, err,
                            sizeof err) != 0) {
        interpose_log("protect module off: ", err);
        return -1;
    }
    if (!same_mpi(&protect_run_cfg.tables[0][0][0])) {
        interpose_log("protect module off: the bounds file was measured on another MPI: ",
                      protect_run_cfg.tables[0][0][0].mpi_impl);
        return -1;
    }
    if (protect_comm_setup() != MPI_SUCCESS) {
        interpose_log("protect module off: cannot create its communicator attribute", NULL);
        return -1;
    }
    protect_run_watch_setup();
    protect_site_setup(getenv(MG_ENV_PROTECT_EVENTS), job->rank, job->size);
    protect_pending_setup();
    protect_entry_install();
    return 0;
}

static void protect_finalize(int aborting)
{
    (void)aborting;
    protect_entry_remove();
    protect_pending_finalize();
    protect_exec_finalize();
    protect_site_close();
}

const module protect_module = {
    .name = "protect",
    .init = protect_init,
    .finalize = protect_finalize,
};
