/* Internal to src/cli: no other folder includes it (docs/architecture.md). */
/* The culprit of a communication hang with its chain of evidence (docs/hang.md "The culprit"):
 * gathers per rank what the culprit search of the hang engine (hang_culprit.h) needs, from the
 * verdict's last scan, the rank's stack and what it published (rank_state.h), runs it, and puts
 * the result in words and in the report. */
#ifndef MG_HANG_EVIDENCE_H
#define MG_HANG_EVIDENCE_H

#include "cli.h"
#include "hang_facts.h"

/* Fills *out for rank r of js (hang_facts_rank) from seen, its stack st (possibly empty) and its
 * published state, and adds "waits_for" to its report entry (entry, borrowed) when the state says
 * what it waits for. */
void hang_evidence_rank(const job_session *js, int r, const struct hang_facts_seen *seen,
                        const rank_stack *st, struct hang_culprit_rank *out, json_object *entry);

/* Runs the culprit search over the n = js->nranks ranks of facts, with functions[r] each rank's
 * MPI function as the roll-call names it. On a culprit: writes the chain of evidence to chain
 * ("ranks 5,7 wait on rank 6 (...); rank 6 is stopped (state T) inside MPI_Waitall"), the culprit
 * ranks to culprits (n of room) and their count to *nculprits, and returns the report's "culprit"
 * object (the caller owns it). Without one (or when the search fails: out of memory), chain is ""
 * and *nculprits 0, and it returns NULL. */
json_object *hang_evidence_conclude(const job_session *js, const struct hang_culprit_rank *facts,
                                    const char *const *functions, char *chain, size_t chain_len,
                                    int *culprits, size_t *nculprits);

#endif
