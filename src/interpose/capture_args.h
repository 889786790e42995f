/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* The capture module's argument checks (usage_args.h, issue 28 item 2): a call with bad arguments
 * gets one entry record flagged CHECK_EVENT_FLAG_INVALID_ARGUMENTS (its problem in aux) instead of
 * its usual records, and still goes to MPI unchanged: MPI's error handler then decides, as without
 * mpiguard (docs/design/check-classes.md "Argument checks"). Needs mpi.h. One MPI thread at a
 * time. */
#ifndef MG_CAPTURE_ARGS_H
#define MG_CAPTURE_ARGS_H

#include <mpi.h>
#include "mpi_handles_weak.h"

#include <stdint.h>

#include "capture_comm.h"
#include "usage_args.h"

/* Writes, at the entry phase, the flagged entry record of a call with a problem: the peer (or
 * root), tag and count as the caller passed them, not translated (a bad rank has no world rank).
 * 1 when there is a problem (whatever the phase), 0 for USAGE_ARGS_OK (nothing written). */
int capture_args_reject(uint16_t fn, int phase, const capture_comm *c, usage_args_problem problem,
                        int peer, int tag, int64_t count);

/* Reads MPI_TAG_UB. */
void capture_args_init(void);

/* The roles of a point-to-point call's peer. */
enum capture_args_peer_role { CAPTURE_ARGS_TO = 0, CAPTURE_ARGS_FROM };

/* Checks a point-to-point call (c: comm's entry, NULL when unknown: then only MPI_COMM_NULL is
 * checked); 1 when its arguments are bad (the flagged record was written at the entry phase),
 * so the caller writes no other record for it. */
int capture_args_p2p(uint16_t fn, int phase, MPI_Comm comm, const capture_comm *c, const void *buf,
                     int64_t count, MPI_Datatype type, int peer, int tag, int role);

/* Checks a matched receive (Mrecv, Imrecv): its message handle, and its message as a point-to-point
 * receive's. As capture_args_p2p. */
int capture_args_mrecv(uint16_t fn, int phase, const void *buf, int64_t count, MPI_Datatype type,
                       const MPI_Message *message);

/* A datatype argument of a call with more than one: n counts (ints, or MPI_Counts: count_size
 * bytes each), each of types[i] (per_count) or all of types[0]. n 0: not significant here. */
typedef struct capture_args_typed {
    const void *counts;
    size_t count_size;
    const MPI_Datatype *types;
    int n, per_count;
} capture_args_typed;

/* The first problem of the datatype arguments typed[0..n), each type against each of its counts
 * (usage_args_check_type), or USAGE_ARGS_OK. O(counts). */
usage_args_problem capture_args_typed_check(const capture_args_typed *typed, int n);

/* Where the blocks of a capture_args_typed are: in buf, block i at displacement displs[i] (ints,
 * or MPI_Aints: displ_size bytes each), or at buf itself for a side of one block (displs NULL). */
typedef struct capture_args_place {
    const void *buf, *displs;
    size_t displ_size;
} capture_args_place;

/* As capture_args_typed_check, each block also against its count (usage_args_check_block: a
 * negative count; a block of a predefined type at displacement 0 of a NULL buffer starts at
 * NULL); places[k] says where typed[k]'s blocks are. O(counts), nothing allocated. */
usage_args_problem capture_args_blocks_check(const capture_args_typed *typed,
                                             const capture_args_place *places, int n);

/* Checks a collective: its communicator, its root (has_root) on an intracommunicator, the block
 * it describes (buf, count x type, the datatype argument checked like a point-to-point one's;
 * none: count 0 of MPI_DATATYPE_NULL; buf the buffer every member passes, or MPI_IN_PLACE), a
 * reduction's op (op_id, 0 for none; CAPTURE_EMIT_OP_FREED set for an op freed since) against
 * that type, and the datatype arguments of a shape without a common block (sides: NULL, or its
 * send and its receive side, as significant at this rank), with their blocks where places (NULL:
 * not read) says they are. As capture_args_p2p. */
int capture_args_coll(uint16_t fn, int phase, MPI_Comm comm, const capture_comm *c, int has_root,
                      int root, const void *buf, int64_t count, MPI_Datatype type, uint32_t op_id,
                      const capture_args_typed sides[2], const capture_args_place places[2]);

/* Checks the group argument of fn (Comm_create, Comm_create_group, Win_post, Win_start) on c
 * (NULL when unknown): 1 when it is a copy of a freed group's handle (the group_freed record was
 * written at the entry phase), so the caller must not read the group. */
int capture_args_group(uint16_t fn, int phase, const capture_comm *c, MPI_Group group);

#endif
