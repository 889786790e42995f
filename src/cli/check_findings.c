/* Detector findings into the report (check_findings.h). */
#include "check_findings.h"

#include "check_event.h"
#include "lifecycle.h"
#include "mg_ranks.h"
#include "mpi_function_ids.h"
#include "usage_args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *check_finding_kind(int kind)
{
    switch (kind) {
    case DL_DEADLOCK:
        return "deadlock";
    case DL_POTENTIAL_DEADLOCK:
        return "potential_deadlock";
    case DL_COLLECTIVE_MISMATCH:
        return "collective_mismatch";
    case DL_TYPE_MISMATCH:
        return "type_mismatch";
    case DL_TRUNCATION:
        return "truncation";
    case DL_INVALID_ARGUMENTS:
        return "invalid_arguments";
    case DL_LIFECYCLE:
        return "lifecycle";
    case DL_MESSAGE_RACE:
        return "message_race";
    case DL_MPI_ERROR:
        return "mpi_error";
    default:
        return "stuck_on_terminated";
    }
}

const char *check_finding_class(const dl_finding *f)
{
    return f->kind == DL_INVALID_ARGUMENTS ? usage_problem_name(f->problem)
           : f->kind == DL_LIFECYCLE       ? lifecycle_problem_name(f->problem)
                                           : check_finding_kind(f->kind);
}

/* The engine names functions "MPI_COMM_DUP"; reports use the standard's "MPI_Comm_dup". The
 * result lives in one of a few rotating buffers, enough for one finding's formatting. */
static const char *fn_name(uint16_t fn)
{
    static char names[4][48];
    static unsigned next;
    const check_func_info *info = check_func_describe(fn);
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

/* The function a finding names for call c: for handles that leaked, the call that made them. */
static const char *call_name(const dl_call *c)
{
    return c->func == CHECK_FN_HANDLE_LEAK ? mg_fn_name(c->maker) : fn_name(c->func);
}

static void peer_text(int32_t peer, char *buf, size_t len)
{
    if (peer == CHECK_ANY_SOURCE)
        snprintf(buf, len, "MPI_ANY_SOURCE");
    else if (peer == CHECK_PROC_NULL)
        snprintf(buf, len, "MPI_PROC_NULL");
    else
        snprintf(buf, len, "%d", peer);
}

/* "MPI_Recv(from 1)", "MPI_Send(to 0)", "MPI_Bcast(root 1)", "MPI_Waitall". */
static void call_text(uint16_t fn, int32_t peer, int32_t root, char *buf, size_t len)
{
    const check_func_info *info = check_func_describe(fn);
    char p[32];
    peer_text(peer, p, sizeof p);
    int klass = info ? info->klass : CHECK_CLASS_OTHER;
    if (klass == CHECK_CLASS_RECV || klass == CHECK_CLASS_IRECV || klass == CHECK_CLASS_PROBE)
        snprintf(buf, len, "%s(from %s)", fn_name(fn), p);
    else if (klass == CHECK_CLASS_SEND || klass == CHECK_CLASS_ISEND ||
             klass == CHECK_CLASS_SENDRECV)
        snprintf(buf, len, "%s(to %s)", fn_name(fn), p);
    else if (info && info->rooted && root >= 0)
        snprintf(buf, len, "%s(root %d)", fn_name(fn), root);
    else
        snprintf(buf, len, "%s", fn_name(fn));
}

static json_object *string_or_null(const char *s)
{
    return s ? json_object_new_string(s) : NULL;
}

/* 1 when rank is in f's OR-knot. */
static int in_knot(const dl_finding *f, int32_t rank)
{
    for (size_t i = 0; i < f->n_calls; i++)
        if (f->calls[i].rank == rank && f->calls[i].in_knot)
            return 1;
    return 0;
}

/* The wait-for graph of f, its OR-knot's processes highlighted as in MUST's output (Fig. 7). */
static void add_graph(mg_finding *out, const dl_finding *f)
{
    const wait_graph *g = &f->graph;
    for (size_t i = 0; i < g->n_nodes; i++) {
        const wg_node *n = &g->nodes[i];
        char id[32], label[160], call[96];
        const char *shape = "ellipse";
        switch (n->type) {
        case WG_PROCESS:
            snprintf(id, sizeof id, "r%d", n->rank);
            call_text(n->func, n->peer, -1, call, sizeof call);
            snprintf(label, sizeof label, "rank %d: %s%s", n->rank,
                     n->state == WG_TERMINATED ? "terminated in " : "", call);
            break;
        case WG_REQUEST:
            snprintf(id, sizeof id, "n%zu", i);
            snprintf(label, sizeof label, "rank %d request %llu", n->rank,
                     (unsigned long long)n->aux);
            shape = "parallelogram";
            break;
        case WG_ANY_SOURCE:
            snprintf(id, sizeof id, "n%zu", i);
            snprintf(label, sizeof label, "any source of comm %llx", (unsigned long long)n->comm);
            shape = "diamond";
            break;
        default:
            snprintf(id, sizeof id, "n%zu", i);
            snprintf(label, sizeof label, "%s #%llu", fn_name(n->func), (unsigned long long)n->aux);
            shape = "box";
            break;
        }
        mg_finding_add_graph_node(out, id, label, shape);
        if (n->type == WG_PROCESS && in_knot(f, n->rank))
            mg_finding_highlight_graph_node(out, id);
    }
    for (size_t a = 0; a < g->n_arcs; a++) {
        char from[32], to[32];
        const wg_node *f = &g->nodes[g->arcs[a].from], *t = &g->nodes[g->arcs[a].to];
        if (f->type == WG_PROCESS)
            snprintf(from, sizeof from, "r%d", f->rank);
        else
            snprintf(from, sizeof from, "n%u", g->arcs[a].from);
        if (t->type == WG_PROCESS)
            snprintf(to, sizeof to, "r%d", t->rank);
        else
            snprintf(to, sizeof to, "n%u", g->arcs[a].to);
        mg_finding_add_graph_edge(out, from, to, wait_graph_arc_is_or(g, a) ? "dashed" : "solid");
    }
}

/* What an argument check found, for the summary. */
static const char *invalid_argument_text(uint32_t problem)
{
    switch (problem) {
    case USAGE_COMM_NULL:
        return "the communicator is MPI_COMM_NULL";
    case USAGE_COUNT_NEGATIVE:
        return "a negative count";
    case USAGE_BUFFER_NULL:
        return "a NULL buffer with a positive count";
    case USAGE_RANK_RANGE:
        return "a rank outside the communicator";
    case USAGE_ROOT_RANGE:
        return "a root outside the communicator";
    case USAGE_TAG_RANGE:
        return "a tag below 0 or above MPI_TAG_UB";
    case USAGE_TYPE_NULL:
        return "the datatype is MPI_DATATYPE_NULL";
    case USAGE_TYPE_FREED:
        return "a datatype already freed";
    case USAGE_TYPE_UNCOMMITTED:
        return "a datatype never committed";
    case USAGE_OP_TYPE:
        return "a reduction op not defined for its datatype (MPI 3.1 §5.9.2)";
    case USAGE_RMA_OUTSIDE_EPOCH:
        return "an access to a target that no open epoch of the window covers (MPI 3.1 §11.5)";
    case USAGE_RMA_EPOCH_TWICE:
        return "an epoch opened while one that excludes it is open on the window";
    case USAGE_RMA_EPOCH_UNCLOSED:
        return "the window is freed with an epoch open or accesses not completed";
    case USAGE_RMA_CLOSE_UNOPENED:
        return "an epoch closed that was never opened (unlock without lock, complete without "
               "start, wait without post)";
    case USAGE_SEND_BUFFER_CHANGED:
        return "its buffer was written before the send completed (the checksums at the post and "
               "at the completion differ)";
    case USAGE_BUFFERS_OVERLAP:
        return "its buffer shares bytes with a pending request's, one of them a receive (MPI 3.1 "
               "§3.7.2)";
    case USAGE_COMM_FREED:
        return "the communicator was freed before (a copy of its handle)";
    case USAGE_OP_FREED:
        return "the reduction op was freed before (a copy of its handle)";
    default:
        return "unknown";
    }
}

/* How a rank that the others wait for ended. */
static const char *end_text(uint16_t fn)
{
    return fn == CHECK_FN_FINALIZE ? "finalized" : fn == CHECK_FN_ABORT ? "aborted" : "vanished";
}

/* The ranks of f's calls in state `terminated` (1) or not (0), formatted into list ("1-2"); the
 * index of the first such call, or -1. */
static long ranks_in_state(const dl_finding *f, int terminated, char *list, size_t len)
{
    int *ranks = calloc(f->n_calls ? f->n_calls : 1, sizeof *ranks);
    size_t n = 0;
    long first = -1;
    for (size_t i = 0; ranks && i < f->n_calls; i++)
        if ((f->calls[i].state == WG_TERMINATED) == terminated) {
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
    const dl_call *w = &f->calls[first_waiting];
    call_text(w->func, w->peer, w->root, call, sizeof call);
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
    static const char *const kinds[LIFECYCLE_PROBLEM_END] = {
        [LIFECYCLE_COMM_LEAK] = "communicator(s)",
        [LIFECYCLE_WINDOW_LEAK] = "window(s)",
        [LIFECYCLE_GROUP_LEAK] = "group(s)",
        [LIFECYCLE_DATATYPE_LEAK] = "datatype(s)",
        [LIFECYCLE_OP_LEAK] = "op(s)",
        [LIFECYCLE_INFO_LEAK] = "info object(s)",
    };
    return problem < LIFECYCLE_PROBLEM_END ? kinds[problem] : NULL;
}

/* A lifecycle finding's summary; call is calls[0] as call_text formats it. */
static void lifecycle_text(const dl_finding *f, const char *call, char *buf, size_t len)
{
    int rank = f->calls[0].rank;
    unsigned long long count = (unsigned long long)f->count;
    const char *leaked = leaked_kind_text(f->problem);
    if (leaked) {
        snprintf(buf, len, "rank %d never freed %llu %s made by %s", rank, count, leaked,
                 call_name(&f->calls[0]));
        return;
    }
    switch (f->problem) {
    case LIFECYCLE_REQUEST_PENDING:
        snprintf(buf, len,
                 "rank %d reached MPI_Finalize with %llu request(s) of %s never completed", rank,
                 count, call);
        break;
    case LIFECYCLE_REQUEST_NOT_FREED:
        snprintf(buf, len, "rank %d never freed %llu persistent request(s) of %s", rank, count,
                 call);
        break;
    case LIFECYCLE_REQUEST_RESTARTED:
        snprintf(buf, len, "rank %d starts a persistent request that is still active", rank);
        break;
    case LIFECYCLE_MESSAGE_LOST:
        snprintf(buf, len, "%llu message(s) of rank %d's %s were never received", count, rank,
                 call);
        break;
    default:
        snprintf(buf, len, "rank %d ended without calling MPI_Finalize", rank);
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

static void summary_of(const dl_finding *f, char *buf, size_t len)
{
    int *ranks = calloc(f->n_calls ? f->n_calls : 1, sizeof *ranks);
    size_t n = f->kind == DL_COLLECTIVE_MISMATCH || !f->n_knot ? f->n_calls : f->n_knot;
    for (size_t i = 0; ranks && i < n; i++)
        ranks[i] = f->calls[i].rank;
    char list[96] = "";
    if (ranks)
        mg_ranks_format(ranks, n, list, sizeof list);
    free(ranks);
    char call[96] = "", other[96] = "";
    if (f->n_calls)
        call_text(f->calls[0].func, f->calls[0].peer, f->calls[0].root, call, sizeof call);
    if (f->n_calls > 1)
        call_text(f->calls[1].func, f->calls[1].peer, f->calls[1].root, other, sizeof other);
    /* a knot of one rank waits for itself (a receive from itself that no send matches) */
    char who[128];
    if (n == 1)
        snprintf(who, sizeof who, "rank %s waits for itself", list);
    else
        snprintf(who, sizeof who, "ranks %s wait for each other", list);
    switch (f->kind) {
    case DL_TYPE_MISMATCH:
        snprintf(buf, len,
                 "rank %d's %s sends %llu elements that rank %d's %s receives as "
                 "different basic types",
                 f->calls[0].rank, call, (unsigned long long)f->send_elems, f->calls[1].rank,
                 other);
        break;
    case DL_TRUNCATION:
        snprintf(buf, len, "rank %d's %s sends %llu elements, more than the %llu of rank %d's %s",
                 f->calls[0].rank, call, (unsigned long long)f->send_elems,
                 (unsigned long long)f->recv_elems, f->calls[1].rank, other);
        break;
    case DL_INVALID_ARGUMENTS:
        snprintf(buf, len, "rank %d calls %s with invalid arguments: %s", f->calls[0].rank,
                 fn_name(f->calls[0].func), invalid_argument_text(f->problem));
        break;
    case DL_LIFECYCLE:
        lifecycle_text(f, call, buf, len);
        break;
    case DL_MESSAGE_RACE:
        race_text(f, call, buf, len);
        break;
    case DL_MPI_ERROR:
        snprintf(buf, len, "MPI raised %s (error code %llu) in rank %d's %s; the job aborts",
                 check_mpi_error_name(f->problem), (unsigned long long)f->count, f->calls[0].rank,
                 fn_name(f->calls[0].func));
        break;
    case DL_DEADLOCK:
        snprintf(buf, len, "%s (rank %d in %s)", who, f->calls[0].rank, call);
        break;
    case DL_POTENTIAL_DEADLOCK:
        snprintf(buf, len, "%s if standard sends are not buffered (rank %d in %s)", who,
                 f->calls[0].rank, call);
        break;
    case DL_COLLECTIVE_MISMATCH:
        snprintf(buf, len, "ranks %s call disagreeing collectives (rank %d: %s)", list,
                 f->calls[0].rank, call);
        break;
    default:
        stuck_summary(f, buf, len);
        break;
    }
}

/* Adds (replace: -1) or rewrites (replace: its index) the report finding of f. */
static mg_finding *put_finding(mg_report *report, long replace, const dl_finding *f,
                               const site_resolver *sites, uint64_t records_lost)
{
    char summary[512];
    summary_of(f, summary, sizeof summary);
    const char *kind = check_finding_class(f);
    mg_finding *out = replace < 0
                          ? mg_report_add_finding(report, kind, summary)
                          : mg_report_replace_finding(report, (size_t)replace, kind, summary);
    if (!out)
        return NULL;
    json_object *ev = mg_finding_evidence(out);
    json_object *knot = json_object_new_array(), *blocked = json_object_new_array();
    for (size_t i = 0; i < f->n_calls; i++) {
        const dl_call *c = &f->calls[i];
        site_info site;
        site_resolver_cached(sites, c->rank, c->callsite, &site);
        /* a creation after the call at fault is that call's rank's, listed already */
        if (!c->made_it || i == 0)
            mg_finding_add_rank(out, c->rank);
        (c->made_it ? mg_finding_add_creation_site
                    : mg_finding_add_site)(out, c->rank, call_name(c), site.file, site.line);
        if (c->in_knot)
            json_object_array_add(knot, json_object_new_int(c->rank));
        json_object *b = json_object_new_object();
        json_object_object_add(b, "rank", json_object_new_int(c->rank));
        json_object_object_add(b, "function", json_object_new_string(call_name(c)));
        char comm[32];
        snprintf(comm, sizeof comm, c->comm == CHECK_COMM_WORLD ? "MPI_COMM_WORLD" : "%llx",
                 (unsigned long long)c->comm);
        json_object_object_add(b, "comm", json_object_new_string(comm));
        json_object_object_add(b, "peer", json_object_new_int(c->peer));
        json_object_object_add(b, "tag", json_object_new_int(c->tag));
        json_object_object_add(b, "root", json_object_new_int(c->root));
        json_object_object_add(b, "state",
                               json_object_new_string(c->state == WG_TERMINATED ? "terminated"
                                                      : c->state == WG_RUNNING  ? "running"
                                                                                : "blocked"));
        json_object_object_add(b, "file", string_or_null(site.file));
        json_object_object_add(b, "line", json_object_new_int(site.line));
        json_object_object_add(b, "in_knot", json_object_new_boolean(c->in_knot));
        json_object_array_add(blocked, b);
    }
    json_object_object_add(ev, "knot", knot);
    json_object_object_add(ev, "blocked", blocked);
    json_object_object_add(ev, "forced_decision",
                           json_object_new_boolean(!!(f->notes & DL_NOTE_DECISION_FORCED)));
    json_object_object_add(ev, "buffer_released",
                           json_object_new_boolean(!!(f->notes & DL_NOTE_BUFFER_RELEASED)));
    if (f->notes & DL_NOTE_PROBED) {
        json_object *p = json_object_new_object();
        json_object_object_add(p, "rank", json_object_new_int(f->probe_rank));
        json_object_object_add(p, "request", json_object_new_int64((int64_t)f->probe_request));
        json_object_object_add(p, "source", json_object_new_int(f->probe_source));
        json_object_object_add(ev, "probed", p);
    }
    if (f->kind == DL_COLLECTIVE_MISMATCH) {
        static const char *const names[] = {"kind", "blocking", "root", "op", "type"};
        json_object *m = json_object_new_array();
        for (int b = 0; b < 5; b++)
            if (f->mismatch & (1u << b))
                json_object_array_add(m, json_object_new_string(names[b]));
        json_object_object_add(ev, "mismatch", m);
        if (f->n_calls)
            json_object_object_add(ev, "communicator",
                                   json_object_new_string(f->calls[0].comm == CHECK_COMM_WORLD
                                                              ? "MPI_COMM_WORLD"
                                                              : "derived"));
    }
    if (f->kind == DL_TYPE_MISMATCH || f->kind == DL_TRUNCATION) {
        json_object_object_add(ev, "send_elements", json_object_new_int64((int64_t)f->send_elems));
        json_object_object_add(ev, "recv_elements", json_object_new_int64((int64_t)f->recv_elems));
    }
    if (f->kind == DL_INVALID_ARGUMENTS && f->n_calls) {
        const dl_call *c = &f->calls[0];
        json_object_object_add(ev, "argument_rank",
                               json_object_new_int(c->root != CHECK_NO_ROOT ? c->root : c->peer));
    }
    if (f->kind == DL_LIFECYCLE)
        json_object_object_add(ev, "count", json_object_new_int64((int64_t)f->count));
    if (f->kind == DL_MPI_ERROR) {
        json_object_object_add(ev, "mpi_error_class",
                               json_object_new_string(check_mpi_error_name(f->problem)));
        json_object_object_add(ev, "mpi_error_code", json_object_new_int64((int64_t)f->count));
    }
    if (records_lost)
        json_object_object_add(ev, "records_lost", json_object_new_int64((int64_t)records_lost));
    if (f->graph.n_nodes)
        add_graph(out, f);
    return out;
}

mg_finding *check_finding_add(mg_report *report, const dl_finding *f, const site_resolver *sites,
                              uint64_t records_lost)
{
    return put_finding(report, -1, f, sites, records_lost);
}

mg_finding *check_finding_replace(mg_report *report, size_t index, const dl_finding *f,
                                  const site_resolver *sites, uint64_t records_lost)
{
    return put_finding(report, (long)index, f, sites, records_lost);
}
