/* Per-communicator state of the protection module; see protect_comm.h. */
#include "protect_comm.h"
#include "protect_pmpi.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "interpose_hooks.h"

/* The tag of Comm_create_group among the module's own traffic on the private duplicate. */
enum { GROUP_TAG = 0x6d67 };

static int keyval = MPI_KEYVAL_INVALID;

_Alignas(64) protect_comm_hot_data protect_comm_hot;
_Thread_local protect_comm_last protect_comm_last_lookup INTERPOSE_HOOKS_TLS_FAST;

static void free_groups(protect_comm_group_cache *g)
{
    for (uint32_t i = 0; i < g->ngroups; i++)
        if (g->comms[i] != MPI_COMM_NULL)
            PMPI_Comm_free(&g->comms[i]);
    free(g->starts);
    free(g->comms);
    memset(g, 0, sizeof *g);
}

/* Called by MPI when the application frees its communicator: the module's copies go with it. */
static int delete_record(MPI_Comm comm, int key, void *value, void *extra)
{
    (void)comm, (void)key, (void)extra;
    atomic_fetch_add(&protect_comm_hot.records_freed, 1);
    protect_comm *p = value;
    for (int i = 0; i < PROTECT_COMM_GROUP_CACHE; i++)
        free_groups(&p->groups[i]);
    if (p->dup != MPI_COMM_NULL)
        PMPI_Comm_free(&p->dup);
    free(p);
    return MPI_SUCCESS;
}

int protect_comm_setup(void)
{
    return PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_record, &keyval, NULL);
}

/* The record on comm, created on first use. */
static protect_comm *record_of(MPI_Comm comm)
{
    void *value = NULL;
    int flag = 0;
    if (PMPI_Comm_get_attr(comm, keyval, &value, &flag) != MPI_SUCCESS)
        return NULL;
    if (flag)
        return value;
    protect_comm *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->dup = MPI_COMM_NULL;
    if (PMPI_Comm_rank(comm, &p->rank) != MPI_SUCCESS ||
        PMPI_Comm_size(comm, &p->size) != MPI_SUCCESS ||
        PMPI_Comm_test_inter(comm, &p->inter) != MPI_SUCCESS ||
        PMPI_Comm_set_attr(comm, keyval, p) != MPI_SUCCESS) {
        free(p);
        return NULL;
    }
    return p;
}

protect_comm *protect_comm_lookup(MPI_Comm comm)
{
    /* read before the lookup: a free during it voids the entry made from it */
    unsigned freed = atomic_load_explicit(&protect_comm_hot.records_freed, memory_order_acquire);
    protect_comm *p = record_of(comm);
    if (p)
        protect_comm_last_lookup = (protect_comm_last){comm, p, freed, p->rank, p->size, p->inter};
    return p;
}

MPI_Comm protect_comm_private(protect_comm *p, MPI_Comm comm)
{
    if (p->dup == MPI_COMM_NULL && PMPI_Comm_dup(comm, &p->dup) != MPI_SUCCESS)
        p->dup = MPI_COMM_NULL;
    return p->dup;
}

static protect_comm_group_cache *find(protect_comm *p, uint32_t coll, uint32_t root,
                                      uint32_t ngroups, const uint32_t *starts)
{
    for (int i = 0; i < PROTECT_COMM_GROUP_CACHE; i++) {
        protect_comm_group_cache *g = &p->groups[i];
        if (g->ngroups == ngroups && g->coll == coll && g->root == root &&
            memcmp(g->starts, starts, (ngroups + 1) * sizeof *starts) == 0)
            return g;
    }
    return NULL;
}

/* Creates group gi's communicator (members only). */
static int create_one(MPI_Comm dup, MPI_Group world, const uint32_t *members, uint32_t n,
                      MPI_Comm *out)
{
    MPI_Group grp;
    int rc = PMPI_Group_incl(world, (int)n, (const int *)members, &grp);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = PMPI_Comm_create_group(dup, grp, GROUP_TAG, out);
    PMPI_Group_free(&grp);
    return rc;
}

const MPI_Comm *protect_comm_groups(protect_comm *p, uint32_t coll, uint32_t root, uint32_t ngroups,
                                    const uint32_t *starts, protect_comm_members_fn *members_of,
                                    void *ctx)
{
    protect_comm_group_cache *g = find(p, coll, root, ngroups, starts);
    if (g)
        return g->comms;
    g = &p->groups[p->next_evict++ % PROTECT_COMM_GROUP_CACHE];
    free_groups(g);
    uint32_t *members = malloc((size_t)p->size * sizeof *members);
    g->starts = malloc((ngroups + 1) * sizeof *starts);
    g->comms = malloc(ngroups * sizeof *g->comms);
    MPI_Group world = MPI_GROUP_NULL;
    int ok = members && g->starts && g->comms && PMPI_Comm_group(p->dup, &world) == MPI_SUCCESS;
    for (uint32_t i = 0; ok && i < ngroups; i++) {
        uint32_t n = 0;
        g->comms[i] = MPI_COMM_NULL;
        g->ngroups = i + 1; /* what was created so far is freed on failure */
        int member = members_of(i, members, &n, ctx);
        ok = !member || create_one(p->dup, world, members, n, &g->comms[i]) == MPI_SUCCESS;
    }
    if (world != MPI_GROUP_NULL)
        PMPI_Group_free(&world);
    free(members);
    if (!ok) {
        free_groups(g);
        return NULL;
    }
    memcpy(g->starts, starts, (ngroups + 1) * sizeof *starts);
    g->coll = coll;
    g->root = root;
    g->ngroups = ngroups;
    return g->comms;
}
