/* Type matching of matched operations: a send against its receive (equal, legal longer receive,
 * truncation, mismatch with the first differing element), and the members of a collective
 * against the root or each peer, with reductions' op/type rules and MPI_IN_PLACE.
 * Pure functions over type_sig; spec: issue 28 item 1; design: docs/design/check-detector.md
 * §13. */
#ifndef TYPE_MATCH_H
#define TYPE_MATCH_H

#include <stddef.h>
#include <stdint.h>

#include "type_sig.h"

typedef enum type_match_verdict {
    TYPE_MATCH_EQUAL = 0, /* the same signature */
    TYPE_MATCH_PREFIX,    /* the receive is longer and starts with the send: legal */
    TYPE_MATCH_TRUNCATED, /* the receive is a shorter prefix of the send: MPI_ERR_TRUNCATE */
    TYPE_MATCH_MISMATCH   /* a basic type differs within the common length */
} type_match_verdict;

/* A buffer's description: count x type (type a type_sig id). */
typedef struct type_match_buffer {
    uint32_t type;
    int64_t count;
} type_match_buffer;

typedef struct type_match_result {
    uint8_t verdict;                 /* type_match_verdict */
    uint64_t send_elems, recv_elems; /* basic elements of each side (bytes under MPI_PACKED) */
    /* TYPE_MATCH_MISMATCH: the first differing element (0-based) and its basic type on each side */
    uint64_t position;
    uint32_t send_basic, recv_basic;
} type_match_result;

/* Compares the message a send describes with the receive that matched it (MPI 3.1 §3.3.1; the
 * MPI_PACKED rule below). Equal messages cost O(log count) (the two hashes); a mismatch is located
 * by binary search over prefix hashes, O(log(elements) x depth x log(parts)), never by expanding.
 * Errors: MG_ERROR_EINVAL (NULL argument, negative count), MG_ERROR_ENOENT (unknown type),
 * MG_ERROR_ERANGE (a message past 2^64 - 1 elements). */
int type_match_p2p(const type_sig_table *t, type_match_buffer send, type_match_buffer recv,
                   type_match_result *out);

/* Whether a reduction op applies to a type (a type_sig id): MPI 3.1 §5.9.2's table for builtin
 * ops, on predefined types only (pair types for MAXLOC/MINLOC); any type for user-defined ops,
 * REPLACE and NO_OP. Returns 1 or 0; 0 for an unknown type or op. */
int type_match_op_allowed(const type_sig_table *t, uint32_t op, uint32_t type);

/* One member's arguments to a collective, by local rank. Uniform forms use send and recv (one
 * peer's block where the collective moves one block per peer); V and W forms use sendv / recvv,
 * one entry per member, and the uniform field for the side that is not per peer. Bcast's buffer
 * is `send`. Arguments the standard says are not significant on a rank are not read. */
typedef struct type_match_member {
    uint8_t in_place; /* MPI_IN_PLACE was passed (as sendbuf; as recvbuf for Scatter/Scatterv) */
    type_match_buffer send, recv;
    const type_match_buffer *sendv, *recvv;
} type_match_member;

typedef enum type_match_problem {
    TYPE_MATCH_SIGNATURE = 1, /* sender's block vs receiver's block: result says how */
    TYPE_MATCH_IN_PLACE,      /* MPI_IN_PLACE where the standard does not allow it (sender) */
    TYPE_MATCH_OP_TYPE        /* the reduction op does not apply to the rank's type (sender) */
} type_match_problem;

typedef struct type_match_issue {
    uint8_t problem;          /* type_match_problem */
    int32_t sender, receiver; /* local ranks; receiver -1 for IN_PLACE and OP_TYPE */
    type_match_result result;
} type_match_issue;

/* Checks the signatures a collective's members passed: rooted forms each member against the root,
 * all-to-all and all-gather forms each pair (one reference for the uniform forms, where equality
 * is transitive; every pair for the V and W forms), reductions every member against the first
 * plus the op/type rule, and MPI_IN_PLACE where it is forbidden. `func` is a check_event_func
 * (blocking or nonblocking); Barrier and the neighbourhood collectives have nothing to check.
 * Writes up to `cap` issues in member order and the total count in *n_issues. O(size) for the
 * uniform forms, O(size^2) (the size of the input) for the V and W forms.
 * Errors: MG_ERROR_EINVAL (NULL argument, size 0, root out of range for a rooted form, a V or W
 * form without its arrays), MG_ERROR_EUNSUPPORTED (func is not a collective), and type_match_p2p's.
 */
int type_match_collective(const type_sig_table *t, uint16_t func, const type_match_member *members,
                          uint32_t size, int32_t root, uint32_t op, type_match_issue *issues,
                          size_t cap, size_t *n_issues);

#endif
