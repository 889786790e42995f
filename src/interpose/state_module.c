/* The "state" module: publishes each rank's {in MPI, current function, completed calls, what it
 * waits for (state_waits.c)} in shared memory for the shm sampler of hang detection (rank_state.h,
 * docs/hang.md), in the segment every rank publishes at MPI_Init (state_module_publish). */
#include <mpi.h>
#include "mpi_handles_weak.h"

#include "interpose_log.h"
#include "module.h"
#include "state_module.h"
#include "rank_state.h"
#include "state_waits.h"
#include "mg_env.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static char segment_name[128];
state_module_hot state_module_hot_path;

int state_module_publish(const module_job *job)
{
    const char *token = getenv(MG_ENV_JOB_TOKEN);
    if (!token || !*token)
        return -1;
    snprintf(segment_name, sizeof segment_name, RANK_STATE_NAME_FORMAT, token, job->rank);
    int fd = shm_open(segment_name, O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) {
        interpose_log("rank not published: cannot create shared memory ", segment_name);
        return -1;
    }
    rank_state *s = NULL;
    if (ftruncate(fd, sizeof *s) == 0)
        s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (!s || s == MAP_FAILED) {
        interpose_log("rank not published: cannot map shared memory ", segment_name);
        shm_unlink(segment_name);
        return -1;
    }
    s->rank = job->rank;
    s->size = job->size;
    s->pid = (int32_t)getpid();
    s->version = RANK_STATE_VERSION;
    atomic_store_explicit(&s->current_fn, MG_FN_Init, memory_order_relaxed);
    /* The magic goes last so a reader never sees a half-initialised segment as valid. */
    atomic_thread_fence(memory_order_release);
    s->magic = RANK_STATE_MAGIC;
    state_module_hot_path.segment = s;
    return 0;
}

static int state_init(const module_job *job)
{
    rank_state *s = state_module_hot_path.segment;
    if (!s) {
        interpose_log("state module off: the rank has no segment (MPIGUARD_JOB_TOKEN not set, or "
                      "no shared memory)",
                      NULL);
        return -1;
    }
    state_module_hot_path.concurrent_calls = job->thread_level == MPI_THREAD_MULTIPLE;
    const char *waits_env = getenv(MG_ENV_STATE_WAITS);
    int waits = waits_env && strcmp(waits_env, "1") == 0;
    for (unsigned fn = 0; fn < MG_FN_COUNT; fn++)
        state_module_hot_path.fn_kind[fn] = (mpi_function_ids_class_of(fn) ==
                                                     MG_MPI_FUNCTION_IDS_CLASS_POLL
                                                 ? STATE_MODULE_POLLS
                                                 : 0) |
                                            (waits && state_waits_on_requests(fn)
                                                 ? STATE_MODULE_WAITS_ON_REQUESTS
                                                 : 0);
    if (waits)
        state_waits_install(s);
    return 0;
}

/* The hooks of the hooked route (the state route inlines the same stores: interpose.c). */
static void state_enter(mpi_function_ids_fn fn)
{
    state_module_enter(fn);
}

static void state_leave(mpi_function_ids_fn fn)
{
    state_module_leave(state_module_hot_path.fn_kind[fn] & STATE_MODULE_POLLS);
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

void state_module_unpublish(void)
{
    atomic_store_explicit(&state_module_hot_path.segment->finalized, 1, memory_order_release);
    /* Readers that mapped the segment keep it; elsewhere the name goes so that nothing is left in
     * /dev/shm. */
    if (!command_removes_segment())
        shm_unlink(segment_name);
}

static void state_finalize(int aborting)
{
    (void)aborting;
    state_waits_remove();
}

const module state_module = {
    .name = "state",
    .init = state_init,
    .enter = state_enter,
    .leave = state_leave,
    .finalize = state_finalize,
};
