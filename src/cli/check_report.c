/* Which findings `mpiguard check` reports, and how (check_report.h). */
#include "check_report.h"

#include "check_findings.h"
#include "finding_text.h"
#include "mg_error.h"
#include "mg_log.h"
#include "report_class.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Records lost so far, as the findings cite them. */
static uint64_t records_lost(const check_run *r)
{
    check_agent_stats st;
    check_feed_stats(&r->feed, &st);
    return st.lost;
}

static void write_svg(void)
{
    const char *path = cli_options.report_path;
    if (!path || access("/usr/bin/dot", X_OK) != 0)
        return;
    char dot[4096], svg[4096];
    size_t len = strlen(path);
    size_t base = len > 5 && strcmp(path + len - 5, ".json") == 0 ? len - 5 : len;
    snprintf(dot, sizeof dot, "%.*s.dot", (int)base, path);
    snprintf(svg, sizeof svg, "%.*s.svg", (int)base, path);
    report_doc *rep;
    char err[256];
    if (report_load(path, &rep, err, sizeof err) != MG_ERROR_OK)
        return;
    FILE *out = fopen(dot, "w");
    if (out) {
        report_render_dot(rep, out);
        fclose(out);
        char *argv[] = {"dot", "-Tsvg", "-o", svg, dot, NULL};
        job_handle *job;
        if (job_start(argv, NULL, &job, err, sizeof err) == MG_ERROR_OK) {
            int done = 0;
            while (!done && job_wait(job, 1000, &done) == MG_ERROR_OK)
                ;
            job_destroy(job);
        }
        unlink(dot);
    }
    report_destroy(rep);
}

/* 1 when an identical finding was reported already (dl_finding_signature); else records it. */
static int seen_before(check_run *r, const dl_finding *f)
{
    uint64_t sig = dl_finding_signature(f);
    for (size_t i = 0; i < r->nsignatures; i++)
        if (r->signatures[i] == sig)
            return 1;
    uint64_t *grown = realloc(r->signatures, (r->nsignatures + 1) * sizeof *grown);
    if (grown) {
        r->signatures = grown;
        r->signatures[r->nsignatures++] = sig;
    }
    return 0;
}

/* Keeps track of finding f, just written as report entry `entry`, when it may still change. */
static void track_changing(check_run *r, size_t finding, size_t entry, const dl_finding *f)
{
    if (!dl_finding_may_change(f))
        return;
    check_run_reported_changing *grown = realloc(r->changing, (r->nchanging + 1) * sizeof *grown);
    if (grown) {
        r->changing = grown;
        r->changing[r->nchanging++] = (check_run_reported_changing){finding, entry, f->n_calls,
                                                                    f->notes};
    }
}

size_t check_report_refresh(check_run *r, const dl_finding *fs)
{
    uint64_t lost = records_lost(r);
    size_t n = 0;
    for (size_t i = 0; i < r->nchanging; i++) {
        check_run_reported_changing *m = &r->changing[i];
        const dl_finding *f = &fs[m->finding];
        report_entry *out;
        if ((f->n_calls == m->calls && f->notes == m->notes) ||
            !(out = check_findings_replace(r->s->report, m->entry, f, r->feed.sites, lost)))
            continue;
        m->calls = f->n_calls;
        m->notes = f->notes;
        n++;
        json_object *summary;
        if (json_object_object_get_ex(out, "summary", &summary))
            mg_log_info("check: a finding changed since it was reported: %s",
                        json_object_get_string(summary));
    }
    return n;
}

int check_report_add(check_run *r, size_t index, const dl_finding *f)
{
    if (!report_class_selected(r->o->selected, finding_text_class(f))) {
        r->left_out++;
        return 0;
    }
    if (seen_before(r, f))
        return 0;
    report_entry *out = check_findings_add(r->s->report, f, r->feed.sites, records_lost(r));
    if (out)
        report_render_finding_banner(out, stderr);
    if (out)
        track_changing(r, index, report_finding_count(r->s->report) - 1, f);
    return 1;
}

void check_report_save(check_run *r)
{
    if (cli_session_save(r->s) == 0)
        write_svg();
}

void check_report_tool_data(check_run *r)
{
    json_object *data = report_tool_data(r->s->report);
    check_agent_stats st;
    check_feed_stats(&r->feed, &st);
    int captured = 0;
    for (int k = 0; k < r->feed.world; k++)
        captured += r->feed.captured[k];
    deadlock_detector_queues q = {0};
    if (r->feed.det)
        deadlock_detector_queue_sizes(r->feed.det, &q);
    json_object_object_add(data, "world_size", json_object_new_int(r->feed.world));
    json_object_object_add(data, "ranks_captured", json_object_new_int(captured));
    json_object_object_add(data, "agents",
                           json_object_new_int(r->feed.agent ? 0 : (int)r->o->agents));
    json_object_object_add(data, "records", json_object_new_int64((int64_t)q.records));
    json_object_object_add(data, "records_lost", json_object_new_int64((int64_t)st.lost));
    json_object_object_add(data, "records_invalid", json_object_new_int64((int64_t)st.invalid));
    json_object_object_add(data, "records_rejected",
                           json_object_new_int64((int64_t)r->feed.feed_errors));
    json_object_object_add(data, "full_ring_waits", json_object_new_int64((int64_t)st.full_waits));
    json_object_object_add(data, "forced_decisions",
                           json_object_new_int64((int64_t)q.forced_decisions));
    json_object_object_add(data, "buffered_sends", json_object_new_boolean(r->o->buffered_sends));
    json_object_object_add(data, "wildcards",
                           json_object_new_string(cmd_check_wildcard_choices[r->o->wildcards]));
    /* how the run was checked: the tree of --detector-leaves K has K leaves under the root */
    json_object *detector = json_object_new_object();
    int leaves = (int)r->o->detector_leaves;
    json_object_object_add(detector, "leaves", json_object_new_int(leaves));
    json_object_object_add(detector, "levels", json_object_new_int(leaves ? 2 : 1));
    json_object_object_add(data, "detector", detector);
    mpi_function_ids_fn fns[MG_FN_COUNT];
    size_t n = deadlock_detector_unmodelled(r->feed.det, fns, MG_FN_COUNT);
    json_object *calls = json_object_new_array();
    for (size_t i = 0; i < n; i++)
        json_object_array_add(calls, json_object_new_string(mpi_function_ids_name(fns[i])));
    json_object_object_add(data, "unmodelled_calls", calls);
    if (st.lost)
        mg_log_warn("check: %llu records were lost (full rings): findings may be missing or wrong",
                    (unsigned long long)st.lost);
}
