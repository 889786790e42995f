/* The decision whether a rank is observed (rank_observe.h): no I/O, no clock. */
#include "rank_observe.h"

#include <stdio.h>

/* The cause /proc shows for a rank that published nothing. */
static rank_observe_cause cause_from_sight(const rank_observe_sight *s, mg_mpi_flavor expected)
{
    if (s->static_binary)
        return RANK_OBSERVE_STATIC_BINARY;
    if (!s->preload_names_library)
        return RANK_OBSERVE_PRELOAD_REPLACED;
    if (!s->library_mapped)
        return RANK_OBSERVE_LIBRARY_NOT_LOADED;
    if (s->mapped_mpi == MG_MPI_FLAVOR_UNKNOWN)
        return s->binary_defines_mpi ? RANK_OBSERVE_UNKNOWN_INTERFACE : RANK_OBSERVE_NOT_MPI;
    if (s->mapped_mpi != expected)
        return RANK_OBSERVE_OTHER_MPI;
    return s->binding[0] ? RANK_OBSERVE_UNWRAPPED_BINDING : RANK_OBSERVE_UNKNOWN_INTERFACE;
}

rank_observe_cause rank_observe_decide(const rank_observe_input *in)
{
    const rank_observe_sight *s = in->sight;
    /* Its MPI_Init returned through mpiguard's own wrapper, so its binding reaches the wrappers:
     * no call since is a rank computing, however busy its siblings, not one calling past them. */
    if (in->published)
        return RANK_OBSERVE_OK;
    if (!s->read)
        return !in->ended    ? RANK_OBSERVE_PENDING
               : in->stopped ? rank_observe_stopped(RANK_OBSERVE_VANISHED)
                             : RANK_OBSERVE_VANISHED;
    if (in->by_stack && (s->mapped_mpi != MG_MPI_FLAVOR_UNKNOWN || s->binary_defines_mpi))
        return RANK_OBSERVE_OK;
    /* /proc shows the script's interpreter, not the program it may exec yet */
    if (s->script && !in->ended && !s->other_node && in->age < RANK_OBSERVE_SCRIPT_S &&
        in->sibling_published_for < RANK_OBSERVE_INIT_GRACE_S)
        return RANK_OBSERVE_PENDING;
    if (in->by_stack) /* no frame of it can be an MPI call: the model would read it computing */
        return in->ended || in->age >= RANK_OBSERVE_SETTLE_S ? RANK_OBSERVE_NOT_MPI
                                                             : RANK_OBSERVE_PENDING;
    if (s->other_node && in->node_agents)
        return in->ended ? RANK_OBSERVE_NOT_FOUND : RANK_OBSERVE_PENDING;
    rank_observe_cause cause = s->other_node ? RANK_OBSERVE_OTHER_NODE
                                             : cause_from_sight(s, in->expected);
    /* Read only while its loader mapped its libraries (or a wrapper script ran): what /proc
     * showed had not settled, as for a rank never read. */
    if (in->ended && !s->other_node && in->age < RANK_OBSERVE_SETTLE_S &&
        cause != RANK_OBSERVE_UNWRAPPED_BINDING && cause != RANK_OBSERVE_UNKNOWN_INTERFACE)
        cause = RANK_OBSERVE_VANISHED;
    if (in->ended)
        return in->stopped ? rank_observe_stopped(cause) : cause;
    /* /proc shows these for certain once the loader is done */
    if (cause != RANK_OBSERVE_UNWRAPPED_BINDING && cause != RANK_OBSERVE_UNKNOWN_INTERFACE)
        return in->age >= RANK_OBSERVE_SETTLE_S ? cause : RANK_OBSERVE_PENDING;
    /* These only by elimination: the rank may still be in MPI_Init, or not there yet. With no
     * binding mapped and no sibling published, a rank that computes before MPI_Init looks the
     * same, and only the job's end tells. */
    if (in->sibling_published_for >= RANK_OBSERVE_INIT_GRACE_S ||
        (cause == RANK_OBSERVE_UNWRAPPED_BINDING && in->age >= RANK_OBSERVE_BINDING_GRACE_S))
        return cause;
    return RANK_OBSERVE_PENDING;
}

rank_observe_cause rank_observe_stopped(rank_observe_cause cause)
{
    return cause == RANK_OBSERVE_UNKNOWN_INTERFACE || cause == RANK_OBSERVE_UNWRAPPED_BINDING ||
                   cause == RANK_OBSERVE_VANISHED
               ? RANK_OBSERVE_STOPPED_BEFORE_INIT
               : cause;
}

int rank_observe_unfound(double world_known_for, double agents_joined_for, int32_t to_come)
{
    double bound = to_come > 0 ? RANK_OBSERVE_ANNOUNCED_S : RANK_OBSERVE_UNFOUND_S;
    return world_known_for >= bound && agents_joined_for >= bound;
}

int32_t rank_observe_to_come(int32_t world, const rank_observe_agent *agents, int n)
{
    int64_t undelivered = 0, accounted = 0;
    int counted = 1;
    for (int i = 0; i < n; i++) {
        const rank_observe_agent *a = &agents[i];
        int32_t share = a->announced > a->named ? a->announced : a->named;
        accounted += share;
        /* a closed stream brings nothing more: what it did not name is lost with it */
        undelivered += a->gone ? 0 : share - a->named;
        /* an agent whose launcher said nothing holds an unknown part of the rest */
        counted &= a->announced > 0 || a->named == 0;
    }
    int64_t later = counted && world > accounted ? world - accounted : 0;
    return (int32_t)(undelivered + later);
}

const char *rank_observe_cause_name(rank_observe_cause cause)
{
    static const char *const names[] = {
        [RANK_OBSERVE_PENDING] = "pending",
        [RANK_OBSERVE_OK] = "observed",
        [RANK_OBSERVE_PRELOAD_REPLACED] = "preload_replaced",
        [RANK_OBSERVE_LIBRARY_NOT_LOADED] = "library_not_loaded",
        [RANK_OBSERVE_STATIC_BINARY] = "static_binary",
        [RANK_OBSERVE_NOT_MPI] = "not_mpi",
        [RANK_OBSERVE_OTHER_MPI] = "other_mpi",
        [RANK_OBSERVE_UNWRAPPED_BINDING] = "unwrapped_binding",
        [RANK_OBSERVE_UNKNOWN_INTERFACE] = "unknown_interface",
        [RANK_OBSERVE_VANISHED] = "vanished",
        [RANK_OBSERVE_OTHER_NODE] = "other_node",
        [RANK_OBSERVE_AGENT_LOST] = "agent_lost",
        [RANK_OBSERVE_NOT_FOUND] = "not_found",
        [RANK_OBSERVE_STOPPED_BEFORE_INIT] = "stopped_before_init",
    };
    return (unsigned)cause < sizeof names / sizeof *names ? names[cause] : "pending";
}

void rank_observe_explain(const rank_observe_input *in, rank_observe_cause cause, char *buf,
                          size_t len)
{
    const rank_observe_sight *s = in->sight;
    char silence[128];
    snprintf(silence, sizeof silence, "no MPI call reached mpiguard, not even MPI_Init, in %.0f s",
             in->age);
    switch (cause) {
    case RANK_OBSERVE_PRELOAD_REPLACED:
        snprintf(buf, len,
                 "not interposed: its LD_PRELOAD (%s%s%s) does not name mpiguard's library; a "
                 "launcher option (-x LD_PRELOAD, -genv LD_PRELOAD) or a script between the "
                 "launcher and the program replaced it",
                 s->preload_set ? "'" : "", s->preload_set ? s->preload : "unset",
                 s->preload_set ? "'" : "");
        return;
    case RANK_OBSERVE_LIBRARY_NOT_LOADED:
        snprintf(buf, len,
                 "not interposed: mpiguard's library is in its LD_PRELOAD but was not loaded (a "
                 "setuid program, or a library of another architecture)");
        return;
    case RANK_OBSERVE_STATIC_BINARY:
        snprintf(buf, len,
                 "not interposed: a statically linked %s; the dynamic loader never runs, so "
                 "LD_PRELOAD is ignored (link it dynamically)",
                 s->binary_defines_mpi ? "MPI program" : "program that is not MPI");
        return;
    case RANK_OBSERVE_NOT_MPI:
        snprintf(buf, len,
                 "not an MPI program: it maps no MPI library and defines no MPI function%s",
                 s->script ? " (the interpreter of a script that started no MPI program: a "
                             "wrapper that never execs it?)"
                           : "");
        return;
    case RANK_OBSERVE_OTHER_MPI:
        snprintf(buf, len,
                 "linked to %s but given mpiguard's %s library: it runs as a one-process job of "
                 "another MPI (use that MPI's launcher, or --mpi %s)",
                 mg_mpi_flavor_name(s->mapped_mpi), mg_mpi_flavor_name(in->expected),
                 mg_mpi_flavor_name(s->mapped_mpi));
        return;
    case RANK_OBSERVE_UNWRAPPED_BINDING:
        snprintf(buf, len,
                 "%s: it calls MPI through a language binding mpiguard does not wrap (%s calls "
                 "PMPI_* itself)",
                 silence, s->binding[0] ? s->binding : "its binding library");
        return;
    case RANK_OBSERVE_UNKNOWN_INTERFACE:
        snprintf(buf, len,
                 "%s, though mpiguard's library is loaded: it never called MPI_Init, or it uses "
                 "an MPI or an MPI interface mpiguard does not know",
                 silence);
        return;
    case RANK_OBSERVE_VANISHED:
        snprintf(buf, len, "ended before mpiguard could look at it or it published anything");
        return;
    case RANK_OBSERVE_OTHER_NODE:
        snprintf(buf, len,
                 "it runs on another node (a hostname of its own), whose shared memory mpiguard "
                 "cannot read from here; `mpiguard check --agent-launcher CMD` reads every node "
                 "through an agent there (docs/check.md, \"Across nodes\")");
        return;
    case RANK_OBSERVE_AGENT_LOST:
        snprintf(buf, len, "the agent of its node was lost while it ran");
        return;
    case RANK_OBSERVE_NOT_FOUND:
        snprintf(buf, len, "no agent found it while the job ran");
        return;
    case RANK_OBSERVE_STOPPED_BEFORE_INIT:
        snprintf(buf, len,
                 "mpiguard stopped the job before this rank reached its MPI_Init: none of its "
                 "calls was checked");
        return;
    case RANK_OBSERVE_OK:
    case RANK_OBSERVE_PENDING:
        snprintf(buf, len, "%s", rank_observe_cause_name(cause));
        return;
    }
}
