/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* The capture module's communicator constructors (capture_ctor.c). */
#ifndef MG_CAPTURE_CTOR_H
#define MG_CAPTURE_CTOR_H

#include "capture_comm.h"
#include "check_event.h"

/* Points the hooks of the communicator constructors and Comm_free at the module. Called once from
 * the module's init. */
void capture_ctor_install(void);

/* The exit record of a constructor: the id of what it made (made NULL: MPI_COMM_NULL) and its
 * members as world ranks (local group, then remote group), in capture_emit_tmp.ranks. */
void capture_ctor_describe(check_event *ev, const capture_comm *made);

#endif
