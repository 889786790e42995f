/* Internal to src/engines/deadlock: no other folder includes it (docs/architecture.md). */
/* Collective matching per communicator in O(1) per call: the k-th collective of every member of a
 * communicator belongs to slot k; each arrival is compared with the slot's first call (kind,
 * blocking vs nonblocking, root, op, the block's type signature), and the calls that agreed are
 * kept until the slot has a finding, so a mismatch names every caller whatever the order of
 * arrival. Spec: docs/design/check.md "Collective matching"; design: docs/design/check-detector.md
 * §4. */
#ifndef COLL_MATCH_H
#define COLL_MATCH_H

#include <stddef.h>
#include <stdint.h>

#include "dl_finding.h"

#define COLL_MATCH_NONE UINT32_MAX
/* A slot's mismatch finding the detector holds while MPI may still refuse one of its calls
 * (coll_findings.h): the slot keeps its agreeing calls meanwhile. */
#define COLL_MATCH_HELD (UINT32_MAX - 1)

/* One member's collective call. */
typedef struct coll_match_call {
    int32_t rank;  /* world rank */
    uint16_t func; /* check_event_func */
    int32_t root;  /* world rank, for rooted collectives */
    uint32_t op;
    int64_t count;
    /* the block every member must describe alike, as the record carries it; period 0: not
     * compared */
    uint64_t type_hash, type_elems, type_period;
    uint64_t callsite;
    uint64_t seq; /* of its entry record: whether MPI may still refuse the call */
} coll_match_call;

typedef struct coll_match_entry {
    coll_match_call first; /* the first arrival: the reference the others are compared with */
    /* Later arrivals that agreed with first, while finding is COLL_MATCH_NONE or COLL_MATCH_HELD
     * (up to the matcher's `keep`; room for min(size - 1, keep) is taken at the first one). */
    coll_match_call *agreed;
    uint32_t n_agreed;
    uint32_t arrived;
    /* the detector's finding for a mismatch in this slot, COLL_MATCH_HELD, or COLL_MATCH_NONE */
    uint32_t finding;
} coll_match_entry;

typedef struct coll_match_comm {
    uint32_t *issued; /* per local rank: collectives issued so far */
    uint32_t size;
    coll_match_entry *slots; /* ring of the open slots base, base+1, ... */
    size_t head, n, cap;
    uint64_t base; /* slot number of the oldest open slot */
    /* the slot completed last (slot base - 1; arrived 0: none), with its agreed calls, read
     * through coll_match_arrival.ref, and opened again when MPI refuses the call that completed it
     */
    coll_match_entry retired;
} coll_match_comm;

typedef struct coll_match {
    coll_match_comm *comms; /* indexed like comm_table */
    size_t n, cap;
    uint32_t keep; /* agreeing calls kept per slot */
} coll_match;

/* The outcome of one arrival. */
typedef struct coll_match_arrival {
    uint64_t slot;     /* slot number of the call */
    int complete;      /* the slot (and every older one) is now complete */
    unsigned mismatch; /* dl_finding_mismatch bits against slot->first; 0 when it agrees */
    const coll_match_entry *ref; /* the slot; valid until the next call on this communicator */
} coll_match_arrival;

/* keep: agreeing calls a slot keeps for its finding (the detector's mismatch_ranks - 2). */
void coll_match_init(coll_match *cm, uint32_t keep);
void coll_match_free(coll_match *cm);
int coll_match_clone(const coll_match *src, coll_match *dst);
/* Records that local rank `local` of communicator `comm` (size members) issued call; a call that
 * agrees with the slot's first is kept while the slot has no finding. Errors:
 * MG_ERROR_EINVAL (local >= size, size changed), MG_ERROR_ENOMEM (nothing recorded). */
int coll_match_arrive(coll_match *cm, uint32_t comm, uint32_t size, uint32_t local,
                      const coll_match_call *call, coll_match_arrival *out);
/* MPI refused the collective of local rank `local` (world rank `rank`), its latest arrival on comm,
 * in slot k: the arrival is withdrawn, so that the rank's next collective fills slot k. If the
 * refused call was the slot's reference, the first call that agreed with it becomes the
 * reference (with none, it stays: the others' calls were compared with it). A slot that arrival
 * completed (the last completed one) is opened again, with its other members arrived, and
 * *reopened is 1. Errors: MG_ERROR_EINVAL (k is not local's latest arrival, or a slot completed
 * before the last one), MG_ERROR_ENOMEM (nothing changed). */
int coll_match_withdraw(coll_match *cm, uint32_t comm, uint32_t local, int32_t rank, uint64_t k,
                        int *reopened);
/* MPI refused the call of world rank `refused` in slot k of comm (withdrawn already) while the
 * slot's mismatch finding was held: the slot has no finding again, and calls (n: the calls that
 * finding listed but the refused one, the slot's first and agreeing ones among them) are compared
 * again. If the refused call was still the reference (none agreed with it), calls[0] becomes the
 * reference; a call that agrees with the reference and is not kept yet is kept (room permitting);
 * mismatch[i] gets call i's dl_finding_mismatch bits (0: it agrees). Errors: MG_ERROR_EINVAL (slot
 * k is not open), MG_ERROR_ENOMEM (mismatch filled, some agreeing calls not kept). */
int coll_match_recompare(coll_match *cm, uint32_t comm, uint64_t k, int32_t refused,
                         const coll_match_call *calls, uint32_t n, unsigned *mismatch);
/* 1 when slot k of comm is complete (every member arrived). */
int coll_match_complete(const coll_match *cm, uint32_t comm, uint64_t k);
/* Collectives issued so far by local rank `local` of comm: a member is missing from slot k when
 * this is <= k. */
uint32_t coll_match_issued(const coll_match *cm, uint32_t comm, uint32_t local);
/* Slot k of comm while its finding may still be set: open, or the last completed one; else
 * NULL. */
coll_match_entry *coll_match_find(coll_match *cm, uint32_t comm, uint64_t k);
/* The open slot k of comm, or NULL when complete or not yet opened. */
coll_match_entry *coll_match_slot(coll_match *cm, uint32_t comm, uint64_t k);

#endif
