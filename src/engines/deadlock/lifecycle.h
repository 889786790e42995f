/* Internal to src/engines/deadlock: no other folder includes it (docs/architecture.md). */
/* Lifecycles of a rank's MPI objects (issue 28 item 3): requests never completed by MPI_Finalize,
 * a persistent request started while active, communicators and windows never freed, the groups,
 * datatypes, ops and infos the capture module found unfreed at MPI_Finalize, messages never
 * received, a rank that ended without MPI_Finalize and one that called MPI after it, decided from
 * the record stream and reported as DL_FINDING_LIFECYCLE findings. Design:
 * docs/design/check-classes.md "Lifecycles". The state lives in the detector; a probing copy has
 * none (its hypothetical schedules must not report lifecycles). */
#ifndef LIFECYCLE_H
#define LIFECYCLE_H

#include <stdint.h>

#include "check_event.h"
#include "dl_finding.h"
#include "request_table.h"

typedef struct deadlock_detector deadlock_detector;
typedef struct lifecycle lifecycle;

/* A new, empty state, or NULL when out of memory (the detector then checks no lifecycle). */
lifecycle *lifecycle_create(void);
void lifecycle_destroy(lifecycle *lc);

/* The communicator ev->aux made by the constructor whose exit record is ev. Errors: MG_ERROR_ENOMEM
 * (that communicator is then not tracked). */
int lifecycle_comm_made(deadlock_detector *det, const check_event *ev);
/* rank freed its communicator comm. */
void lifecycle_comm_freed(deadlock_detector *det, int32_t rank, uint64_t comm);
/* The Start record ev names req, a persistent request that is already active: reported. */
int lifecycle_request_restarted(deadlock_detector *det, const check_event *ev,
                                const request_table_entry *req);
/* The CHECK_EVENT_FN_HANDLE_LEAK record ev (handles the rank never freed, of one kind and creation
 * site): reported as the leak of its kind. Errors: MG_ERROR_ENOMEM. */
int lifecycle_handles_leaked(deadlock_detector *det, const check_event *ev);
/* rank entered MPI_Finalize: its pending requests, unfreed communicators and windows are reported,
 * one finding per creation site with its count; after the last rank, the sends never received. */
int lifecycle_finalized(deadlock_detector *det, int32_t rank);
/* The record of a process that exits without MPI_Finalize (CHECK_EVENT_FN_EXIT; without a call
 * site, a return from main, the model passes the rank's last call instead): reported, once the
 * model has terminated the rank (call_model_terminate, which the model calls first). */
int lifecycle_exited(deadlock_detector *det, const check_event *ev);

/* The CHECK_EVENT_FN_AFTER_FINALIZE record ev (an MPI call the rank made after its MPI_Finalize):
 * reported. Errors: MG_ERROR_ENOMEM. */
int lifecycle_after_finalize(deadlock_detector *det, const check_event *ev);
/* 1 when ev is a record of an MPI call made after its rank's MPI_Finalize, which the model
 * analyses though the rank has ended (the only records that follow a Finalize). */
int lifecycle_call_too_late(const deadlock_detector *det, const check_event *ev);

/* Stable lower-case name of a problem ("request_not_completed", ...), the report's finding
 * kind; "unknown" for another value. */
const char *lifecycle_problem_name(uint32_t problem);

#endif
