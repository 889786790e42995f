/* Tunable parameters of the workaround planners and their cost model, with documented defaults
 * (docs/collectives-engine.md §4.5). */
#ifndef SCALING_PARAMS_H
#define SCALING_PARAMS_H

#include <stdint.h>

typedef struct scaling_params {
    /* W1-B: most bytes of one staging buffer (the per-round image of the global buffer); bounds the
     * memory the workaround adds and so the size of one round. */
    uint64_t max_stage_bytes;
    /* Cost model (nanoseconds), to be replaced by the caller with values measured on the machine:
     * a collective call's fixed cost, a byte moved by a collective, a byte copied by memcpy (W1-B
     * staging), creating and freeing a derived datatype (W2), creating a communicator (W1-A). */
    double call_ns;
    double byte_ns;
    double copy_byte_ns;
    double type_ns;
    double comm_ns;
} scaling_params;

/* Fills p with the defaults: max_stage_bytes 64 MiB; call_ns 20000, byte_ns 0.5, copy_byte_ns 0.1,
 * type_ns 2000, comm_ns 200000 (orders of magnitude of Open MPI/MPICH over shared memory on these
 * machines; see docs/collectives-engine.md §4.5). */
void scaling_params_default(scaling_params *p);

#endif
