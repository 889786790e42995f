/* The rendering parts of a hang finding (hang_finding.h). */
#include "hang_finding.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

/* Frames shown per rank in the report. */
enum { STACK_FRAMES_KEPT = 24 };

json_object *hang_finding_stack_json(const rank_stack *st)
{
    json_object *frames = json_object_new_array();
    for (size_t i = 0; i < st->nframes && i < STACK_FRAMES_KEPT; i++) {
        const rank_stack_frame *f = &st->frames[i];
        char text[2 * RANK_STACK_NAME + RANK_STACK_FILE + 48];
        int len = snprintf(text, sizeof text, "%s+0x%llx (%s)", f->function[0] ? f->function : "??",
                           (unsigned long long)f->offset, f->module[0] ? f->module : "?");
        if (f->file[0] && len > 0 && (size_t)len < sizeof text)
            snprintf(text + len, sizeof text - (size_t)len, " at %s:%d", f->file, f->line);
        json_object_array_add(frames, json_object_new_string(text));
    }
    return frames;
}

/* The wall-clock moment matches the verdict with the job's own logs, since watching begins after
 * the launch and the ranks' discovery. */
void hang_finding_add_time(json_object *ev, double detection_time)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    json_object_object_add(ev, "detection_time_s", json_object_new_double(detection_time));
    json_object_object_add(ev, "detected_at_unix",
                           json_object_new_double((double)now.tv_sec + 1e-9 * (double)now.tv_nsec));
}

static json_object *peer_json(const rank_state *state, int peer, int tag, uint64_t comm,
                              bool (*world_like)(const rank_state *, uint64_t comm))
{
    json_object *p = json_object_new_object();
    json_object_object_add(p, "peer", json_object_new_int(peer));
    json_object_object_add(p, "tag", json_object_new_int(tag));
    json_object_object_add(p, "world_ranks", json_object_new_boolean(world_like(state, comm)));
    return p;
}

json_object *hang_finding_waits_json(const rank_state *state,
                                     bool (*world_like)(const rank_state *, uint64_t comm))
{
    static const char *const names[] = {"nothing", "peer", "root", "all", "requests"};
    uint32_t on = atomic_load_explicit(&state->wait_on, memory_order_relaxed);
    json_object *w = json_object_new_object();
    json_object_object_add(
        w, "on", json_object_new_string(on <= RANK_STATE_WAIT_REQUESTS ? names[on] : "nothing"));
    if (on == RANK_STATE_WAIT_PEER || on == RANK_STATE_WAIT_ROOT || on == RANK_STATE_WAIT_ALL)
        json_object_object_add(
            w, "call",
            peer_json(state, atomic_load_explicit(&state->wait_peer, memory_order_relaxed),
                      atomic_load_explicit(&state->wait_tag, memory_order_relaxed),
                      atomic_load_explicit(&state->wait_comm, memory_order_relaxed), world_like));
    if (on == RANK_STATE_WAIT_REQUESTS) {
        json_object *posted_json = json_object_new_array();
        uint32_t posted = atomic_load_explicit(&state->posted, memory_order_relaxed);
        for (uint32_t i = 0; i < posted && i < RANK_STATE_POSTED; i++)
            json_object_array_add(
                posted_json,
                peer_json(state, atomic_load_explicit(&state->posted_peer[i], memory_order_relaxed),
                          atomic_load_explicit(&state->posted_tag[i], memory_order_relaxed),
                          atomic_load_explicit(&state->posted_comm[i], memory_order_relaxed),
                          world_like));
        json_object_object_add(w, "posted", posted_json);
    }
    json_object_object_add(w, "world_collectives",
                           json_object_new_int64((int64_t)atomic_load_explicit(
                               &state->world_collectives, memory_order_relaxed)));
    return w;
}

/* "killed by signal 9 (SIGKILL)", "exited with status 0", or why it is not known. */
static void describe_end(const struct hang_finding_dead *d, char *text, size_t len,
                         json_object *dead)
{
    if (!d->exit_seen) {
        snprintf(text, len, "%s",
                 d->listening ? "ended (its status was not seen)"
                              : "ended (its status is unknown: the kernel's process "
                                "events need CAP_NET_ADMIN)");
        return;
    }
    if (WIFSIGNALED(d->wait_status)) {
        int sig = WTERMSIG(d->wait_status);
        const char *abbrev = sigabbrev_np(sig);
        snprintf(text, len, "was killed by signal %d (SIG%s)", sig, abbrev ? abbrev : "?");
        json_object_object_add(dead, "signal", json_object_new_int(sig));
    } else {
        snprintf(text, len, "exited with status %d", WEXITSTATUS(d->wait_status));
        json_object_object_add(dead, "exit_status",
                               json_object_new_int(WEXITSTATUS(d->wait_status)));
    }
}

void hang_finding_dead_rank(report_doc *rep, const struct hang_finding_dead *d)
{
    json_object *per_rank = json_object_new_array(), *dead = json_object_new_object();
    for (int r = 0; r < d->n; r++) {
        const rank_state *state = d->states[r];
        const char *fn = mg_rank_state_function(state);
        bool in_mpi = state && atomic_load_explicit(&state->threads_in_mpi, memory_order_relaxed);
        json_object *entry = json_object_new_object();
        json_object_object_add(entry, "rank", json_object_new_int(r));
        json_object_object_add(entry, "pid", json_object_new_int(d->pids[r]));
        json_object_object_add(entry, "state",
                               json_object_new_string(r == d->rank ? "EXITED"
                                                      : !state     ? "UNKNOWN"
                                                      : in_mpi     ? "IN_MPI"
                                                                   : "OUT_MPI"));
        json_object_object_add(entry, "function", fn ? json_object_new_string(fn) : NULL);
        json_object_array_add(per_rank, entry);
    }
    char end[160], summary[1400];
    describe_end(d, end, sizeof end, dead);
    const char *last = mg_rank_state_function(d->states[d->rank]);
    snprintf(summary, sizeof summary,
             "rank %d (pid %d) %s without calling MPI_Finalize; its last MPI call: %s; %s; %s",
             d->rank, d->pids[d->rank], end, last ? last : "unknown", d->calls,
             d->job_ended ? "the launcher then ended the job" : "the others were left waiting");
    report_entry *f = report_add_finding(rep, "hang", summary);
    json_object *ev = report_finding_evidence(f);
    report_finding_add_rank(f, d->rank);
    report_finding_add_site(f, d->rank, last ? last : "?", NULL, 0);
    json_object *faulty = json_object_new_array();
    json_object_array_add(faulty, json_object_new_int(d->rank));
    json_object_object_add(dead, "rank", json_object_new_int(d->rank));
    json_object_object_add(dead, "pid", json_object_new_int(d->pids[d->rank]));
    json_object_object_add(dead, "last_mpi_call", last ? json_object_new_string(last) : NULL);
    json_object_object_add(ev, "hang_type", json_object_new_string("dead-rank"));
    json_object_object_add(ev, "faulty_ranks", faulty);
    json_object_object_add(ev, "dead_rank", dead);
    json_object_object_add(ev, "launcher_ended_job", json_object_new_boolean(d->job_ended));
    hang_finding_add_time(ev, d->detection_time);
    json_object_object_add(ev, "per_rank", per_rank);
    report_finding_set_suggestion(f,
                                  "a rank that ends without MPI_Finalize leaves the others waiting "
                                  "for it: look at why it ended (a crash, the OOM killer, an exit "
                                  "on an error path)");
    report_render_finding_banner(f, stderr);
}
