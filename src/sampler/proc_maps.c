/* The memory map of a process as a sorted table of ranges marked MPI or not.
 * Spec: docs/design/hang.md "How it samples" (addresses inside the MPI library's mappings). */
#include "proc_maps.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mg_array.h"
#include "mg_error.h"

/* First read size for /proc/PID/maps; an MPI rank's map is 20-40 KiB, so one doubling at most. */
enum { MAPS_INITIAL_BUFFER = 32768 };

static bool has_mpi_prefix(const char *path, const char *const *prefixes)
{
    if (!path || !prefixes || path[0] != '/') {
        return false;
    }
    const char *base = strrchr(path, '/') + 1;
    for (size_t i = 0; prefixes[i]; i++) {
        if (strncmp(base, prefixes[i], strlen(prefixes[i])) == 0) {
            return true;
        }
    }
    return false;
}

/* Parses one NUL-terminated line in place (the path is cut out of the line's storage). */
static int parse_line(char *line, const char *const *prefixes, proc_maps_entry *e)
{
    uint64_t start, end, offset, inode;
    char perms[8];
    int consumed = -1;
    if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %*x:%*x %" SCNu64 "%n", &start, &end,
               perms, &offset, &inode, &consumed) != 5 ||
        consumed < 0 || end < start) {
        return MG_ERROR_EFORMAT;
    }
    char *path = line + consumed;
    while (*path == ' ' || *path == '\t') {
        path++;
    }
    e->start = start;
    e->end = end;
    e->path = *path ? path : NULL;
    e->in_mpi = has_mpi_prefix(e->path, prefixes);
    return MG_ERROR_OK;
}

static int entry_cmp(const void *a, const void *b)
{
    const proc_maps_entry *x = a, *y = b;
    return (x->start > y->start) - (x->start < y->start);
}

static int parse_lines(proc_maps *m, const char *const *prefixes)
{
    size_t lines = 0;
    for (size_t i = 0; i < m->text_len; i++) {
        lines += m->text[i] == '\n';
    }
    lines += m->text_len > 0 && m->text[m->text_len - 1] != '\n';
    m->entries = calloc(lines ? lines : 1, sizeof *m->entries);
    if (!m->entries) {
        return MG_ERROR_ENOMEM;
    }
    char *save = NULL;
    for (char *line = strtok_r(m->storage, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        int rc = parse_line(line, prefixes, &m->entries[m->count]);
        if (rc) {
            return rc;
        }
        m->count++;
    }
    qsort(m->entries, m->count, sizeof *m->entries, entry_cmp);
    return MG_ERROR_OK;
}

int proc_maps_parse(const char *text, size_t len, const char *const *mpi_prefixes, proc_maps **out)
{
    if (!text || !out) {
        return MG_ERROR_EINVAL;
    }
    proc_maps *m = calloc(1, sizeof *m);
    if (!m) {
        return MG_ERROR_ENOMEM;
    }
    m->text = malloc(len + 1);
    m->storage = malloc(len + 1);
    if (!m->text || !m->storage) {
        proc_maps_free(m);
        return MG_ERROR_ENOMEM;
    }
    memcpy(m->text, text, len);
    m->text[len] = '\0';
    memcpy(m->storage, text, len);
    m->storage[len] = '\0';
    m->text_len = len;
    int rc = parse_lines(m, mpi_prefixes);
    if (rc) {
        proc_maps_free(m);
        return rc;
    }
    *out = m;
    return MG_ERROR_OK;
}

static int errno_to_mg(int err)
{
    if (err == ENOENT || err == ESRCH) {
        return MG_ERROR_ENOENT;
    }
    if (err == EACCES || err == EPERM) {
        return MG_ERROR_EPERM;
    }
    return MG_ERROR_EIO;
}

/* Reads the whole file into a malloc'd buffer (proc files have no size, so grow until EOF). */
static int read_all(int fd, char **buf_out, size_t *len_out)
{
    size_t cap = MAPS_INITIAL_BUFFER, len = 0;
    char *buf = malloc(cap);
    if (!buf) {
        return MG_ERROR_ENOMEM;
    }
    for (;;) {
        if (len == cap) {
            int rc = mg_array_reserve((void **)&buf, &cap, cap + 1, 1);
            if (rc != MG_ERROR_OK) {
                free(buf);
                return rc;
            }
        }
        ssize_t n = read(fd, buf + len, cap - len);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            int rc = errno_to_mg(errno);
            free(buf);
            return rc;
        }
        if (n == 0) {
            break;
        }
        len += (size_t)n;
    }
    *buf_out = buf;
    *len_out = len;
    return MG_ERROR_OK;
}

int proc_maps_read(pid_t pid, const char *const *mpi_prefixes, proc_maps **out)
{
    if (pid <= 0 || !out) {
        return MG_ERROR_EINVAL;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return errno_to_mg(errno);
    }
    char *buf = NULL;
    size_t len = 0;
    int rc = read_all(fd, &buf, &len);
    close(fd);
    if (rc) {
        return rc;
    }
    /* A process that has exited (a zombie) shows an empty map. */
    rc = len == 0 ? MG_ERROR_ENOENT : proc_maps_parse(buf, len, mpi_prefixes, out);
    free(buf);
    return rc;
}

const proc_maps_entry *proc_maps_find(const proc_maps *maps, uint64_t addr)
{
    if (!maps) {
        return NULL;
    }
    size_t lo = 0, hi = maps->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const proc_maps_entry *e = &maps->entries[mid];
        if (addr < e->start) {
            hi = mid;
        } else if (addr >= e->end) {
            lo = mid + 1;
        } else {
            return e;
        }
    }
    return NULL;
}

bool proc_maps_same(const proc_maps *a, const proc_maps *b)
{
    return a && b && a->text_len == b->text_len && memcmp(a->text, b->text, a->text_len) == 0;
}

void proc_maps_free(proc_maps *maps)
{
    if (!maps) {
        return;
    }
    free(maps->entries);
    free(maps->text);
    free(maps->storage);
    free(maps);
}
