/* The protection path; see protect_run.h. Every call looks up the module's record of its
 * communicator (one comparison when it is the thread's last one). A call of an int irregular
 * collective that no bound covers and whose vectors hold nothing negative (most calls) costs one
 * pass over the vectors, before the call is even described (protect_quick_pass, in the entry
 * points); any other untriggered call the datatype sizes and the engine's check (O(1) for regular
 * collectives), and no message. Only under --agree do Gatherv/Scatterv (the
 * root's verdict, a broadcast) and Alltoallv (an allreduce) pay a small control message per call:
 * the price of W1-A, W1-B and W3 there, which change every rank's side of the call. Without it
 * the rank that sees a trigger changes its own side alone, by W2: MPI matches a collective's
 * sides by type signature, which a contiguous type of k elements does not change. */
#include "protect_run.h"
#include "protect_pmpi.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interpose_hooks.h"
#include "mg_error.h"
#include "protect_comm.h"
#include "protect_exec.h"
#include "protect_large.h"
#include "protect_site.h"

protect_run_config protect_run_cfg;

/* The table of a form: blocking and nonblocking forms were tested apart, and so were the
 * large-count `_c` forms, whose entries bound the application's `_c` calls (and W3), and the calls
 * with MPI_IN_PLACE where every rank passes it (a rooted collective's root alone does). */
static const scaling_bounds *table_of(int large, const scaling_args *a, int nonblocking)
{
    int in_place = a->in_place && scaling_coll_in_place_everywhere(a->coll);
    return &protect_run_cfg.tables[large][in_place][nonblocking];
}

static const scaling_bounds *bounds_of(const protect_call *pc)
{
    return table_of(pc->large, &pc->a, pc->nonblocking);
}

enum action { ACT_PASS, ACT_USER_ERROR, ACT_UNPROTECTED, ACT_WORKAROUND };

/* What every rank of a call must agree on; travels as int64s in the control messages. */
typedef struct decision {
    int64_t action, fired, workaround, n_global, chunk, rounds, k, ngroups;
} decision;

enum { DECISION_WORDS = sizeof(decision) / sizeof(int64_t) };

/* Per-thread scratch for Detector D (2P int64), a large-count call's vectors widened for the engine
 * (4P int64, at scratch + 2P) and W1-A's group starts (P + 1), grown as needed: one allocation per
 * thread and communicator size, not per call. */
static _Thread_local int64_t *scratch INTERPOSE_HOOKS_TLS_FAST;
static _Thread_local uint32_t *starts INTERPOSE_HOOKS_TLS_FAST;
static _Thread_local size_t scratch_procs INTERPOSE_HOOKS_TLS_FAST;

static int ensure_scratch(size_t P)
{
    if (P <= scratch_procs)
        return 0;
    int64_t *s = realloc(scratch, 6 * P * sizeof *s);
    if (s)
        scratch = s;
    uint32_t *st = s ? realloc(starts, (P + 1) * sizeof *st) : NULL;
    if (st)
        starts = st;
    if (!s || !st)
        return -1;
    scratch_procs = P;
    return 0;
}

static int type_size(MPI_Datatype t, uint64_t *out)
{
    int size = 0;
    if (PMPI_Type_size(t, &size) != MPI_SUCCESS || size <= 0)
        return -1;
    *out = (uint64_t)size;
    return 0;
}

/* The element size s of the call on this rank: the significant sides' datatypes, which must have
 * one size (the engine's assumption). Returns 0, or -1 with why. */
static int element_size(protect_call *pc, const char **why)
{
    scaling_args *a = &pc->a;
    const scaling_coll_info *info = scaling_coll_get(a->coll);
    int root = a->rank == a->root;
    int send = 1, recv = 1;
    if (a->coll == SCALING_COLL_GATHER || a->coll == SCALING_COLL_GATHERV)
        recv = root;
    if (a->coll == SCALING_COLL_SCATTER || a->coll == SCALING_COLL_SCATTERV)
        send = root;
    if (info->reduction || a->coll == SCALING_COLL_BCAST)
        send = 0;
    if (a->in_place && (a->coll == SCALING_COLL_SCATTER || a->coll == SCALING_COLL_SCATTERV))
        recv = 0;
    else if (a->in_place)
        send = 0;
    uint64_t ss = 0, rs = 0;
    if ((send && type_size(pc->sendtype, &ss)) || (recv && type_size(pc->recvtype, &rs))) {
        *why = "a datatype of size 0";
        return -1;
    }
    if (send && recv && ss != rs) {
        *why = "send and receive datatypes differ in size";
        return -1;
    }
    a->type_size = recv ? rs : ss;
    return 0;
}

/* Whether the plans' byte arithmetic holds for this rank's datatypes: one element is type_size
 * contiguous bytes (W1-A and W1-B address elements by offset; W2 does not). */
static int contiguous(const protect_call *pc)
{
    MPI_Datatype types[2] = {pc->sendtype, pc->recvtype};
    for (int i = 0; i < 2; i++) {
        MPI_Aint lb, extent, tlb, textent;
        if (types[i] == MPI_DATATYPE_NULL)
            continue;
        if (PMPI_Type_get_extent(types[i], &lb, &extent) != MPI_SUCCESS ||
            PMPI_Type_get_true_extent(types[i], &tlb, &textent) != MPI_SUCCESS)
            return 0;
        if (lb != 0 || tlb != 0 || extent != textent || (uint64_t)extent != pc->a.type_size)
            return 0;
    }
    return 1;
}

static void detectors_text(int64_t fired, char *out)
{
    int n = 0;
    if (fired & SCALING_CHECK_FIRED_D)
        out[n++] = 'D';
    if (fired & SCALING_CHECK_FIRED_G)
        out[n++] = 'G';
    if (fired & SCALING_CHECK_FIRED_X)
        out[n++] = 'X';
    out[n] = '\0';
}

static const char *reason_text(scaling_displ_reason r)
{
    switch (r) {
    case SCALING_DISPL_NEGATIVE_COUNT:
        return "a negative count";
    case SCALING_DISPL_NEGATIVE_FIRST:
        return "a negative first displacement";
    case SCALING_DISPL_BIG_STEP:
        return "a step no overflow explains";
    case SCALING_DISPL_DESCENDING:
        return "descending displacements";
    case SCALING_DISPL_OVERLAP:
        return "overlapping receive segments";
    default:
        return "a displacement past the address space";
    }
}

static void note_user_error(const protect_call *pc, const scaling_check_trigger *t)
{
    const scaling_displ_result *d = t->d_a.verdict == SCALING_DISPL_USER_ERROR ? &t->d_a : &t->d_b;
    char detail[160];
    snprintf(detail, sizeof detail,
             "user error in the counts/displacements at index %u (%s): passed to MPI unchanged",
             d->index, reason_text(d->reason));
    protect_site_note("user_error", pc->fn, NULL, NULL, 0, detail);
}

static void note_unprotected(const protect_call *pc, const char *why)
{
    char detail[200];
    snprintf(detail, sizeof detail, "detector fired but not protected: %s", why);
    protect_site_note("not_protected", pc->fn, NULL, NULL, 0, detail);
}

/* W3's applicability for a call of n elements per process: the library has the `_c` form of this
 * collective, and the tester did not find that form failing at this size (no bounded `_c` entry
 * of the bounds file limits n at this s and P). Every rank that evaluates it with the same n gets
 * the same answer. */
static void large_count_opts(const protect_call *pc, int64_t n, scaling_choice_opts *o)
{
    scaling_bounds_limit lim;
    /* A `_c` call is already W3's call: its bound is its own. */
    o->large_count = !pc->large && protect_large_has(pc->a.coll, pc->nonblocking);
    o->large_count_sound = o->large_count &&
                           scaling_bounds_nmax(table_of(1, &pc->a, pc->nonblocking), pc->a.coll,
                                               pc->a.type_size, pc->a.nprocs, &lim) == 0 &&
                           (uint64_t)n <= lim.n_max;
}

/* Why a triggered call has no usable workaround (scaling_choice_make said so). */
static const char *unprotected_why(const scaling_choice *choice, int alone)
{
    if (!choice->applicable)
        return "no workaround applies (a bound below one element per message?)";
    if (alone && !(choice->applicable & (1u << SCALING_CHOICE_WA_W2)))
        return "W2 does not apply, and only W2 serves this call without --agree (W1-A, W1-B and "
               "W3 need every rank to agree)";
    return "W1-A, W1-B and a W2 that moves a buffer need contiguous datatypes";
}

/* Chooses the plan on a rank that sees the whole call (any rank of a regular collective, the root
 * of Gatherv/Scatterv, each rank of Alltoallv for its own part). alone: the other ranks do not
 * know of it, so only W2, which changes this rank's side alone, serves. */
static void choose(protect_call *pc, const scaling_check_trigger *t, int alone,
                   scaling_choice *choice, decision *d)
{
    scaling_choice_opts opts = {.contiguous = contiguous(pc),
                                .excluded = alone ? ~(1u << SCALING_CHOICE_WA_W2) : 0,
                                .force = protect_run_cfg.force};
    large_count_opts(pc, t->n, &opts);
    if (scaling_choice_make(bounds_of(pc), &protect_run_cfg.params, &pc->a, t, &opts, t->n, starts,
                            choice) != 0) {
        note_unprotected(pc, unprotected_why(choice, alone));
        d->action = ACT_UNPROTECTED;
        return;
    }
    d->action = ACT_WORKAROUND;
    d->workaround = choice->chosen;
    d->n_global = t->n;
    d->chunk = choice->w1b.chunk;
    d->rounds = choice->w1b.rounds;
    d->k = (int64_t)choice->w2.k;
    d->ngroups = choice->w1a.ngroups;
}

/* Runs the detectors on this rank's view and, when one fires and this rank sees the whole call,
 * plans (an agreeing Alltoallv plans after the agreement on the common count). */
static void decide(protect_call *pc, int alone, scaling_check_trigger *t, scaling_choice *choice,
                   decision *d)
{
    if (scaling_check(bounds_of(pc), &pc->a, scratch, t) != 0)
        return; /* arguments MPI itself will judge */
    d->fired = t->fired;
    if (t->user_error) {
        note_user_error(pc, t);
        d->action = ACT_USER_ERROR;
    } else if (t->fired && (alone || pc->a.coll != SCALING_COLL_ALLTOALLV)) {
        choose(pc, t, alone, choice, d);
    }
}

/* Gatherv/Scatterv: the root's decision (and W1-A's starts) broadcast on the private duplicate. */
static int agree_root(protect_call *pc, MPI_Comm dup, decision *d)
{
    if (PMPI_Bcast(d, DECISION_WORDS, MPI_INT64_T, (int)pc->a.root, dup) != MPI_SUCCESS)
        return -1;
    if (d->action == ACT_WORKAROUND && d->workaround == SCALING_CHOICE_WA_W1A &&
        PMPI_Bcast(starts, (int)d->ngroups + 1, MPI_UINT32_T, (int)pc->a.root, dup) != MPI_SUCCESS)
        return -1;
    return 0;
}

/* Alltoallv: every rank sees only its own vectors. One allreduce (MAX) of the detector bits, the
 * user-error flag and the count gives the common verdict and n; when a detector fired, a second
 * one gives the workarounds that apply on every rank (MAX of "does not apply" flags). W2 takes
 * each rank's own k: MPI matches the sides by type signature, which k does not change. */
static int agree_all(protect_call *pc, MPI_Comm dup, const scaling_check_trigger *t,
                     scaling_choice *choice, decision *d)
{
    int64_t mine[5] = {(t->fired & SCALING_CHECK_FIRED_D) != 0,
                       (t->fired & SCALING_CHECK_FIRED_G) != 0,
                       (t->fired & SCALING_CHECK_FIRED_X) != 0,
                       d->action == ACT_USER_ERROR || d->action == ACT_UNPROTECTED, t->n};
    int64_t all[5];
    if (PMPI_Allreduce(mine, all, 5, MPI_INT64_T, MPI_MAX, dup) != MPI_SUCCESS)
        return -1;
    d->fired = (all[0] ? SCALING_CHECK_FIRED_D : 0) | (all[1] ? SCALING_CHECK_FIRED_G : 0) |
               (all[2] ? SCALING_CHECK_FIRED_X : 0);
    if (!d->fired || all[3]) {
        d->action = all[3] ? ACT_UNPROTECTED : ACT_PASS;
        return 0;
    }
    /* Every rank plans with the common n (the rounds of W1-B must match). */
    scaling_check_trigger common = *t;
    common.fired = (unsigned)d->fired;
    common.n = all[4];
    scaling_choice_opts opts = {.contiguous = contiguous(pc)};
    large_count_opts(pc, all[4], &opts);
    int rc = scaling_choice_make(bounds_of(pc), &protect_run_cfg.params, &pc->a, &common, &opts,
                                 all[4], starts, choice);
    int64_t flags[SCALING_CHOICE_WA_COUNT], agreed[SCALING_CHOICE_WA_COUNT];
    for (int w = 0; w < SCALING_CHOICE_WA_COUNT; w++)
        flags[w] = rc != 0 || !(choice->usable & (1u << w));
    if (PMPI_Allreduce(flags, agreed, SCALING_CHOICE_WA_COUNT, MPI_INT64_T, MPI_MAX, dup) !=
        MPI_SUCCESS)
        return -1;
    unsigned everywhere = 0;
    for (int w = 0; w < SCALING_CHOICE_WA_COUNT; w++)
        everywhere |= agreed[w] ? 0 : 1u << w;
    d->workaround = scaling_choice_agreed(everywhere, protect_run_cfg.force);
    if (d->workaround == SCALING_CHOICE_WA_NONE) {
        note_unprotected(pc, "no workaround applies on every rank");
        d->action = ACT_UNPROTECTED;
        return 0;
    }
    d->action = ACT_WORKAROUND;
    d->n_global = all[4];
    d->k = (int64_t)choice->w2.k;
    return 0;
}

/* The plan this rank executes from the agreed decision. */
static int plan_from(const protect_call *pc, const decision *d, const scaling_check_trigger *t,
                     const scaling_choice *choice, int decider, protect_exec_plan *plan)
{
    memset(plan, 0, sizeof *plan);
    plan->w = (scaling_choice_workaround)d->workaround;
    plan->true_a = decider ? t->true_a : NULL;
    plan->true_b = decider ? t->true_b : NULL;
    switch (plan->w) {
    case SCALING_CHOICE_WA_W1B:
        if (scaling_w1b_plan_make(bounds_of(pc), &protect_run_cfg.params, &pc->a, d->n_global,
                                  &plan->w1b) != 0)
            return -1;
        if (pc->a.coll != SCALING_COLL_ALLTOALLV && !decider) {
            plan->w1b.chunk = d->chunk;
            plan->w1b.rounds = (uint32_t)d->rounds;
        }
        return 0;
    case SCALING_CHOICE_WA_W1A:
        plan->w1a.ngroups = (uint32_t)d->ngroups;
        plan->w1a.starts = decider ? choice->w1a.starts : starts;
        return 0;
    case SCALING_CHOICE_WA_W2:
        /* The deciding rank's own plan (its k and buffer shifts); another rank divides its side by
         * the agreed k. */
        if (decider) {
            plan->w2 = choice->w2;
            return 0;
        }
        plan->w2.k = (uint64_t)d->k;
        plan->w2.elem_size = pc->a.type_size * (uint64_t)d->k;
        return 0;
    case SCALING_CHOICE_WA_W3: /* the `_c` call needs only the call and the recovered displacements
                                */
        return protect_large_has(pc->a.coll, pc->nonblocking) ? 0 : -1;
    default:
        return -1;
    }
}

/* Copies one 64-bit vector of the `_c` binding into the engine's type (the same width on LP64). */
static const int64_t *widen_count(const MPI_Count *in, int64_t *out, size_t n)
{
    for (size_t i = 0; in && i < n; i++)
        out[i] = (int64_t)in[i];
    return in ? out : NULL;
}

static const int64_t *widen_displ(const MPI_Aint *in, int64_t *out, size_t n)
{
    for (size_t i = 0; in && i < n; i++)
        out[i] = (int64_t)in[i];
    return in ? out : NULL;
}

/* A large-count call's vectors for the engine, where this rank has them: MPI reads a Gatherv's
 * vectors at the root only, and not the send side of an in-place Alltoallv, so those arrays may be
 * anything (NULL) and are not read. */
static void widen_large(protect_call *pc)
{
    scaling_args *a = &pc->a;
    a->large = 1;
    if (!scaling_args_has_vectors(a))
        return;
    size_t P = a->nprocs;
    int64_t *w = scratch + 2 * P;
    if (!(a->coll == SCALING_COLL_ALLTOALLV && a->in_place)) {
        a->counts64_a = widen_count(pc->lcounts_a, w, P);
        a->displs64_a = widen_displ(pc->ldispls_a, w + P, P);
    }
    a->counts64_b = widen_count(pc->lcounts_b, w + 2 * P, P);
    a->displs64_b = widen_displ(pc->ldispls_b, w + 3 * P, P);
}

/* Gatherv, Scatterv and Alltoallv: the ranks see different vectors, so under --agree every call
 * pays the control message that lets W1-A, W1-B and W3 serve them. */
static int agreeing(scaling_coll c)
{
    return protect_run_cfg.agree &&
           (c == SCALING_COLL_GATHERV || c == SCALING_COLL_SCATTERV || c == SCALING_COLL_ALLTOALLV);
}

/* Whether anything can fire on a call of this form before its arguments are looked at: on an int
 * irregular collective Detector D (and the user-error checks of its vectors) always can; beyond
 * that only a bound of the form's table (an entry of the bounds file, or the artificial bound), and
 * every rank sees the same table. A `_c` call's MPI_Aint displacements cannot wrap, so D has
 * nothing to recover there: only a bound can fire, and the module also needs the library's `_c`
 * function for the plan calls. */
static int may_fire(scaling_coll c, int large, int nonblocking)
{
    /* The in-place table holds every entry of the form (protect_bounds_load). */
    int covered = scaling_bounds_covers(&protect_run_cfg.tables[large][1][nonblocking], c);
    if (large)
        return protect_large_has(c, nonblocking) && covered;
    return scaling_coll_get(c)->irregular || covered;
}

void protect_run_watch_setup(void)
{
    for (int large = 0; large < 2; large++)
        for (int nonblocking = 0; nonblocking < 2; nonblocking++) {
            uint32_t mask = 0;
            for (int c = 0; c < SCALING_COLL_COUNT; c++)
                if (may_fire((scaling_coll)c, large, nonblocking))
                    mask |= 1u << c;
            protect_run_cfg.watched[large][nonblocking] = mask;
        }
    for (int nonblocking = 0; nonblocking < 2; nonblocking++) {
        uint32_t mask = 0;
        for (int c = 0; c < SCALING_COLL_COUNT; c++)
            /* the in-place table holds every entry of the form, as in may_fire */
            if (scaling_coll_get((scaling_coll)c)->irregular && !agreeing((scaling_coll)c) &&
                !scaling_bounds_covers(&protect_run_cfg.tables[0][1][nonblocking], (scaling_coll)c))
                mask |= 1u << c;
        protect_comm_hot.vectors_only[nonblocking] = mask;
    }
}

/* The rest of protect_run, for a call that may fire. Apart so that its frame (the trigger, the
 * choice and the plan, about 1 KiB) is not set up for the calls that pass at once. */
static __attribute__((noinline)) int protect_further(protect_call *pc, protect_comm *pcomm,
                                                     int agree, int *rc)
{
    scaling_coll c = pc->a.coll;
    scaling_args *a = &pc->a;
    int rooted_vectors = c == SCALING_COLL_GATHERV || c == SCALING_COLL_SCATTERV;
    int alone = !agree && (rooted_vectors || c == SCALING_COLL_ALLTOALLV);
    if (ensure_scratch((size_t)pcomm->size) != 0)
        return 0;
    int gather_scatter = c == SCALING_COLL_GATHER || c == SCALING_COLL_GATHERV ||
                         c == SCALING_COLL_SCATTER || c == SCALING_COLL_SCATTERV;
    if (gather_scatter && a->rank == a->root)
        a->count = pc->root_count;
    if (pc->large)
        widen_large(pc);
    int decider = !rooted_vectors || a->rank == a->root;
    decision d = {0};
    scaling_check_trigger t = {0};
    scaling_choice choice = {0};
    const char *why = NULL;
    if (a->root >= a->nprocs && scaling_coll_get(c)->rooted)
        return 0; /* an invalid root: MPI reports it */
    if (decider) {
        if (element_size(pc, &why) == 0)
            decide(pc, alone, &t, &choice, &d);
        else
            d.action = ACT_UNPROTECTED;
    }
    if (agree) {
        MPI_Comm dup = protect_comm_private(pcomm, pc->comm);
        if (dup == MPI_COMM_NULL)
            return 0;
        if (!decider && element_size(pc, &why) != 0)
            a->type_size = 1; /* the root decides; a plan that needs s fails below */
        int failed = c == SCALING_COLL_ALLTOALLV ? agree_all(pc, dup, &t, &choice, &d)
                                                 : agree_root(pc, dup, &d);
        if (failed)
            return 0;
    }
    if (d.action != ACT_WORKAROUND)
        return 0;
    if (!decider && d.workaround == SCALING_CHOICE_WA_W2 && d.k == 1)
        return 0; /* the root only moved its buffer: this rank's side is unchanged */
    protect_exec_plan plan;
    if (plan_from(pc, &d, &t, &choice, decider, &plan) != 0) {
        note_unprotected(pc, "the agreed plan does not fit this rank's arguments");
        return 0;
    }
    /* Every rank runs the same plan: one of them (the root, or rank 0) says so. An Alltoallv rank
     * alone runs its own. Said before the plan runs: a workaround the library crashes in is still
     * named (MPICH 4.0.2's in-place Reduce_c crashes where its Reduce does). */
    uint32_t reporter = scaling_coll_get(c)->rooted ? a->root : 0;
    char det[4];
    detectors_text(d.fired, det);
    if (a->rank == reporter || (alone && c == SCALING_COLL_ALLTOALLV))
        protect_site_note("workaround", pc->fn, det, scaling_choice_name(plan.w),
                          protect_exec_eager(pc, &plan), NULL);
    *rc = protect_exec(pc, pcomm, &plan);
    return 1;
}

int protect_run(protect_call *pc, int *rc)
{
    if (pc->comm == MPI_COMM_NULL)
        return 0;
    scaling_coll c = pc->a.coll;
    int rooted_vectors = c == SCALING_COLL_GATHERV || c == SCALING_COLL_SCATTERV;
    int agree = agreeing(c);
    protect_comm *pcomm = protect_comm_get(pc->comm);
    if (!pcomm || pcomm->inter)
        return 0;
    scaling_args *a = &pc->a;
    a->nprocs = (uint32_t)pcomm->size;
    a->rank = (uint32_t)pcomm->rank;
    if (rooted_vectors && !agree && a->rank != a->root)
        return 0; /* a Gatherv/Scatterv non-root: only the root changes its side (W2) */
    return protect_further(pc, pcomm, agree, rc);
}
