/* Request registry of the detector, see request_table.h. */
#include "request_table.h"

#include <stdlib.h>
#include <string.h>

#include "mg_array.h"
#include "mg_error.h"

#define REQ_NONE UINT32_MAX

void request_table_init(request_table *rt)
{
    memset(rt, 0, sizeof *rt);
    rt->free_head = REQ_NONE;
    key_map_init(&rt->index);
}

void request_table_free(request_table *rt)
{
    free(rt->reqs);
    key_map_free(&rt->index);
    request_table_init(rt);
}

int request_table_clone(const request_table *src, request_table *dst)
{
    *dst = *src;
    dst->reqs = NULL;
    if (src->cap) {
        dst->reqs = malloc(src->cap * sizeof *src->reqs);
        if (!dst->reqs) {
            key_map_init(&dst->index);
            return MG_ERROR_ENOMEM;
        }
        memcpy(dst->reqs, src->reqs, src->n * sizeof *src->reqs);
    }
    if (key_map_clone(&src->index, &dst->index)) {
        request_table_free(dst);
        return MG_ERROR_ENOMEM;
    }
    return MG_ERROR_OK;
}

int request_table_add(request_table *rt, int32_t rank, uint64_t id, request_table_entry **out)
{
    uint32_t slot;
    if (key_map_get(&rt->index, (uint32_t)rank, id, &slot)) {
        return MG_ERROR_ESTATE;
    }
    if (rt->free_head != REQ_NONE) {
        slot = rt->free_head;
    } else {
        if (mg_array_reserve((void **)&rt->reqs, &rt->cap, rt->n + 1, sizeof *rt->reqs)) {
            return MG_ERROR_ENOMEM;
        }
        slot = (uint32_t)rt->n;
    }
    if (key_map_put(&rt->index, (uint32_t)rank, id, slot)) {
        return MG_ERROR_ENOMEM;
    }
    if (slot == rt->free_head) {
        rt->free_head = rt->reqs[slot].next_free;
    } else {
        rt->n++;
    }
    request_table_entry *r = &rt->reqs[slot];
    memset(r, 0, sizeof *r);
    r->id = id;
    r->rank = rank;
    r->op = P2P_MATCH_NONE;
    rt->live++;
    *out = r;
    return MG_ERROR_OK;
}

request_table_entry *request_table_find(request_table *rt, int32_t rank, uint64_t id)
{
    uint32_t slot;
    return key_map_get(&rt->index, (uint32_t)rank, id, &slot) ? &rt->reqs[slot] : NULL;
}

void request_table_remove(request_table *rt, request_table_entry *req)
{
    key_map_remove(&rt->index, (uint32_t)req->rank, req->id);
    req->kind = REQUEST_TABLE_FREE;
    req->next_free = rt->free_head;
    rt->free_head = (uint32_t)(req - rt->reqs);
    rt->live--;
}
