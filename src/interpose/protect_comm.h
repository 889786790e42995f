/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* What the protection module keeps per application communicator, cached on it as an attribute:
 * its rank and size, the private duplicate the module's control messages travel on (never the
 * application's communicator, never MPI_COMM_WORLD), and W1-A's group communicators, created once
 * per group layout and reused (docs/design/collectives.md, "The protection module"). Needs mpi.h.
 */
#ifndef MG_PROTECT_COMM_H
#define MG_PROTECT_COMM_H

#include <mpi.h>
#include "mpi_handles_weak.h"
#include "interpose_hooks.h"
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

enum { PROTECT_COMM_GROUP_CACHE = 8 };

typedef struct protect_comm_group_cache {
    uint32_t coll, root, ngroups; /* the layout's key (membership depends on the collective);
                                     ngroups 0: slot unused */
    uint32_t *starts;             /* ngroups + 1 */
    MPI_Comm *comms;              /* ngroups; MPI_COMM_NULL where this rank is not a member */
} protect_comm_group_cache;

typedef struct protect_comm {
    int rank, size, inter;
    MPI_Comm dup; /* MPI_COMM_NULL until the first control message */
    protect_comm_group_cache groups[PROTECT_COMM_GROUP_CACHE];
    unsigned next_evict;
} protect_comm;

/* Creates the attribute key; called once at init. Returns 0 or an MPI error code. */
int protect_comm_setup(void);

/* The module's record of comm, created on first use (local: no communication), read from the
 * communicator's attribute and remembered as the thread's last lookup. Returns NULL when out of
 * memory or the attribute calls fail (the caller passes the call through). */
protect_comm *protect_comm_lookup(MPI_Comm comm);

/* The record the thread looked up last: programs run their collectives on one or two
 * communicators, and a hit skips MPI_Comm_get_attr (about 160 instructions on Open MPI, most of a
 * call that nothing fires on). A freed communicator's handle can come back for a new one, so the
 * entry holds only while no record has been freed since it was made (protect_comm_hot.records_freed
 * counts the frees). It keeps a copy of the record's rank, size and inter, so that the entry
 * points' quick pass reads the thread's own line and not the record's. */
typedef struct protect_comm_last {
    MPI_Comm comm;
    protect_comm *record;
    unsigned freed;
    int rank, size, inter;
} protect_comm_last;
extern _Thread_local protect_comm_last protect_comm_last_lookup INTERPOSE_HOOKS_TLS_FAST;

/* What every call of an irregular collective reads before anything else, in one cache line: with
 * 2-8 ranks on a core, each further line the quick pass touches is a miss after MPI's progress loop
 * ran, and costs about 1% of a 0.4 µs Gatherv (docs/collectives-measurements.md, "Cost when no
 * detector fires"). */
typedef struct protect_comm_hot_data {
    _Atomic unsigned records_freed; /* records freed so far (the delete callback counts) */
    /* [nonblocking]: bit 1u << coll for an int irregular collective that no bound covers and whose
     * ranks need not agree: only Detector D can fire on it, and only where a count or displacement
     * is negative (protect_quick_pass; set by protect_run_watch_setup). */
    uint32_t vectors_only[2];
} protect_comm_hot_data;
extern protect_comm_hot_data protect_comm_hot;

/* The thread's last lookup where it holds for comm, else NULL: no call, so that the entry points'
 * quick pass stays a leaf (a miss sends the call the longer way, which looks up). */
static inline const protect_comm_last *protect_comm_remembered(MPI_Comm comm)
{
    unsigned freed = atomic_load_explicit(&protect_comm_hot.records_freed, memory_order_acquire);
    const protect_comm_last *last = &protect_comm_last_lookup;
    return last->record && last->comm == comm && last->freed == freed ? last : NULL;
}

/* protect_comm_lookup, answered from the thread's last lookup where it holds: inline, since every
 * watched call asks. */
static inline protect_comm *protect_comm_get(MPI_Comm comm)
{
    const protect_comm_last *remembered = protect_comm_remembered(comm);
    return remembered ? remembered->record : protect_comm_lookup(comm);
}

/* Makes comm the thread's last lookup, so that protect_comm_remembered answers for it; 0 where it
 * has no record (MPI_COMM_NULL, or the lookup failed). */
static inline int protect_comm_remember(MPI_Comm comm)
{
    return comm != MPI_COMM_NULL && protect_comm_get(comm) != NULL;
}

/* The private duplicate of comm, created on first use. Collective over comm: every rank must call
 * it at the same point (the module does so only where every rank takes the same path). Returns
 * MPI_COMM_NULL when the duplication failed. */
MPI_Comm protect_comm_private(protect_comm *pcomm, MPI_Comm comm);

/* The communicators of W1-A's groups for this layout (collective, root, starts[0..ngroups], and
 * each group's members as scaling_w1a_group gives them), created from the private duplicate on
 * first use and cached (at most PROTECT_COMM_GROUP_CACHE layouts; the oldest is freed, in the same
 * order on every rank since every rank sees the same layouts). members_of(g, members, &n, ctx)
 * lists group g. Returns the array (MPI_COMM_NULL where this rank is not a member), or NULL on
 * failure.
 */
typedef int protect_comm_members_fn(uint32_t g, uint32_t *members, uint32_t *n, void *ctx);
const MPI_Comm *protect_comm_groups(protect_comm *pcomm, uint32_t coll, uint32_t root,
                                    uint32_t ngroups, const uint32_t *starts,
                                    protect_comm_members_fn *members_of, void *ctx);

#endif
