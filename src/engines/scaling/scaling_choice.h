/* Choosing the workaround for a triggered call: applicability of W1-A, W1-B, W2 and W3 (the MPI-4
 * large-count `_c` collective) and a cost model, overridable by the caller
 * (docs/collectives-engine.md §4.5). */
#ifndef SCALING_CHOICE_H
#define SCALING_CHOICE_H

#include <stdint.h>

#include "scaling_check.h"
#include "scaling_params.h"
#include "scaling_w1a.h"
#include "scaling_w1b.h"
#include "scaling_w2.h"

typedef enum scaling_choice_workaround {
    SCALING_CHOICE_WA_NONE,
    SCALING_CHOICE_WA_W3, /* the `_c` collective with MPI_Count counts and MPI_Aint (recovered)
                             displs */
    SCALING_CHOICE_WA_W2,
    SCALING_CHOICE_WA_W1A,
    SCALING_CHOICE_WA_W1B,
    SCALING_CHOICE_WA_COUNT
} scaling_choice_workaround;

typedef struct scaling_choice_opts {
    int large_count;       /* the library provides the MPI-4 `_c` collectives */
    int large_count_sound; /* the tester found this collective's `_c` form sound at this size */
    /* One element is type_size contiguous bytes in this rank's datatypes. W1-A, W1-B and a W2
     * that moves a buffer address elements by byte offset: without it they are not usable. */
    int contiguous;
    /* Bits 1u << w of workarounds the caller cannot run (0: none). W1-A, W1-B and W3 change every
     * rank's side of the call, so a rank that changes its side alone excludes all but W2. */
    unsigned excluded;
    scaling_choice_workaround force; /* SCALING_CHOICE_WA_NONE: by cost; else this one where usable,
                                 else by cost (the CLI's "where it applies") */
} scaling_choice_opts;

typedef struct scaling_choice {
    scaling_choice_workaround chosen; /* SCALING_CHOICE_WA_NONE when nothing fired */
    int keeps_nonblocking; /* the chosen one is a single call (W2, W3): a nonblocking collective
                              stays nonblocking; W1-A and W1-B complete it eagerly */
    unsigned applicable;   /* bit 1u << w for each workaround w whose plan fits the call */
    unsigned usable;       /* the applicable ones opts allows: what chosen was picked from */
    double cost_ns[SCALING_CHOICE_WA_COUNT]; /* the model's estimate for each applicable one */
    scaling_w1b_plan w1b;                    /* valid when W1-B applies */
    scaling_w1a_plan w1a; /* valid when W1-A applies (its starts live in the caller's memory) */
    scaling_w2_plan w2;   /* valid when W2 applies */
} scaling_choice;

/* Returns the workaround's name ("W1-A", ...; "none"), never NULL. */
const char *scaling_choice_name(scaling_choice_workaround w);

/* Plans every workaround that applies to the triggered call a (trigger t from scaling_check,
 * n_global the count all ranks agreed on, see scaling_w1b_plan_make) and picks the cheapest usable
 * one (see opts) by the model of p (W3: one call; W2: one call and a type; W1-A: a communicator and
 * a call per group; W1-B: a call per round plus the staging copies; all move the same bytes), ties
 * going to W3, W2, W1-A, W1-B in that order. W1-A needs the full view (see scaling_w1a_plan_make):
 * elsewhere it is not considered. starts is caller memory of P + 1 entries for W1-A. A user error
 * seen by Detector D or an untriggered call gives SCALING_CHOICE_WA_NONE.
 * Every rank must run the same workaround: ranks that see the same inputs (regular collectives,
 * Allgatherv, Reduce_scatter) make the same choice; for Gatherv/Scatterv the root's choice is sent
 * to the others (with n, and W1-A's starts or W2's k); for Alltoallv, whose ranks see different
 * vectors, see scaling_choice_agreed.
 * Returns 0; MG_ERROR_EUNSUPPORTED when none is usable (out->applicable and out->usable say why);
 * MG_ERROR_EINVAL for bad arguments. No allocation. */
int scaling_choice_make(const scaling_bounds *b, const scaling_params *p, const scaling_args *a,
                        const scaling_check_trigger *t, const scaling_choice_opts *opts,
                        int64_t n_global, uint32_t *starts, scaling_choice *out);

/* The workaround ranks that see different vectors (Alltoallv) all run, from the bits usable on
 * every rank: force where usable, else the first of W3, W2, W1-A, W1-B. A fixed order, not each
 * rank's estimates: W1-B's copies are a rank's own, so its estimate may differ between ranks, and
 * the order is the model's tie order, which agrees with its estimates except at sizes no trigger
 * reaches. SCALING_CHOICE_WA_NONE when no bit is set. */
scaling_choice_workaround scaling_choice_agreed(unsigned usable_everywhere,
                                                scaling_choice_workaround force);

#endif
