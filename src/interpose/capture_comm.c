/* The capture module's communicator registry (capture_comm.h). Constructors are not on the hot
 * path: registering allocates the member arrays there. */
#include "capture_comm.h"
#include "handle_bits.h"

#include "check_event.h"
#include "mg_error.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_COMMS = 4096 };

static capture_comm comms[MAX_COMMS];
static int used_comms;
static capture_table by_handle; /* handle -> index in comms */
/* Handles freed and not handed out again since: a copy of one passed to a call is reported. */
static capture_table freed;
static MPI_Group world_group;
/* The last lookup: most programs use one communicator for long stretches. */
static uint64_t last_key = UINT64_MAX;
static capture_comm *last_comm;

static uint64_t key_of(MPI_Comm comm)
{
    return mg_handle_bits(&comm, sizeof comm);
}

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static capture_comm *add(MPI_Comm handle, uint64_t id)
{
    if (used_comms == MAX_COMMS ||
        capture_table_put(&by_handle, key_of(handle), (uint64_t)used_comms))
        return NULL;
    capture_table_remove(&freed, key_of(handle));
    capture_comm *c = &comms[used_comms++];
    memset(c, 0, sizeof *c);
    c->id = id;
    last_key = UINT64_MAX;
    return c;
}

int capture_comm_init(int rank, int size)
{
    if (capture_table_init(&by_handle, MAX_COMMS) || capture_table_init(&freed, MAX_COMMS))
        return MG_ERROR_ENOMEM;
    PMPI_Comm_group(MPI_COMM_WORLD, &world_group);
    capture_comm *w = add(MPI_COMM_WORLD, CHECK_EVENT_COMM_WORLD);
    capture_comm *s = add(MPI_COMM_SELF, check_comm_self_id(rank));
    s->world = malloc(sizeof *s->world);
    if (!w || !s->world)
        return MG_ERROR_ENOMEM;
    w->size = size;
    s->size = 1;
    s->world[0] = rank;
    return MG_ERROR_OK;
}

void capture_comm_free_all(void)
{
    for (int i = 0; i < used_comms; i++) {
        free(comms[i].world);
        free(comms[i].remote);
    }
    used_comms = 0;
    capture_table_free(&by_handle);
    capture_table_free(&freed);
    last_key = UINT64_MAX;
}

capture_comm *capture_comm_find(MPI_Comm comm)
{
    uint64_t k = key_of(comm), index;
    if (k == last_key)
        return last_comm;
    if (!capture_table_get(&by_handle, k, &index))
        return NULL;
    last_key = k;
    last_comm = &comms[index];
    return last_comm;
}

int32_t capture_comm_world(const capture_comm *c, int r)
{
    if (r == MPI_ANY_SOURCE)
        return CHECK_EVENT_ANY_SOURCE;
    if (r == MPI_PROC_NULL)
        return CHECK_EVENT_PROC_NULL;
    const int32_t *map = c->remote ? c->remote : c->world;
    int n = c->remote ? c->remote_size : c->size;
    if (r < 0 || r >= n || !map)
        return r;
    return map[r];
}

int32_t *capture_comm_members(MPI_Group g, int n)
{
    int *local = calloc((size_t)(n ? n : 1), sizeof *local);
    int *world = calloc((size_t)(n ? n : 1), sizeof *world);
    int32_t *out = malloc((size_t)(n ? n : 1) * sizeof *out);
    if (local && world && out) {
        for (int i = 0; i < n; i++)
            local[i] = i;
        PMPI_Group_translate_ranks(g, n, local, world_group, world);
        for (int i = 0; i < n; i++)
            out[i] = world[i];
    } else {
        free(out);
        out = NULL;
    }
    free(local);
    free(world);
    return out;
}

static int32_t lowest(const int32_t *v, int n)
{
    int32_t m = INT32_MAX;
    for (int i = 0; i < n; i++)
        if (v[i] < m)
            m = v[i];
    return m;
}

static uint64_t usable_id(uint64_t id)
{
    id &= ~CHECK_EVENT_COMM_SELF_FLAG; /* the SELF ids and WORLD/NULL stay apart */
    return id <= CHECK_EVENT_COMM_WORLD ? id + 2 : id;
}

/* What tells the members of a new communicator apart from its siblings, alike on every member:
 * the lowest member; for an intercommunicator both groups' lowest in ascending order, since
 * each side sees its own group as the local one (a Comm_dup of an intercommunicator got two ids,
 * one per side, and its Comm_free looked like a deadlock). */
static uint64_t members_key(const int32_t *world, int n, const int32_t *remote, int rn)
{
    if (!remote)
        return (uint64_t)lowest(world, n) + 1;
    int32_t a = lowest(world, n), b = lowest(remote, rn);
    return (uint64_t)(uint32_t)(a < b ? a : b) << 32 | (uint32_t)(a < b ? b : a);
}

/* An id every member computes alike: the parent's id, how many communicators the members created
 * from it before (order), and the members (which tell the groups of one split apart). */
static uint64_t child_id(const capture_comm *parent, uint32_t order, uint64_t members)
{
    return usable_id(mix(parent->id ^ mix(order ^ mix(members))));
}

int capture_comm_derive(capture_comm *parent, capture_comm *out)
{
    memset(out, 0, sizeof *out);
    out->size = parent->size;
    if (parent->world) {
        out->world = malloc((size_t)parent->size * sizeof *out->world);
        if (!out->world)
            return MG_ERROR_ENOMEM;
        memcpy(out->world, parent->world, (size_t)parent->size * sizeof *out->world);
    }
    uint64_t members = parent->world ? members_key(parent->world, parent->size, NULL, 0) : 1;
    out->id = child_id(parent, parent->creations++, members);
    return MG_ERROR_OK;
}

capture_comm *capture_comm_register(capture_comm *parent, MPI_Comm newcomm, int tag)
{
    /* Counted on every member, including those that get MPI_COMM_NULL, so counts stay equal. */
    uint32_t order = parent ? parent->creations++ : 0;
    if (newcomm == MPI_COMM_NULL)
        return NULL;
    int inter = 0, n = 0, rn = 0;
    MPI_Group g, rg;
    PMPI_Comm_test_inter(newcomm, &inter);
    PMPI_Comm_group(newcomm, &g);
    PMPI_Group_size(g, &n);
    int32_t *world = capture_comm_members(g, n), *remote = NULL;
    PMPI_Group_free(&g);
    if (inter) {
        PMPI_Comm_remote_group(newcomm, &rg);
        PMPI_Group_size(rg, &rn);
        remote = capture_comm_members(rg, rn);
        PMPI_Group_free(&rg);
    }
    if (!world || (inter && !remote)) {
        free(world);
        free(remote);
        return NULL;
    }
    /* Intercomm_create has two parents; its id comes from the tag and the members. */
    uint64_t id, members = members_key(world, n, remote, rn);
    if (parent)
        id = child_id(parent, order, members);
    else
        id = usable_id(mix(0x1c7e5ULL ^ mix((uint64_t)(uint32_t)tag ^ mix(members))));
    capture_comm *c = add(newcomm, id);
    if (!c) {
        free(world);
        free(remote);
        return NULL;
    }
    c->size = n;
    c->world = world;
    c->remote = remote;
    c->remote_size = rn;
    return c;
}

void capture_comm_forget(MPI_Comm comm)
{
    uint64_t k = key_of(comm), index;
    if (!capture_table_get(&by_handle, k, &index))
        return;
    capture_table_remove(&by_handle, k);
    /* past the table's room a freed handle is simply not reported */
    (void)capture_table_put(&freed, k, 0);
    free(comms[index].world);
    free(comms[index].remote);
    comms[index].world = comms[index].remote = NULL;
    last_key = UINT64_MAX;
}

int capture_comm_freed(MPI_Comm comm)
{
    uint64_t unused;
    return capture_table_get(&freed, key_of(comm), &unused);
}
