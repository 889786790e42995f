/* Simulated ranks for the plan tests: generates a collective call on P ranks (random counts, gaps,
 * layouts past INT_MAX, in place), runs the unbroken call and each workaround's plan through the
 * reference model, and compares the buffers byte for byte (docs/collectives-engine.md §5). */
#ifndef PLAN_WORLD_H
#define PLAN_WORLD_H

#include <stdint.h>

#include "mg_rng.h"
#include "ref_model.h"
#include "scaling_args.h"
#include "scaling_bounds.h"
#include "scaling_params.h"

typedef enum world_layout {
    WORLD_PACKED, /* displacements are prefix sums of the counts */
    WORLD_GAPPED, /* small random gaps between segments */
    WORLD_HUGE,   /* gaps near INT_MAX: the int displacements wrap (Detector D) */
} world_layout;

typedef struct world_spec {
    scaling_coll coll;
    uint32_t P, root;
    uint64_t s;
    int in_place;
    world_layout layout;
    int64_t max_count; /* counts (and the regular n) drawn from [0, max_count] */
    int64_t factor;    /* every count and gap a multiple of it (W2 needs a common divisor) */
    uint64_t seed;
    int large; /* describe the call as its large-count `_c` form: the true 64-bit vectors */
} world_spec;

typedef struct world {
    world_spec spec;
    int64_t n; /* regular count */
    /* Rank r's vectors at [r * P, (r + 1) * P): true 64-bit values and the int values passed. */
    int64_t *tc_a, *td_a, *tc_b, *td_b;
    int *c_a, *d_a, *c_b, *d_b;
    ref_buf *send, *recv; /* P each */
} world;

/* Builds a world (buffers filled with bytes from the seed). Returns 0 or -1 (no memory). */
int world_make(world *w, const world_spec *spec);
/* Deep-copies the buffers of src into fresh arrays in dst (vectors shared). Returns 0 or -1. */
int world_clone_buffers(world *dst, const world *src);
void world_free_buffers(world *w);
void world_free(world *w);
/* Rank r's view of the call, as the interposition layer would describe it (the int vectors the
 * application passed, or the 64-bit ones of the `_c` form when spec.large). */
void world_args(const world *w, uint32_t r, scaling_args *a);
/* 1 when every send and receive buffer of a and b is byte-identical. */
int world_same(const world *a, const world *b);

/* Runs the unbroken collective on w's buffers. Returns 0 or -1. */
int world_run_original(world *w);

/* Runs a workaround on w's buffers: every rank checks the call (scaling_check), the ranks agree on
 * the trigger's count, plan and execute. Returns 0, a negative MG_ERROR_E* code from the planner
 * (MG_ERROR_EUNSUPPORTED: the workaround does not apply), or -1000 when executing the plan failed in the
 * reference model or the ranks' plans disagreed. W1-B also fails when a rank that stages nothing
 * copies or the ranks' calls of a round name different collectives, gives the staging bytes of all
 * ranks' plans in *staged and the number of rounds run as the collective's V-form in
 * *v_form_rounds; each round runs as the collective its calls name. */
int world_run_w1b(world *w, const scaling_bounds *b, const scaling_params *p, uint32_t *rounds,
                  int64_t *staged, uint32_t *v_form_rounds);
int world_run_w1a(world *w, const scaling_bounds *b, uint32_t *groups);
int world_run_w2(world *w, const scaling_bounds *b, uint64_t *k);
int world_run_w3(world *w, const scaling_bounds *b);

enum { WORLD_EXEC_FAILED = -1000 };

#endif
