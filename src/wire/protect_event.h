/* One event of the protection module, as it crosses from a rank to the CLI: the line a rank
 * appends to its events file in <dir> (MPIGUARD_PROTECT_EVENTS) once per call site, collective and
 * kind, which `mpiguard protect` and `mpiguard run` read back into the report's findings
 * (docs/report-schema.md, kinds scaling_check_trigger and workaround); and the sentence that both
 * the rank's own stderr line and the finding's summary say of it. */
#ifndef MG_PROTECT_EVENT_H
#define MG_PROTECT_EVENT_H

#include <stddef.h>
#include <stdint.h>

typedef struct protect_event {
    const char *kind;       /* "workaround", "user_error" or "not_protected" */
    const char *function;   /* "MPI_Gatherv" */
    const char *site;       /* "object+0xoffset", the object by its absolute path, or an address */
    const char *detectors;  /* a workaround's: "D", "GX"; else NULL ("-" on the line) */
    const char *workaround; /* "W1-B"; else NULL */
    int eager;              /* a nonblocking call completed at once */
    const char *detail;     /* why (user_error, not_protected); else NULL */
} protect_event;

/* The name of a rank's events file, "rank-<rank>-of-<size>-pid-<pid>.txt": made at MPI_Init, so
 * that the CLI knows every rank the protection ran in, even one that ended before a scan saw it.
 * Returns what snprintf returns. */
int protect_event_file_name(char *out, size_t len, int rank, int size, int pid);
/* Reads such a name. Returns 0, or -1 when name is not one. */
int protect_event_file_take(const char *name, int *rank, int *size, int *pid);
/* The line of ev, tab-separated, with its newline: "kind function site detectors workaround eager
 * detail". Returns what snprintf returns. */
int protect_event_put(char *out, size_t len, const protect_event *ev);
/* Reads a line of protect_event_put, splitting it in place; the fields point into line. Returns 0,
 * or -1 when it is not such a line (a line cut short by a rank that died while writing it). */
int protect_event_take(char *line, protect_event *ev);
/* What ev says, its site named `label`: "MPI_Gatherv at app.c:12: detector D fired, workaround
 * W1-B (nonblocking call completed eagerly)", or "MPI_Gatherv at app.c:12: <detail>". */
void protect_event_summary(const protect_event *ev, const char *label, char *out, size_t len);
/* 1 when ev says a workaround served the call (else the call was left unprotected). */
int protect_event_used(const protect_event *ev);
/* The object and offset of a site "object+0xoffset" (the last "+0x" starts the offset): the
 * object's path, NUL-terminated, into object. Returns 0, or -1 when site names no object by an
 * absolute path (a bare address) or the path takes len or more. */
int protect_event_site_object(const char *site, char *object, size_t len, uint64_t *offset);
/* How a line names a site whose source line is not known: "object+0xoffset" with the object's
 * file name alone; a bare address as it is. Points into site. */
const char *protect_event_site_short(const char *site);

#endif
