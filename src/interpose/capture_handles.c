/* The capture module's live handles and their creation sites (capture_handles.h). Constructors and
 * frees are not on the hot path. */
#include <mpi.h>
#include "mpi_handles_weak.h"

#include "capture_handles.h"

#include "capture_args.h"
#include "capture_call.h"
#include "capture_emit.h"
#include "capture_table.h"
#include "handle_bits.h"
#include "interpose_log.h"
#include "mg_error.h"

#include <stdlib.h>

/* Live handles a rank can have at once (2 MB of table); past that new ones are not tracked. */
enum { MAX_HANDLES = 1 << 16 };
/* A key is the handle's bits with its kind in the top byte (an Open MPI handle is a user-space
 * pointer, below 2^48; an MPICH one is 32 bits): handles of two kinds never collide. A value is
 * the creation's call site (a user-space address, below 2^48) with the maker's mg_fn above it. */
enum { KIND_SHIFT = 56, MAKER_SHIFT = 48 };
#define SITE_MASK ((UINT64_C(1) << MAKER_SHIFT) - 1)

static capture_table live;
/* Handles freed and not handed out again since, by the same keys and with the same values: a copy
 * of a group's passed to a call is reported with the group's creation (group_freed). */
static capture_table freed;
static int overflow_logged;
/* The handle the free in progress is about to null. */
static MPI_Group freeing_group;
static MPI_Op freeing_op;
static MPI_Info freeing_info;
static MPI_Errhandler freeing_errhandler;

static uint64_t key_of(check_handle_kind kind, const void *handle, size_t size)
{
    return mg_handle_bits(handle, size) ^ (uint64_t)kind << KIND_SHIFT;
}

int capture_handles_init(void)
{
    return capture_table_init(&live, MAX_HANDLES) || capture_table_init(&freed, MAX_HANDLES)
               ? MG_ENOMEM
               : MG_OK;
}

void capture_handles_made(check_handle_kind kind, const void *handle, size_t size, mg_fn maker)
{
    uint64_t site = (uint64_t)(uintptr_t)mg_call_site & SITE_MASK;
    capture_table_remove(&freed, key_of(kind, handle, size));
    if (capture_table_put(&live, key_of(kind, handle, size),
                          site | (uint64_t)maker << MAKER_SHIFT) != MG_OK &&
        !overflow_logged) {
        overflow_logged = 1;
        interpose_log("capture module: too many live groups, datatypes, ops, infos and error "
                      "handlers; the leaks of those made from now on are not checked",
                      NULL);
    }
}

void capture_handles_freed(check_handle_kind kind, const void *handle, size_t size)
{
    uint64_t key = key_of(kind, handle, size), made = 0;
    /* a handle freed twice keeps its creation; 0: made past the table's room */
    if (!capture_table_get(&live, key, &made))
        (void)capture_table_get(&freed, key, &made);
    capture_table_remove(&live, key);
    /* past the table's room a freed handle is simply not reported */
    (void)capture_table_put(&freed, key, made);
}

int capture_handles_was_freed(check_handle_kind kind, const void *handle, size_t size)
{
    uint64_t unused;
    return capture_table_get(&freed, key_of(kind, handle, size), &unused);
}

typedef struct leaked {
    uint64_t kind, made; /* made: site | maker << MAKER_SHIFT */
} leaked;

static int by_kind_and_creation(const void *a, const void *b)
{
    const leaked *x = a, *y = b;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    return x->made < y->made ? -1 : x->made > y->made;
}

/* A record about handles of kind made at made (site | maker << MAKER_SHIFT), at the creation's
 * call site. */
static void emit_made(uint16_t fn, uint64_t kind, uint64_t made, int64_t count)
{
    void *call_site = mg_call_site;
    check_event ev = capture_event(fn, CHECK_EV_ENTER, NULL);
    ev.aux = kind;
    ev.count = count;
    ev.result = (int32_t)(made >> MAKER_SHIFT);
    mg_call_site = (void *)(uintptr_t)(made & SITE_MASK);
    capture_emit(&ev);
    mg_call_site = call_site;
}

void capture_handles_name_creation(check_handle_kind kind, const void *handle, size_t size)
{
    uint64_t made;
    if (capture_table_get(&freed, key_of(kind, handle, size), &made) && made)
        emit_made(CHECK_FN_HANDLE_MADE, kind, made, 0);
}

void capture_handles_report(void)
{
    leaked *all = malloc((live.used ? live.used : 1) * sizeof *all);
    if (!all) {
        interpose_log("capture module: out of memory at MPI_Finalize; leaks are not reported",
                      NULL);
        return;
    }
    size_t n = 0;
    for (size_t slot = 0; slot <= live.mask; slot++)
        if (live.keys[slot])
            all[n++] = (leaked){(live.keys[slot] - 1) >> KIND_SHIFT, live.values[slot]};
    qsort(all, n, sizeof *all, by_kind_and_creation);
    for (size_t i = 0, count = 1; i < n; i++, count++) {
        if (i + 1 < n && !by_kind_and_creation(&all[i], &all[i + 1]))
            continue;
        emit_made(CHECK_FN_HANDLE_LEAK, all[i].kind, all[i].made, (int64_t)count);
        count = 0;
    }
    free(all);
    capture_table_free(&live);
    capture_table_free(&freed);
}

/* A group constructor's result; MPI_GROUP_EMPTY, which an empty result may be, is predefined. */
static void group_made(int phase, int rc, const MPI_Group *group, mg_fn maker)
{
    if (phase == MG_CALL_EXIT && rc == MPI_SUCCESS && *group != MPI_GROUP_EMPTY &&
        *group != MPI_GROUP_NULL)
        capture_handles_made(CHECK_HANDLE_GROUP, group, sizeof *group, maker);
}

static void obs_Comm_group(int ph, int rc, MPI_Comm comm, MPI_Group *out)
{
    (void)comm;
    group_made(ph, rc, out, MG_FN_Comm_group);
}
/* A group passed to a group call: a copy of a freed group's handle is reported at the entry (one
 * record per call: the first freed operand), and the call still goes to MPI. */
static void groups_used(uint16_t fn, int phase, MPI_Group a, MPI_Group b)
{
    if (phase == MG_CALL_ENTER && !capture_args_group(fn, phase, NULL, a) && b != MPI_GROUP_NULL)
        capture_args_group(fn, phase, NULL, b);
}

static void obs_Group_incl(int ph, int rc, MPI_Group g, int n, const int ranks[], MPI_Group *out)
{
    (void)n, (void)ranks;
    groups_used(CHECK_FN_GROUP_INCL, ph, g, MPI_GROUP_NULL);
    group_made(ph, rc, out, MG_FN_Group_incl);
}
static void obs_Group_excl(int ph, int rc, MPI_Group g, int n, const int ranks[], MPI_Group *out)
{
    (void)n, (void)ranks;
    groups_used(CHECK_FN_GROUP_EXCL, ph, g, MPI_GROUP_NULL);
    group_made(ph, rc, out, MG_FN_Group_excl);
}
static void obs_Group_range_incl(int ph, int rc, MPI_Group g, int n, int ranges[][3],
                                 MPI_Group *out)
{
    (void)n, (void)ranges;
    groups_used(CHECK_FN_GROUP_RANGE_INCL, ph, g, MPI_GROUP_NULL);
    group_made(ph, rc, out, MG_FN_Group_range_incl);
}
static void obs_Group_union(int ph, int rc, MPI_Group a, MPI_Group b, MPI_Group *out)
{
    groups_used(CHECK_FN_GROUP_UNION, ph, a, b);
    group_made(ph, rc, out, MG_FN_Group_union);
}
static void obs_Group_intersection(int ph, int rc, MPI_Group a, MPI_Group b, MPI_Group *out)
{
    groups_used(CHECK_FN_GROUP_INTERSECTION, ph, a, b);
    group_made(ph, rc, out, MG_FN_Group_intersection);
}
static void obs_Group_difference(int ph, int rc, MPI_Group a, MPI_Group b, MPI_Group *out)
{
    groups_used(CHECK_FN_GROUP_DIFFERENCE, ph, a, b);
    group_made(ph, rc, out, MG_FN_Group_difference);
}

static void obs_Group_free(int phase, int rc, MPI_Group *group)
{
    if (phase == MG_CALL_ENTER) {
        freeing_group = *group;
        groups_used(CHECK_FN_GROUP_FREE, phase, *group, MPI_GROUP_NULL);
    } else if (rc == MPI_SUCCESS)
        capture_handles_freed(CHECK_HANDLE_GROUP, &freeing_group, sizeof freeing_group);
}

static void obs_Op_free(int phase, int rc, MPI_Op *op)
{
    if (phase == MG_CALL_ENTER)
        freeing_op = *op;
    else if (rc == MPI_SUCCESS) {
        capture_handles_freed(CHECK_HANDLE_OP, &freeing_op, sizeof freeing_op);
        capture_emit_op_release(freeing_op);
    }
}

static void obs_Info_create(int phase, int rc, MPI_Info *info)
{
    if (phase == MG_CALL_EXIT && rc == MPI_SUCCESS)
        capture_handles_made(CHECK_HANDLE_INFO, info, sizeof *info, MG_FN_Info_create);
}
static void obs_Info_dup(int phase, int rc, MPI_Info info, MPI_Info *out)
{
    (void)info;
    if (phase == MG_CALL_EXIT && rc == MPI_SUCCESS)
        capture_handles_made(CHECK_HANDLE_INFO, out, sizeof *out, MG_FN_Info_dup);
}
static void obs_Info_free(int phase, int rc, MPI_Info *info)
{
    if (phase == MG_CALL_ENTER)
        freeing_info = *info;
    else if (rc == MPI_SUCCESS)
        capture_handles_freed(CHECK_HANDLE_INFO, &freeing_info, sizeof freeing_info);
}

static void errhandler_made(int phase, int rc, const MPI_Errhandler *errhandler, mg_fn maker)
{
    if (phase == MG_CALL_EXIT && rc == MPI_SUCCESS)
        capture_handles_made(CHECK_HANDLE_ERRHANDLER, errhandler, sizeof *errhandler, maker);
}
static void obs_Comm_create_errhandler(int ph, int rc, MPI_Comm_errhandler_function *fn,
                                       MPI_Errhandler *out)
{
    (void)fn;
    errhandler_made(ph, rc, out, MG_FN_Comm_create_errhandler);
}
static void obs_Win_create_errhandler(int ph, int rc, MPI_Win_errhandler_function *fn,
                                      MPI_Errhandler *out)
{
    (void)fn;
    errhandler_made(ph, rc, out, MG_FN_Win_create_errhandler);
}
static void obs_File_create_errhandler(int ph, int rc, MPI_File_errhandler_function *fn,
                                       MPI_Errhandler *out)
{
    (void)fn;
    errhandler_made(ph, rc, out, MG_FN_File_create_errhandler);
}
static void obs_Errhandler_free(int phase, int rc, MPI_Errhandler *errhandler)
{
    if (phase == MG_CALL_ENTER)
        freeing_errhandler = *errhandler;
    else if (rc == MPI_SUCCESS)
        capture_handles_freed(CHECK_HANDLE_ERRHANDLER, &freeing_errhandler,
                              sizeof freeing_errhandler);
}

void capture_handles_install(void)
{
    CAPTURE_OBSERVE(Comm_group)
    CAPTURE_OBSERVE(Group_incl)
    CAPTURE_OBSERVE(Group_excl)
    CAPTURE_OBSERVE(Group_range_incl)
    CAPTURE_OBSERVE(Group_union)
    CAPTURE_OBSERVE(Group_intersection)
    CAPTURE_OBSERVE(Group_difference)
    CAPTURE_OBSERVE(Group_free)
    CAPTURE_OBSERVE(Op_free)
    CAPTURE_OBSERVE(Info_create)
    CAPTURE_OBSERVE(Info_dup)
    CAPTURE_OBSERVE(Info_free)
    CAPTURE_OBSERVE(Comm_create_errhandler)
    CAPTURE_OBSERVE(Win_create_errhandler)
    CAPTURE_OBSERVE(File_create_errhandler)
    CAPTURE_OBSERVE(Errhandler_free)
}
