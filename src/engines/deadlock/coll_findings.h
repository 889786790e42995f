/* Internal to src/engines/deadlock: no other folder includes it (docs/architecture.md). */
/* Collective mismatch findings: made as the calls of a slot arrive (coll_match.h), and held until
 * MPI can no longer refuse any call they list, as a refused call took no part: its finding is then
 * dropped and the slot's other calls compared again. docs/design/check-detector.md §4. */
#ifndef COLL_FINDINGS_H
#define COLL_FINDINGS_H

#include "coll_match.h"
#include "detector_state.h"

/* Lists call, the arrival `arr` on communicator index comm (id comm_id), in its slot's mismatch
 * finding: the first disagreeing arrival makes one (held) with the calls before it (the first
 * and those that agreed with it), later arrivals join it whether they agree or not (up to
 * mismatch_ranks calls), so its ranks do not depend on the order of arrival. Errors:
 * MG_ERROR_ENOMEM (the call not listed). */
int coll_findings_arrive(deadlock_detector *det, uint32_t comm, uint64_t comm_id,
                         const coll_match_arrival *arr, const coll_match_call *call);
/* MPI refused world rank's call in slot k of comm, withdrawn from it (coll_match_withdraw): a
 * finding held for the slot is dropped, and the calls it listed but rank's are compared again,
 * making a new one if some still disagree. Errors: MG_ERROR_ENOMEM. */
int coll_findings_refused(deadlock_detector *det, uint32_t comm, uint64_t k, int32_t rank);
/* How long after its last call arrived a held finding whose calls are still inside MPI is taken as
 * accepted by an analysis: a refusal returns at once, and a mismatch may well hang inside MPI. */
#define COLL_FINDINGS_REFUSAL_NS 1000000000ULL

/* Reports the held findings none of whose calls MPI can refuse any more (each call's exit read, or
 * its rank gone on or ended), in the order they were made; at an analysis at `now` (`analysis`:
 * made at a whole view, every record of a rank inside a call read) also those whose last call
 * arrived COLL_FINDINGS_REFUSAL_NS before or longer (an analysis between a call's entry and the
 * exit of its refusal keeps holding them). Errors: MG_ERROR_ENOMEM (that one dropped). */
int coll_findings_release(deadlock_detector *det, int analysis, uint64_t now);
/* When an analysis would report a finding still held (the earliest), 0 when none is held. */
uint64_t coll_findings_due(const deadlock_detector *det);

#endif
