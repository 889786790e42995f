/* Internal to src/sampler: no other folder includes it (docs/architecture.md). */
/* The memory map of a process (/proc/PID/maps) as a sorted table of address ranges, each marked
 * whether it belongs to the MPI implementation. Spec: docs/design/hang.md "How it samples". */
#ifndef PROC_MAPS_H
#define PROC_MAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct proc_maps_entry {
    uint64_t start, end; /* [start, end) */
    const char *path;    /* mapped file or pseudo name ("[stack]"); NULL when anonymous */
    bool in_mpi;         /* the file's base name starts with one of the MPI library prefixes */
} proc_maps_entry;

/* Owns its entries, their path strings and a copy of the raw text. */
typedef struct proc_maps {
    proc_maps_entry *entries; /* sorted by start, non-overlapping (as the kernel lists them) */
    size_t count;
    char *text; /* the raw file contents, NUL-terminated */
    size_t text_len;
    char *storage; /* a second copy of text that the path strings point into */
} proc_maps;

/* Parses maps text (the /proc/PID/maps format). mpi_prefixes is a NULL-terminated list of base-name
 * prefixes (e.g. "libmpi.") that mark a mapping as part of MPI; NULL means none. On success *out
 * owns a copy of the text. Returns MG_ERROR_EINVAL for NULL arguments, MG_ERROR_EFORMAT when a line
 * is not a maps line, MG_ERROR_ENOMEM; *out is left unchanged on failure. Thread-safe, not
 * signal-safe. */
int proc_maps_parse(const char *text, size_t len, const char *const *mpi_prefixes, proc_maps **out);

/* Reads and parses /proc/PID/maps. Returns MG_ERROR_ENOENT when the process does not exist,
 * MG_ERROR_EPERM when the kernel refuses to show it, MG_ERROR_EIO on a failed read, or what
 * proc_maps_parse returns. */
int proc_maps_read(pid_t pid, const char *const *mpi_prefixes, proc_maps **out);

/* The entry whose range holds addr, or NULL. O(log n). The pointer lives as long as maps. */
const proc_maps_entry *proc_maps_find(const proc_maps *maps, uint64_t addr);

/* True when both tables were made from identical text (so nothing was mapped or unmapped). */
bool proc_maps_same(const proc_maps *a, const proc_maps *b);

/* Frees maps and everything it owns; NULL is accepted. */
void proc_maps_free(proc_maps *maps);

#endif
