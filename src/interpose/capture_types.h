/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* The capture module's datatypes: each type's signature (type_sig) computed once when a
 * constructor returns it, so that a record gets its message's signature from one table lookup and
 * O(log count) arithmetic, whatever the depth of the type (docs/design/check-detector.md §13).
 * Needs mpi.h. One MPI thread at a time. */
#ifndef MG_CAPTURE_TYPES_H
#define MG_CAPTURE_TYPES_H

#include <mpi.h>
#include "mpi_handles_weak.h"

#include <stdint.h>

#include "check_event.h"
#include "usage_args.h"

/* Builds the table of the predefined types. Errors: MG_ERROR_ENOMEM. */
int capture_types_init(void);
/* Points the library's type constructor hooks at the module's observers. */
void capture_types_install(void);
/* Sets ev's type_hash, type_elems, type_period and CHECK_EVENT_FLAG_TYPE_UNIFORM for count x type;
 * leaves type_period 0 (not compared) for a type the module does not know, MPI_PACKED (which
 * matches by size, not by signature) and a negative count. */
void capture_types_describe(check_event *ev, MPI_Datatype type, int64_t count);

/* What the module knows of type for the argument checks (usage_args.h). */
usage_args_type_state capture_types_state(MPI_Datatype type);
/* 1 when the reduction op (capture_emit_op_id's numbering, type_match_op) is defined for type, or
 * when the module does not know the type (not checked). */
int capture_types_op_allowed(uint32_t op, MPI_Datatype type);
/* 1 for a predefined type (a NULL buffer cannot be an MPI_BOTTOM-relative one with it). */
int capture_types_predefined(MPI_Datatype type);

#endif
