/* What a tool's `--attach TARGET` names: the launcher of a running job or a Slurm job, checked
 * against what runs on this node (docs/cli.md, `mpiguard hang --attach`). */
#ifndef MG_ATTACH_TARGET_H
#define MG_ATTACH_TARGET_H

/* What --attach TARGET names: a launcher's pid (*is_pid, *number) or a Slurm job id (*id, pointing
 * into target). target: "pid:N", "slurm:N", or a bare N, which is a pid or a Slurm job id by what
 * exists here; a bare N that names both (Slurm's ids are small on a young cluster, and so are
 * pids) is refused rather than guessed, and so is mpiguard's own process or an ancestor of it.
 * Returns 0 or an exit status, having said why: 64 (MG_EXIT_USAGE), 66 (MG_EXIT_NOINPUT). */
int attach_target_resolve(const char *target, int *is_pid, long *number, const char **id);

#endif
