/* The MPI launchers mpiguard understands (mpirun/mpiexec of Open MPI, mpiexec of MPICH's Hydra,
 * Slurm's srun): recognising one, finding the application words in its arguments, and rewriting the
 * command so that given environment variables reach every rank and no other process. */
#ifndef MG_LAUNCHER_H
#define MG_LAUNCHER_H

#include "mpi_flavor.h"

#include <stddef.h>

typedef enum launcher_kind {
    LAUNCHER_OPENMPI, /* mpirun/mpiexec/orterun of Open MPI: -x NAME=VALUE */
    LAUNCHER_HYDRA,   /* mpiexec of MPICH: -genv NAME VALUE */
    LAUNCHER_SRUN     /* srun: --export=ALL,NAME=VALUE */
} launcher_kind;

typedef struct launcher {
    launcher_kind kind;
    char path[4096];      /* the launcher's resolved executable */
    mg_mpi_flavor flavor; /* from the launcher; for srun, from the application */
    int app_index;        /* index in the command of the first application word */
    char app_path[4096];  /* that application, resolved through PATH */
} launcher;

/* One variable to pass to the ranks. */
typedef struct launcher_env_var {
    const char *name;
    const char *value;
} launcher_env_var;

const char *launcher_kind_name(launcher_kind kind);

/* The job's MPI, as every tool chooses it: the one the user asked for (--mpi; UNKNOWN: none), else
 * the launcher's (for srun, its application's, l->flavor); MG_MPI_FLAVOR_UNKNOWN when neither
 * says. */
mg_mpi_flavor launcher_job_flavor(const launcher *l, mg_mpi_flavor requested);

/* Recognises the launcher in command[0] and finds the application in its arguments (every MPMD
 * context is checked). Errors, with a message naming the word at fault in err:
 * MG_ERROR_ENOENT (launcher not installed, or an application that does not exist or is not
 * executable), MG_ERROR_EUNSUPPORTED (a program that is not a launcher mpiguard knows),
 * MG_ERROR_EINVAL (no application). */
int launcher_identify(char *const *command, int ncommand, launcher *out, char *err, size_t errlen);

/* The value the user's own command gives variable name in the ranks, as the launcher would pass
 * it without mpiguard: the last setting of it by value (Open MPI -x NAME=V; Hydra -genv/-env NAME
 * V; srun --export=...,NAME=V), the caller's environment where an option passes it by name (-x
 * NAME; -genvlist/-envlist; --export=NAME) or where the launcher passes the environment (Open MPI
 * always, Hydra unless -genvnone/-envnone, srun with no --export or one holding ALL). Writes it
 * into out and returns 1; returns 0 when the ranks get none, MG_ERROR_ERANGE when it does not fit
 * in outlen. */
int launcher_user_value(const launcher *l, char *const *command, int ncommand, const char *name,
                        char *out, size_t outlen);

/* Writes into out (outlen bytes) the LD_PRELOAD list that loads first, then user's entries in their
 * order (user may be NULL), each library once: an entry naming the same file as an earlier one
 * (after realpath, where it resolves) is left out. Entries are separated by ':' or spaces, as the
 * dynamic loader reads them; out uses ':'. Returns 0, or MG_ERROR_ERANGE when out is too small. */
int launcher_merge_preload(const char *first, const char *user, char *out, size_t outlen);

/* Builds the command that runs the job with vars reaching every rank. A variable of vars that the
 * user's command also gives the ranks (launcher_user_value) is set once, to vars' value: the
 * user's own setting of it is left out (the caller merges what it keeps of the user's value into
 * vars, as mpiguard does with LD_PRELOAD). Returns a NULL-terminated, malloc'd argv whose strings
 * are owned by it (free with launcher_free_argv), or NULL when out of memory or a value cannot
 * be expressed for this launcher (a comma in a value for srun). */
char **launcher_build_argv(const launcher *l, char *const *command, int ncommand,
                           const launcher_env_var *vars, int nvars);
void launcher_free_argv(char **argv);

/* Resolves a program name through PATH like execvp does; writes the absolute path. MG_ERROR_ENOENT
 * when it is not found or not executable. */
int launcher_which(const char *name, char *out, size_t outlen);

#endif
