/* The root of the tree of detectors answering the stages below (docs/design/check-detector.md §14):
 * it notes each record fed to the root's deadlock detector whose stage waits for an answer
 * (tbon_leaf_awaits_answer) and tells when the detector's model left that call, so the stage
 * below lets the rank's later records go on (tbon_leaf_completed). No MPI, no I/O. Not
 * thread-safe. */
#ifndef TBON_ROOT_H
#define TBON_ROOT_H

#include <stddef.h>
#include <stdint.h>

#include "deadlock_detector.h"
#include "tbon_leaf.h"

typedef struct tbon_root tbon_root;

/* Answers for a job of world_size ranks. Errors: MG_ERROR_EINVAL, MG_ERROR_ENOMEM. */
int tbon_root_create(int32_t world_size, tbon_root **out);
/* NULL is accepted. */
void tbon_root_destroy(tbon_root *root);

/* Notes that leaf (0, 1, ...) streams the n world ranks ranks[]: its share, any set (a node's
 * ranks, round robin or in a block). The root trusts a whole view only once every rank is claimed
 * (tbon_root_unclaimed). Errors: MG_ERROR_EINVAL (a rank outside the world, a negative leaf),
 * MG_ERROR_ESTATE (a rank another leaf claimed: *clash gets it, the claim is not taken),
 * MG_ERROR_ENOMEM. */
int tbon_root_claim(tbon_root *root, int32_t leaf, const int32_t *ranks, int32_t n, int32_t *clash);
/* The ranks no leaf claimed; *first (may be NULL) gets the lowest of them, -1 when none. */
int32_t tbon_root_unclaimed(const tbon_root *root, int32_t *first);
/* The leaf that claimed rank, -1 for none (or a rank outside the world). */
int32_t tbon_root_owner(const tbon_root *root, int32_t rank);

/* Notes a record (decoded; fed to the detector already, or skipped by it) that came up from a
 * stage below. Errors:
 * MG_ERROR_EINVAL (a rank outside the world), MG_ERROR_ENOMEM. */
int tbon_root_note(tbon_root *root, const check_event *ev);
/* Per rank of the world: the sequence number of the last record noted (0: none), what the
 * root has of the rank against what the rank published (check_policy_readings.seen). Valid while
 * the root lives. */
const uint64_t *tbon_root_seen(const tbon_root *root);
/* The noted calls the detector's model has left by now, each once: *out (the module's array,
 * valid until the next call into it) gets *n of them. Errors: MG_ERROR_ENOMEM. */
int tbon_root_answers(tbon_root *root, const deadlock_detector *det, const tbon_leaf_call **out,
                      size_t *n);

#endif
