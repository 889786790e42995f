/* /proc scanning for rank processes (rank_scan.h). */
#include "rank_scan.h"

#include "mg_array.h"
#include "mg_error.h"
#include "mpi_flavor.h"
#include "mg_env.h"

#include <ctype.h>
#include <dirent.h>
#include <sched.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { ENVIRON_MAX = 1 << 20 };

typedef struct proc_entry {
    int pid, ppid;
    int rank, size;
    int maps_mpi;
} proc_entry;

static const char *const rank_variables[] = {MG_ENV_OMPI_RANK, MG_ENV_PMIX_RANK, MG_ENV_PMI_RANK,
                                             MG_ENV_SLURM_PROCID, NULL};
static const char *const size_variables[] = {MG_ENV_OMPI_SIZE, MG_ENV_PMI_SIZE, MG_ENV_SLURM_NTASKS,
                                             NULL};

static ssize_t read_file(const char *path, char *buf, size_t len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    size_t used = 0;
    ssize_t n;
    while (used < len && (n = read(fd, buf + used, len - used)) > 0)
        used += (size_t)n;
    close(fd);
    return (ssize_t)used;
}

static const char *environ_lookup(const char *env, size_t len, const char *name)
{
    size_t nlen = strlen(name);
    for (size_t i = 0; i < len;) {
        const char *entry = env + i;
        size_t elen = strnlen(entry, len - i);
        if (elen > nlen && strncmp(entry, name, nlen) == 0 && entry[nlen] == '=')
            return entry + nlen + 1;
        i += elen + 1;
    }
    return NULL;
}

/* Reads the environment of process pid into *env (malloc'd, ENVIRON_MAX + 1 bytes, the caller's
 * to free; a NUL after its end) and its length into *len (0 when the process is gone). Errors:
 * MG_ERROR_ENOMEM. */
static int read_environ(const char *proc_root, int pid, char **env, size_t *len)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%d/environ", proc_root, pid);
    if (!(*env = malloc(ENVIRON_MAX + 1)))
        return MG_ERROR_ENOMEM;
    ssize_t n = read_file(path, *env, ENVIRON_MAX);
    *len = n > 0 ? (size_t)n : 0;
    (*env)[*len] = '\0';
    return MG_ERROR_OK;
}

int rank_scan_environ_get(const char *proc_root, int pid, const char *name, char *value,
                          size_t valuelen)
{
    char *env;
    size_t len;
    if (read_environ(proc_root, pid, &env, &len) != MG_ERROR_OK)
        return MG_ERROR_ENOMEM;
    int rc = MG_ERROR_ENOENT;
    if (len > 0) {
        const char *v = environ_lookup(env, len, name);
        if (v) {
            snprintf(value, valuelen, "%s", v);
            rc = MG_ERROR_OK;
        }
    }
    free(env);
    return rc;
}

static int parse_int(const char *s, int *out)
{
    if (!s || !isdigit((unsigned char)*s))
        return 0;
    char *end;
    long v = strtol(s, &end, 10);
    if (*end != '\0' || v > 1 << 30)
        return 0;
    *out = (int)v;
    return 1;
}

/* The fields of /proc/PID/stat after the command name, which may hold spaces and parentheses: they
 * resume after the last ')'. NULL when the process does not exist. */
static const char *stat_fields(const char *proc_root, int pid, char *buf, size_t len)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%d/stat", proc_root, pid);
    ssize_t n = read_file(path, buf, len - 1);
    if (n <= 0)
        return NULL;
    buf[n] = '\0';
    const char *close_paren = strrchr(buf, ')');
    return close_paren && close_paren[1] == ' ' ? close_paren + 2 : NULL;
}

static int read_ppid(const char *proc_root, int pid)
{
    char buf[1024];
    const char *fields = stat_fields(proc_root, pid, buf, sizeof buf);
    int ppid;
    if (!fields || sscanf(fields, "%*c %d", &ppid) != 1)
        return -1;
    return ppid;
}

char rank_scan_process_state(int pid)
{
    char buf[1024];
    const char *fields = stat_fields("/proc", pid, buf, sizeof buf);
    return fields ? fields[0] : 0;
}

int rank_scan_cpu_time(int pid, int64_t *cpu_ns, int64_t *slices)
{
    char path[64], buf[128];
    snprintf(path, sizeof path, "/proc/%d/schedstat", pid);
    ssize_t n = read_file(path, buf, sizeof buf - 1);
    long long on_cpu, waited, count;
    *cpu_ns = *slices = -1;
    if (n <= 0)
        return MG_ERROR_ENOENT;
    buf[n] = '\0';
    if (sscanf(buf, "%lld %lld %lld", &on_cpu, &waited, &count) != 3 || on_cpu < 0 || count < 0)
        return MG_ERROR_ENOENT;
    *cpu_ns = on_cpu;
    *slices = count;
    return MG_ERROR_OK;
}

double rank_scan_cpu_share(size_t nranks)
{
    cpu_set_t allowed;
    long cpus = sched_getaffinity(0, sizeof allowed, &allowed) == 0 ? CPU_COUNT(&allowed)
                                                                    : sysconf(_SC_NPROCESSORS_ONLN);
    if (cpus < 1)
        cpus = 1;
    return nranks <= (size_t)cpus ? 1.0 : (double)cpus / (double)nranks;
}

static int maps_mpi_library(const char *proc_root, int pid)
{
    char path[256], line[1024];
    snprintf(path, sizeof path, "%s/%d/maps", proc_root, pid);
    FILE *f = fopen(path, "re");
    if (!f)
        return 0;
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        char *name = strchr(line, '/');
        if (name) {
            name[strcspn(name, "\n")] = '\0';
            found = mpi_flavor_of_library(name) != MG_MPI_FLAVOR_UNKNOWN;
        }
    }
    fclose(f);
    return found;
}

static int selected(const rank_scan_selector *sel, const char *env, size_t len)
{
    if (sel->token) {
        const char *v = environ_lookup(env, len, MG_ENV_JOB_TOKEN);
        const char *tree = sel->any_process ? environ_lookup(env, len, MG_ENV_JOB_TREE) : NULL;
        return (v && strcmp(v, sel->token) == 0) || (tree && strcmp(tree, sel->token) == 0);
    }
    if (sel->slurm_job_id) {
        const char *v = environ_lookup(env, len, MG_ENV_SLURM_JOB_ID);
        return v && strcmp(v, sel->slurm_job_id) == 0;
    }
    return 1; /* ancestry is checked once every parent is known */
}

static int first_int(const char *env, size_t len, const char *const *names, int *out)
{
    for (; *names; names++)
        if (parse_int(environ_lookup(env, len, *names), out))
            return 1;
    return 0;
}

int rank_scan_identity(const char *proc_root, int pid, int *rank, int *ppid)
{
    char *env;
    size_t len;
    if (read_environ(proc_root, pid, &env, &len) != MG_ERROR_OK)
        return MG_ERROR_ENOMEM;
    int found = len > 0 && first_int(env, len, rank_variables, rank);
    free(env);
    *ppid = found ? read_ppid(proc_root, pid) : -1;
    return *ppid >= 0 ? MG_ERROR_OK : MG_ERROR_ENOENT;
}

static int find_entry(const proc_entry *all, size_t n, int pid)
{
    for (size_t i = 0; i < n; i++)
        if (all[i].pid == pid)
            return (int)i;
    return -1;
}

static int is_ancestor(const proc_entry *all, size_t n, const int *ppid_of, int ancestor, int pid)
{
    /* ppid_of is indexed like `all`; walk up to init, bounded by n steps against cycles. */
    for (size_t steps = 0; steps <= n && pid > 1; steps++) {
        int i = find_entry(all, n, pid);
        if (i < 0)
            return 0;
        pid = ppid_of[i];
        if (pid == ancestor)
            return 1;
    }
    return 0;
}

static int by_rank(const void *a, const void *b)
{
    const rank_scan_proc *x = a, *y = b;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* Keeps one process per rank: the MPI one, and among those the deepest. */
static size_t deduplicate(proc_entry *c, size_t n, const proc_entry *all, size_t nall,
                          const int *ppid_of)
{
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        int replaced = 0, dropped = 0;
        for (size_t k = 0; k < kept; k++) {
            if (c[k].rank != c[i].rank)
                continue;
            int better = c[i].maps_mpi > c[k].maps_mpi ||
                         (c[i].maps_mpi == c[k].maps_mpi &&
                          is_ancestor(all, nall, ppid_of, c[k].pid, c[i].pid));
            if (better)
                c[k] = c[i];
            replaced = better;
            dropped = !better;
            break;
        }
        if (!replaced && !dropped)
            c[kept++] = c[i];
    }
    return kept;
}

/* Every process of proc_root but this one (all) and those the selector picks with a rank in their
 * environment, or without one for any_process (cand); both arrays the caller's to free, also on
 * failure. 0, MG_ERROR_EIO, MG_ERROR_ENOMEM. */
static int read_processes(const char *proc_root, const rank_scan_selector *sel, proc_entry **all,
                          size_t *nall, proc_entry **cand, size_t *ncand)
{
    DIR *dir = opendir(proc_root);
    if (!dir)
        return MG_ERROR_EIO;
    size_t cap_all = 0, cap_cand = 0;
    char *env = malloc(ENVIRON_MAX + 1);
    int rc = env ? MG_ERROR_OK : MG_ERROR_ENOMEM;
    int self = getpid();
    struct dirent *de;
    while (rc == MG_ERROR_OK && (de = readdir(dir)) != NULL) {
        int pid;
        if (!parse_int(de->d_name, &pid) || pid == self)
            continue;
        proc_entry e = {.pid = pid, .ppid = read_ppid(proc_root, pid), .rank = -1, .size = -1};
        if (e.ppid < 0)
            continue; /* vanished */
        if ((rc = mg_array_reserve((void **)all, &cap_all, *nall + 1, sizeof **all)) != MG_ERROR_OK)
            break;
        (*all)[(*nall)++] = e;
        char path[256];
        snprintf(path, sizeof path, "%s/%d/environ", proc_root, pid);
        ssize_t len = read_file(path, env, ENVIRON_MAX);
        if (len <= 0 || !selected(sel, env, (size_t)len) ||
            (!first_int(env, (size_t)len, rank_variables, &e.rank) && !sel->any_process))
            continue;
        first_int(env, (size_t)len, size_variables, &e.size);
        if ((rc = mg_array_reserve((void **)cand, &cap_cand, *ncand + 1, sizeof **cand)) !=
            MG_ERROR_OK)
            break;
        (*cand)[(*ncand)++] = e;
    }
    closedir(dir);
    free(env);
    return rc;
}

/* Keeps, at the front of cand, the candidates below the selector's ancestor (all of them without
 * one), one per rank; returns how many, or SIZE_MAX when out of memory. */
static size_t keep_ranks(const char *proc_root, const rank_scan_selector *sel,
                         const proc_entry *all, size_t nall, proc_entry *cand, size_t ncand)
{
    int *ppid_of = malloc((nall ? nall : 1) * sizeof *ppid_of);
    if (!ppid_of)
        return SIZE_MAX;
    for (size_t i = 0; i < nall; i++)
        ppid_of[i] = all[i].ppid;
    size_t kept = 0;
    for (size_t i = 0; i < ncand; i++) {
        if (sel->ancestor_pid && !is_ancestor(all, nall, ppid_of, sel->ancestor_pid, cand[i].pid))
            continue;
        cand[i].maps_mpi = maps_mpi_library(proc_root, cand[i].pid);
        cand[kept++] = cand[i];
    }
    if (!sel->any_process)
        kept = deduplicate(cand, kept, all, nall, ppid_of);
    free(ppid_of);
    return kept;
}

int rank_scan(const char *proc_root, const rank_scan_selector *sel, rank_scan_proc **out,
              size_t *count)
{
    *out = NULL;
    *count = 0;
    size_t nall = 0, ncand = 0;
    proc_entry *all = NULL, *cand = NULL;
    int rc = read_processes(proc_root, sel, &all, &nall, &cand, &ncand);
    size_t kept = rc == MG_ERROR_OK ? keep_ranks(proc_root, sel, all, nall, cand, ncand) : 0;
    if (kept == SIZE_MAX)
        rc = MG_ERROR_ENOMEM;
    rank_scan_proc *result = rc == MG_ERROR_OK ? malloc((kept ? kept : 1) * sizeof *result) : NULL;
    if (rc == MG_ERROR_OK && !result)
        rc = MG_ERROR_ENOMEM;
    if (rc == MG_ERROR_OK) {
        for (size_t i = 0; i < kept; i++)
            result[i] = (rank_scan_proc){
                .pid = cand[i].pid, .rank = cand[i].rank, .size = cand[i].size};
        qsort(result, kept, sizeof *result, by_rank);
        *out = result;
        *count = kept;
    }
    free(all);
    free(cand);
    return rc;
}
