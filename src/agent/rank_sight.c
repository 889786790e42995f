/* Reading a rank's process for rank_observe (rank_sight.h). */
#include "rank_sight.h"

#include "mg_error.h"
#include "mpi_flavor.h"
#include "rank_scan.h"
#include "mg_env.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The MPI language-binding libraries a rank may map beside libmpi, by soname prefix. */
static const char *const binding_libraries[] = {
    "libmpi_mpifh", "libmpi_usempif08", "libmpi_usempi_ignore_tkr", /* Open MPI Fortran */
    "libmpi_cxx",   "libmpi_java",                                  /* Open MPI C++, Java */
    "libmpichfort", "libmpichcxx",                                  /* MPICH */
    NULL,
};

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static int is_binding(const char *base)
{
    for (const char *const *b = binding_libraries; *b; b++)
        if (strncmp(base, *b, strlen(*b)) == 0 &&
            (base[strlen(*b)] == '.' || base[strlen(*b)] == '-'))
            return 1;
    return 0;
}

/* Whether the colon- or space-separated list names the library (by path or by file name). */
static int list_names(const char *list, const char *library)
{
    const char *want = base_name(library);
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ": ");
        char entry[4096];
        snprintf(entry, sizeof entry, "%.*s", (int)n, p);
        if (n && strcmp(base_name(entry), want) == 0)
            return 1;
        p += n + (p[n] != '\0');
    }
    return 0;
}

static int read_maps(const char *proc_root, int pid, const char *library, rank_observe_sight *out)
{
    char path[256], line[4096];
    snprintf(path, sizeof path, "%s/%d/maps", proc_root, pid);
    FILE *f = fopen(path, "re");
    if (!f)
        return MG_ERROR_ENOENT;
    while (fgets(line, sizeof line, f)) {
        char *name = strchr(line, '/');
        if (!name)
            continue;
        name[strcspn(name, "\n")] = '\0';
        const char *base = base_name(name);
        out->library_mapped |= strcmp(base, base_name(library)) == 0;
        if (out->mapped_mpi == MG_MPI_FLAVOR_UNKNOWN)
            out->mapped_mpi = mpi_flavor_of_library(base);
        if (!out->binding[0] && is_binding(base))
            snprintf(out->binding, sizeof out->binding, "%s", base);
    }
    fclose(f);
    return MG_ERROR_OK;
}

/* Whether pid has another UTS namespace (a hostname of its own) than this process: unknown (a
 * made-up proc root, a process gone) reads as the same. */
static int other_node(const char *proc_root, int pid)
{
    char path[256], theirs[64], ours[64];
    snprintf(path, sizeof path, "%s/%d/ns/uts", proc_root, pid);
    ssize_t n = readlink(path, theirs, sizeof theirs - 1), m;
    if (n <= 0 || (m = readlink("/proc/self/ns/uts", ours, sizeof ours - 1)) <= 0)
        return 0;
    return n != m || memcmp(theirs, ours, (size_t)n) != 0;
}

/* Whether word, a path as pid was given it (relative to its working directory), names a regular
 * file that begins with "#!": a script. */
static int names_script(const char *proc_root, int pid, const char *word)
{
    char path[4096], head[2];
    if (!word[0] || word[0] == '-')
        return 0;
    if (word[0] == '/')
        snprintf(path, sizeof path, "%s", word);
    else
        snprintf(path, sizeof path, "%s/%d/cwd/%s", proc_root, pid, word);
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    struct stat st;
    int script = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
                 read(fd, head, sizeof head) == (ssize_t)sizeof head && memcmp(head, "#!", 2) == 0;
    if (fd >= 0)
        close(fd);
    return script;
}

/* Whether pid interprets a script: the kernel runs a #! file as "INTERPRETER [ARG] SCRIPT ...",
 * and a shell given one by name is "sh SCRIPT ...", so the script is its first or second word. */
static int runs_script(const char *proc_root, int pid)
{
    char path[256], cmdline[8192];
    snprintf(path, sizeof path, "%s/%d/cmdline", proc_root, pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n = fd >= 0 ? read(fd, cmdline, sizeof cmdline - 1) : -1;
    if (fd >= 0)
        close(fd);
    if (n <= 0)
        return 0;
    cmdline[n] = '\0';
    const char *word = cmdline + strlen(cmdline) + 1; /* past the program's own name */
    for (int k = 0; k < 2 && word < cmdline + n; k++, word += strlen(word) + 1)
        if (names_script(proc_root, pid, word))
            return 1;
    return 0;
}

/* How many processes of one rank deep a chain of wrappers is looked up. */
enum { WRAPPER_DEPTH = 8 };

/* Whether pid interprets a script, or a process of the same rank above it does: a wrapper the
 * launcher started, whose own commands (a sleep, a module load) are the deepest process of the
 * rank until it execs the program, and which rank_scan then follows. */
static int under_script(const char *proc_root, int pid)
{
    int rank, above, ppid;
    if (runs_script(proc_root, pid))
        return 1;
    if (rank_scan_identity(proc_root, pid, &rank, &ppid) != MG_ERROR_OK)
        return 0;
    for (int depth = 0; depth < WRAPPER_DEPTH && ppid > 1; depth++) {
        int parent = ppid;
        if (rank_scan_identity(proc_root, parent, &above, &ppid) != MG_ERROR_OK || above != rank)
            return 0;
        if (runs_script(proc_root, parent))
            return 1;
    }
    return 0;
}

int rank_sight_read(const char *proc_root, int pid, const char *library, rank_observe_sight *out)
{
    *out = (rank_observe_sight){0};
    int rc = rank_scan_environ_get(proc_root, pid, MG_ENV_PRELOAD, out->preload,
                                   sizeof out->preload);
    if (rc == MG_ERROR_ENOMEM)
        return rc;
    out->preload_set = rc == MG_ERROR_OK;
    out->preload_names_library = out->preload_set && list_names(out->preload, library);
    if ((rc = read_maps(proc_root, pid, library, out)) != MG_ERROR_OK)
        return rc;
    char exe[256];
    snprintf(exe, sizeof exe, "%s/%d/exe", proc_root, pid);
    if (mpi_flavor_linkage(exe, &out->static_binary, &out->binary_defines_mpi) != MG_ERROR_OK)
        return MG_ERROR_ENOENT;
    ssize_t n = readlink(exe, out->exe, sizeof out->exe - 1);
    out->exe[n > 0 ? n : 0] = '\0';
    out->script = under_script(proc_root, pid);
    out->other_node = other_node(proc_root, pid);
    out->read = 1;
    return MG_ERROR_OK;
}
