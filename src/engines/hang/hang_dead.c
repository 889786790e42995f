/* A rank that dies while the job runs (hang_dead.h). */
#include "hang_dead.h"

#include <signal.h>

/* Whether x died without MPI_Finalize: finalized, or ended on purpose, is no death; without a
 * published state only a signal says it died. */
static bool died(const struct hang_dead_rank *x)
{
    if (!x->found || !(x->exit_seen || x->gone))
        return false;
    return x->published ? !x->finalized && !x->aborting : x->exit_seen && x->signal != 0;
}

/* Its abort may follow another rank's death: an MPI library that finds a peer gone aborts inside
 * the call (UCX's cma transport: process_vm_readv of a killed rank failing with ESRCH, run 131088
 * of issue 29). A killed rank is unreachable from the start of its exit, whose event comes at its
 * end, after its memory is torn down: the abort's own exit can end first. */
static bool may_follow(const struct hang_dead_rank *x)
{
    return x->exit_seen && x->signal == SIGABRT && x->in_mpi;
}

/* Whether a died before b: by the kernel's order of their starts when both are known, else a
 * death that may follow another after one that may not, else by the end of their exits. */
static bool before(const struct hang_dead_rank *a, const struct hang_dead_rank *b, bool ordered)
{
    if (ordered)
        return a->order < b->order;
    if (may_follow(a) != may_follow(b))
        return may_follow(b);
    return (a->exit_seen ? a->when : UINT64_MAX) < (b->exit_seen ? b->when : UINT64_MAX);
}

int hang_dead_first(const struct hang_dead_rank *ranks, size_t n, bool *all_seen)
{
    bool every = true, ordered = true;
    for (size_t r = 0; r < n; r++) {
        every = every && (!ranks[r].found || ranks[r].exit_seen);
        ordered = ordered && (!died(&ranks[r]) || ranks[r].ordered);
    }
    int first = -1;
    for (size_t r = 0; r < n; r++)
        if (died(&ranks[r]) && (first < 0 || before(&ranks[r], &ranks[first], ordered)))
            first = (int)r;
    if (all_seen)
        *all_seen = every;
    return first;
}

void hang_dead_watch_init(struct hang_dead_watch *w)
{
    w->since = -1;
}

bool hang_dead_watch_feed(struct hang_dead_watch *w, int dead, double now)
{
    if (dead < 0 || w->since < 0) {
        w->since = dead < 0 ? -1 : now;
        return false;
    }
    return now - w->since >= HANG_DEAD_GRACE_S;
}
