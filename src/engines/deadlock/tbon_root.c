/* The root's answers to the stages of the tree of detectors. Design: docs/design/check-detector.md
 * §14. */
#include "tbon_root.h"

#include <stdlib.h>

#include "mg_array.h"
#include "mg_error.h"

struct tbon_root {
    int32_t world;
    uint64_t *awaited_exit; /* per rank: the exit its stage waits on (0: none) */
    uint64_t *seen;         /* per rank: the last record's seq */
    int32_t *owner;         /* per rank: the leaf that claimed it, -1 for none */
    int32_t claimed;        /* ranks with an owner */
    int32_t *pending;       /* ranks with one, in no order */
    size_t n_pending, cap_pending;
    tbon_leaf_call *answers;
    size_t cap_answers;
};

int tbon_root_create(int32_t world_size, tbon_root **out)
{
    if (!out || world_size <= 0) {
        return MG_ERROR_EINVAL;
    }
    tbon_root *root = calloc(1, sizeof *root);
    if (!root || !(root->awaited_exit = calloc((size_t)world_size, sizeof *root->awaited_exit)) ||
        !(root->seen = calloc((size_t)world_size, sizeof *root->seen)) ||
        !(root->owner = malloc((size_t)world_size * sizeof *root->owner))) {
        tbon_root_destroy(root);
        return MG_ERROR_ENOMEM;
    }
    for (int32_t r = 0; r < world_size; r++) {
        root->owner[r] = -1;
    }
    root->world = world_size;
    *out = root;
    return MG_ERROR_OK;
}

void tbon_root_destroy(tbon_root *root)
{
    if (!root) {
        return;
    }
    free(root->awaited_exit);
    free(root->seen);
    free(root->owner);
    free(root->pending);
    free(root->answers);
    free(root);
}

int tbon_root_claim(tbon_root *root, int32_t leaf, const int32_t *ranks, int32_t n, int32_t *clash)
{
    if (!ranks || n < 0 || leaf < 0) {
        return MG_ERROR_EINVAL;
    }
    for (int32_t i = 0; i < n; i++) {
        if (ranks[i] < 0 || ranks[i] >= root->world) {
            return MG_ERROR_EINVAL;
        }
        if (root->owner[ranks[i]] >= 0 && root->owner[ranks[i]] != leaf) {
            if (clash) {
                *clash = ranks[i];
            }
            return MG_ERROR_ESTATE;
        }
    }
    for (int32_t i = 0; i < n; i++) {
        root->claimed += root->owner[ranks[i]] < 0;
        root->owner[ranks[i]] = leaf;
    }
    return MG_ERROR_OK;
}

int32_t tbon_root_unclaimed(const tbon_root *root, int32_t *first)
{
    if (first) {
        *first = -1;
        for (int32_t r = 0; *first < 0 && r < root->world && root->claimed < root->world; r++) {
            *first = root->owner[r] < 0 ? r : -1;
        }
    }
    return root->world - root->claimed;
}

int32_t tbon_root_owner(const tbon_root *root, int32_t rank)
{
    return rank >= 0 && rank < root->world ? root->owner[rank] : -1;
}

int tbon_root_note(tbon_root *root, const check_event *ev)
{
    if (ev->rank < 0 || ev->rank >= root->world) {
        return MG_ERROR_EINVAL;
    }
    root->seen[ev->rank] = ev->seq; /* a rank's records come up in their order */
    if (!tbon_leaf_awaits_answer(ev)) {
        return MG_ERROR_OK;
    }
    /* a stage waits on the rank's last such exit only (it holds the rank's records behind it) */
    if (!root->awaited_exit[ev->rank]) {
        int rc = mg_array_reserve((void **)&root->pending, &root->cap_pending, root->n_pending + 1,
                                  sizeof *root->pending);
        if (rc) {
            return rc;
        }
        root->pending[root->n_pending++] = ev->rank;
    }
    root->awaited_exit[ev->rank] = ev->seq;
    return MG_ERROR_OK;
}

const uint64_t *tbon_root_seen(const tbon_root *root)
{
    return root->seen;
}

int tbon_root_answers(tbon_root *root, const deadlock_detector *det, const tbon_leaf_call **out,
                      size_t *n)
{
    int rc = mg_array_reserve((void **)&root->answers, &root->cap_answers, root->n_pending,
                              sizeof *root->answers);
    if (rc) {
        return rc;
    }
    *n = 0;
    for (size_t i = 0; i < root->n_pending;) {
        int32_t rank = root->pending[i];
        if (deadlock_detector_rank_in_call(det, rank)) {
            i++;
            continue;
        }
        root->answers[(*n)++] = (tbon_leaf_call){rank, root->awaited_exit[rank]};
        root->awaited_exit[rank] = 0;
        root->pending[i] = root->pending[--root->n_pending];
    }
    *out = root->answers;
    return MG_ERROR_OK;
}
