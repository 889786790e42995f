/* The observers of the constructors and frees of groups, ops, infos and error handlers
 * (capture_objects.h): they keep the handle table (capture_handles.c), and a group passed to a
 * group call is checked first (capture_args.c). Not on the hot path. */
#include <mpi.h>
#include "mpi_handles_weak.h"

#include "capture_objects.h"

#include "capture_args.h"
#include "capture_call.h"
#include "capture_emit.h"
#include "capture_handles.h"

/* The handle the free in progress is about to null. */
static MPI_Group freeing_group;
static MPI_Op freeing_op;
static MPI_Info freeing_info;
static MPI_Errhandler freeing_errhandler;

/* A group constructor's result; MPI_GROUP_EMPTY, which an empty result may be, is predefined. */
static void group_made(int phase, int rc, const MPI_Group *group, mpi_function_ids_fn maker)
{
    if (phase == INTERPOSE_HOOKS_CALL_EXIT && rc == MPI_SUCCESS && *group != MPI_GROUP_EMPTY &&
        *group != MPI_GROUP_NULL)
        capture_handles_made(CHECK_EVENT_HANDLE_GROUP, group, sizeof *group, maker);
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
    if (phase == INTERPOSE_HOOKS_CALL_ENTER && !capture_args_group(fn, phase, NULL, a) &&
        b != MPI_GROUP_NULL)
        capture_args_group(fn, phase, NULL, b);
}

static void obs_Group_incl(int ph, int rc, MPI_Group g, int n, const int ranks[], MPI_Group *out)
{
    (void)n, (void)ranks;
    groups_used(CHECK_EVENT_FN_GROUP_INCL, ph, g, MPI_GROUP_NULL);
    group_made(ph, rc, out, MG_FN_Group_incl);
}
static void obs_Group_excl(int ph, int rc, MPI_Group g, int n, const int ranks[], MPI_Group *out)
{
    (void)n, (void)ranks;
    groups_used(CHECK_EVENT_FN_GROUP_EXCL, ph, g, MPI_GROUP_NULL);
    group_made(ph, rc, out, MG_FN_Group_excl);
}
static void obs_Group_range_incl(int ph, int rc, MPI_Group g, int n, int ranges[][3],
                                 MPI_Group *out)
{
    (void)n, (void)ranges;
    groups_used(CHECK_EVENT_FN_GROUP_RANGE_INCL, ph, g, MPI_GROUP_NULL);
    group_made(ph, rc, out, MG_FN_Group_range_incl);
}
static void obs_Group_union(int ph, int rc, MPI_Group a, MPI_Group b, MPI_Group *out)
{
    groups_used(CHECK_EVENT_FN_GROUP_UNION, ph, a, b);
    group_made(ph, rc, out, MG_FN_Group_union);
}
static void obs_Group_intersection(int ph, int rc, MPI_Group a, MPI_Group b, MPI_Group *out)
{
    groups_used(CHECK_EVENT_FN_GROUP_INTERSECTION, ph, a, b);
    group_made(ph, rc, out, MG_FN_Group_intersection);
}
static void obs_Group_difference(int ph, int rc, MPI_Group a, MPI_Group b, MPI_Group *out)
{
    groups_used(CHECK_EVENT_FN_GROUP_DIFFERENCE, ph, a, b);
    group_made(ph, rc, out, MG_FN_Group_difference);
}

static void obs_Group_free(int phase, int rc, MPI_Group *group)
{
    if (phase == INTERPOSE_HOOKS_CALL_ENTER) {
        freeing_group = *group;
        groups_used(CHECK_EVENT_FN_GROUP_FREE, phase, *group, MPI_GROUP_NULL);
    } else if (rc == MPI_SUCCESS)
        capture_handles_freed(CHECK_EVENT_HANDLE_GROUP, &freeing_group, sizeof freeing_group);
}

static void obs_Op_free(int phase, int rc, MPI_Op *op)
{
    if (phase == INTERPOSE_HOOKS_CALL_ENTER)
        freeing_op = *op;
    else if (rc == MPI_SUCCESS) {
        capture_handles_freed(CHECK_EVENT_HANDLE_OP, &freeing_op, sizeof freeing_op);
        capture_emit_op_release(freeing_op);
    }
}

static void obs_Info_create(int phase, int rc, MPI_Info *info)
{
    if (phase == INTERPOSE_HOOKS_CALL_EXIT && rc == MPI_SUCCESS)
        capture_handles_made(CHECK_EVENT_HANDLE_INFO, info, sizeof *info, MG_FN_Info_create);
}
static void obs_Info_dup(int phase, int rc, MPI_Info info, MPI_Info *out)
{
    (void)info;
    if (phase == INTERPOSE_HOOKS_CALL_EXIT && rc == MPI_SUCCESS)
        capture_handles_made(CHECK_EVENT_HANDLE_INFO, out, sizeof *out, MG_FN_Info_dup);
}
static void obs_Info_free(int phase, int rc, MPI_Info *info)
{
    if (phase == INTERPOSE_HOOKS_CALL_ENTER)
        freeing_info = *info;
    else if (rc == MPI_SUCCESS)
        capture_handles_freed(CHECK_EVENT_HANDLE_INFO, &freeing_info, sizeof freeing_info);
}

static void errhandler_made(int phase, int rc, const MPI_Errhandler *errhandler,
                            mpi_function_ids_fn maker)
{
    if (phase == INTERPOSE_HOOKS_CALL_EXIT && rc == MPI_SUCCESS)
        capture_handles_made(CHECK_EVENT_HANDLE_ERRHANDLER, errhandler, sizeof *errhandler, maker);
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
    if (phase == INTERPOSE_HOOKS_CALL_ENTER)
        freeing_errhandler = *errhandler;
    else if (rc == MPI_SUCCESS)
        capture_handles_freed(CHECK_EVENT_HANDLE_ERRHANDLER, &freeing_errhandler,
                              sizeof freeing_errhandler);
}

void capture_objects_install(void)
{
    CAPTURE_CALL_OBSERVE(Comm_group)
    CAPTURE_CALL_OBSERVE(Group_incl)
    CAPTURE_CALL_OBSERVE(Group_excl)
    CAPTURE_CALL_OBSERVE(Group_range_incl)
    CAPTURE_CALL_OBSERVE(Group_union)
    CAPTURE_CALL_OBSERVE(Group_intersection)
    CAPTURE_CALL_OBSERVE(Group_difference)
    CAPTURE_CALL_OBSERVE(Group_free)
    CAPTURE_CALL_OBSERVE(Op_free)
    CAPTURE_CALL_OBSERVE(Info_create)
    CAPTURE_CALL_OBSERVE(Info_dup)
    CAPTURE_CALL_OBSERVE(Info_free)
    CAPTURE_CALL_OBSERVE(Comm_create_errhandler)
    CAPTURE_CALL_OBSERVE(Win_create_errhandler)
    CAPTURE_CALL_OBSERVE(File_create_errhandler)
    CAPTURE_CALL_OBSERVE(Errhandler_free)
}
