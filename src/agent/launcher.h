/* The MPI launchers mpiguard understands (mpirun/mpiexec of Open MPI, mpiexec of MPICH's Hydra,
 * Slurm's srun): recognising one, finding the application words in its arguments, and rewriting the
 * command so that given environment variables reach every rank and no other process. */
#ifndef MG_LAUNCHER_H
#define MG_LAUNCHER_H

#include "mpi_flavor.h"

#include <stddef.h>

typedef enum mg_launcher_kind {
    MG_LAUNCHER_OPENMPI, /* mpirun/mpiexec/orterun of Open MPI: -x NAME=VALUE */
    MG_LAUNCHER_HYDRA,   /* mpiexec of MPICH: -genv NAME VALUE */
    MG_LAUNCHER_SRUN     /* srun: --export=ALL,NAME=VALUE */
} mg_launcher_kind;

typedef struct mg_launcher {
    mg_launcher_kind kind;
    char path[4096];          /* the launcher's resolved executable */
    mg_mpi_flavor flavor;     /* from the launcher; for srun, from the application */
    int app_index;            /* index in the command of the first application word */
    char app_path[4096];      /* that application, resolved through PATH */
} mg_launcher;

/* One variable to pass to the ranks. */
typedef struct mg_env_var {
    const char *name;
    const char *value;
} mg_env_var;

const char *mg_launcher_kind_name(mg_launcher_kind kind);

/* Recognises the launcher in command[0] and finds the application in its arguments (every MPMD
 * context is checked). Errors, with a message naming the word at fault in err:
 * MG_ENOENT (launcher not installed, or an application that does not exist or is not executable),
 * MG_EUNSUPPORTED (a program that is not a launcher mpiguard knows), MG_EINVAL (no application). */
int mg_launcher_identify(char *const *command, int ncommand, mg_launcher *out, char *err, size_t errlen);

/* Builds the command that runs the job with vars reaching every rank. Returns a NULL-terminated,
 * malloc'd argv whose strings are owned by it (free with mg_launcher_free_argv), or NULL when out of
 * memory or a value cannot be expressed for this launcher (a comma in a value for srun). */
char **mg_launcher_build_argv(const mg_launcher *l, char *const *command, int ncommand,
                              const mg_env_var *vars, int nvars);
void mg_launcher_free_argv(char **argv);

/* Resolves a program name through PATH like execvp does; writes the absolute path. MG_ENOENT when
 * it is not found or not executable. */
int mg_launcher_which(const char *name, char *out, size_t outlen);

#endif
