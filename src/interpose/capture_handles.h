/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* The capture module's table of the live groups, datatypes, ops and info objects a rank made,
 * each with the call that made it, so that those never freed are reported at MPI_Finalize: one
 * CHECK_EVENT_FN_HANDLE_LEAK record per kind and creation site, with the count (docs/check.md
 * "Lifecycles"). Communicators, windows and requests have records of their own, which the
 * detector follows. Needs no mpi.h. One MPI thread at a time. */
#ifndef MG_CAPTURE_HANDLES_H
#define MG_CAPTURE_HANDLES_H

#include <stddef.h>
#include <stdint.h>

#include "check_event.h"
#include "mpi_function_ids.h"

/* Sizes the table at MPI_Init. Errors: MG_ERROR_ENOMEM. */
int capture_handles_init(void);

/* The call `maker` in progress (its call site is interpose_call_site) returned a new handle of
 * `kind`, given by its address and size: a value MPI hands out again after a free is a new object.
 * A handle past the table's capacity is not tracked (logged once). */
void capture_handles_made(check_event_handle_kind kind, const void *handle, size_t size,
                          mpi_function_ids_fn maker);
/* The handle of `kind` was freed: it is no longer live. */
void capture_handles_freed(check_event_handle_kind kind, const void *handle, size_t size);
/* 1 when the handle of `kind` was freed since and MPI has not handed it out again (a copy the
 * program kept). */
int capture_handles_was_freed(check_event_handle_kind kind, const void *handle, size_t size);
/* Writes the CHECK_EVENT_FN_HANDLE_MADE record of such a freed handle's creation (nothing when it
 * was made past the table's room): just before the record that reports its use. */
void capture_handles_name_creation(check_event_handle_kind kind, const void *handle, size_t size);
/* Writes one CHECK_EVENT_FN_HANDLE_LEAK record per kind and creation site of the handles still
 * live, then empties the table: called at MPI_Finalize's entry, before the stream's last record. */
void capture_handles_report(void);

#endif
