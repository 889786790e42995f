/* Launcher recognition and command rewriting (launcher.h). Each launcher's options that take
 * values are listed so that the application word is found without guessing. */
#include "launcher.h"

#include "mg_error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Options taking one value; a "=" form ("--map-by=core") never consumes the next word. */
static const char *const openmpi_value_options[] = {
    "-n", "-np", "--n", "--np", "-c", "-H", "--host", "-host", "-hostfile", "--hostfile",
    "-machinefile", "--machinefile", "--map-by", "-map-by", "--rank-by", "-rank-by", "--bind-to",
    "-bind-to", "-x", "--wdir", "-wdir", "--path", "-path", "--prefix", "--output-filename",
    "-output-filename", "--timeout", "-npernode", "--npernode", "-npersocket", "--npersocket",
    "--app", "--cpus-per-proc", "-cpus-per-proc", "--cpu-set", "-cpu-set", "-am", "--am",
    "--tune", "--personality", "--preload-files", "--stdin", "-stdin", "--rankfile", "-rf", NULL};
/* Options taking two values. */
static const char *const openmpi_pair_options[] = {"--mca", "-mca", "-gmca", "--gmca", NULL};
static const char *const hydra_value_options[] = {
    "-n", "-np", "-f", "-hosts", "-host", "-hostfile", "-machinefile", "-genvlist", "-envlist",
    "-wdir", "-configfile", "-ppn", "-bind-to", "-map-by", "-launcher", "-launcher-exec", "-rmk",
    "-iface", "-errfile-pattern", "-outfile-pattern", "-gpath", "-path", "-env-list", "-genvnone-except", NULL};
static const char *const hydra_pair_options[] = {"-genv", "-env", NULL};
static const char *const srun_value_options[] = {
    "-n", "--ntasks", "-N", "--nodes", "-c", "--cpus-per-task", "-p", "--partition", "-t",
    "--time", "-J", "--job-name", "-o", "--output", "-e", "--error", "-i", "--input", "-w",
    "--nodelist", "-x", "--exclude", "--mpi", "--export", "-D", "--chdir", "-A", "--account",
    "--mem", "--mem-per-cpu", "--ntasks-per-node", "-m", "--distribution", "--cpu-bind",
    "-q", "--qos", "--jobid", "-C", "--constraint", "--gres", "--het-group", "-W", "--wait", NULL};
static const char *const no_options[] = {NULL};

const char *mg_launcher_kind_name(mg_launcher_kind kind)
{
    switch (kind) {
    case MG_LAUNCHER_OPENMPI:
        return "Open MPI mpirun";
    case MG_LAUNCHER_HYDRA:
        return "MPICH mpiexec (Hydra)";
    case MG_LAUNCHER_SRUN:
        return "Slurm srun";
    }
    return "?";
}

static int in_list(const char *const *list, const char *word)
{
    for (; *list; list++)
        if (strcmp(*list, word) == 0)
            return 1;
    return 0;
}

int mg_launcher_which(const char *name, char *out, size_t outlen)
{
    if (strchr(name, '/')) {
        if (access(name, X_OK) != 0)
            return MG_ENOENT;
        if (!realpath(name, out))
            snprintf(out, outlen, "%s", name);
        return MG_OK;
    }
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/local/bin:/usr/bin:/bin";
    for (const char *p = path; *p;) {
        const char *colon = strchr(p, ':');
        size_t len = colon ? (size_t)(colon - p) : strlen(p);
        char candidate[4096];
        if (snprintf(candidate, sizeof candidate, "%.*s/%s", (int)len, len ? p : ".", name) <
                (int)sizeof candidate &&
            access(candidate, X_OK) == 0) {
            snprintf(out, outlen, "%s", candidate);
            return MG_OK;
        }
        p += len + (colon ? 1 : 0);
    }
    return MG_ENOENT;
}

/* Debian installs the launchers behind alternatives; the resolved name says whose it is. Other
 * installations name them mpirun/mpiexec: then the launcher's own --version output decides. */
static int kind_from_name(const char *resolved, mg_launcher_kind *kind)
{
    const char *base = strrchr(resolved, '/');
    base = base ? base + 1 : resolved;
    static const char *const openmpi_names[] = {"orterun", "mpirun.openmpi", "mpiexec.openmpi",
                                                "prterun", "prun", NULL};
    static const char *const hydra_names[] = {"mpiexec.hydra", "mpiexec.mpich", "mpirun.mpich",
                                              NULL};
    if (in_list(openmpi_names, base)) {
        *kind = MG_LAUNCHER_OPENMPI;
        return 1;
    }
    if (in_list(hydra_names, base)) {
        *kind = MG_LAUNCHER_HYDRA;
        return 1;
    }
    if (strcmp(base, "srun") == 0) {
        *kind = MG_LAUNCHER_SRUN;
        return 1;
    }
    return 0;
}

static int kind_from_version(const char *resolved, mg_launcher_kind *kind)
{
    const char *base = strrchr(resolved, '/');
    base = base ? base + 1 : resolved;
    if (strncmp(base, "mpirun", 6) != 0 && strncmp(base, "mpiexec", 7) != 0)
        return 0;
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "'%s' --version 2>&1", resolved);
    FILE *p = popen(cmd, "r");
    if (!p)
        return 0;
    char line[512];
    int found = 0;
    while (!found && fgets(line, sizeof line, p)) {
        if (strstr(line, "Open MPI") || strstr(line, "OpenRTE")) {
            *kind = MG_LAUNCHER_OPENMPI;
            found = 1;
        } else if (strstr(line, "HYDRA") || strstr(line, "Hydra")) {
            *kind = MG_LAUNCHER_HYDRA;
            found = 1;
        }
    }
    pclose(p);
    return found;
}

static void option_tables(mg_launcher_kind kind, const char *const **values,
                          const char *const **pairs)
{
    *pairs = no_options;
    if (kind == MG_LAUNCHER_OPENMPI) {
        *values = openmpi_value_options;
        *pairs = openmpi_pair_options;
    } else if (kind == MG_LAUNCHER_HYDRA) {
        *values = hydra_value_options;
        *pairs = hydra_pair_options;
    } else {
        *values = srun_value_options;
    }
}

/* Index of the application word of the MPMD context starting at `from`, or -1. */
static int find_app(mg_launcher_kind kind, char *const *command, int ncommand, int from)
{
    const char *const *values, *const *pairs;
    option_tables(kind, &values, &pairs);
    for (int i = from; i < ncommand; i++) {
        const char *w = command[i];
        if (strcmp(w, ":") == 0)
            return -1;
        if (w[0] != '-')
            return i;
        if (strchr(w, '='))
            continue;
        if (in_list(pairs, w))
            i += 2;
        else if (in_list(values, w))
            i += 1;
    }
    return -1;
}

static int check_app(const char *word, char *resolved, size_t len, char *err, size_t errlen)
{
    if (mg_launcher_which(word, resolved, len) == MG_OK)
        return MG_OK;
    if (strchr(word, '/'))
        snprintf(err, errlen, "application '%s' does not exist or is not executable", word);
    else
        snprintf(err, errlen, "application '%s' was not found in PATH", word);
    return MG_ENOENT;
}

int mg_launcher_identify(char *const *command, int ncommand, mg_launcher *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (ncommand < 1) {
        snprintf(err, errlen, "no launcher command after '--'");
        return MG_EINVAL;
    }
    char found[4096];
    if (mg_launcher_which(command[0], found, sizeof found) != MG_OK) {
        snprintf(err, errlen, "launcher '%s' is not installed (not found in PATH)", command[0]);
        return MG_ENOENT;
    }
    if (!realpath(found, out->path))
        snprintf(out->path, sizeof out->path, "%s", found);
    if (!kind_from_name(out->path, &out->kind) && !kind_from_name(command[0], &out->kind) &&
        !kind_from_version(out->path, &out->kind)) {
        snprintf(err, errlen,
                 "'%s' is not a launcher mpiguard knows; use mpirun/mpiexec of Open MPI, mpiexec "
                 "of MPICH, or srun (for a single process: mpiexec -n 1 %s)",
                 command[0], command[0]);
        return MG_EUNSUPPORTED;
    }
    out->app_index = -1;
    for (int from = 1; from < ncommand;) {
        int app = find_app(out->kind, command, ncommand, from);
        if (app < 0)
            break;
        char resolved[4096];
        int rc = check_app(command[app], resolved, sizeof resolved, err, errlen);
        if (rc)
            return rc;
        if (out->app_index < 0) {
            out->app_index = app;
            snprintf(out->app_path, sizeof out->app_path, "%s", resolved);
        }
        for (from = app + 1; from < ncommand && strcmp(command[from], ":") != 0; from++)
            ;
        from++;
    }
    if (out->app_index < 0) {
        snprintf(err, errlen, "no application found in the launcher command");
        return MG_EINVAL;
    }
    if (out->kind == MG_LAUNCHER_OPENMPI)
        out->flavor = MG_FLAVOR_OPENMPI;
    else if (out->kind == MG_LAUNCHER_HYDRA)
        out->flavor = MG_FLAVOR_MPICH;
    else
        mg_mpi_flavor_of_binary(out->app_path, &out->flavor);
    return MG_OK;
}

void mg_launcher_free_argv(char **argv)
{
    if (!argv)
        return;
    for (char **a = argv; *a; a++)
        free(*a);
    free(argv);
}

static char *joined(const char *a, const char *sep, const char *b)
{
    size_t len = strlen(a) + strlen(sep) + strlen(b) + 1;
    char *s = malloc(len);
    if (s)
        snprintf(s, len, "%s%s%s", a, sep, b);
    return s;
}

/* srun takes the variables in its --export list; a user's own --export is extended, not replaced. */
static int srun_export_index(char *const *command, int app_index)
{
    for (int i = 1; i < app_index; i++)
        if (strncmp(command[i], "--export", 8) == 0 &&
            (command[i][8] == '=' || command[i][8] == '\0'))
            return i;
    return -1;
}

char **mg_launcher_build_argv(const mg_launcher *l, char *const *command, int ncommand,
                              const mg_env_var *vars, int nvars)
{
    char **argv = calloc((size_t)ncommand + 3 * (size_t)nvars + 2, sizeof *argv);
    if (!argv)
        return NULL;
    int n = 0, failed = 0;
    argv[n++] = strdup(command[0]);
    if (l->kind == MG_LAUNCHER_SRUN) {
        int user_export = srun_export_index(command, l->app_index);
        const char *base = "ALL";
        if (user_export >= 0) {
            base = command[user_export][8] == '=' ? command[user_export] + 9
                                                  : command[user_export + 1];
            if (strcmp(base, "NONE") == 0)
                base = "";
        }
        char *list = strdup(base);
        for (int v = 0; v < nvars && list; v++) {
            char *pair = joined(vars[v].name, "=", vars[v].value);
            char *next = pair ? joined(list, *list ? "," : "", pair) : NULL;
            failed |= strchr(vars[v].value, ',') != NULL;
            free(pair);
            free(list);
            list = next;
        }
        argv[n++] = list ? joined("--export=", "", list) : NULL;
        free(list);
        for (int i = 1; i < ncommand; i++) {
            if (i == user_export) {
                if (command[i][8] == '\0')
                    i++;
                continue;
            }
            argv[n++] = strdup(command[i]);
        }
    } else {
        for (int v = 0; v < nvars; v++) {
            if (l->kind == MG_LAUNCHER_OPENMPI) {
                argv[n++] = strdup("-x");
                argv[n++] = joined(vars[v].name, "=", vars[v].value);
            } else {
                argv[n++] = strdup("-genv");
                argv[n++] = strdup(vars[v].name);
                argv[n++] = strdup(vars[v].value);
            }
        }
        for (int i = 1; i < ncommand; i++)
            argv[n++] = strdup(command[i]);
    }
    for (int i = 0; i < n; i++)
        failed |= argv[i] == NULL;
    if (failed) {
        for (int i = 0; i < n; i++)
            free(argv[i]);
        free(argv);
        return NULL;
    }
    return argv;
}
