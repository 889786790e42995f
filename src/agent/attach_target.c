/* What `--attach TARGET` names; see attach_target.h. */
#include "attach_target.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mg_error.h"
#include "mg_exit.h"
#include "mg_log.h"
#include "rank_scan.h"

/* Whether pid is mpiguard itself or one of its ancestors (its shell, init): never a job's launcher,
 * and stopping one would take down far more than a job. */
static int own_ancestor(long pid)
{
    for (long p = getpid(), steps = 0; p > 0 && steps < 4096; steps++) {
        if (p == pid)
            return 1;
        if (p == 1)
            return 0;
        char path[64], line[256];
        snprintf(path, sizeof path, "/proc/%ld/stat", p);
        FILE *f = fopen(path, "re");
        if (!f)
            return 0;
        char *close_paren = fgets(line, sizeof line, f) ? strrchr(line, ')') : NULL;
        fclose(f);
        if (!close_paren || sscanf(close_paren + 1, " %*c %ld", &p) != 1)
            return 0;
    }
    return 0;
}

/* Whether some rank process on this node carries SLURM_JOB_ID=id. */
static int slurm_job_here(const char *id)
{
    rank_scan_selector sel = {.slurm_job_id = id};
    rank_scan_proc *procs;
    size_t n = 0;
    if (rank_scan("/proc", &sel, &procs, &n) != MG_ERROR_OK)
        return 0;
    free(procs);
    return n > 0;
}

int attach_target_resolve(const char *target, int *is_pid, long *number, const char **id)
{
    int want_pid = strncmp(target, "pid:", 4) == 0, want_slurm = strncmp(target, "slurm:", 6) == 0;
    *id = target + (want_pid ? 4 : want_slurm ? 6 : 0);
    char *end;
    *number = strtol(*id, &end, 10);
    if (**id == '\0' || *end != '\0' || *number <= 0 || *number > INT_MAX) {
        mg_log_error(
            "--attach takes a launcher's pid or a Slurm job id (N, pid:N or slurm:N), not '%s'",
            target);
        return MG_EXIT_USAGE;
    }
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/%ld", *number);
    int pid_here = !want_slurm && access(proc, F_OK) == 0;
    int slurm_here = !want_pid && slurm_job_here(*id);
    if (pid_here && slurm_here && !want_pid) {
        mg_log_error("--attach %s: both process %s and Slurm job %s have ranks here; say which: "
                     "--attach pid:%s or --attach slurm:%s",
                     target, *id, *id, *id, *id);
        return MG_EXIT_USAGE;
    }
    if (!want_pid && !want_slurm && !pid_here && !slurm_here) {
        mg_log_error(
            "--attach %s: no process %s and no rank of Slurm job %s on this node to attach to",
            target, *id, *id);
        return MG_EXIT_NOINPUT;
    }
    *is_pid = want_pid || (pid_here && !slurm_here);
    if (*is_pid && own_ancestor(*number)) {
        mg_log_error(
            "--attach %s: process %ld is mpiguard's own %s, not a job's launcher; give the pid "
            "of mpirun, mpiexec or srun",
            target, *number, *number == getpid() ? "process" : "ancestor");
        return MG_EXIT_USAGE;
    }
    return 0;
}
