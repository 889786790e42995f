/* A rank that dies while the job runs (hang_dead.h). */
#include "hang_dead.h"

int hang_dead_first(const struct hang_dead_rank *ranks, size_t n, bool *all_seen)
{
    int first = -1;
    uint64_t first_when = UINT64_MAX;
    bool every = true;
    for (size_t r = 0; r < n; r++) {
        const struct hang_dead_rank *x = &ranks[r];
        every = every && (!x->found || x->exit_seen);
        if (!x->found || !(x->exit_seen || x->gone))
            continue;
        /* finalized, or ended on purpose; without a published state only a signal says it died */
        if (x->published ? x->finalized || x->aborting : !(x->exit_seen && x->signaled))
            continue;
        uint64_t when = x->exit_seen ? x->when : UINT64_MAX;
        if (first < 0 || when < first_when) {
            first = (int)r;
            first_when = when;
        }
    }
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
