/* Every environment variable mpiguard sets or reads, by name: the one list, in the manner of Lua's
 * luaconf.h. A variable is a format between processes like the others in src/wire: code spells
 * it through these names only, so a search for one finds every writer and reader.
 *
 * Each entry: what it means; who sets it -> who reads it. "CLI" is the mpiguard command,
 * "library" the interposition library inside the ranks (src/interpose). */
#ifndef MG_ENV_H
#define MG_ENV_H

/* ---- Set by the CLI for every rank of a job (through the launcher: -x, -genv, --export). ---- */

/* The job's random token: names its shared-memory segments and rings, and marks its ranks so
 * that they are found in /proc on any node (docs/architecture.md, "One job, start to end").
 * CLI -> library (state, capture), rank discovery (src/agent/rank_scan.c), the concolic runtime. */
#define MG_ENV_JOB_TOKEN "MPIGUARD_JOB_TOKEN"
/* The job's token again, set by the CLI in its launcher's own environment (src/agent/job.c), so
 * that every process the launcher starts and that keeps its environment carries it: Hydra's
 * hydra_pmi_proxy and Open MPI's orted, which have no rank variable and are not ranks, and a
 * wrapper around a rank. CLI -> the search for a job's leftover processes (rank_scan.h). */
#define MG_ENV_JOB_TREE "MPIGUARD_JOB_TREE"
/* The modules to start at MPI_Init, ':'-separated ("state:protect"). CLI -> library. */
#define MG_ENV_MODULES "MPIGUARD_MODULES"
/* Whether a value of MG_ENV_MODULES (list; ',' separates too, but srun's --export cannot carry a
 * comma; NULL: none) names the module: read by the library to start it and by the CLI to preload
 * what it needs. */
int mg_env_module_listed(const char *list, const char *name);
/* The host whose ranks leave their state segment at MPI_Finalize for the CLI to read after the
 * job. CLI -> library (state module). */
#define MG_ENV_STATE_KEEP_HOST "MPIGUARD_STATE_KEEP_HOST"
/* "1": the state module also publishes what each blocking call waits for, for hang's culprit; not
 * for `run`, whose protect module needs the Wait/Test observers. CLI (hang) -> library. */
#define MG_ENV_STATE_WAITS "MPIGUARD_STATE_WAITS"
/* Data bytes of each event ring (a power of two >= 4 KiB; default EVENT_RING_DEFAULT_BYTES).
 * User or tests -> library (capture module). */
#define MG_ENV_RING_BYTES "MPIGUARD_RING_BYTES"
/* "0": the capture module takes no checksums of send buffers in flight
 * (docs/design/check-classes.md "Buffers in flight"), so that their cost can be measured side by
 * side (bench/check/overhead.sh). User or bench -> library (capture module). */
#define MG_ENV_CHECK_BUFFERS "MPIGUARD_CHECK_BUFFERS"

/* ---- Set by the CLI for its agents only (docs/hang.md, "Many nodes"). ---- */

/* The run's secret, 64 hex digits: an agent proves with it that the run started it
 * (agent_proto.h, AUTH). Only in the environment, never on a command line (`ps` shows those to
 * every user of a node). CLI -> `mpiguard agent` (through the agent launcher: -x NAME for Open
 * MPI; Hydra and srun pass the environment on). */
#define MG_ENV_AGENT_SECRET "MPIGUARD_AGENT_SECRET"
/* Milliseconds a leaf of the tree of detectors waits on a quiet input before it sends up what it
 * holds, instead of its default (agent_stage.c): a hidden knob for tests and bench/check, which
 * show that the verdict does not hang on it. Tests or bench -> `mpiguard agent stage`. */
#define MG_ENV_LEAF_QUIET_MS "MPIGUARD_LEAF_QUIET_MS"

/* ---- mpiguard protect (docs/collectives.md): CLI -> library (protect module). ---- */

/* The safe-bounds text file (src/interpose/protect_bounds.h). */
#define MG_ENV_PROTECT_BOUNDS "MPIGUARD_PROTECT_BOUNDS"
/* The artificial bound of --bound: "<form> <limit> [int|large|all]". */
#define MG_ENV_PROTECT_ARTIFICIAL "MPIGUARD_PROTECT_ARTIFICIAL"
/* A workaround forced by --workaround instead of the engine's choice. */
#define MG_ENV_PROTECT_WORKAROUND "MPIGUARD_PROTECT_WORKAROUND"
/* Set (to 1) by --agree: the irregular collectives' ranks agree before a workaround. */
#define MG_ENV_PROTECT_AGREE "MPIGUARD_PROTECT_AGREE"
/* The directory where each rank writes the events of the protected calls. */
#define MG_ENV_PROTECT_EVENTS "MPIGUARD_PROTECT_EVENTS"

/* ---- mpiguard concolic (docs/concolic.md): CLI -> the concolic runtime (src/concolic_rt). ---- */

/* The run's directory, where each rank writes its path log. */
#define MG_ENV_CONCOLIC_DIR "MPIGUARD_CONCOLIC_DIR"
/* The file of the inputs to mark (mpiguard_mark_input). */
#define MG_ENV_CONCOLIC_INPUTS "MPIGUARD_CONCOLIC_INPUTS"
/* The iteration's number, written into its path logs. */
#define MG_ENV_CONCOLIC_RUN_ID "MPIGUARD_CONCOLIC_RUN_ID"
/* Set: the runtime keeps every branch in the log (no reduction; an ablation). */
#define MG_ENV_CONCOLIC_NO_REDUCE "MPIGUARD_CONCOLIC_NO_REDUCE"

/* ---- mpiguard hang --on-hang exec:CMD (docs/hang.md): CLI -> the user's command. ---- */

/* The report's path (when --report was given). */
#define MG_ENV_REPORT "MPIGUARD_REPORT"
/* The faulty ranks as a rank list ("0,3-5"). */
#define MG_ENV_FAULTY_RANKS "MPIGUARD_FAULTY_RANKS"
/* The launcher's process id. */
#define MG_ENV_LAUNCHER_PID "MPIGUARD_LAUNCHER_PID"

/* ---- Read from the user's environment. ---- */

/* Where the interposition libraries are, instead of <bin>/../lib (docs/building.md). -> CLI. */
#define MG_ENV_LIBDIR "MPIGUARD_LIBDIR"
/* The MPI of mpiguard-cc, "openmpi" or "mpich", instead of the one MPICC names. -> mpiguard-cc. */
#define MG_ENV_MPI "MPIGUARD_MPI"

/* ---- Set by others, read by mpiguard. ---- */

/* The preload list: set by the CLI for the ranks (the library first), read from /proc to tell a
 * rank whose launcher replaced it (src/agent/rank_sight.c). */
#define MG_ENV_PRELOAD "LD_PRELOAD"
/* A rank's number and the world's size, as each launcher publishes them (platform-notes:
 * Open MPI, PMIx, Hydra's PMI, Slurm). Read from /proc by rank discovery and by the concolic
 * runtime before MPI_Init. */
#define MG_ENV_OMPI_RANK "OMPI_COMM_WORLD_RANK"
#define MG_ENV_OMPI_SIZE "OMPI_COMM_WORLD_SIZE"
#define MG_ENV_PMIX_RANK "PMIX_RANK"
#define MG_ENV_PMI_RANK "PMI_RANK"
#define MG_ENV_PMI_SIZE "PMI_SIZE"
#define MG_ENV_SLURM_PROCID "SLURM_PROCID"
#define MG_ENV_SLURM_NTASKS "SLURM_NTASKS"
/* How many ranks of the job run on the rank's node (Open MPI, Hydra): a node agent waits for as
 * many before its leaf's share is known (src/agent/check_agent_proc.c). */
#define MG_ENV_OMPI_LOCAL_SIZE "OMPI_COMM_WORLD_LOCAL_SIZE"
#define MG_ENV_HYDRA_LOCAL_SIZE "MPI_LOCALNRANKS"
/* Slurm's layout of a step, as srun gives it to each task: the tasks of every node of the step in
 * its compressed form ("2(x3),1": 2 on each of nodes 0-2, 1 on node 3), the step's nodes in that
 * order as a hostlist ("n[1-3,5]"), and the task's node by name. -> a node agent, as the local
 * sizes above (never SLURM_TASKS_PER_NODE: the job's, which a step may use part of). The node's
 * place is its name's in the step's list, not SLURM_NODEID, whose "relative node ID" the manual
 * leaves relative to either the job or the step (srun 22.05 gives the step's; a batch script,
 * and what it starts, the job's). */
#define MG_ENV_SLURM_STEP_TASKS_PER_NODE "SLURM_STEP_TASKS_PER_NODE"
#define MG_ENV_SLURM_STEP_NODELIST "SLURM_STEP_NODELIST"
#define MG_ENV_SLURMD_NODENAME "SLURMD_NODENAME"
/* The tasks on node (from 0) of a value of SLURM_STEP_TASKS_PER_NODE: MG_ERROR_OK and *tasks,
 * MG_ERROR_ERANGE for a node past the list, MG_ERROR_EFORMAT for anything but comma-separated "N"
 * or "N(xM)" with N, M positive. */
int mg_env_slurm_node_tasks(const char *tasks_per_node, int node, int *tasks);
/* The place (from 0) of the host named node in a hostlist such as SLURM_STEP_NODELIST's: names and
 * prefix[ranges]suffix entries, comma-separated, a range "N" or "N-M" numbered with its first
 * bound's digits (n[08-10]: n08 n09 n10). MG_ERROR_OK and *index; MG_ERROR_ENOENT when node is not
 * listed; MG_ERROR_EFORMAT for a malformed list, or one with several bracketed parts in an entry
 * (not of a Linux cluster's Slurm), read whole before an answer; MG_ERROR_EINVAL for NULL or an
 * empty name. */
int mg_env_slurm_node_index(const char *nodelist, const char *node, int *index);
/* The Slurm job of a rank: marks ranks of the same job under srun. -> rank discovery. */
#define MG_ENV_SLURM_JOB_ID "SLURM_JOB_ID"
/* The MPI compiler mpiguard-cc wraps. -> mpiguard-cc. */
#define MG_ENV_MPICC "MPICC"
/* Open MPI's consent to run as root and past one rank per core: set (unless already set) by
 * `mpiguard demo` for its own jobs -> Open MPI's launcher. */
#define MG_ENV_OMPI_ALLOW_ROOT "OMPI_ALLOW_RUN_AS_ROOT"
#define MG_ENV_OMPI_ALLOW_ROOT_CONFIRM "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"
#define MG_ENV_OMPI_OVERSUBSCRIBE "OMPI_MCA_rmaps_base_oversubscribe"
/* The fence algorithm of Slurm's mpi/pmix: `ring`, set by every tool that starts an Open MPI job
 * through srun unless the user gives the ranks a value (job_session.c says why) -> the step's
 * slurmstepds. */
#define MG_ENV_SLURM_PMIX_FENCE "SLURM_PMIX_FENCE"
/* Where a launcher named without a path is searched. -> launcher identification. */
#define MG_ENV_PATH "PATH"
/* Where mpiguard-cc keeps its temporary files. -> mpiguard-cc. */
#define MG_ENV_TMPDIR "TMPDIR"

#endif
