/* The capture module's calls on requests that exist (capture_call.h): Start/Startall, the Wait/Test
 * family, Request_free and Cancel, and the requests no peer completes (file I/O, generalized
 * requests). Wait/Test replace the PMPI call so that the statuses of
 * completions the application ignores are still recorded (docs/design/check-detector.md §1). */
#include <mpi.h>
#include "mpi_handles_weak.h"

#include "capture_wait.h"

#include "capture_args.h"
#include "capture_buffers.h"
#include "capture_call.h"
#include "capture_emit.h"
#include "interpose_next.h"
#include "mpi_function_ids.h"

/* The handle Request_free is about to null. */
static MPI_Request freeing_request;

static uint64_t id_of(MPI_Request handle)
{
    const capture_emit_request *r = capture_emit_request_find(handle);
    return r ? r->id : 0;
}

/* Writes call fn's request_freed record (before the call reaches MPI): handle number `index` of
 * its array is a copy of a freed request's (capture_emit_request_freed); the index is the record's
 * count. Once per call. */
static void reject_freed(uint16_t fn, int index)
{
    capture_args_reject(fn, INTERPOSE_HOOKS_CALL_ENTER, NULL, USAGE_ARGS_REQUEST_FREED,
                        CHECK_EVENT_PROC_NULL, 0, index);
}

/* At the entry of fn on reqs[0..n): its request_freed record when one of them is freed. */
static void check_freed(uint16_t fn, int phase, int n, const MPI_Request *reqs)
{
    for (int i = 0; phase == INTERPOSE_HOOKS_CALL_ENTER && i < n; i++)
        if (capture_emit_request_freed(reqs[i])) {
            reject_freed(fn, i);
            return;
        }
}

static void obs_Start(int phase, int rc, MPI_Request *request)
{
    check_freed(CHECK_EVENT_FN_START, phase, 1, request);
    check_event ev = capture_emit_event(CHECK_EVENT_FN_START, capture_call_kind(phase), NULL);
    ev.flags |= capture_call_refused(rc);
    ev.request = id_of(*request);
    capture_emit(&ev);
    if (phase == INTERPOSE_HOOKS_CALL_EXIT && rc == MPI_SUCCESS)
        capture_buffers_started(ev.request);
}

static void obs_Startall(int phase, int rc, int count, MPI_Request reqs[])
{
    int n = count < CAPTURE_EMIT_MAX_ARRAY ? count : CAPTURE_EMIT_MAX_ARRAY;
    check_freed(CHECK_EVENT_FN_STARTALL, phase, n, reqs);
    check_event ev = capture_emit_event(CHECK_EVENT_FN_STARTALL, capture_call_kind(phase), NULL);
    ev.flags |= capture_call_refused(rc);
    for (int i = 0; i < n; i++)
        capture_emit_tmp.ids[i] = id_of(reqs[i]);
    ev.n_requests = (uint32_t)n;
    ev.requests = capture_emit_tmp.ids;
    capture_emit(&ev);
    for (int i = 0; phase == INTERPOSE_HOOKS_CALL_EXIT && rc == MPI_SUCCESS && i < n; i++)
        capture_buffers_started(capture_emit_tmp.ids[i]);
}

/* The entry or exit record of a Request_free of the request with this id (none for 0: a handle
 * the module does not know). */
static void emit_free(int phase, uint64_t id)
{
    check_event ev = capture_emit_event(CHECK_EVENT_FN_REQUEST_FREE, capture_call_kind(phase),
                                        NULL);
    ev.request = id;
    if (ev.request)
        capture_emit(&ev);
}

static void obs_Request_free(int phase, int rc, MPI_Request *request)
{
    if (phase == INTERPOSE_HOOKS_CALL_ENTER)
        freeing_request = *request;
    check_freed(CHECK_EVENT_FN_REQUEST_FREE, phase, 1, &freeing_request);
    uint64_t id = id_of(freeing_request);
    emit_free(phase, id);
    if (phase == INTERPOSE_HOOKS_CALL_EXIT && rc == MPI_SUCCESS) {
        capture_buffers_forget(id);
        capture_emit_request_drop(freeing_request, NULL);
    }
}

static void obs_Cancel(int phase, int rc, MPI_Request *request)
{
    (void)rc;
    check_event ev = capture_emit_event(CHECK_EVENT_FN_CANCEL, capture_call_kind(phase), NULL);
    ev.request = id_of(*request);
    if (ev.request)
        capture_emit(&ev);
}

/* The entry (no completions) or the exit: the first nst of capture_emit_tmp.statuses; rc the MPI
 * call's return code (MPI_SUCCESS for an entry). */
static void emit_requests(uint16_t fn, uint8_t kind, int n, uint32_t nst, int result, int rc)
{
    check_event ev = capture_emit_event(fn, kind, NULL);
    ev.flags |= capture_call_refused(rc);
    ev.n_requests = (uint32_t)n;
    ev.requests = capture_emit_tmp.ids;
    ev.n_statuses = nst;
    ev.statuses = capture_emit_tmp.statuses;
    ev.result = result;
    capture_emit(&ev);
}

/* nst completions were recorded by completed(); rc is the MPI call's return code. */
static void finish(uint16_t fn, int n, uint32_t nst, int result, int rc)
{
    if (check_event_func_describe(fn)->klass == CHECK_EVENT_CLASS_TEST) {
        if (nst == 0 && rc == MPI_SUCCESS)
            return;
        emit_requests(fn, CHECK_EVENT_EV_ENTER, n, 0, 0, MPI_SUCCESS);
    }
    emit_requests(fn, CHECK_EVENT_EV_EXIT, n, nst, result, rc);
}

/* Whether request index i of the call names a request through a handle MPI handed out for
 * several (capture_emit.h, `shadowed`): MPI keeps no status of its own for such requests, so
 * none is recorded for them. */
static uint8_t shared_handle[CAPTURE_EMIT_MAX_ARRAY];

/* The request that copy i of a handle names: MPI hands one handle to several requests it
 * completed at once, and the program waits on each copy; the k-th copy in the array names the
 * k-th newest request of the handle. */
static capture_emit_request *copy_of(capture_emit_request *newest, const MPI_Request *reqs, int i)
{
    capture_emit_request *r = newest;
    for (int j = 0; r->shadowed && j < i; j++)
        if (reqs[j] == reqs[i])
            r = r->shadowed;
    return r;
}

/* The Wait/Test family: the entry lists the request ids; the exit the completions, by index.
 * Completed non-persistent requests leave the table (MPI nulls their handles, so the ids are taken
 * before the call). A Wait's entry is written before the call, which may block. A Test never
 * blocks, and one that completes nothing changes no matching state, while a polling loop makes
 * millions of them (master_worker's master: half its records, 1.7x its run time under check); so a
 * Test writes its entry after the call, and nothing at all when it completed nothing. */
static int begin(uint16_t fn, int count, const MPI_Request *reqs)
{
    int n = count < CAPTURE_EMIT_MAX_ARRAY ? count : CAPTURE_EMIT_MAX_ARRAY, freed_checked = 0;
    for (int i = 0; i < n; i++) {
        capture_emit_tmp.handles[i] = reqs[i];
        capture_emit_request *r = capture_emit_request_find(reqs[i]);
        /* a live request is never freed: the freed table is only read for unknown handles */
        if (!r && !freed_checked && capture_emit_request_freed(reqs[i])) {
            reject_freed(fn, i);
            freed_checked = 1;
        }
        shared_handle[i] = r && r->shadowed;
        if (shared_handle[i])
            r = copy_of(r, reqs, i);
        capture_emit_tmp.reqs[i] = r;
        capture_emit_tmp.ids[i] = r ? r->id : 0;
    }
    if (check_event_func_describe(fn)->klass == CHECK_EVENT_CLASS_WAIT)
        emit_requests(fn, CHECK_EVENT_EV_ENTER, n, 0, 0, MPI_SUCCESS);
    return n;
}

/* Records completion number k: request index i with status st (may be MPI_STATUS_IGNORE). */
static void completed(uint32_t k, int i, const MPI_Status *st)
{
    const capture_emit_request *r = capture_emit_tmp.reqs[i];
    capture_emit_tmp.statuses[k] = capture_call_status(r ? r->comm : NULL, (uint32_t)i,
                                                       shared_handle[i] ? MPI_STATUS_IGNORE : st);
    if (r)
        capture_buffers_completed(r->id);
    if (r && !r->persistent)
        capture_emit_request_drop(capture_emit_tmp.handles[i], r);
}

static MPI_Status *statuses_for(MPI_Status *given, int count)
{
    return given != MPI_STATUSES_IGNORE || count > CAPTURE_EMIT_MAX_ARRAY
               ? given
               : capture_emit_tmp.mpi_statuses;
}

/* When a completion call returns an error, Open MPI frees each persistent request of its array
 * whose completion failed (a truncation) and nulls the handle, where MPICH leaves it inactive for
 * the program to free. The frees MPI made are recorded after the call's exit, or the requests
 * would be reported as never freed. */
static void freed_by_error(int rc, int n, const MPI_Request reqs[])
{
    for (int i = 0; rc != MPI_SUCCESS && i < n; i++) {
        const capture_emit_request *r = capture_emit_tmp.reqs[i];
        if (!r || !r->persistent || reqs[i] != MPI_REQUEST_NULL)
            continue;
        emit_free(INTERPOSE_HOOKS_CALL_ENTER, r->id);
        emit_free(INTERPOSE_HOOKS_CALL_EXIT, r->id);
        capture_buffers_forget(r->id);
        capture_emit_request_drop(capture_emit_tmp.handles[i], r);
    }
}

/* Whether request index i of a Waitall or Testall that returned rc is one MPI left pending:
 * MPI_ERR_IN_STATUS says so in its status (MPICH stops completing at the first request with an
 * error and leaves those after it active; MPI 4.0 §3.7.5). */
static int left_pending(int rc, const MPI_Status *statuses, int i)
{
    return rc == MPI_ERR_IN_STATUS && statuses != MPI_STATUSES_IGNORE &&
           statuses[i].MPI_ERROR == MPI_ERR_PENDING;
}

/* The status of a completion that ended with error err (MPI_SUCCESS: none), or
 * MPI_STATUS_IGNORE where its source and tag mean nothing (capture_call_matched). */
static const MPI_Status *defined_status(int err, const MPI_Status *st)
{
    return capture_call_matched(err) ? st : MPI_STATUS_IGNORE;
}

/* Status i of the array a call that returned rc filled: MPI_ERR_IN_STATUS puts each one's error
 * in it. */
static const MPI_Status *status_at(int rc, const MPI_Status *array, int i)
{
    if (array == MPI_STATUSES_IGNORE)
        return MPI_STATUS_IGNORE;
    return defined_status(rc == MPI_ERR_IN_STATUS ? array[i].MPI_ERROR : MPI_SUCCESS, &array[i]);
}

static int single(uint16_t fn, MPI_Request *request, int *flag, MPI_Status *status)
{
    MPI_Status local, *st = status == MPI_STATUS_IGNORE ? &local : status;
    int n = begin(fn, 1, request);
    int rc = flag ? mg_next_Test(request, flag, st) : mg_next_Wait(request, st);
    int done = !flag || (rc == MPI_SUCCESS && *flag);
    /* A non-persistent request whose completion failed (a truncation) is freed and its handle
     * nulled by both MPIs (Open MPI 4.1, MPICH 4.0), in a Wait and a Test alike: it completed
     * (a persistent one: freed_by_error). */
    const capture_emit_request *r = capture_emit_tmp.reqs[0];
    int failed = rc != MPI_SUCCESS && r && !r->persistent && *request == MPI_REQUEST_NULL;
    int ended = (done && rc == MPI_SUCCESS) || failed;
    if (ended)
        completed(0, 0, defined_status(rc, st));
    finish(fn, n, (uint32_t)ended, done || failed, rc);
    freed_by_error(rc, n, request);
    return rc;
}

static int impl_Wait(MPI_Request *request, MPI_Status *status)
{
    return single(CHECK_EVENT_FN_WAIT, request, NULL, status);
}

static int impl_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    return single(CHECK_EVENT_FN_TEST, request, flag, status);
}

static int all(uint16_t fn, int count, MPI_Request reqs[], int *flag, MPI_Status statuses[])
{
    MPI_Status *st = statuses_for(statuses, count);
    int n = begin(fn, count, reqs);
    int rc = flag ? mg_next_Testall(count, reqs, flag, st) : mg_next_Waitall(count, reqs, st);
    int done = (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS) && (!flag || *flag);
    uint32_t k = 0;
    for (int i = 0; done && i < n; i++)
        if (capture_emit_tmp.ids[i] && !left_pending(rc, st, i))
            completed(k++, i, status_at(rc, st, i));
    finish(fn, n, k, done, rc);
    freed_by_error(rc, n, reqs);
    return rc;
}

static int impl_Waitall(int count, MPI_Request reqs[], MPI_Status statuses[])
{
    return all(CHECK_EVENT_FN_WAITALL, count, reqs, NULL, statuses);
}

static int impl_Testall(int count, MPI_Request reqs[], int *flag, MPI_Status statuses[])
{
    return all(CHECK_EVENT_FN_TESTALL, count, reqs, flag, statuses);
}

static int any(uint16_t fn, int count, MPI_Request reqs[], int *indx, int *flag, MPI_Status *status)
{
    MPI_Status local, *st = status == MPI_STATUS_IGNORE ? &local : status;
    int n = begin(fn, count, reqs);
    /* A request that completes with an error is named by the index both MPIs set (and freed,
     * unless MPICH's persistent one) while the call returns the error; a call MPI refused sets
     * none. */
    if (indx)
        *indx = MPI_UNDEFINED;
    int rc = flag ? mg_next_Testany(count, reqs, indx, flag, st)
                  : mg_next_Waitany(count, reqs, indx, st);
    int ended = rc == MPI_SUCCESS && (!flag || *flag);
    int done = (ended || rc != MPI_SUCCESS) && indx && *indx >= 0 && *indx < n;
    if (done)
        completed(0, *indx, defined_status(rc, st));
    finish(fn, n, (uint32_t)done, ended || done, rc);
    freed_by_error(rc, n, reqs);
    return rc;
}

static int impl_Waitany(int count, MPI_Request reqs[], int *indx, MPI_Status *status)
{
    return any(CHECK_EVENT_FN_WAITANY, count, reqs, indx, NULL, status);
}

static int impl_Testany(int count, MPI_Request reqs[], int *indx, int *flag, MPI_Status *status)
{
    return any(CHECK_EVENT_FN_TESTANY, count, reqs, indx, flag, status);
}

static int some(uint16_t fn, int incount, MPI_Request reqs[], int *outcount, int indices[],
                MPI_Status statuses[])
{
    MPI_Status *st = statuses_for(statuses, incount);
    int n = begin(fn, incount, reqs);
    int rc = fn == CHECK_EVENT_FN_TESTSOME ? mg_next_Testsome(incount, reqs, outcount, indices, st)
                                           : mg_next_Waitsome(incount, reqs, outcount, indices, st);
    uint32_t k = 0;
    int ok = rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS;
    for (int j = 0; ok && *outcount != MPI_UNDEFINED && j < *outcount; j++)
        if (indices[j] >= 0 && indices[j] < n)
            completed(k++, indices[j], status_at(rc, st, j));
    finish(fn, n, k, k > 0, rc);
    freed_by_error(rc, n, reqs);
    return rc;
}

static int impl_Waitsome(int incount, MPI_Request reqs[], int *outcount, int indices[],
                         MPI_Status statuses[])
{
    return some(CHECK_EVENT_FN_WAITSOME, incount, reqs, outcount, indices, statuses);
}

static int impl_Testsome(int incount, MPI_Request reqs[], int *outcount, int indices[],
                         MPI_Status statuses[])
{
    return some(CHECK_EVENT_FN_TESTSOME, incount, reqs, outcount, indices, statuses);
}

/* The request of a call no peer completes (nonblocking file I/O, a generalized request): its
 * records, request the id the detector follows it by, like any nonblocking call's. */
static void local_request(uint16_t fn, int phase, int rc, MPI_Request *request)
{
    check_event ev = capture_emit_event(fn, capture_call_kind(phase), NULL);
    ev.flags |= capture_call_refused(rc);
    ev.request = capture_call_request(phase, rc, request, NULL, 0);
    capture_emit(&ev);
}

#define LOCAL_IO(Name, Fn, Buf)                                                                    \
    static void obs_##Name(int ph, int rc, MPI_File fh, Buf *buf, int count, MPI_Datatype type,    \
                           MPI_Request *request)                                                   \
    {                                                                                              \
        (void)fh, (void)buf, (void)count, (void)type;                                              \
        local_request(Fn, ph, rc, request);                                                        \
    }
#define LOCAL_IO_AT(Name, Fn, Buf)                                                                 \
    static void obs_##Name(int ph, int rc, MPI_File fh, MPI_Offset offset, Buf *buf, int count,    \
                           MPI_Datatype type, MPI_Request *request)                                \
    {                                                                                              \
        (void)fh, (void)offset, (void)buf, (void)count, (void)type;                                \
        local_request(Fn, ph, rc, request);                                                        \
    }
LOCAL_IO(File_iread, CHECK_EVENT_FN_FILE_IREAD, void)
LOCAL_IO(File_iwrite, CHECK_EVENT_FN_FILE_IWRITE, const void)
LOCAL_IO(File_iread_shared, CHECK_EVENT_FN_FILE_IREAD_SHARED, void)
LOCAL_IO(File_iwrite_shared, CHECK_EVENT_FN_FILE_IWRITE_SHARED, const void)
LOCAL_IO(File_iread_all, CHECK_EVENT_FN_FILE_IREAD_ALL, void)
LOCAL_IO(File_iwrite_all, CHECK_EVENT_FN_FILE_IWRITE_ALL, const void)
LOCAL_IO_AT(File_iread_at, CHECK_EVENT_FN_FILE_IREAD_AT, void)
LOCAL_IO_AT(File_iwrite_at, CHECK_EVENT_FN_FILE_IWRITE_AT, const void)
LOCAL_IO_AT(File_iread_at_all, CHECK_EVENT_FN_FILE_IREAD_AT_ALL, void)
LOCAL_IO_AT(File_iwrite_at_all, CHECK_EVENT_FN_FILE_IWRITE_AT_ALL, const void)

static void obs_Grequest_start(int ph, int rc, MPI_Grequest_query_function *query,
                               MPI_Grequest_free_function *free_fn,
                               MPI_Grequest_cancel_function *cancel, void *state,
                               MPI_Request *request)
{
    (void)query, (void)free_fn, (void)cancel, (void)state;
    local_request(CHECK_EVENT_FN_GREQUEST_START, ph, rc, request);
}

static void obs_Grequest_complete(int phase, int rc, MPI_Request request)
{
    check_event ev = capture_emit_event(CHECK_EVENT_FN_GREQUEST_COMPLETE, capture_call_kind(phase),
                                        NULL);
    ev.flags |= capture_call_refused(rc);
    ev.request = id_of(request);
    if (ev.request)
        capture_emit(&ev);
}

void capture_wait_install(void)
{
    CAPTURE_CALL_OBSERVE(File_iread)
    CAPTURE_CALL_OBSERVE(File_iwrite)
    CAPTURE_CALL_OBSERVE(File_iread_shared)
    CAPTURE_CALL_OBSERVE(File_iwrite_shared)
    CAPTURE_CALL_OBSERVE(File_iread_all)
    CAPTURE_CALL_OBSERVE(File_iwrite_all)
    CAPTURE_CALL_OBSERVE(File_iread_at)
    CAPTURE_CALL_OBSERVE(File_iwrite_at)
    CAPTURE_CALL_OBSERVE(File_iread_at_all)
    CAPTURE_CALL_OBSERVE(File_iwrite_at_all)
    CAPTURE_CALL_OBSERVE(Grequest_start)
    CAPTURE_CALL_OBSERVE(Grequest_complete)
    CAPTURE_CALL_OBSERVE(Start)
    CAPTURE_CALL_OBSERVE(Startall)
    CAPTURE_CALL_OBSERVE(Request_free)
    CAPTURE_CALL_OBSERVE(Cancel)
    CAPTURE_CALL_REPLACE(Wait)
    CAPTURE_CALL_REPLACE(Waitall)
    CAPTURE_CALL_REPLACE(Waitany)
    CAPTURE_CALL_REPLACE(Waitsome)
    CAPTURE_CALL_REPLACE(Test)
    CAPTURE_CALL_REPLACE(Testall) CAPTURE_CALL_REPLACE(Testany) CAPTURE_CALL_REPLACE(Testsome)
}
