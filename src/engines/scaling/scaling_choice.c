/* Workaround choice by applicability and cost; see scaling_choice.h and
 * docs/collectives-engine.md §4.5. */
#include "scaling_choice.h"

#include <string.h>

#include "mg_error.h"

const char *scaling_choice_name(scaling_choice_workaround w)
{
    static const char *const names[SCALING_CHOICE_WA_COUNT] = {"none", "W3", "W2", "W1-A", "W1-B"};
    return (unsigned)w < SCALING_CHOICE_WA_COUNT ? names[w] : "none";
}

/* Bytes of the global buffer the call moves, the common term of every estimate (Table V's G_b;
 * Reduce_scatter's n is already its total). */
static double global_bytes(const scaling_args *a, int64_t n_global)
{
    double bytes = (double)n_global * (double)a->type_size;
    if (scaling_coll_get(a->coll)->gbuf == SCALING_COLL_GBUF_SNP)
        bytes *= a->nprocs;
    return bytes;
}

static void consider(scaling_choice *out, scaling_choice_workaround w, double cost)
{
    out->applicable |= 1u << w;
    out->cost_ns[w] = cost;
}

/* Which applicable ones the caller can run (see scaling_choice_opts). */
static unsigned usable(const scaling_choice *c, const scaling_choice_opts *opts)
{
    unsigned by_offset = (1u << SCALING_CHOICE_WA_W1A) | (1u << SCALING_CHOICE_WA_W1B);
    if (c->w2.shift[0] || c->w2.shift[1])
        by_offset |= 1u << SCALING_CHOICE_WA_W2;
    return c->applicable & ~opts->excluded & (opts->contiguous ? ~0u : ~by_offset);
}

/* The usable workaround of least estimated cost; ties go to the earlier in enum order. */
static scaling_choice_workaround cheapest(const scaling_choice *c)
{
    scaling_choice_workaround best = SCALING_CHOICE_WA_NONE;
    for (int w = SCALING_CHOICE_WA_W3; w < SCALING_CHOICE_WA_COUNT; w++)
        if ((c->usable & (1u << w)) &&
            (best == SCALING_CHOICE_WA_NONE || c->cost_ns[w] < c->cost_ns[best]))
            best = (scaling_choice_workaround)w;
    return best;
}

scaling_choice_workaround scaling_choice_agreed(unsigned usable_everywhere,
                                                scaling_choice_workaround force)
{
    if ((unsigned)force < SCALING_CHOICE_WA_COUNT && (usable_everywhere & (1u << force)))
        return force;
    for (int w = SCALING_CHOICE_WA_W3; w < SCALING_CHOICE_WA_COUNT; w++)
        if (usable_everywhere & (1u << w))
            return (scaling_choice_workaround)w;
    return SCALING_CHOICE_WA_NONE;
}

int scaling_choice_make(const scaling_bounds *b, const scaling_params *p, const scaling_args *a,
                        const scaling_check_trigger *t, const scaling_choice_opts *opts,
                        int64_t n_global, uint32_t *starts, scaling_choice *out)
{
    if (!b || !p || !t || !opts || !starts || !out || n_global < 0 ||
        (unsigned)opts->force >= SCALING_CHOICE_WA_COUNT || scaling_args_validate(a) != 0)
        return MG_ERROR_EINVAL;
    memset(out, 0, sizeof *out);
    if (!t->fired || t->user_error)
        return 0;
    double bytes = global_bytes(a, n_global), moved = bytes * p->byte_ns;
    if (opts->large_count && opts->large_count_sound)
        consider(out, SCALING_CHOICE_WA_W3, p->call_ns + moved);
    if (scaling_w2_plan_make(b, a, t->true_a, t->true_b, &out->w2) == 0)
        consider(out, SCALING_CHOICE_WA_W2, p->type_ns + p->call_ns + moved);
    int full_view = !scaling_coll_get(a->coll)->irregular || scaling_args_has_vectors(a);
    if (full_view && scaling_w1a_plan_make(b, a, t->true_a, starts, &out->w1a) == 0)
        consider(out, SCALING_CHOICE_WA_W1A, out->w1a.ngroups * (p->comm_ns + p->call_ns) + moved);
    if (scaling_w1b_plan_make(b, p, a, n_global, &out->w1b) == 0) {
        double staged = out->w1b.stage_send_bytes || out->w1b.stage_recv_bytes ? bytes : 0;
        consider(out, SCALING_CHOICE_WA_W1B,
                 out->w1b.rounds * p->call_ns + moved + staged * p->copy_byte_ns);
    }
    out->usable = usable(out, opts);
    out->chosen = opts->force != SCALING_CHOICE_WA_NONE && (out->usable & (1u << opts->force))
                      ? opts->force
                      : cheapest(out);
    if (out->chosen == SCALING_CHOICE_WA_NONE)
        return MG_ERROR_EUNSUPPORTED;
    out->keeps_nonblocking = out->chosen == SCALING_CHOICE_WA_W2 ||
                             out->chosen == SCALING_CHOICE_WA_W3;
    return 0;
}
