/* The per-rank state the interposition library publishes in shared memory for the `shm` sampler of
 * hang detection (docs/hang.md): read by the monitor without stopping the rank. Versioned: a reader
 * rejects a segment whose magic or version differs. Needs no mpi.h. */
#ifndef MG_RANK_STATE_H
#define MG_RANK_STATE_H

#include <stdatomic.h>
#include <stdint.h>

#define MG_RANK_STATE_MAGIC 0x5352474dU /* "MGRS" */
#define MG_RANK_STATE_VERSION 1U

typedef struct mg_rank_state {
    uint32_t magic;
    uint32_t version;
    int32_t rank;
    int32_t size;
    int32_t pid;
    uint32_t reserved;
    _Atomic uint32_t threads_in_mpi; /* threads inside an MPI call now: IN_MPI when > 0 */
    _Atomic uint32_t current_fn;     /* mg_fn id of the latest outermost MPI call entered */
    _Atomic uint64_t calls;     /* outermost MPI calls completed: a moving counter is progress */
    _Atomic uint32_t finalized; /* 1 once MPI_Finalize was entered */
} mg_rank_state;

/* Name of the segment for a job token and rank, for shm_open: "/mpiguard-<token>-<rank>". */
#define MG_RANK_STATE_NAME_FORMAT "/mpiguard-%s-%d"

#endif
