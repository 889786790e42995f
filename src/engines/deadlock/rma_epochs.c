/* One rank's epochs on one window (rma_epochs.h). */
#include "rma_epochs.h"

static int passive_open(const rma_epochs *w)
{
    return w->lock_all || w->locks;
}

static usage_args_problem lock(rma_epochs *w, int32_t target)
{
    if (w->lock_all || w->locked[target])
        return USAGE_ARGS_RMA_EPOCH_TWICE;
    w->locked[target] = 1;
    w->locks++;
    return USAGE_ARGS_OK;
}

static usage_args_problem unlock(rma_epochs *w, int32_t target)
{
    if (!w->locked[target])
        return USAGE_ARGS_RMA_CLOSE_UNOPENED;
    w->locked[target] = 0;
    w->locks--;
    return USAGE_ARGS_OK;
}

static usage_args_problem access(rma_epochs *w, int32_t target)
{
    if (w->lock_all || w->locked[target] || w->start_open)
        return USAGE_ARGS_OK;
    if (!w->fence_open)
        return USAGE_ARGS_RMA_OUTSIDE_EPOCH;
    w->fence_accessed = 1;
    return USAGE_ARGS_OK;
}

/* Opens the flag *open unless it is open already. */
static usage_args_problem open_once(uint8_t *open)
{
    if (*open)
        return USAGE_ARGS_RMA_EPOCH_TWICE;
    *open = 1;
    return USAGE_ARGS_OK;
}

static usage_args_problem close_open(uint8_t *open)
{
    if (!*open)
        return USAGE_ARGS_RMA_CLOSE_UNOPENED;
    *open = 0;
    return USAGE_ARGS_OK;
}

usage_args_problem rma_epochs_step(rma_epochs *w, rma_epochs_action action, int32_t target)
{
    int targeted = action == RMA_EPOCHS_LOCK || action == RMA_EPOCHS_UNLOCK ||
                   action == RMA_EPOCHS_ACCESS || action == RMA_EPOCHS_REQUEST_ACCESS ||
                   action == RMA_EPOCHS_FLUSH;
    if (targeted && (target < 0 || target >= w->targets))
        return USAGE_ARGS_OK;
    switch (action) {
    case RMA_EPOCHS_FENCE:
    case RMA_EPOCHS_FENCE_LAST:
        /* a fence inside a passive-target or PSCW access epoch mixes two kinds on one window */
        if (passive_open(w) || w->start_open)
            return USAGE_ARGS_RMA_EPOCH_TWICE;
        w->fence_open = action == RMA_EPOCHS_FENCE;
        w->fence_accessed = 0;
        return USAGE_ARGS_OK;
    case RMA_EPOCHS_START:
        if (passive_open(w))
            return USAGE_ARGS_RMA_EPOCH_TWICE;
        w->fence_open = 0; /* an unused fence epoch ends where another kind begins */
        return open_once(&w->start_open);
    case RMA_EPOCHS_COMPLETE:
        return close_open(&w->start_open);
    case RMA_EPOCHS_POST:
        return open_once(&w->post_open);
    case RMA_EPOCHS_WAIT:
        return close_open(&w->post_open);
    case RMA_EPOCHS_LOCK:
        return lock(w, target);
    case RMA_EPOCHS_UNLOCK:
        return unlock(w, target);
    case RMA_EPOCHS_LOCK_ALL:
        if (w->locks)
            return USAGE_ARGS_RMA_EPOCH_TWICE;
        return open_once(&w->lock_all);
    case RMA_EPOCHS_UNLOCK_ALL:
        return close_open(&w->lock_all);
    case RMA_EPOCHS_ACCESS:
        return access(w, target);
    /* a flush completes passive-target accesses only (MPI 3.1 §11.5.4), and a request-based
     * access is made in such an epoch only (§11.3.5): a fence or PSCW epoch does not make either
     * legal */
    case RMA_EPOCHS_REQUEST_ACCESS:
    case RMA_EPOCHS_FLUSH:
        return w->lock_all || w->locked[target] ? USAGE_ARGS_OK : USAGE_ARGS_RMA_OUTSIDE_EPOCH;
    case RMA_EPOCHS_FLUSH_ALL:
        return passive_open(w) ? USAGE_ARGS_OK : USAGE_ARGS_RMA_OUTSIDE_EPOCH;
    default: /* RMA_EPOCHS_FREE */
        if (passive_open(w) || w->start_open || w->post_open ||
            (w->fence_open && w->fence_accessed))
            return USAGE_ARGS_RMA_EPOCH_UNCLOSED;
        return USAGE_ARGS_OK;
    }
}
