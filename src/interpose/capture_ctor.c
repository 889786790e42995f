/* The capture module's communicator constructors and Comm_free (capture_call.h), observed: a
 * constructor is a collective on its parent whose exit record carries the new communicator's id
 * and members, registered in capture_comm (docs/design/check-detector.md §1). */
#include <mpi.h>
#include "mpi_handles_weak.h"

#include "capture_ctor.h"

#include "capture_args.h"
#include "capture_call.h"
#include "capture_emit.h"

/* The parent of the constructor in progress, looked up at its entry. */
static capture_comm *ctor_parent;
/* The handle Comm_free is about to null. */
static MPI_Comm freeing_comm;

void capture_ctor_describe(check_event *ev, const capture_comm *made)
{
    ev->aux = made ? made->id : CHECK_EVENT_COMM_NULL;
    if (!made)
        return;
    int32_t *r = capture_emit_tmp.ranks;
    for (int i = 0; i < made->size; i++)
        r[i] = made->world ? made->world[i] : i; /* made of WORLD's members: the identity */
    for (int i = 0; i < made->remote_size; i++)
        r[made->size + i] = made->remote[i];
    ev->n_ranks = (uint32_t)(made->size + made->remote_size);
    ev->n_local = (uint32_t)made->size;
    ev->ranks = r;
    if (made->remote)
        ev->flags |= CHECK_EVENT_FLAG_INTERCOMM;
}

/* Communicator constructors: a collective on the parent; the exit carries the new id and members.
 * parent NULL: Intercomm_create, whose id the two groups derive from the tag. */
static void ctor(uint16_t fn, int phase, int rc, MPI_Comm parent, MPI_Comm *newcomm, int inter_tag)
{
    if (phase == INTERPOSE_HOOKS_CALL_ENTER)
        ctor_parent = capture_comm_find(parent);
    if (!ctor_parent)
        return;
    check_event ev = capture_emit_event(fn, capture_call_kind(phase), ctor_parent);
    ev.flags |= capture_call_refused(rc);
    if (phase == INTERPOSE_HOOKS_CALL_EXIT)
        capture_ctor_describe(
            &ev, capture_comm_register(inter_tag >= 0 ? NULL : ctor_parent,
                                       rc == MPI_SUCCESS ? *newcomm : MPI_COMM_NULL, inter_tag));
    capture_emit(&ev);
}

#define NOT_INTER -1
static void obs_Comm_dup(int ph, int rc, MPI_Comm comm, MPI_Comm *out)
{
    ctor(CHECK_EVENT_FN_COMM_DUP, ph, rc, comm, out, NOT_INTER);
}
static void obs_Comm_dup_with_info(int ph, int rc, MPI_Comm comm, MPI_Info info, MPI_Comm *out)
{
    (void)info;
    ctor(CHECK_EVENT_FN_COMM_DUP, ph, rc, comm, out, NOT_INTER);
}
static void obs_Comm_split(int ph, int rc, MPI_Comm comm, int color, int key, MPI_Comm *out)
{
    (void)color, (void)key;
    ctor(CHECK_EVENT_FN_COMM_SPLIT, ph, rc, comm, out, NOT_INTER);
}
static void obs_Comm_split_type(int ph, int rc, MPI_Comm comm, int type, int key, MPI_Info info,
                                MPI_Comm *out)
{
    (void)type, (void)key, (void)info;
    ctor(CHECK_EVENT_FN_COMM_SPLIT_TYPE, ph, rc, comm, out, NOT_INTER);
}
/* A constructor from a group: a copy of a freed group's handle is reported at the entry, and
 * the call is still captured (MPI decides what it does). */
static void ctor_of_group(uint16_t fn, int ph, int rc, MPI_Comm comm, MPI_Group g, MPI_Comm *out)
{
    capture_args_group(fn, ph, capture_comm_find(comm), g);
    ctor(fn, ph, rc, comm, out, NOT_INTER);
}
static void obs_Comm_create(int ph, int rc, MPI_Comm comm, MPI_Group g, MPI_Comm *out)
{
    ctor_of_group(CHECK_EVENT_FN_COMM_CREATE, ph, rc, comm, g, out);
}
static void obs_Comm_create_group(int ph, int rc, MPI_Comm comm, MPI_Group g, int tag,
                                  MPI_Comm *out)
{
    (void)tag;
    ctor_of_group(CHECK_EVENT_FN_COMM_CREATE_GROUP, ph, rc, comm, g, out);
}
static void obs_Intercomm_create(int ph, int rc, MPI_Comm local, int ll, MPI_Comm peer, int rl,
                                 int tag, MPI_Comm *out)
{
    (void)ll, (void)peer, (void)rl;
    ctor(CHECK_EVENT_FN_INTERCOMM_CREATE, ph, rc, local, out, tag < 0 ? 0 : tag);
}
static void obs_Intercomm_merge(int ph, int rc, MPI_Comm inter, int high, MPI_Comm *out)
{
    (void)high;
    ctor(CHECK_EVENT_FN_INTERCOMM_MERGE, ph, rc, inter, out, NOT_INTER);
}
static void obs_Cart_create(int ph, int rc, MPI_Comm comm, int nd, const int dims[],
                            const int periods[], int reorder, MPI_Comm *out)
{
    (void)nd, (void)dims, (void)periods, (void)reorder;
    ctor(CHECK_EVENT_FN_CART_CREATE, ph, rc, comm, out, NOT_INTER);
}

/* Comm_idup is not captured (docs/check.md "Limits"); its request's handle is only no longer a
 * freed request's, and a clean report says it was not checked. */
static void obs_Comm_idup(int ph, int rc, MPI_Comm comm, MPI_Comm *out, MPI_Request *request)
{
    (void)comm, (void)out;
    if (capture_call_untracked(ph, rc, request))
        capture_emit_unmodelled(MG_FN_Comm_idup);
}

static void obs_Comm_free(int phase, int rc, MPI_Comm *comm)
{
    if (phase == INTERPOSE_HOOKS_CALL_ENTER)
        freeing_comm = *comm;
    const capture_comm *c = capture_comm_find(freeing_comm);
    if (!c)
        return;
    check_event ev = capture_emit_event(CHECK_EVENT_FN_COMM_FREE, capture_call_kind(phase), c);
    ev.flags |= capture_call_refused(rc);
    capture_emit(&ev);
    if (phase == INTERPOSE_HOOKS_CALL_EXIT && rc == MPI_SUCCESS)
        capture_comm_forget(freeing_comm);
}

void capture_ctor_install(void)
{
    CAPTURE_CALL_OBSERVE(Comm_dup)
    CAPTURE_CALL_OBSERVE(Comm_dup_with_info)
    CAPTURE_CALL_OBSERVE(Comm_split)
    CAPTURE_CALL_OBSERVE(Comm_split_type)
    CAPTURE_CALL_OBSERVE(Comm_create)
    CAPTURE_CALL_OBSERVE(Comm_create_group)
    CAPTURE_CALL_OBSERVE(Intercomm_create)
    CAPTURE_CALL_OBSERVE(Intercomm_merge)
    CAPTURE_CALL_OBSERVE(Cart_create)
    CAPTURE_CALL_OBSERVE(Comm_idup)
    CAPTURE_CALL_OBSERVE(Comm_free)
}
