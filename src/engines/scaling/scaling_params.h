/* Tunable parameters of the workaround planners and their cost model, with documented defaults
 * (docs/collectives-engine.md §4.5). */
#ifndef SCALING_PARAMS_H
#define SCALING_PARAMS_H

#include <stdint.h>

typedef struct scaling_params {
    /* W1-B: most bytes of one staging buffer (the per-round image of the global buffer); bounds the
     * memory the workaround adds and so the size of one round. */
    uint64_t max_stage_bytes;
    /* Cost model (nanoseconds), replaced by the interposition module with the costs `mpiguard
     * collectives` measured on the installed MPI (src/tester/coll_costs.c): a collective call's
     * fixed cost, a byte moved by a collective, a byte copied by memcpy (W1-B staging), creating
     * and freeing a derived datatype (W2), creating a communicator (W1-A). */
    double call_ns;
    double byte_ns;
    double copy_byte_ns;
    double type_ns;
    double comm_ns;
    /* W1-B: Allgather's rounds keep the block stride (a resized type) even where their V-form,
     * Allgatherv, fits in int. For a library whose Allgatherv is dearer than its Allgather into a
     * strided type: MPICH's took 1.43-1.60 times the unbroken Allgather under W1-B, the stride
     * 0.94-1.07; Open MPI the other way round, 1.01-1.10 against 1.22-1.31 (2 ranks, 1 MiB). */
    int allgather_block_stride;
} scaling_params;

/* Fills p with the defaults: max_stage_bytes 64 MiB; call_ns 20000, byte_ns 0.5, copy_byte_ns 0.1,
 * type_ns 2000, comm_ns 200000 (orders of magnitude of Open MPI/MPICH over shared memory on these
 * machines; see docs/collectives-engine.md §4.5); allgather_block_stride 0. */
void scaling_params_default(scaling_params *p);

#endif
