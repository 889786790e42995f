/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* The capture module's communicators: a handle -> {id identical on every member, world ranks of
 * the members} registry, so records carry world ranks and ids the detector can match
 * (docs/design/check-detector.md §1, docs/design/check.md "How it is built"). Needs mpi.h. Not
 * thread-safe. */
#ifndef MG_CAPTURE_COMM_H
#define MG_CAPTURE_COMM_H

#include <mpi.h>
#include "mpi_handles_weak.h"

#include <stdint.h>

#include "capture_table.h"

typedef struct capture_comm {
    uint64_t id;
    int size;        /* local group */
    int32_t *world;  /* world rank of each local rank; NULL for WORLD (identity) */
    int remote_size; /* intercommunicators: the remote group, which p2p peers address */
    int32_t *remote;
    uint32_t creations; /* communicators created from this one so far (same count on members) */
} capture_comm;

/* Registers WORLD and SELF for a job of `size` ranks. Errors: MG_ERROR_ENOMEM. */
int capture_comm_init(int rank, int size);
void capture_comm_free_all(void);
/* The registry entry of a handle, or NULL for one never seen (created by a call not captured). */
capture_comm *capture_comm_find(MPI_Comm comm);
/* World rank of local rank r of c (the remote group for an intercommunicator); MPI_ANY_SOURCE and
 * MPI_PROC_NULL map to the record's constants, other out-of-range values to themselves. */
int32_t capture_comm_world(const capture_comm *c, int r);
/* Registers newcomm created from parent (NULL for Intercomm_create, whose id comes from the
 * leaders' tag and groups) and returns its entry; NULL when newcomm is MPI_COMM_NULL or when out
 * of room (the communicator then stays unknown and calls on it are not captured). */
capture_comm *capture_comm_register(capture_comm *parent, MPI_Comm newcomm, int tag);
/* Fills *out with a communicator of parent's members (an intracommunicator) and an id every
 * member computes alike, unregistered: the group of an object made collectively on parent (a
 * window). out->world is the caller's to free (NULL when parent is WORLD). Call it on every
 * member, in the same order as parent's constructors. Errors: MG_ERROR_ENOMEM (*out unusable). */
int capture_comm_derive(capture_comm *parent, capture_comm *out);
/* World ranks of the n members of group g, malloc'd (the caller frees); NULL when out of
 * memory. */
int32_t *capture_comm_members(MPI_Group g, int n);
/* Forgets a freed communicator; its handle reads as freed until MPI hands it out again. */
void capture_comm_forget(MPI_Comm comm);
/* 1 when comm is the handle of a communicator freed since (a copy the program kept). */
int capture_comm_freed(MPI_Comm comm);

#endif
