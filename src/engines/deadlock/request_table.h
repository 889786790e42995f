/* Internal to src/engines/deadlock: no other folder includes it (docs/architecture.md). */
/* The live MPI requests of every rank: (rank, request id) -> what completing it waits for
 * (a point-to-point op, a collective slot, nothing) and, for persistent requests, what a Start
 * posts. Spec: docs/design/check.md "Requests and completions"; docs/design/check-detector.md
 * §5. */
#ifndef REQUEST_TABLE_H
#define REQUEST_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "key_map.h"
#include "p2p_match.h"

enum request_table_kind {
    REQUEST_TABLE_FREE = 0,
    REQUEST_TABLE_P2P,      /* completes with p2p op `op` */
    REQUEST_TABLE_COLL,     /* completes with slot `slot` of communicator `comm` */
    REQUEST_TABLE_DONE,     /* complete already (buffered send, Imrecv, PROC_NULL peer) */
    REQUEST_TABLE_INACTIVE, /* persistent, not started */
    REQUEST_TABLE_GREQ      /* generalized: complete once its MPI_Grequest_complete is fed
                               (REQUEST_TABLE_DONE) */
};

typedef struct request_table_entry {
    uint64_t id;
    int32_t rank;
    uint8_t kind; /* request_table_kind */
    uint8_t persistent;
    uint8_t is_send; /* persistent template: a send (else a receive) */
    /* op was posted by the call the rank is in, which MPI may still refuse (call_model.c): it is
     * referred to until that call's exit, a buffered send's too (REQUEST_TABLE_DONE) */
    uint8_t in_call;
    uint32_t op;          /* REQUEST_TABLE_P2P */
    uint32_t comm;        /* REQUEST_TABLE_COLL */
    uint64_t slot;        /* REQUEST_TABLE_COLL */
    p2p_match_post start; /* persistent: what Start posts */
    /* persistent: seq of its last Start held behind the rank's wait (0: none). A completion fed
     * after it names the incarnation that Start posts, not an op posted before (call_model.c). */
    uint64_t held_start;
    /* the call that made it, for lifecycle findings */
    uint16_t func;
    int32_t peer, tag;
    uint64_t comm_id, callsite;
    uint32_t next_free;
} request_table_entry;

typedef struct request_table {
    request_table_entry *reqs;
    size_t n, cap;
    uint32_t free_head;
    size_t live;
    key_map index; /* (rank, id) -> slot */
} request_table;

void request_table_init(request_table *rt);
void request_table_free(request_table *rt);
int request_table_clone(const request_table *src, request_table *dst);
/* Creates request (rank, id), zeroed except id/rank; *out points at it until the next add.
 * Errors: MG_ERROR_ESTATE (the id is live on that rank), MG_ERROR_ENOMEM. */
int request_table_add(request_table *rt, int32_t rank, uint64_t id, request_table_entry **out);
/* The live request (rank, id), or NULL. */
request_table_entry *request_table_find(request_table *rt, int32_t rank, uint64_t id);
/* Forgets a request found with request_table_find. */
void request_table_remove(request_table *rt, request_table_entry *req);

#endif
