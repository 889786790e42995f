/* Communicator registry of the detector, see comm_table.h. */
#include "comm_table.h"

#include <stdlib.h>
#include <string.h>

#include "check_event.h"
#include "mg_array.h"
#include "mg_error.h"

static int push_entry(comm_table *ct, const comm_table_entry *e, uint32_t *index)
{
    if (mg_array_reserve((void **)&ct->comms, &ct->cap, ct->n + 1, sizeof *ct->comms) ||
        key_map_put(&ct->by_id, e->id, 0, (uint32_t)ct->n)) {
        return MG_ERROR_ENOMEM;
    }
    ct->comms[ct->n] = *e;
    *index = (uint32_t)ct->n++;
    return MG_ERROR_OK;
}

int comm_table_init(comm_table *ct, int32_t world_size)
{
    if (!ct || world_size <= 0) {
        return MG_ERROR_EINVAL;
    }
    memset(ct, 0, sizeof *ct);
    key_map_init(&ct->by_id);
    key_map_init(&ct->local_of);
    ct->world_size = world_size;
    comm_table_entry world = {
        CHECK_EVENT_COMM_WORLD, (uint32_t)world_size, (uint32_t)world_size, 0, 1, 0};
    uint32_t index;
    int rc = push_entry(ct, &world, &index);
    if (rc) {
        comm_table_free(ct);
    }
    return rc;
}

void comm_table_free(comm_table *ct)
{
    free(ct->comms);
    free(ct->members);
    key_map_free(&ct->by_id);
    key_map_free(&ct->local_of);
    memset(ct, 0, sizeof *ct);
}

int comm_table_lookup(comm_table *ct, uint64_t id, uint32_t *index)
{
    if (key_map_get(&ct->by_id, id, 0, index)) {
        return MG_ERROR_OK;
    }
    if (!(id & CHECK_EVENT_COMM_SELF_FLAG) ||
        (id & ~CHECK_EVENT_COMM_SELF_FLAG) >= (uint64_t)ct->world_size) {
        return MG_ERROR_ENOENT;
    }
    int32_t self = (int32_t)(id & ~CHECK_EVENT_COMM_SELF_FLAG);
    return comm_table_add(ct, id, &self, 1, 1, 0, index);
}

int comm_table_add(comm_table *ct, uint64_t id, const int32_t *ranks, uint32_t n, uint32_t n_local,
                   int inter, uint32_t *index)
{
    if (!ct || !index || (n && !ranks) || n == 0 || n_local > n || id == CHECK_EVENT_COMM_NULL) {
        return MG_ERROR_EINVAL;
    }
    if (key_map_get(&ct->by_id, id, 0, index)) {
        return ct->comms[*index].size == n ? MG_ERROR_OK : MG_ERROR_EFORMAT;
    }
    int identity = !inter && n == (uint32_t)ct->world_size;
    for (uint32_t i = 0; i < n; i++) {
        if (ranks[i] < 0 || ranks[i] >= ct->world_size) {
            return MG_ERROR_EINVAL;
        }
        identity = identity && ranks[i] == (int32_t)i;
    }
    comm_table_entry e = {
        id, n, inter ? n_local : n, ct->n_members, (uint8_t)identity, (uint8_t) !!inter};
    uint32_t self_index = (uint32_t)ct->n;
    if (!identity) {
        if (mg_array_reserve((void **)&ct->members, &ct->cap_members, ct->n_members + n,
                             sizeof(int32_t))) {
            return MG_ERROR_ENOMEM;
        }
        for (uint32_t i = 0; i < n; i++) {
            uint32_t dup;
            if (key_map_get(&ct->local_of, self_index, (uint32_t)ranks[i], &dup)) {
                for (uint32_t j = 0; j < i; j++) {
                    key_map_remove(&ct->local_of, self_index, (uint32_t)ranks[j]);
                }
                return MG_ERROR_EINVAL;
            }
            if (key_map_put(&ct->local_of, self_index, (uint32_t)ranks[i], i)) {
                for (uint32_t j = 0; j < i; j++) {
                    key_map_remove(&ct->local_of, self_index, (uint32_t)ranks[j]);
                }
                return MG_ERROR_ENOMEM;
            }
            ct->members[ct->n_members + i] = ranks[i];
        }
    }
    int rc = push_entry(ct, &e, index);
    if (rc) {
        for (uint32_t j = 0; !identity && j < n; j++) {
            key_map_remove(&ct->local_of, self_index, (uint32_t)ranks[j]);
        }
        return rc;
    }
    if (!identity) {
        ct->n_members += n;
    }
    return MG_ERROR_OK;
}

uint32_t comm_table_size(const comm_table *ct, uint32_t index)
{
    return ct->comms[index].size;
}

int32_t comm_table_member(const comm_table *ct, uint32_t index, uint32_t local)
{
    const comm_table_entry *e = &ct->comms[index];
    return e->identity ? (int32_t)local : ct->members[e->members_off + local];
}

int comm_table_local(const comm_table *ct, uint32_t index, int32_t world, uint32_t *local)
{
    const comm_table_entry *e = &ct->comms[index];
    if (e->identity) {
        if (world < 0 || (uint32_t)world >= e->size) {
            return 0;
        }
        *local = (uint32_t)world;
        return 1;
    }
    return world >= 0 && key_map_get(&ct->local_of, index, (uint32_t)world, local);
}

uint64_t comm_table_id(const comm_table *ct, uint32_t index)
{
    return ct->comms[index].id;
}

int comm_table_clone(const comm_table *src, comm_table *dst)
{
    memset(dst, 0, sizeof *dst);
    dst->world_size = src->world_size;
    dst->comms = malloc(src->cap * sizeof *src->comms);
    dst->members = src->cap_members ? malloc(src->cap_members * sizeof(int32_t)) : NULL;
    if (!dst->comms || (src->cap_members && !dst->members) ||
        key_map_clone(&src->by_id, &dst->by_id) || key_map_clone(&src->local_of, &dst->local_of)) {
        comm_table_free(dst);
        return MG_ERROR_ENOMEM;
    }
    memcpy(dst->comms, src->comms, src->n * sizeof *src->comms);
    if (src->n_members) {
        memcpy(dst->members, src->members, src->n_members * sizeof(int32_t));
    }
    dst->n = src->n;
    dst->cap = src->cap;
    dst->n_members = src->n_members;
    dst->cap_members = src->cap_members;
    return MG_ERROR_OK;
}
