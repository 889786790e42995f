/* The "state" module: publishes each rank's {in MPI, current function, completed calls, what it
 * waits for (state_waits.c)} in shared memory for the shm sampler of hang detection (rank_state.h,
 * docs/hang.md). */
#include <mpi.h>
#include "mpi_handles_weak.h"

#include "interpose_log.h"
#include "module.h"
#include "rank_state.h"
#include "state_waits.h"
#include "mg_env.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static mg_rank_state *state;
static char segment_name[128];
/* Below MPI_THREAD_MULTIPLE at most one thread is inside MPI at a time, so the completed calls are
 * a load and a store and threads_in_mpi is 1 or 0, stored without reading it; the locked
 * read-modify-writes needed otherwise were half the cost of a cheap call (bench/hang/call_cost.sh,
 * docs/hang-measurements.md "Overhead"). */
static int concurrent_calls;
/* Per function, what the hooks publish beyond the counts, looked up once at init: the class lookup
 * is a call into the function table's unit, a few ns on every MPI call where this is one load
 * (bench/apps/cost_bound.sh, hpcc's MPI_Testany). */
enum { FN_POLLS = 1, FN_WAITS_ON_REQUESTS = 2 };
static uint8_t fn_kind[MG_FN_COUNT];

static int state_init(const mg_module_job *job)
{
    const char *token = getenv(MG_ENV_JOB_TOKEN);
    if (!token || !*token) {
        interpose_log("state module off: MPIGUARD_JOB_TOKEN is not set", NULL);
        return -1;
    }
    snprintf(segment_name, sizeof segment_name, MG_RANK_STATE_NAME_FORMAT, token, job->rank);
    int fd = shm_open(segment_name, O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) {
        interpose_log("state module off: cannot create shared memory ", segment_name);
        return -1;
    }
    mg_rank_state *s = NULL;
    if (ftruncate(fd, sizeof *s) == 0)
        s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (!s || s == MAP_FAILED) {
        interpose_log("state module off: cannot map shared memory ", segment_name);
        shm_unlink(segment_name);
        return -1;
    }
    s->rank = job->rank;
    s->size = job->size;
    s->pid = (int32_t)getpid();
    s->version = MG_RANK_STATE_VERSION;
    atomic_store_explicit(&s->current_fn, MG_FN_Init, memory_order_relaxed);
    /* The magic goes last so a reader never sees a half-initialised segment as valid. */
    atomic_thread_fence(memory_order_release);
    s->magic = MG_RANK_STATE_MAGIC;
    concurrent_calls = job->thread_level == MPI_THREAD_MULTIPLE;
    const char *waits_env = getenv(MG_ENV_STATE_WAITS);
    int waits = waits_env && strcmp(waits_env, "1") == 0;
    for (unsigned fn = 0; fn < MG_FN_COUNT; fn++)
        fn_kind[fn] = (mpi_function_ids_class_of(fn) == MG_CLASS_POLL ? FN_POLLS : 0) |
                      (waits && state_waits_on_requests(fn) ? FN_WAITS_ON_REQUESTS : 0);
    state = s;
    if (waits)
        state_waits_install(s);
    return 0;
}

/* The segment's pointer is read once per hook: read after a store, it was loaded again, as a
 * store may alias it. */
static void state_enter(mg_fn fn)
{
    mg_rank_state *s = state;
    atomic_store_explicit(&s->current_fn, fn, memory_order_relaxed);
    if (fn_kind[fn] & FN_WAITS_ON_REQUESTS)
        atomic_store_explicit(&s->wait_on, MG_WAIT_REQUESTS, memory_order_relaxed);
    if (concurrent_calls) {
        atomic_fetch_add_explicit(&s->threads_in_mpi, 1, memory_order_release);
        return;
    }
    atomic_store_explicit(&s->threads_in_mpi, 1, memory_order_release);
}

static void state_leave(mg_fn fn)
{
    mg_rank_state *s = state;
    if (!(fn_kind[fn] & FN_POLLS)) {
        uint64_t others = atomic_load_explicit(&s->calls_not_polling, memory_order_relaxed);
        atomic_store_explicit(&s->calls_not_polling, others + 1, memory_order_relaxed);
    }
    if (concurrent_calls) {
        atomic_fetch_add_explicit(&s->calls, 1, memory_order_relaxed);
        atomic_fetch_sub_explicit(&s->threads_in_mpi, 1, memory_order_release);
        return;
    }
    uint64_t calls = atomic_load_explicit(&s->calls, memory_order_relaxed);
    atomic_store_explicit(&s->calls, calls + 1, memory_order_relaxed);
    atomic_store_explicit(&s->threads_in_mpi, 0, memory_order_release);
}

/* Whether the mpiguard command that started the job runs on this host and removes the segment when
 * the job ends (MPIGUARD_STATE_KEEP_HOST names its host), so that it can still read the final
 * counts of a rank that ended before it opened the segment. */
static int command_removes_segment(void)
{
    const char *keeper = getenv(MG_ENV_STATE_KEEP_HOST);
    char host[256] = "";
    return keeper && *keeper && gethostname(host, sizeof host - 1) == 0 &&
           strcmp(host, keeper) == 0;
}

static void state_finalize(int aborting)
{
    (void)aborting;
    state_waits_remove();
    atomic_store_explicit(&state->finalized, 1, memory_order_release);
    /* Readers that mapped the segment keep it; elsewhere the name goes so that nothing is left in
     * /dev/shm. */
    if (!command_removes_segment())
        shm_unlink(segment_name);
}

const mg_module state_module = {
    .name = "state",
    .init = state_init,
    .enter = state_enter,
    .leave = state_leave,
    .finalize = state_finalize,
};
