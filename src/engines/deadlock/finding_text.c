/* What a detector finding says: its class, the calls it names and its one-line summary
 * (finding_text.h). */
#include "finding_text.h"

#include "check_event.h"
#include "lifecycle.h"
#include "mg_ranks.h"
#include "mpi_function_ids.h"
#include "usage_args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *finding_text_kind(int kind)
{
    switch (kind) {
    case DL_FINDING_DEADLOCK:
        return "deadlock";
    case DL_FINDING_POTENTIAL_DEADLOCK:
        return "potential_deadlock";
    case DL_FINDING_COLLECTIVE_MISMATCH:
        return "collective_mismatch";
    case DL_FINDING_TYPE_MISMATCH:
        return "type_mismatch";
    case DL_FINDING_TRUNCATION:
        return "truncation";
    case DL_FINDING_INVALID_ARGUMENTS:
        return "invalid_arguments";
    case DL_FINDING_LIFECYCLE:
        return "lifecycle";
    case DL_FINDING_MESSAGE_RACE:
        return "message_race";
    case DL_FINDING_MPI_ERROR:
        return "mpi_error";
    default:
        return "stuck_on_terminated";
    }
}

const char *finding_text_class(const dl_finding *f)
{
    return f->kind == DL_FINDING_INVALID_ARGUMENTS ? usage_args_problem_name(f->problem)
           : f->kind == DL_FINDING_LIFECYCLE       ? lifecycle_problem_name(f->problem)
                                                   : finding_text_kind(f->kind);
}

const char *finding_text_function(uint16_t fn)
{
    static char names[4][48];
    static unsigned next;
    const check_event_func_info *info = check_event_func_describe(fn);
    if (!info)
        return "MPI_?";
    char *out = names[next++ % 4];
    size_t i = 0;
    for (; info->name[i] && i < sizeof names[0] - 1; i++) {
        char c = info->name[i];
        out[i] = i > 4 && c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
    }
    out[i] = '\0';
    return out;
}

const char *finding_text_call_name(const dl_finding_call *c)
{
    if (c->func == CHECK_EVENT_FN_AFTER_FINALIZE && c->maker == MG_FN_NONE)
        return "MPI_*"; /* not wrapped: the source line names it */
    return c->func == CHECK_EVENT_FN_HANDLE_LEAK || c->func == CHECK_EVENT_FN_HANDLE_MADE ||
                   c->func == CHECK_EVENT_FN_AFTER_FINALIZE
               ? mpi_function_ids_name(c->maker)
               : finding_text_function(c->func);
}

static void peer_text(int32_t peer, char *buf, size_t len)
{
    if (peer == CHECK_EVENT_ANY_SOURCE)
        snprintf(buf, len, "MPI_ANY_SOURCE");
    else if (peer == CHECK_EVENT_PROC_NULL)
        snprintf(buf, len, "MPI_PROC_NULL");
    else
        snprintf(buf, len, "%d", peer);
}

void finding_text_call(uint16_t fn, int32_t peer, int32_t root, char *buf, size_t len)
{
    const check_event_func_info *info = check_event_func_describe(fn);
    char p[32];
    peer_text(peer, p, sizeof p);
    int klass = info ? info->klass : CHECK_EVENT_CLASS_OTHER;
    if (klass == CHECK_EVENT_CLASS_RECV || klass == CHECK_EVENT_CLASS_IRECV ||
        klass == CHECK_EVENT_CLASS_PROBE)
        snprintf(buf, len, "%s(from %s)", finding_text_function(fn), p);
    else if (klass == CHECK_EVENT_CLASS_SEND || klass == CHECK_EVENT_CLASS_ISEND ||
             klass == CHECK_EVENT_CLASS_SENDRECV)
        snprintf(buf, len, "%s(to %s)", finding_text_function(fn), p);
    else if ((fn == CHECK_EVENT_FN_WIN_LOCK || fn == CHECK_EVENT_FN_WIN_UNLOCK) && peer >= 0)
        snprintf(buf, len, "%s(target %s)", finding_text_function(fn), p);
    else if (info && info->rooted && root >= 0)
        snprintf(buf, len, "%s(root %d)", finding_text_function(fn), root);
    else
        snprintf(buf, len, "%s", finding_text_function(fn));
}

/* What an argument check found, for the summary. */
static const char *invalid_argument_text(uint32_t problem)
{
    switch (problem) {
    case USAGE_ARGS_COMM_NULL:
        return "the communicator is MPI_COMM_NULL";
    case USAGE_ARGS_COUNT_NEGATIVE:
        return "a negative count";
    case USAGE_ARGS_BUFFER_NULL:
        return "a NULL buffer with a positive count";
    case USAGE_ARGS_RANK_RANGE:
        return "a rank outside the communicator";
    case USAGE_ARGS_ROOT_RANGE:
        return "a root outside the communicator";
    case USAGE_ARGS_TAG_RANGE:
        return "a tag below 0 or above MPI_TAG_UB";
    case USAGE_ARGS_TYPE_NULL:
        return "the datatype is MPI_DATATYPE_NULL";
    case USAGE_ARGS_TYPE_FREED:
        return "a datatype already freed";
    case USAGE_ARGS_TYPE_UNCOMMITTED:
        return "a datatype never committed";
    case USAGE_ARGS_OP_TYPE:
        return "a reduction op not defined for its datatype (MPI 3.1 §5.9.2)";
    case USAGE_ARGS_RMA_OUTSIDE_EPOCH:
        return "an access to a target that no open epoch of the window covers, or a flush to one "
               "that no lock or Lock_all covers (MPI 3.1 §11.5)";
    case USAGE_ARGS_RMA_EPOCH_TWICE:
        return "an epoch opened while one that excludes it is open on the window";
    case USAGE_ARGS_RMA_EPOCH_UNCLOSED:
        return "the window is freed with an epoch open or accesses not completed";
    case USAGE_ARGS_RMA_CLOSE_UNOPENED:
        return "an epoch closed that was never opened (unlock without lock, complete without "
               "start, wait without post)";
    case USAGE_ARGS_SEND_BUFFER_CHANGED:
        return "its buffer was written before the send completed (the checksums at the post and "
               "at the completion differ)";
    case USAGE_ARGS_BUFFERS_OVERLAP:
        return "its buffer shares bytes with a pending request's, one of them a receive (MPI 3.1 "
               "§3.7.2)";
    case USAGE_ARGS_RMA_CONFLICT:
        return "two accesses to the same bytes of a target's window in one epoch, or in two "
               "origins' lock epochs with no flush then message or collective between them, one "
               "of them writing (a Put, or atomic updates with different ops: MPI 3.1 §11.7.1)";
    case USAGE_ARGS_COMM_FREED:
        return "the communicator was freed before (a copy of its handle)";
    case USAGE_ARGS_OP_FREED:
        return "the reduction op was freed before (a copy of its handle)";
    case USAGE_ARGS_REQUEST_FREED:
        return "the request was freed before (by MPI_Request_free, or by the Wait or Test that "
               "completed it: a copy of its handle)";
    case USAGE_ARGS_GROUP_FREED:
        return "the group was freed before (a copy of its handle)";
    case USAGE_ARGS_WIN_FREED:
        return "the window was freed before (a copy of its handle)";
    case USAGE_ARGS_TOPOLOGY_MISSING:
        return "a neighbourhood collective on a communicator without a Cartesian or graph "
               "topology (MPI_ERR_TOPOLOGY)";
    default:
        return "unknown";
    }
}

/* How a rank that the others wait for ended. */
static const char *end_text(uint16_t fn)
{
    return fn == CHECK_EVENT_FN_FINALIZE ? "finalized"
           : fn == CHECK_EVENT_FN_ABORT  ? "aborted"
                                         : "vanished";
}

/* The ranks of f's calls in state `terminated` (1) or not (0), formatted into list ("1-2"); the
 * index of the first such call, or -1. */
static long ranks_in_state(const dl_finding *f, int terminated, char *list, size_t len)
{
    int *ranks = calloc(f->n_calls ? f->n_calls : 1, sizeof *ranks);
    size_t n = 0;
    long first = -1;
    for (size_t i = 0; ranks && i < f->n_calls; i++)
        if ((f->calls[i].state == WAIT_GRAPH_TERMINATED) == terminated) {
            first = first < 0 ? (long)i : first;
            ranks[n++] = f->calls[i].rank;
        }
    list[0] = '\0';
    if (ranks)
        mg_ranks_format(ranks, n, list, len);
    free(ranks);
    return first;
}

/* "rank 0 ended (finalized); ranks 1-2 wait for it: rank 1 in MPI_Recv(from 0)": the waiting
 * ranks are those still in a call, the awaited one those that ended. */
static void stuck_summary(const dl_finding *f, char *buf, size_t len)
{
    char ended[96], waiting[96], call[96] = "";
    long first_ended = ranks_in_state(f, 1, ended, sizeof ended);
    long first_waiting = ranks_in_state(f, 0, waiting, sizeof waiting);
    if (first_ended < 0 || first_waiting < 0) {
        snprintf(buf, len, "ranks %s wait for a rank that finalized, aborted or vanished",
                 first_waiting < 0 ? ended : waiting);
        return;
    }
    const dl_finding_call *w = &f->calls[first_waiting];
    finding_text_call(w->func, w->peer, w->root, call, sizeof call);
    int one_ended = !strchr(ended, ',') && !strchr(ended, '-');
    int one_waiting = !strchr(waiting, ',') && !strchr(waiting, '-');
    snprintf(buf, len, "rank%s %s ended (%s); rank%s %s wait%s for %s: rank %d in %s",
             one_ended ? "" : "s", ended, end_text(f->calls[first_ended].func),
             one_waiting ? "" : "s", waiting, one_waiting ? "s" : "", one_ended ? "it" : "them",
             w->rank, call);
}

/* What a leak finding counts, for its summary; NULL for a problem that is no leak. */
static const char *leaked_kind_text(uint32_t problem)
{
    static const char *const kinds[DL_FINDING_LIFECYCLE_PROBLEM_END] = {
        [DL_FINDING_LIFECYCLE_COMM_LEAK] = "communicator(s)",
        [DL_FINDING_LIFECYCLE_WINDOW_LEAK] = "window(s)",
        [DL_FINDING_LIFECYCLE_GROUP_LEAK] = "group(s)",
        [DL_FINDING_LIFECYCLE_DATATYPE_LEAK] = "datatype(s)",
        [DL_FINDING_LIFECYCLE_OP_LEAK] = "op(s)",
        [DL_FINDING_LIFECYCLE_INFO_LEAK] = "info object(s)",
        [DL_FINDING_LIFECYCLE_ERRHANDLER_LEAK] = "error handler(s)",
    };
    return problem < DL_FINDING_LIFECYCLE_PROBLEM_END ? kinds[problem] : NULL;
}

/* A lifecycle finding's summary; call is calls[0] as finding_text_call formats it. */
static void lifecycle_text(const dl_finding *f, const char *call, char *buf, size_t len)
{
    int rank = f->calls[0].rank;
    unsigned long long count = (unsigned long long)f->count;
    const char *leaked = leaked_kind_text(f->problem);
    if (leaked) {
        snprintf(buf, len, "rank %d never freed %llu %s made by %s", rank, count, leaked,
                 finding_text_call_name(&f->calls[0]));
        return;
    }
    switch (f->problem) {
    case DL_FINDING_LIFECYCLE_REQUEST_PENDING:
        snprintf(buf, len,
                 "rank %d reached MPI_Finalize with %llu request(s) of %s never completed", rank,
                 count, call);
        break;
    case DL_FINDING_LIFECYCLE_REQUEST_NOT_FREED:
        snprintf(buf, len, "rank %d never freed %llu persistent request(s) of %s", rank, count,
                 call);
        break;
    case DL_FINDING_LIFECYCLE_REQUEST_RESTARTED:
        snprintf(buf, len, "rank %d starts a persistent request that is still active", rank);
        break;
    case DL_FINDING_LIFECYCLE_MESSAGE_LOST:
        snprintf(buf, len, "%llu message(s) of rank %d's %s were never received", count, rank,
                 call);
        break;
    case DL_FINDING_LIFECYCLE_CALL_AFTER_FINALIZE:
        snprintf(buf, len, "rank %d calls %s after its MPI_Finalize", rank,
                 finding_text_call_name(&f->calls[0]));
        break;
    default:
        if (f->calls[0].func == CHECK_EVENT_FN_EXIT)
            snprintf(buf, len, "rank %d ended without calling MPI_Finalize", rank);
        else /* no exit() call (a return from main): named at its last call instead */
            snprintf(buf, len,
                     "rank %d ended without calling MPI_Finalize; its last MPI call checked was %s",
                     rank, finding_text_call_name(&f->calls[0]));
        break;
    }
}

/* "rank 0's MPI_Recv(from MPI_ANY_SOURCE) could take the message of ranks 1,2; MPI took rank
 * 1's this run". */
static void race_text(const dl_finding *f, const char *call, char *buf, size_t len)
{
    int senders[64];
    size_t n = 0;
    for (size_t i = 1; i < f->n_calls && n < sizeof senders / sizeof *senders; i++)
        senders[n++] = f->calls[i].rank;
    char list[96];
    mg_ranks_format(senders, n, list, sizeof list);
    snprintf(buf, len,
             "rank %d's %s could take the message of ranks %s; MPI took rank %d's this run",
             f->calls[0].rank, call, list, f->calls[1].rank);
}

/* A deadlock's, a potential deadlock's or a collective mismatch's summary: the ranks of its knot
 * (of every call for a mismatch or a finding without a knot); call is calls[0] as
 * finding_text_call formats it. */
static void knot_text(const dl_finding *f, const char *call, char *buf, size_t len)
{
    int *ranks = calloc(f->n_calls ? f->n_calls : 1, sizeof *ranks);
    size_t n = f->kind == DL_FINDING_COLLECTIVE_MISMATCH || !f->n_knot ? f->n_calls : f->n_knot;
    for (size_t i = 0; ranks && i < n; i++)
        ranks[i] = f->calls[i].rank;
    char list[96] = "";
    if (ranks)
        mg_ranks_format(ranks, n, list, sizeof list);
    free(ranks);
    /* a knot of one rank waits for itself (a receive from itself that no send matches) */
    char who[128];
    if (n == 1)
        snprintf(who, sizeof who, "rank %s waits for itself", list);
    else
        snprintf(who, sizeof who, "ranks %s wait for each other", list);
    if (f->kind == DL_FINDING_DEADLOCK)
        snprintf(buf, len, "%s (rank %d in %s)", who, f->calls[0].rank, call);
    else if (f->kind == DL_FINDING_POTENTIAL_DEADLOCK)
        snprintf(buf, len, "%s if standard sends are not buffered (rank %d in %s)", who,
                 f->calls[0].rank, call);
    else
        snprintf(buf, len, "ranks %s call disagreeing collectives (rank %d: %s)", list,
                 f->calls[0].rank, call);
}

/* A type mismatch's or a truncation's summary: calls[0] the send, calls[1] the receive. */
static void matched_pair_text(const dl_finding *f, const char *call, char *buf, size_t len)
{
    char other[96] = "";
    if (f->n_calls > 1)
        finding_text_call(f->calls[1].func, f->calls[1].peer, f->calls[1].root, other,
                          sizeof other);
    if (f->kind == DL_FINDING_TYPE_MISMATCH)
        snprintf(buf, len,
                 "rank %d's %s sends %llu elements that rank %d's %s receives as "
                 "different basic types",
                 f->calls[0].rank, call, (unsigned long long)f->send_elems, f->calls[1].rank,
                 other);
    else
        snprintf(buf, len, "rank %d's %s sends %llu elements, more than the %llu of rank %d's %s",
                 f->calls[0].rank, call, (unsigned long long)f->send_elems,
                 (unsigned long long)f->recv_elems, f->calls[1].rank, other);
}

void finding_text_summary(const dl_finding *f, char *buf, size_t len)
{
    char call[96] = "";
    if (f->n_calls)
        finding_text_call(f->calls[0].func, f->calls[0].peer, f->calls[0].root, call, sizeof call);
    switch (f->kind) {
    case DL_FINDING_TYPE_MISMATCH:
    case DL_FINDING_TRUNCATION:
        matched_pair_text(f, call, buf, len);
        break;
    case DL_FINDING_INVALID_ARGUMENTS:
        if (f->problem == USAGE_ARGS_RMA_CONFLICT && f->n_calls == 2)
            snprintf(buf, len,
                     "rank %d's %s and rank %d's %s access the same bytes of rank %d's window in "
                     "one epoch, one of them writing",
                     f->calls[0].rank, finding_text_function(f->calls[0].func), f->calls[1].rank,
                     finding_text_function(f->calls[1].func), f->calls[1].peer);
        else
            snprintf(buf, len, "rank %d calls %s with invalid arguments: %s%s", f->calls[0].rank,
                     finding_text_function(f->calls[0].func), invalid_argument_text(f->problem),
                     f->notes & DL_FINDING_NOTE_ENDED_INSIDE ? "; MPI ended the job inside the call"
                                                             : "");
        break;
    case DL_FINDING_LIFECYCLE:
        lifecycle_text(f, call, buf, len);
        break;
    case DL_FINDING_MESSAGE_RACE:
        race_text(f, call, buf, len);
        break;
    case DL_FINDING_MPI_ERROR:
        snprintf(buf, len, "MPI raised %s (error code %llu) in rank %d's %s; the job aborts",
                 check_event_mpi_error_name(f->problem), (unsigned long long)f->count,
                 f->calls[0].rank, finding_text_function(f->calls[0].func));
        break;
    case DL_FINDING_DEADLOCK:
    case DL_FINDING_POTENTIAL_DEADLOCK:
    case DL_FINDING_COLLECTIVE_MISMATCH:
        knot_text(f, call, buf, len);
        break;
    default:
        stuck_summary(f, buf, len);
        break;
    }
}
