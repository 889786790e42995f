/* Detector findings into the report (check_findings.h); what they say is the engine's
 * (finding_text.h). */
#include "check_findings.h"

#include "check_event.h"
#include "finding_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
static void add_graph(report_entry *out, const dl_finding *f)
{
    const wait_graph *g = &f->graph;
    for (size_t i = 0; i < g->n_nodes; i++) {
        const wait_graph_node *n = &g->nodes[i];
        char id[32], label[160], call[96];
        const char *shape = "ellipse";
        switch (n->type) {
        case WAIT_GRAPH_PROCESS:
            snprintf(id, sizeof id, "r%d", n->rank);
            finding_text_call(n->func, n->peer, -1, call, sizeof call);
            snprintf(label, sizeof label, "rank %d: %s%s", n->rank,
                     n->state == WAIT_GRAPH_TERMINATED ? "terminated in " : "", call);
            break;
        case WAIT_GRAPH_REQUEST:
            snprintf(id, sizeof id, "n%zu", i);
            snprintf(label, sizeof label, "rank %d request %llu", n->rank,
                     (unsigned long long)n->aux);
            shape = "parallelogram";
            break;
        case WAIT_GRAPH_ANY_SOURCE:
            snprintf(id, sizeof id, "n%zu", i);
            snprintf(label, sizeof label, "any source of comm %llx", (unsigned long long)n->comm);
            shape = "diamond";
            break;
        default:
            snprintf(id, sizeof id, "n%zu", i);
            snprintf(label, sizeof label, "%s #%llu", finding_text_function(n->func),
                     (unsigned long long)n->aux);
            shape = "box";
            break;
        }
        report_finding_add_graph_node(out, id, label, shape);
        if (n->type == WAIT_GRAPH_PROCESS && in_knot(f, n->rank))
            report_finding_highlight_graph_node(out, id);
    }
    for (size_t a = 0; a < g->n_arcs; a++) {
        char from[32], to[32];
        const wait_graph_node *f = &g->nodes[g->arcs[a].from], *t = &g->nodes[g->arcs[a].to];
        if (f->type == WAIT_GRAPH_PROCESS)
            snprintf(from, sizeof from, "r%d", f->rank);
        else
            snprintf(from, sizeof from, "n%u", g->arcs[a].from);
        if (t->type == WAIT_GRAPH_PROCESS)
            snprintf(to, sizeof to, "r%d", t->rank);
        else
            snprintf(to, sizeof to, "n%u", g->arcs[a].to);
        report_finding_add_graph_edge(out, from, to,
                                      wait_graph_arc_is_or(g, a) ? "dashed" : "solid");
    }
}

/* The evidence entry of call c: its rank, function, communicator, peer, tag, root, state and
 * site. */
static json_object *blocked_call(const dl_finding_call *c, const site_resolver_info *site)
{
    json_object *b = json_object_new_object();
    json_object_object_add(b, "rank", json_object_new_int(c->rank));
    json_object_object_add(b, "function", json_object_new_string(finding_text_call_name(c)));
    char comm[32];
    snprintf(comm, sizeof comm, c->comm == CHECK_EVENT_COMM_WORLD ? "MPI_COMM_WORLD" : "%llx",
             (unsigned long long)c->comm);
    json_object_object_add(b, "comm", json_object_new_string(comm));
    json_object_object_add(b, "peer", json_object_new_int(c->peer));
    json_object_object_add(b, "tag", json_object_new_int(c->tag));
    json_object_object_add(b, "root", json_object_new_int(c->root));
    json_object_object_add(b, "state",
                           json_object_new_string(c->state == WAIT_GRAPH_TERMINATED ? "terminated"
                                                  : c->state == WAIT_GRAPH_RUNNING  ? "running"
                                                                                    : "blocked"));
    json_object_object_add(b, "file", string_or_null(site->file));
    json_object_object_add(b, "line", json_object_new_int(site->line));
    json_object_object_add(b, "in_knot", json_object_new_boolean(c->in_knot));
    return b;
}

/* The evidence only some kinds of finding carry: what a collective mismatch disagrees on, the
 * element counts of a matched pair, the rank argument at fault, a count, the MPI error. */
static void add_kind_evidence(json_object *ev, const dl_finding *f)
{
    if (f->kind == DL_FINDING_COLLECTIVE_MISMATCH) {
        static const char *const names[] = {"kind", "blocking", "root", "op", "type"};
        json_object *m = json_object_new_array();
        for (int b = 0; b < 5; b++)
            if (f->mismatch & (1u << b))
                json_object_array_add(m, json_object_new_string(names[b]));
        json_object_object_add(ev, "mismatch", m);
        if (f->n_calls)
            json_object_object_add(ev, "communicator",
                                   json_object_new_string(f->calls[0].comm == CHECK_EVENT_COMM_WORLD
                                                              ? "MPI_COMM_WORLD"
                                                              : "derived"));
    }
    if (f->kind == DL_FINDING_TYPE_MISMATCH || f->kind == DL_FINDING_TRUNCATION) {
        json_object_object_add(ev, "send_elements", json_object_new_int64((int64_t)f->send_elems));
        json_object_object_add(ev, "recv_elements", json_object_new_int64((int64_t)f->recv_elems));
    }
    if (f->kind == DL_FINDING_INVALID_ARGUMENTS && f->n_calls) {
        const dl_finding_call *c = &f->calls[0];
        json_object_object_add(
            ev, "argument_rank",
            json_object_new_int(c->root != CHECK_EVENT_NO_ROOT ? c->root : c->peer));
        json_object_object_add(
            ev, "mpi_ended_inside",
            json_object_new_boolean(!!(f->notes & DL_FINDING_NOTE_ENDED_INSIDE)));
    }
    if (f->kind == DL_FINDING_LIFECYCLE)
        json_object_object_add(ev, "count", json_object_new_int64((int64_t)f->count));
    if (f->kind == DL_FINDING_MPI_ERROR) {
        json_object_object_add(ev, "mpi_error_class",
                               json_object_new_string(check_event_mpi_error_name(f->problem)));
        json_object_object_add(ev, "mpi_error_code", json_object_new_int64((int64_t)f->count));
    }
}

/* Adds (replace: -1) or rewrites (replace: its index) the report finding of f. */
static report_entry *put_finding(report_doc *report, long replace, const dl_finding *f,
                                 const site_resolver *sites, uint64_t records_lost)
{
    char summary[512];
    finding_text_summary(f, summary, sizeof summary);
    const char *kind = finding_text_class(f);
    report_entry *out = replace < 0
                            ? report_add_finding(report, kind, summary)
                            : report_replace_finding(report, (size_t)replace, kind, summary);
    if (!out)
        return NULL;
    json_object *ev = report_finding_evidence(out);
    json_object *knot = json_object_new_array(), *blocked = json_object_new_array();
    for (size_t i = 0; i < f->n_calls; i++) {
        const dl_finding_call *c = &f->calls[i];
        site_resolver_info site;
        site_resolver_cached(sites, c->rank, c->callsite, &site);
        /* a creation after the call at fault is that call's rank's, listed already */
        if (!dl_finding_rank_listed_before(f, i))
            report_finding_add_rank(out, c->rank);
        (c->made_it ? report_finding_add_creation_site : report_finding_add_site)(
            out, c->rank, finding_text_call_name(c), site.file, site.line);
        if (site.line_is_procedure)
            report_mark_procedure_line(out);
        if (c->in_knot)
            json_object_array_add(knot, json_object_new_int(c->rank));
        json_object_array_add(blocked, blocked_call(c, &site));
    }
    json_object_object_add(ev, "knot", knot);
    json_object_object_add(ev, "blocked", blocked);
    json_object_object_add(ev, "forced_decision",
                           json_object_new_boolean(!!(f->notes & DL_FINDING_NOTE_DECISION_FORCED)));
    json_object_object_add(ev, "buffer_released",
                           json_object_new_boolean(!!(f->notes & DL_FINDING_NOTE_BUFFER_RELEASED)));
    if (f->notes & DL_FINDING_NOTE_PROBED) {
        json_object *p = json_object_new_object();
        json_object_object_add(p, "rank", json_object_new_int(f->probe_rank));
        json_object_object_add(p, "request", json_object_new_int64((int64_t)f->probe_request));
        json_object_object_add(p, "source", json_object_new_int(f->probe_source));
        json_object_object_add(ev, "probed", p);
    }
    add_kind_evidence(ev, f);
    if (records_lost)
        json_object_object_add(ev, "records_lost", json_object_new_int64((int64_t)records_lost));
    if (f->graph.n_nodes)
        add_graph(out, f);
    return out;
}

report_entry *check_findings_add(report_doc *report, const dl_finding *f,
                                 const site_resolver *sites, uint64_t records_lost)
{
    return put_finding(report, -1, f, sites, records_lost);
}

report_entry *check_findings_replace(report_doc *report, size_t index, const dl_finding *f,
                                     const site_resolver *sites, uint64_t records_lost)
{
    return put_finding(report, (long)index, f, sites, records_lost);
}
