/* Call sites of check event records to function, file and line, with elfutils' libdwfl on the
 * rank's /proc/PID/maps while the rank lives (no ptrace: the rank is never stopped), or from an
 * object's file for a site given as object and offset; a line in the MPI's inlined C++ bindings
 * becomes the user's line that called them. Results are cached per (rank, address), so
 * each site costs one lookup. docs/design/check.md "How it is built". */
#ifndef MG_SITE_RESOLVER_H
#define MG_SITE_RESOLVER_H

#include <stdint.h>

typedef struct site_resolver site_resolver;

typedef struct site_resolver_info {
    const char *function; /* NULL when unknown */
    const char *file;     /* NULL when unknown (no debug information) */
    int line;             /* 0 when unknown */
    /* the address lies in the MPI's own C++ bindings (a function of theirs that was not inlined,
     * or their library), so the program's line is a frame further up; known for sites this
     * resolver resolved itself or was handed whole, 0 for ones read off an agent's stream */
    int in_mpi_binding;
    /* line is the declaration line of the procedure enclosing the address (its `program`,
     * `subroutine` or function statement), not a call's: gfortran 12 gives some calls that line
     * (docs/design/platform-notes.md, "gfortran 12's line table"), and the source did not show
     * which statement is the call's either, so the call's own line is unknown */
    int line_is_procedure;
} site_resolver_info;

/* Errors: MG_ERROR_ENOMEM. */
int site_resolver_create(site_resolver **out);
void site_resolver_destroy(site_resolver *r);
/* Opens the libdwfl session of process pid now, reading its /proc/PID/maps while it lives, so that
 * its call sites still resolve after it has exited (the modules are read from their files). */
void site_resolver_prepare(site_resolver *r, int pid);
/* Resolves the return address `addr` seen in rank `rank` (process pid), of a call of the MPI
 * function `called` ("MPI_Send"; NULL when unknown), which names the call's statement in a Fortran
 * source whose line table gave the call its procedure's line. The first lookup of a pair reads
 * the process; later ones hit the cache, also after the process ended. Returns 1 when this call
 * resolved the pair for the first time (the caller may forward it), 0 when cached. *out points
 * into the resolver and stays valid until destroy. A process that is gone leaves every field
 * unknown. */
int site_resolver_lookup(site_resolver *r, int rank, int pid, uint64_t addr, const char *called,
                         site_resolver_info *out);
/* Resolves a return address given as its offset from the start of the ELF object that held it
 * (dladdr's dli_fbase) and the object's path, read from the file: for sites reported after the
 * process is gone (the protection module's events), of a call of `called` as for
 * site_resolver_lookup. Cached per (object, offset); the return value and *out as for
 * site_resolver_lookup. A file that cannot be read leaves every field unknown. */
int site_resolver_lookup_object(site_resolver *r, const char *object, uint64_t offset,
                                const char *called, site_resolver_info *out);
/* Stores a site resolved elsewhere (another agent); site's strings are copied. Errors:
 * MG_ERROR_ENOMEM. */
int site_resolver_store(site_resolver *r, int rank, uint64_t addr, const site_resolver_info *site);
/* The cached site of (rank, addr), or 0 when never resolved. */
int site_resolver_cached(const site_resolver *r, int rank, uint64_t addr, site_resolver_info *out);

#endif
