/* Internal to src/engines/deadlock: no other folder includes it (docs/architecture.md). */
/* The communicators the detector knows: id -> dense index, members as world ranks, and the
 * world-rank -> local-rank lookup collective matching needs (docs/design/check-detector.md §2). */
#ifndef COMM_TABLE_H
#define COMM_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "key_map.h"

typedef struct comm_table_entry {
    uint64_t id;
    uint32_t size;      /* members (both groups of an intercommunicator) */
    uint32_t n_local;   /* an intercommunicator's first group; size otherwise */
    size_t members_off; /* offset into comm_table.members; unused for identity comms */
    uint8_t identity;   /* member i is world rank i: no arrays, no map entries */
    uint8_t inter;
} comm_table_entry;

typedef struct comm_table {
    comm_table_entry *comms;
    size_t n, cap;
    int32_t *members;
    size_t n_members, cap_members;
    key_map by_id;    /* (id, 0) -> index */
    key_map local_of; /* (index, world rank) -> local rank, non-identity comms only */
    int32_t world_size;
} comm_table;

/* Index of MPI_COMM_WORLD in every table. */
#define COMM_TABLE_WORLD 0u

/* Sets up a table holding MPI_COMM_WORLD of world_size ranks. Errors: MG_ERROR_EINVAL,
 * MG_ERROR_ENOMEM. */
int comm_table_init(comm_table *ct, int32_t world_size);
void comm_table_free(comm_table *ct);
/* Finds the index of communicator id; COMM_SELF ids are registered on first use. Errors:
 * MG_ERROR_ENOENT (unknown id), MG_ERROR_ENOMEM. */
int comm_table_lookup(comm_table *ct, uint64_t id, uint32_t *index);
/* Registers communicator id with n members (world ranks; for an intercommunicator the first
 * n_local are the local group). A known id is accepted when its size agrees (each member reports
 * the creation) and *index gets the existing entry. Errors: MG_ERROR_EINVAL (rank out of the world,
 * duplicate member, n == 0), MG_ERROR_EFORMAT (known id, other size), MG_ERROR_ENOMEM. */
int comm_table_add(comm_table *ct, uint64_t id, const int32_t *ranks, uint32_t n, uint32_t n_local,
                   int inter, uint32_t *index);
/* Member count of communicator index. */
uint32_t comm_table_size(const comm_table *ct, uint32_t index);
/* World rank of local rank `local` (< size). */
int32_t comm_table_member(const comm_table *ct, uint32_t index, uint32_t local);
/* Local rank of world rank `world` in the communicator: 1 and *local when a member, else 0. */
int comm_table_local(const comm_table *ct, uint32_t index, int32_t world, uint32_t *local);
/* The communicator's id. */
uint64_t comm_table_id(const comm_table *ct, uint32_t index);
/* Deep copy. Errors: MG_ERROR_ENOMEM (dst left freed). */
int comm_table_clone(const comm_table *src, comm_table *dst);

#endif
