/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* What the protection module says, once per call site and collective: on stderr
 * ("mpiguard[rank]: protect: MPI_Gatherv at app+0x1234: detector D fired, workaround W1-B") and,
 * when the CLI asked for it (MPIGUARD_PROTECT_EVENTS, a directory), as one line per event in
 * the rank's events file in <dir> (protect_event.h) for the report (docs/report-schema.md, kinds
 * scaling_check_trigger, workaround).
 */
#ifndef MG_PROTECT_SITE_H
#define MG_PROTECT_SITE_H

#include "mpi_function_ids.h"

/* Opens the events file when dir is set; called once at init. */
void protect_site_setup(const char *dir, int rank, int size);
void protect_site_close(void);

/* Records an event at the current call site (interpose_call_site) once per (site, fn, kind): kind
 * is "workaround" (detectors like "D" or "GX", workaround "W1-B", eager 1 when a nonblocking call
 * was completed at once), "user_error" (detail says which entry and why) or "not_protected" (detail
 * says why). Thread-safe; never blocks. */
void protect_site_note(const char *kind, mpi_function_ids_fn fn, const char *detectors,
                       const char *workaround, int eager, const char *detail);

#endif
