/* The PMPI layer: one wrapper per function of mpi_functions.def, the module dispatch, and the
 * hand-written Init/Init_thread/Finalize/Abort. See docs/architecture.md, "The interposition
 * library".
 *
 * Staying out of the application's way: a wrapper that no enabled module watches (with no module
 * on, every one) is a counter store, one load and a branch before the PMPI call; one that a module
 * only replaces adds the call site and a jump to the replacement, not the hook loops. Nothing runs
 * before MPI_Init, so a process that is not a rank (mpirun, mpiexec, hydra_pmi_proxy, srun, a
 * shell) is untouched even when LD_PRELOAD reaches it; PMPI symbols are weak references so such a
 * process also loads the library without libmpi. */
#include <mpi.h>
#include "mpi_handles_weak.h"

#include "interpose_entry.h"
#include "interpose_hooks.h"
#include "interpose_log.h"
#include "interpose_next.h"
#include "module.h"
#include "state_module.h"
#include "mg_env.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#pragma weak PMPI_Comm_rank
#pragma weak PMPI_Comm_size
#pragma weak PMPI_Query_thread

enum { MAX_MODULES = 8 };

static const module *const available_modules[] = {&state_module, &protect_module, &capture_module};

static const module *enabled[MAX_MODULES];
static int enabled_count;
/* The enabled modules' enter hooks in order and their leave hooks in reverse order, without the
 * NULL ones: the loops of every hooked call test no module for a hook it does not have. */
typedef void hook_fn(mpi_function_ids_fn fn);
static hook_fn *enter_hooks[MAX_MODULES], *leave_hooks[MAX_MODULES];
static int enter_hook_count, leave_hook_count;
/* How a wrapped function's calls go, read on every call: straight to PMPI (no enabled module
 * watches it), through the state module's stores alone (its hooks are the only ones and no module
 * observes or replaces the function: the polling calls under `mpiguard hang`), to a module's
 * replacement alone (no module observes it or has enter/leave hooks: the protect module's
 * collectives under `mpiguard protect`), or through every module's hooks. */
enum route { ROUTE_DIRECT, ROUTE_STATE, ROUTE_REPLACED, ROUTE_HOOKED };
static unsigned char routes[MG_FN_COUNT];
/* Per thread, so nested and tool-internal calls pass straight through without a global lock. */
static _Thread_local int call_depth INTERPOSE_HOOKS_TLS_FAST;
_Thread_local void *interpose_call_site INTERPOSE_HOOKS_TLS_FAST;

/* Wrapped calls entered so far, exported for the ptrace sampler (docs/sampler.md "Call counter"):
 * a count that moves between two samples is progress, which stacks alone cannot show in a job that
 * waits in the same call at every sample. [0] counts every call, [1] the polling ones (class POLL):
 * a sample mostly catches a poller inside its poll, and only the difference tells whether it made
 * other calls in between (hpcc's MPIRandomAccess posts its sends and receives between
 * MPI_Testany polls). A relaxed load and store rather than an atomic increment keeps the wrapper
 * free of locked instructions; a count lost to two threads entering at once only delays one
 * "moved". */
_Atomic uint64_t mpiguard_calls_entered[2];

static inline void count_entered(_Atomic uint64_t *count)
{
    atomic_store_explicit(count, atomic_load_explicit(count, memory_order_relaxed) + 1,
                          memory_order_relaxed);
}

/* polls is a constant of each wrapper: the others pay nothing for the second count */
static inline void count_entered_call(int polls)
{
    count_entered(&mpiguard_calls_entered[0]);
    if (polls)
        count_entered(&mpiguard_calls_entered[1]);
}

static void dispatch_enter(mpi_function_ids_fn fn)
{
    for (int i = 0; i < enter_hook_count; i++)
        enter_hooks[i](fn);
}

static void dispatch_leave(mpi_function_ids_fn fn)
{
    for (int i = 0; i < leave_hook_count; i++)
        leave_hooks[i](fn);
}

/* A wrapper's fast paths come first and end in tail calls, so that a call going straight on (to
 * PMPI, or to another PMPI tool loaded after mpiguard: interpose_next.h) or to a replacement sets
 * up no frame: the module loops live in a function of their own. The replaced route calls the
 * replacement without the depth guard; a replacement calls MPI through PMPI_ or mg_next_ only, so
 * it cannot re-enter (docs/architecture.md, the interposition library). One body, ROUTE, in the
 * entries: MPI_X, whose call site is its own return address (read only past the direct route's
 * branch), and mg_enter_X and mg_enter_X_binding (interpose_entry.h), whose caller (a Fortran
 * binding) passes the site it was called from; next is where the call goes on when no module
 * replaces it (mg_next_X, or the caller's binding), through the module loop the call through
 * names, or through_state, the state route's. The hooked route keeps a frame pointer (the empty asm
 * that takes its frame's address), so that the capture module's walk up the frames finds it
 * (capture_emit.c); MPI_X's tail call into it takes no more arguments than MPI_X's own, or the call
 * would need a frame of MPI_X and the loop's return address would no longer be the call site. */
#define ROUTE(name, cls, args, site, next, through, through_state)                                 \
    count_entered_call(MG_MPI_FUNCTION_IDS_CLASS_##cls == MG_MPI_FUNCTION_IDS_CLASS_POLL);         \
    unsigned char route = routes[MG_FN_##name];                                                    \
    if (route == ROUTE_DIRECT || call_depth)                                                       \
        return (next)args;                                                                         \
    if (route == ROUTE_STATE)                                                                      \
        return through_state;                                                                      \
    interpose_call_site = (site);                                                                  \
    mg_impl_##name##_fn *impl = mg_impl_##name;                                                    \
    if (route == ROUTE_REPLACED && impl)                                                           \
        return impl args;                                                                          \
    return through;
/* Makes the function keep a frame pointer (it takes its frame's address), for the capture
 * module's walk up the frames from a record to the call site's (capture_emit.c). */
#define INTERPOSE_KEEP_FRAME() __asm__ volatile("" : : "r"(__builtin_frame_address(0)))
/* The module loop: hooks and observers around the replacement, or next. */
#define THROUGH_MODULES(name, args, next)                                                          \
    call_depth++;                                                                                  \
    INTERPOSE_KEEP_FRAME();                                                                        \
    dispatch_enter(MG_FN_##name);                                                                  \
    mg_observe_##name##_fn *observe = mg_observe_##name;                                           \
    mg_impl_##name##_fn *impl = mg_impl_##name;                                                    \
    if (observe)                                                                                   \
        observe(INTERPOSE_HOOKS_CALL_ENTER, 0, INTERPOSE_HOOKS_ARGS_OF args);                      \
    int rc = impl ? impl args : (next)args;                                                        \
    if (observe)                                                                                   \
        observe(INTERPOSE_HOOKS_CALL_EXIT, rc, INTERPOSE_HOOKS_ARGS_OF args);                      \
    dispatch_leave(MG_FN_##name);                                                                  \
    call_depth--;                                                                                  \
    return rc;
/* The state route: the state module's stores inlined, no call site (only the capture and protect
 * modules read it, and neither is on this route), no frame pointer (the capture module's walk
 * never starts here). */
#define MG_FN(name, params, args, cls)                                                             \
    mg_observe_##name##_fn *mg_observe_##name;                                                     \
    mg_impl_##name##_fn *mg_impl_##name;                                                           \
    static __attribute__((noinline)) int through_modules_##name params                             \
    {                                                                                              \
        THROUGH_MODULES(name, args, mg_next_##name)                                                \
    }                                                                                              \
    static __attribute__((noinline)) int through_state_##name params                               \
    {                                                                                              \
        call_depth++;                                                                              \
        state_module_enter(MG_FN_##name);                                                          \
        int rc = mg_next_##name args;                                                              \
        state_module_leave(MG_MPI_FUNCTION_IDS_CLASS_##cls == MG_MPI_FUNCTION_IDS_CLASS_POLL);     \
        call_depth--;                                                                              \
        return rc;                                                                                 \
    }                                                                                              \
    int MPI_##name params                                                                          \
    {                                                                                              \
        ROUTE(name, cls, args, __builtin_return_address(0), mg_next_##name,                        \
              through_modules_##name args, through_state_##name args)                              \
    }                                                                                              \
    int mg_enter_##name(void *site, INTERPOSE_HOOKS_ARGS_OF params)                                \
    {                                                                                              \
        ROUTE(name, cls, args, site, mg_next_##name, through_modules_##name args,                  \
              through_state_##name args)                                                           \
    }
#include "mpi_wrapped_functions.def"

/* mg_enter_X_binding (interpose_entry.h): the route of mg_enter_X, ending in the caller's binding
 * rather than in mg_next_X; its state route is the module loop, which runs the same hooks (these
 * functions are rare: none polls). */
#define MG_FN(name, params, args, cls)
#define MG_FN_SPECIAL(name, cls)
#define MG_FN_BINDING(name, params, args, cls)                                                     \
    static __attribute__((noinline)) int through_binding_##name(mg_impl_##name##_fn *binding,      \
                                                                INTERPOSE_HOOKS_ARGS_OF params)    \
    {                                                                                              \
        THROUGH_MODULES(name, args, binding)                                                       \
    }                                                                                              \
    int mg_enter_##name##_binding(void *site, mg_impl_##name##_fn *binding,                        \
                                  INTERPOSE_HOOKS_ARGS_OF params)                                  \
    {                                                                                              \
        ROUTE(name, cls, args, site, binding,                                                      \
              through_binding_##name(binding, INTERPOSE_HOOKS_ARGS_OF args),                       \
              through_binding_##name(binding, INTERPOSE_HOOKS_ARGS_OF args))                       \
    }
#include "mpi_functions.def"
#undef MG_FN
#undef MG_FN_SPECIAL
#undef MG_FN_BINDING

/* Sets each wrapper's route and the hook lists (on), or every route direct and no hook (0): the
 * state route where the state module's hooks are the only ones and no module observes or replaces
 * the function, hooked where an enabled module has enter/leave hooks or observes the function,
 * replaced where a module
 * only replaces it (the protect module's collectives that can fire), direct otherwise, as with no
 * module on: under `mpiguard protect` a point-to-point call pays nothing, and a watched collective
 * pays no hook loops. */
static void route_calls(int on)
{
    enter_hook_count = leave_hook_count = 0;
    for (int i = 0; on && i < enabled_count; i++)
        if (enabled[i]->enter)
            enter_hooks[enter_hook_count++] = enabled[i]->enter;
    for (int i = enabled_count - 1; on && i >= 0; i--)
        if (enabled[i]->leave)
            leave_hooks[leave_hook_count++] = enabled[i]->leave;
    int hooks = enter_hook_count || leave_hook_count;
    int state_hooks_only = enter_hook_count == 1 && enter_hooks[0] == state_module.enter &&
                           leave_hook_count == 1 && leave_hooks[0] == state_module.leave;
#define MG_FN(name, params, args, cls)                                                             \
    routes[MG_FN_##name] = !on ? ROUTE_DIRECT                                                      \
                           : state_hooks_only && !mg_observe_##name && !mg_impl_##name             \
                               ? ROUTE_STATE                                                       \
                           : hooks || mg_observe_##name ? ROUTE_HOOKED                             \
                           : mg_impl_##name             ? ROUTE_REPLACED                           \
                                                        : ROUTE_DIRECT;
#include "mpi_wrapped_functions.def"
}

/* Whether this rank's segment exists (state_module_publish), to be marked finalized at the end. */
static int published;

/* Turns on the modules MPIGUARD_MODULES asks for, once (under MPICH a Fortran MPI_Init reaches the
 * C one too); a module that fails its init stays off. */
void interpose_start(void)
{
    static int started;
    const char *list = getenv(MG_ENV_MODULES);
    if (started || !list || !*list)
        return;
    started = 1;
    module_job job = {.rank = 0, .size = 1, .thread_level = MPI_THREAD_SINGLE};
    PMPI_Comm_rank(MPI_COMM_WORLD, &job.rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &job.size);
    PMPI_Query_thread(&job.thread_level);
    interpose_log_set_rank(job.rank);
    published = state_module_publish(&job) == 0;
    for (size_t i = 0; i < sizeof available_modules / sizeof *available_modules; i++) {
        const module *m = available_modules[i];
        if (mg_env_module_listed(list, m->name) && enabled_count < MAX_MODULES &&
            m->init(&job) == 0)
            enabled[enabled_count++] = m;
    }
    route_calls(1);
}

/* After MPI_Finalize: the enabled modules' after_finalize hooks become the only enter hooks, and
 * if there is one every wrapped call takes the hooked route with no observer or replacement, so
 * that it reaches them first and MPI next. */
static void watch_after_finalize(void)
{
    for (int i = 0; i < enabled_count; i++)
        if (enabled[i]->after_finalize)
            enter_hooks[enter_hook_count++] = enabled[i]->after_finalize;
    if (!enter_hook_count)
        return;
#define MG_FN(name, params, args, cls)                                                             \
    mg_observe_##name = NULL;                                                                      \
    mg_impl_##name = NULL;                                                                         \
    routes[MG_FN_##name] = ROUTE_HOOKED;
#include "mpi_wrapped_functions.def"
}

static void stop_modules(int aborting)
{
    route_calls(0);
    for (int i = enabled_count - 1; i >= 0; i--)
        if (enabled[i]->finalize)
            enabled[i]->finalize(aborting);
    if (published)
        state_module_unpublish();
    published = 0;
    if (!aborting)
        watch_after_finalize();
    enabled_count = 0;
}

/* Set from a Finalize's start to its MPI's return: MPICH's Fortran MPI_FINALIZE calls the C
 * MPI_Finalize inside, which is the same call, not a second one. */
static _Thread_local int finalizing;

/* Before MPI_Finalize (fn MG_FN_Finalize) or MPI_Abort (MG_FN_Abort), C or Fortran, called from
 * site; a second call finds no module enabled and only passes fn to the after_finalize hooks. */
void interpose_end(mpi_function_ids_fn fn, void *site)
{
    INTERPOSE_KEEP_FRAME();
    if (!call_depth && !finalizing)
        interpose_call_site = site; /* the modules' last records name the program's call */
    if (enter_hook_count && !call_depth && !finalizing)
        dispatch_enter(fn);
    finalizing = fn == MG_FN_Finalize;
    stop_modules(fn == MG_FN_Abort);
}

void interpose_finalize_returned(void)
{
    finalizing = 0;
}

int MPI_Init(int *argc, char ***argv)
{
    interpose_next_resolve();
    int rc = mg_next_Init(argc, argv);
    if (rc == MPI_SUCCESS)
        interpose_start();
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    interpose_next_resolve();
    int rc = mg_next_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS)
        interpose_start();
    return rc;
}

/* Finalize and Abort keep their frames: the walk from the modules' last records to the C++
 * binding's caller passes them (capture_emit.c, caller_site). */
int MPI_Finalize(void)
{
    INTERPOSE_KEEP_FRAME();
    interpose_end(MG_FN_Finalize, __builtin_return_address(0));
    int rc = mg_next_Finalize();
    interpose_finalize_returned();
    return rc;
}

int MPI_Abort(MPI_Comm comm, int errorcode)
{
    INTERPOSE_KEEP_FRAME();
    interpose_end(MG_FN_Abort, __builtin_return_address(0));
    return mg_next_Abort(comm, errorcode);
}
