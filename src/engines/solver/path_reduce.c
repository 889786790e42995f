/* Loop constraint reduction by outcome flips (docs/design/concolic-solver.md §3, dissertation
 * §2.4.3). */
#include "path_reduce.h"

#include <stdlib.h>

#include "mg_error.h"

/* The table doubles before it is half full so probes stay short. */
#define MIN_SLOTS 16

static size_t slot_of(uint32_t id, size_t cap)
{
    return (size_t)((id * 2654435761u) & (uint32_t)(cap - 1));
}

static int alloc_table(path_reduce *pr, size_t cap)
{
    pr->ids = calloc(cap, sizeof *pr->ids);
    pr->state = calloc(cap, sizeof *pr->state);
    if (!pr->ids || !pr->state) {
        free(pr->ids);
        free(pr->state);
        pr->ids = NULL;
        pr->state = NULL;
        return MG_ERROR_ENOMEM;
    }
    pr->cap = cap;
    pr->used = 0;
    return 0;
}

int path_reduce_init(path_reduce *pr, size_t expected)
{
    if (!pr || expected > SIZE_MAX / 4)
        return MG_ERROR_EINVAL;
    size_t cap = MIN_SLOTS;
    while (cap < expected * 2)
        cap *= 2;
    return alloc_table(pr, cap);
}

void path_reduce_free(path_reduce *pr)
{
    if (!pr)
        return;
    free(pr->ids);
    free(pr->state);
    pr->ids = NULL;
    pr->state = NULL;
    pr->cap = pr->used = 0;
}

static size_t find(const path_reduce *pr, uint32_t id)
{
    size_t s = slot_of(id, pr->cap);
    while (pr->state[s] != 0 && pr->ids[s] != id)
        s = (s + 1) & (pr->cap - 1);
    return s;
}

static int rehash(path_reduce *pr)
{
    path_reduce old = *pr;
    if (alloc_table(pr, old.cap * 2) != 0) {
        *pr = old;
        return MG_ERROR_ENOMEM;
    }
    for (size_t i = 0; i < old.cap; i++) {
        if (old.state[i] == 0)
            continue;
        size_t s = find(pr, old.ids[i]);
        pr->ids[s] = old.ids[i];
        pr->state[s] = old.state[i];
        pr->used++;
    }
    path_reduce_free(&old);
    return 0;
}

int path_reduce_admit(path_reduce *pr, uint32_t branch_id, int taken, int *record)
{
    if (!pr || !pr->ids || !record)
        return MG_ERROR_EINVAL;
    uint8_t now = taken ? 2 : 1;
    size_t s = find(pr, branch_id);
    if (pr->state[s] != 0) {
        *record = pr->state[s] != now;
        pr->state[s] = now;
        return 0;
    }
    *record = 1;
    if ((pr->used + 1) * 2 > pr->cap) {
        if (rehash(pr) != 0)
            return MG_ERROR_ENOMEM;
        s = find(pr, branch_id);
    }
    pr->ids[s] = branch_id;
    pr->state[s] = now;
    pr->used++;
    return 0;
}

int path_reduce_apply(const path_log_branch *in, uint32_t n, uint32_t *keep, uint32_t *nkeep)
{
    if ((!in && n) || (!keep && n) || !nkeep)
        return MG_ERROR_EINVAL;
    path_reduce pr;
    int rc = path_reduce_init(&pr, n);
    if (rc != 0)
        return rc;
    uint32_t k = 0;
    for (uint32_t i = 0; i < n && rc == 0; i++) {
        int record;
        rc = path_reduce_admit(&pr, in[i].branch_id, in[i].taken, &record);
        if (rc == 0 && record)
            keep[k++] = i;
    }
    path_reduce_free(&pr);
    *nkeep = k;
    return rc;
}
