/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* The state module's stores around an MPI call (state_module.c), inlined into the wrappers' state
 * route (interpose.c): under `mpiguard hang` the state module is the only one with hooks, and the
 * hooked route's frame, hook loops and indirect calls cost more than the stores themselves on a
 * polling call (hpcc's MPI_Testany: docs/apps.md, "What the wrappers cost"). */
#ifndef MG_STATE_MODULE_H
#define MG_STATE_MODULE_H

#include "module.h"
#include "rank_state.h"

#include <stdint.h>

/* A rank's segment, its rank, size and pid, created at MPI_Init whatever modules are on, so that
 * every tool observes the rank (observe_ranks_by_state), and `protect` with no per-call work: the
 * state module's hooks cost it more than its bound (bench/apps/cost_bound.sh). 0 when published;
 * -1 with no MPIGUARD_JOB_TOKEN (no tool started the job) or no shared memory (logged). */
int state_module_publish(const module_job *job);
/* At MPI_Finalize or MPI_Abort, after the modules' finalize: marks the segment finalized and
 * removes its name unless the command that started the job removes it. */
void state_module_unpublish(void);

/* What the stores need, set by the module's init before any call takes a hooked or state route and
 * not changed after; hidden, so the wrappers reach it without the GOT. */
enum { STATE_MODULE_WAITS_ON_REQUESTS = 1, STATE_MODULE_POLLS = 2 };
typedef struct state_module_hot {
    rank_state *segment;
    /* Below MPI_THREAD_MULTIPLE at most one thread is inside MPI at a time, so the completed calls
     * are a load and a store and threads_in_mpi is 1 or 0, stored without reading it; the locked
     * read-modify-writes needed otherwise were half the cost of a cheap call
     * (bench/hang/call_cost.sh, docs/hang-measurements.md "Overhead"). */
    int concurrent_calls;
    /* Per function, whether its entry publishes RANK_STATE_WAIT_REQUESTS and whether it polls
     * (class POLL), looked up once at init: a lookup is a call into another unit, a few ns on every
     * MPI call where this is one load (bench/apps/cost_bound.sh, hpcc's MPI_Testany). */
    uint8_t fn_kind[MG_FN_COUNT];
} state_module_hot;
extern __attribute__((visibility("hidden"))) state_module_hot state_module_hot_path;

/* On entry to an outermost call of fn. The segment's pointer is read once: read after a store,
 * it was loaded again, as a store may alias it. */
static inline void state_module_enter(mpi_function_ids_fn fn)
{
    rank_state *s = state_module_hot_path.segment;
    atomic_store_explicit(&s->current_fn, fn, memory_order_relaxed);
    if (state_module_hot_path.fn_kind[fn] & STATE_MODULE_WAITS_ON_REQUESTS)
        atomic_store_explicit(&s->wait_on, RANK_STATE_WAIT_REQUESTS, memory_order_relaxed);
    if (state_module_hot_path.concurrent_calls) {
        atomic_fetch_add_explicit(&s->threads_in_mpi, 1, memory_order_release);
        return;
    }
    atomic_store_explicit(&s->threads_in_mpi, 1, memory_order_release);
}

/* On return from it; polls is whether fn is of class POLL, a constant where the wrappers call it.
 */
static inline void state_module_leave(int polls)
{
    rank_state *s = state_module_hot_path.segment;
    if (!polls) {
        uint64_t others = atomic_load_explicit(&s->calls_not_polling, memory_order_relaxed);
        atomic_store_explicit(&s->calls_not_polling, others + 1, memory_order_relaxed);
    }
    if (state_module_hot_path.concurrent_calls) {
        atomic_fetch_add_explicit(&s->calls, 1, memory_order_relaxed);
        atomic_fetch_sub_explicit(&s->threads_in_mpi, 1, memory_order_release);
        return;
    }
    uint64_t calls = atomic_load_explicit(&s->calls, memory_order_relaxed);
    atomic_store_explicit(&s->calls, calls + 1, memory_order_relaxed);
    atomic_store_explicit(&s->threads_in_mpi, 0, memory_order_release);
}

#endif
