/* Launcher recognition and command rewriting (launcher.h). Each launcher's options that take
 * values are listed so that the application word is found without guessing. */
#include "launcher.h"

#include "mg_error.h"
#include "mg_env.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Options taking one value; a "=" form ("--map-by=core") never consumes the next word. */
static const char *const openmpi_value_options[] = {"-n",
                                                    "-np",
                                                    "--n",
                                                    "--np",
                                                    "-c",
                                                    "-H",
                                                    "--host",
                                                    "-host",
                                                    "-hostfile",
                                                    "--hostfile",
                                                    "-machinefile",
                                                    "--machinefile",
                                                    "--map-by",
                                                    "-map-by",
                                                    "--rank-by",
                                                    "-rank-by",
                                                    "--bind-to",
                                                    "-bind-to",
                                                    "-x",
                                                    "--wdir",
                                                    "-wdir",
                                                    "--path",
                                                    "-path",
                                                    "--prefix",
                                                    "--output-filename",
                                                    "-output-filename",
                                                    "--timeout",
                                                    "-npernode",
                                                    "--npernode",
                                                    "-npersocket",
                                                    "--npersocket",
                                                    "--app",
                                                    "--cpus-per-proc",
                                                    "-cpus-per-proc",
                                                    "--cpu-set",
                                                    "-cpu-set",
                                                    "-am",
                                                    "--am",
                                                    "--tune",
                                                    "--personality",
                                                    "--preload-files",
                                                    "--stdin",
                                                    "-stdin",
                                                    "--rankfile",
                                                    "-rf",
                                                    NULL};
/* Options taking two values. */
static const char *const openmpi_pair_options[] = {"--mca", "-mca", "-gmca", "--gmca", NULL};
static const char *const hydra_value_options[] = {"-n",
                                                  "-np",
                                                  "-f",
                                                  "-hosts",
                                                  "-host",
                                                  "-hostfile",
                                                  "-machinefile",
                                                  "-genvlist",
                                                  "-envlist",
                                                  "-wdir",
                                                  "-configfile",
                                                  "-ppn",
                                                  "-bind-to",
                                                  "-map-by",
                                                  "-launcher",
                                                  "-launcher-exec",
                                                  "-bootstrap",
                                                  "-bootstrap-exec",
                                                  "-localhost",
                                                  "-rmk",
                                                  "-iface",
                                                  "-errfile-pattern",
                                                  "-outfile-pattern",
                                                  "-gpath",
                                                  "-path",
                                                  "-env-list",
                                                  "-genvnone-except",
                                                  NULL};
static const char *const hydra_pair_options[] = {"-genv", "-env", NULL};
static const char *const srun_value_options[] = {"-n",
                                                 "--ntasks",
                                                 "-N",
                                                 "--nodes",
                                                 "-c",
                                                 "--cpus-per-task",
                                                 "-p",
                                                 "--partition",
                                                 "-t",
                                                 "--time",
                                                 "-J",
                                                 "--job-name",
                                                 "-o",
                                                 "--output",
                                                 "-e",
                                                 "--error",
                                                 "-i",
                                                 "--input",
                                                 "-w",
                                                 "--nodelist",
                                                 "-x",
                                                 "--exclude",
                                                 "--mpi",
                                                 "--export",
                                                 "-D",
                                                 "--chdir",
                                                 "-A",
                                                 "--account",
                                                 "--mem",
                                                 "--mem-per-cpu",
                                                 "--ntasks-per-node",
                                                 "-m",
                                                 "--distribution",
                                                 "--cpu-bind",
                                                 "-q",
                                                 "--qos",
                                                 "--jobid",
                                                 "-C",
                                                 "--constraint",
                                                 "--gres",
                                                 "--het-group",
                                                 "-W",
                                                 "--wait",
                                                 NULL};
static const char *const no_options[] = {NULL};

const char *launcher_kind_name(launcher_kind kind)
{
    switch (kind) {
    case LAUNCHER_OPENMPI:
        return "Open MPI mpirun";
    case LAUNCHER_HYDRA:
        return "MPICH mpiexec (Hydra)";
    case LAUNCHER_SRUN:
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

int launcher_which(const char *name, char *out, size_t outlen)
{
    if (strchr(name, '/')) {
        if (access(name, X_OK) != 0)
            return MG_ERROR_ENOENT;
        if (!realpath(name, out))
            snprintf(out, outlen, "%s", name);
        return MG_ERROR_OK;
    }
    const char *path = getenv(MG_ENV_PATH);
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
            return MG_ERROR_OK;
        }
        p += len + (colon ? 1 : 0);
    }
    return MG_ERROR_ENOENT;
}

/* Debian installs the launchers behind alternatives; the resolved name says whose it is. Other
 * installations name them mpirun/mpiexec: then the launcher's own --version output decides. */
static int kind_from_name(const char *resolved, launcher_kind *kind)
{
    const char *base = strrchr(resolved, '/');
    base = base ? base + 1 : resolved;
    static const char *const openmpi_names[] = {"orterun", "mpirun.openmpi", "mpiexec.openmpi",
                                                "prterun", "prun",           NULL};
    static const char *const hydra_names[] = {"mpiexec.hydra", "mpiexec.mpich", "mpirun.mpich",
                                              NULL};
    if (in_list(openmpi_names, base)) {
        *kind = LAUNCHER_OPENMPI;
        return 1;
    }
    if (in_list(hydra_names, base)) {
        *kind = LAUNCHER_HYDRA;
        return 1;
    }
    if (strcmp(base, "srun") == 0) {
        *kind = LAUNCHER_SRUN;
        return 1;
    }
    return 0;
}

static int kind_from_version(const char *resolved, launcher_kind *kind)
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
            *kind = LAUNCHER_OPENMPI;
            found = 1;
        } else if (strstr(line, "HYDRA") || strstr(line, "Hydra")) {
            *kind = LAUNCHER_HYDRA;
            found = 1;
        }
    }
    pclose(p);
    return found;
}

static void option_tables(launcher_kind kind, const char *const **values, const char *const **pairs)
{
    *pairs = no_options;
    if (kind == LAUNCHER_OPENMPI) {
        *values = openmpi_value_options;
        *pairs = openmpi_pair_options;
    } else if (kind == LAUNCHER_HYDRA) {
        *values = hydra_value_options;
        *pairs = hydra_pair_options;
    } else {
        *values = srun_value_options;
    }
}

/* Index of the application word of the MPMD context starting at `from`, or -1. */
static int find_app(launcher_kind kind, char *const *command, int ncommand, int from)
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

/* The next word after i (0: the launcher itself) that is one of the launcher's own options,
 * stepping over the values of the option at i and over every application with its arguments (up
 * to the next MPMD ':'); ncommand when there is none. */
static int next_option_word(launcher_kind kind, char *const *command, int ncommand, int i)
{
    const char *const *values, *const *pairs;
    option_tables(kind, &values, &pairs);
    if (i > 0 && !strchr(command[i], '='))
        i += in_list(pairs, command[i]) ? 2 : in_list(values, command[i]) ? 1 : 0;
    while (++i < ncommand && command[i][0] != '-')
        if (strcmp(command[i], ":") != 0)
            while (i + 1 < ncommand && strcmp(command[i + 1], ":") != 0)
                i++;
    return i < ncommand ? i : ncommand;
}

/* Whether item ("NAME" or "NAME=VALUE", len bytes) names variable name; *value is then VALUE (len
 * *value_len) or NULL for a bare NAME. */
static int item_names(const char *item, size_t len, const char *name, const char **value,
                      size_t *value_len)
{
    size_t name_len = strlen(name);
    if (len < name_len || strncmp(item, name, name_len) != 0 ||
        (len > name_len && item[name_len] != '='))
        return 0;
    *value = len > name_len ? item + name_len + 1 : NULL;
    *value_len = len > name_len ? len - name_len - 1 : 0;
    return 1;
}

/* What one launcher option does to variable name in the ranks. */
typedef struct user_setting {
    int sets; /* 1 when the option sets name: to value, or the caller's value (NULL) */
    const char *value;
    size_t value_len;
    int environment; /* 1: passes the caller's environment; -1: passes none; 0: says nothing */
} user_setting;

/* Reads srun's --export list (ALL, NONE, NAME, NAME=VALUE, comma-separated) for name. */
static void read_export_list(const char *list, const char *name, user_setting *s)
{
    s->environment = -1; /* a list without ALL passes only what it names */
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        if (len == 3 && strncmp(p, "ALL", 3) == 0)
            s->environment = 1;
        else if (item_names(p, len, name, &s->value, &s->value_len))
            s->sets = 1;
        p += len + (p[len] == ',');
    }
}

/* What the launcher option at command[i] does to variable name. */
static user_setting option_setting(launcher_kind kind, char *const *command, int ncommand, int i,
                                   const char *name)
{
    user_setting s = {0};
    const char *w = command[i], *next = i + 1 < ncommand ? command[i + 1] : "";
    if (kind == LAUNCHER_OPENMPI) {
        s.sets = strcmp(w, "-x") == 0 &&
                 item_names(next, strlen(next), name, &s.value, &s.value_len);
    } else if (kind == LAUNCHER_HYDRA) {
        if ((strcmp(w, "-genv") == 0 || strcmp(w, "-env") == 0) && strcmp(next, name) == 0 &&
            i + 2 < ncommand) {
            s.sets = 1;
            s.value = command[i + 2];
            s.value_len = strlen(s.value);
        } else if (strcmp(w, "-genvlist") == 0 || strcmp(w, "-envlist") == 0) {
            for (const char *p = next; *p && !s.sets;) {
                size_t len = strcspn(p, ",");
                s.sets = len == strlen(name) && strncmp(p, name, len) == 0;
                p += len + (p[len] == ',');
            }
        } else if (strcmp(w, "-genvnone") == 0 || strcmp(w, "-envnone") == 0) {
            s.environment = -1;
        } else if (strcmp(w, "-genvall") == 0 || strcmp(w, "-envall") == 0) {
            s.environment = 1;
        }
    } else if (strncmp(w, "--export", 8) == 0 && (w[8] == '=' || w[8] == '\0')) {
        read_export_list(w[8] == '=' ? w + 9 : next, name, &s);
    }
    return s;
}

int launcher_user_value(const launcher *l, char *const *command, int ncommand, const char *name,
                        char *out, size_t outlen)
{
    user_setting last = {0};
    int environment = 1; /* every launcher here passes the caller's environment by default */
    for (int i = next_option_word(l->kind, command, ncommand, 0); i < ncommand;
         i = next_option_word(l->kind, command, ncommand, i)) {
        user_setting s = option_setting(l->kind, command, ncommand, i, name);
        if (s.sets)
            last = s;
        if (s.environment)
            environment = s.environment;
    }
    const char *value = NULL;
    size_t len = 0;
    if (last.sets && last.value) {
        value = last.value;
        len = last.value_len;
    } else if (last.sets || environment > 0) {
        value = getenv(name);
        len = value ? strlen(value) : 0;
    }
    if (!value)
        return 0;
    if (len >= outlen)
        return MG_ERROR_ERANGE;
    memcpy(out, value, len);
    out[len] = '\0';
    return 1;
}

/* The entries of an LD_PRELOAD list are separated by ':' or spaces (ld.so(8)). */
static const char preload_separators[] = ": ";

/* Whether entry (len bytes) names the same library as one of list's entries. */
static int preload_lists(const char *list, const char *entry, size_t len)
{
    char word[4096], resolved[4096], other[4096];
    snprintf(word, sizeof word, "%.*s", (int)len, entry);
    const char *key = realpath(word, resolved) ? resolved : word;
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, preload_separators);
        snprintf(other, sizeof other, "%.*s", (int)n, p);
        char other_resolved[4096];
        if (n && strcmp(key, realpath(other, other_resolved) ? other_resolved : other) == 0)
            return 1;
        p += n + (p[n] != '\0');
    }
    return 0;
}

int launcher_merge_preload(const char *first, const char *user, char *out, size_t outlen)
{
    size_t used = (size_t)snprintf(out, outlen, "%s", first);
    if (used >= outlen)
        return MG_ERROR_ERANGE;
    for (const char *p = user ? user : ""; *p;) {
        size_t n = strcspn(p, preload_separators);
        if (n && !preload_lists(out, p, n)) {
            used += (size_t)snprintf(out + used, outlen - used, "%s%.*s", *out ? ":" : "", (int)n,
                                     p);
            if (used >= outlen)
                return MG_ERROR_ERANGE;
        }
        p += n + (p[n] != '\0');
    }
    return MG_ERROR_OK;
}

static int check_app(const char *word, char *resolved, size_t len, char *err, size_t errlen)
{
    if (launcher_which(word, resolved, len) == MG_ERROR_OK)
        return MG_ERROR_OK;
    if (strchr(word, '/'))
        snprintf(err, errlen, "application '%s' does not exist or is not executable", word);
    else
        snprintf(err, errlen, "application '%s' was not found in PATH", word);
    return MG_ERROR_ENOENT;
}

int launcher_identify(char *const *command, int ncommand, launcher *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (ncommand < 1) {
        snprintf(err, errlen, "no launcher command after '--'");
        return MG_ERROR_EINVAL;
    }
    char found[4096];
    if (launcher_which(command[0], found, sizeof found) != MG_ERROR_OK) {
        snprintf(err, errlen, "launcher '%s' is not installed (not found in PATH)", command[0]);
        return MG_ERROR_ENOENT;
    }
    if (!realpath(found, out->path))
        snprintf(out->path, sizeof out->path, "%s", found);
    if (!kind_from_name(out->path, &out->kind) && !kind_from_name(command[0], &out->kind) &&
        !kind_from_version(out->path, &out->kind)) {
        snprintf(err, errlen,
                 "'%s' is not a launcher mpiguard knows; use mpirun/mpiexec of Open MPI, mpiexec "
                 "of MPICH, or srun (for a single process: mpiexec -n 1 %s)",
                 command[0], command[0]);
        return MG_ERROR_EUNSUPPORTED;
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
        return MG_ERROR_EINVAL;
    }
    if (out->kind == LAUNCHER_OPENMPI)
        out->flavor = MG_MPI_FLAVOR_OPENMPI;
    else if (out->kind == LAUNCHER_HYDRA)
        out->flavor = MG_MPI_FLAVOR_MPICH;
    else
        mpi_flavor_of_binary(out->app_path, &out->flavor);
    return MG_ERROR_OK;
}

mg_mpi_flavor launcher_job_flavor(const launcher *l, mg_mpi_flavor requested)
{
    return requested != MG_MPI_FLAVOR_UNKNOWN ? requested : l->flavor;
}

void launcher_free_argv(char **argv)
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

/* list (comma-separated NAME or NAME=VALUE items) without the items that name a variable of vars;
 * malloc'd, NULL when out of memory. */
static char *list_without(const char *list, const launcher_env_var *vars, int nvars)
{
    char *kept = malloc(strlen(list) + 1);
    if (!kept)
        return NULL;
    size_t used = 0;
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        int named = 0;
        for (int v = 0; v < nvars && !named; v++) {
            const char *value;
            size_t value_len;
            named = item_names(p, len, vars[v].name, &value, &value_len);
        }
        if (len && !named) {
            if (used)
                kept[used++] = ',';
            memcpy(kept + used, p, len);
            used += len;
        }
        p += len + (p[len] == ',');
    }
    kept[used] = '\0';
    return kept;
}

/* The words of the user's option at command[i] when it sets one of vars' variables by value or by
 * name (-x NAME[=V]: 2; -genv/-env NAME V: 3), 0 otherwise. */
static int setting_words(launcher_kind kind, char *const *command, int ncommand, int i,
                         const launcher_env_var *vars, int nvars)
{
    for (int v = 0; v < nvars; v++)
        if (option_setting(kind, command, ncommand, i, vars[v].name).sets)
            return kind == LAUNCHER_OPENMPI ? 2 : 3;
    return 0;
}

/* Copies command[1..] into argv from n on, leaving out the user's own settings of vars' variables
 * (Hydra's -genvlist/-envlist keep their other names, and go when none is left). Returns the new n.
 */
static int copy_without_settings(const launcher *l, char *const *command, int ncommand,
                                 const launcher_env_var *vars, int nvars, char **argv, int n)
{
    int option = next_option_word(l->kind, command, ncommand, 0);
    for (int i = 1; i < ncommand; i++) {
        if (i != option) {
            argv[n++] = strdup(command[i]);
            continue;
        }
        option = next_option_word(l->kind, command, ncommand, i);
        if (l->kind == LAUNCHER_HYDRA && i + 1 < ncommand &&
            (strcmp(command[i], "-genvlist") == 0 || strcmp(command[i], "-envlist") == 0)) {
            char *kept = list_without(command[i + 1], vars, nvars);
            if (kept && !*kept) {
                free(kept);
            } else {
                argv[n++] = strdup(command[i]);
                argv[n++] = kept;
            }
            i++;
            continue;
        }
        int words = setting_words(l->kind, command, ncommand, i, vars, nvars);
        if (words)
            i += words - 1;
        else
            argv[n++] = strdup(command[i]);
    }
    return n;
}

/* srun takes the variables in its --export list; a user's own --export is extended, not replaced.
 */
static int srun_export_index(char *const *command, int app_index)
{
    for (int i = 1; i < app_index; i++)
        if (strncmp(command[i], "--export", 8) == 0 &&
            (command[i][8] == '=' || command[i][8] == '\0'))
            return i;
    return -1;
}

char **launcher_build_argv(const launcher *l, char *const *command, int ncommand,
                           const launcher_env_var *vars, int nvars)
{
    char **argv = calloc((size_t)ncommand + 3 * (size_t)nvars + 2, sizeof *argv);
    if (!argv)
        return NULL;
    int n = 0, failed = 0;
    argv[n++] = strdup(command[0]);
    if (l->kind == LAUNCHER_SRUN) {
        int user_export = srun_export_index(command, l->app_index);
        const char *base = "ALL";
        if (user_export >= 0) {
            base = command[user_export][8] == '=' ? command[user_export] + 9
                                                  : command[user_export + 1];
            if (strcmp(base, "NONE") == 0)
                base = "";
        }
        char *list = list_without(base, vars, nvars);
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
            if (l->kind == LAUNCHER_OPENMPI) {
                argv[n++] = strdup("-x");
                argv[n++] = joined(vars[v].name, "=", vars[v].value);
            } else {
                argv[n++] = strdup("-genv");
                argv[n++] = strdup(vars[v].name);
                argv[n++] = strdup(vars[v].value);
            }
        }
        n = copy_without_settings(l, command, ncommand, vars, nvars, argv, n);
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
