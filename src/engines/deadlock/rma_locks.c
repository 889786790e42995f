/* Passive-target lock waits in the wait-for model (rma_locks.h). */
#include "rma_locks.h"

#include <stdlib.h>
#include <string.h>

#include "mg_array.h"
#include "mg_error.h"

int rma_locks_about(uint16_t func)
{
    return func == CHECK_EVENT_FN_WIN_LOCK || func == CHECK_EVENT_FN_WIN_LOCK_ALL ||
           func == CHECK_EVENT_FN_WIN_UNLOCK || func == CHECK_EVENT_FN_WIN_UNLOCK_ALL ||
           func == CHECK_EVENT_FN_WIN_FREE;
}

int rma_locks_request_of(const check_event *ev, uint32_t comm, rma_locks_request *req)
{
    if (ev->kind != CHECK_EVENT_EV_ENTER)
        return 0;
    if (ev->func == CHECK_EVENT_FN_WIN_LOCK_ALL) {
        *req = (rma_locks_request){comm, RMA_LOCKS_EVERY_TARGET, ev->rank, 0};
        return 1;
    }
    if (ev->func != CHECK_EVENT_FN_WIN_LOCK || ev->peer < 0)
        return 0;
    *req = (rma_locks_request){comm, ev->peer, ev->rank, ev->count == RMA_LOCKS_EXCLUSIVE};
    return 1;
}

/* Drops the caller's holds on comm: of target (RMA_LOCKS_EVERY_TARGET: its Lock_all), or all. */
static void drop(rma_locks *l, uint32_t comm, int32_t rank, int all, int32_t target)
{
    size_t kept = 0;
    for (size_t i = 0; i < l->n; i++) {
        const rma_locks_hold *h = &l->holds[i];
        if (h->comm != comm || h->rank != rank || (!all && h->target != target))
            l->holds[kept++] = *h;
    }
    l->n = kept;
}

int rma_locks_record(rma_locks *l, uint32_t comm, const check_event *ev)
{
    int lock = ev->func == CHECK_EVENT_FN_WIN_LOCK || ev->func == CHECK_EVENT_FN_WIN_LOCK_ALL;
    if (lock && ev->kind == CHECK_EVENT_EV_EXIT && !(ev->flags & CHECK_EVENT_FLAG_REFUSED) &&
        (ev->func == CHECK_EVENT_FN_WIN_LOCK_ALL || ev->peer >= 0)) {
        if (mg_array_reserve((void **)&l->holds, &l->cap, l->n + 1, sizeof *l->holds))
            return MG_ERROR_ENOMEM;
        int every = ev->func == CHECK_EVENT_FN_WIN_LOCK_ALL;
        l->holds[l->n++] = (rma_locks_hold){comm, every ? RMA_LOCKS_EVERY_TARGET : ev->peer,
                                            ev->rank, !every && ev->count == RMA_LOCKS_EXCLUSIVE};
    } else if (ev->kind == CHECK_EVENT_EV_ENTER && ev->func == CHECK_EVENT_FN_WIN_UNLOCK) {
        drop(l, comm, ev->rank, 0, ev->peer);
    } else if (ev->kind == CHECK_EVENT_EV_ENTER && ev->func == CHECK_EVENT_FN_WIN_UNLOCK_ALL) {
        drop(l, comm, ev->rank, 0, RMA_LOCKS_EVERY_TARGET);
    } else if (ev->kind == CHECK_EVENT_EV_EXIT && ev->func == CHECK_EVENT_FN_WIN_FREE) {
        drop(l, comm, ev->rank, 1, 0);
    }
    return MG_ERROR_OK;
}

static int conflicts(const rma_locks_hold *h, const rma_locks_request *req)
{
    return h->comm == req->comm && h->rank != req->rank &&
           (h->target == req->target || h->target == RMA_LOCKS_EVERY_TARGET ||
            req->target == RMA_LOCKS_EVERY_TARGET) &&
           (h->exclusive || req->exclusive);
}

int rma_locks_next_blocker(const rma_locks *l, const rma_locks_request *req, size_t *from,
                           int32_t *holder)
{
    for (; *from < l->n; (*from)++) {
        if (conflicts(&l->holds[*from], req)) {
            *holder = l->holds[(*from)++].rank;
            return 1;
        }
    }
    return 0;
}

int rma_locks_clone(const rma_locks *src, rma_locks *dst)
{
    *dst = (rma_locks){0};
    if (!src->n)
        return MG_ERROR_OK;
    dst->holds = malloc(src->n * sizeof *dst->holds);
    if (!dst->holds)
        return MG_ERROR_ENOMEM;
    memcpy(dst->holds, src->holds, src->n * sizeof *dst->holds);
    dst->n = dst->cap = src->n;
    return MG_ERROR_OK;
}

void rma_locks_free(rma_locks *l)
{
    free(l->holds);
    *l = (rma_locks){0};
}
