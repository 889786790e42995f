/* A hang watch's readings of a job's ranks (hang_probes.h). */
#include "hang_probes.h"

#include "hang_facts.h"
#include "hang_remote.h"

#include "mg_error.h"
#include "mg_log.h"
#include "rank_scan.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

static void warn_once(hang_probes *p, int r, int rc)
{
    if (p->warned && !p->warned[r]) {
        p->warned[r] = 1;
        mg_log_warn("hang: rank %d (pid %d) cannot be sampled: %s; the model counts it as active",
                    r, p->job->ranks[r].pid, mg_error_string(rc));
    }
}

rank_probe_kind hang_probes_kind(const hang_probes *p, int r)
{
    return p->by_ptrace && p->by_ptrace[r] ? RANK_PROBE_PTRACE : p->kind;
}

int hang_probes_use_ptrace(hang_probes *p, int r)
{
    if (!p->by_ptrace && !(p->by_ptrace = calloc((size_t)p->job->nranks, 1)))
        return MG_ERROR_ENOMEM;
    p->by_ptrace[r] = 1;
    rank_probe_close(p->probe[r]);
    p->probe[r] = NULL;
    return MG_ERROR_OK;
}

int hang_probes_read(hang_probes *p, int r, int with_cpu_time, rank_probe_reading *out)
{
    job_session *js = p->job;
    int rc, unseen = 0;
    if (p->remote) {
        rc = hang_remote_read(p->remote, r, with_cpu_time, out, &unseen);
        if (rc == MG_ERROR_OK && unseen)
            rc = MG_ERROR_EPERM;
    } else {
        /* a rank handed to ptrace is one whose segment does not answer: its probe gets no token */
        bool handed = p->by_ptrace && p->by_ptrace[r];
        rc = rank_probe_read_opening(hang_probes_kind(p, r), handed ? NULL : js->token, r,
                                     js->ranks[r].pid, &p->probe[r], with_cpu_time, out);
    }
    /* a remote rank's stops count as a local one's: its agent's probe timed them alike */
    if (rc == MG_ERROR_OK) {
        p->readings++;
        p->held_ns += out->held_ns;
        p->frozen_ns += out->frozen_ns;
        if (p->rank_cost) {
            p->rank_cost[r].readings++;
            p->rank_cost[r].held_ns += out->held_ns;
        }
        return 0;
    }
    warn_once(p, r, rc);
    *out = mg_probe_reading_unknown();
    return 1;
}

void hang_probes_stack(hang_probes *p, int r, rank_stack *out)
{
    memset(out, 0, sizeof *out);
    if (p->remote) {
        hang_remote_stack(p->remote, r, out, &p->job->ranks[r].state);
        return;
    }
    job_session *js = p->job;
    /* a rank that has published nothing (before or in MPI_Init) is looked at by ptrace alone */
    if (!p->probe[r] &&
        rank_probe_open(hang_probes_kind(p, r), js->token, r, js->ranks[r].pid, &p->probe[r]) !=
            0 &&
        rank_probe_open(RANK_PROBE_PTRACE, js->token, r, js->ranks[r].pid, &p->probe[r]) != 0)
        return;
    rank_probe_stack(p->probe[r], out);
}

void hang_probes_close(hang_probes *p)
{
    for (int r = 0; p->probe && r < p->job->nranks; r++)
        rank_probe_close(p->probe[r]);
    free(p->probe);
    free(p->warned);
    free(p->by_ptrace);
    free(p->rank_cost);
    p->rank_cost = NULL;
    p->probe = NULL;
    p->warned = NULL;
    p->by_ptrace = NULL;
}

/* Rank r's share of a CPU on its node: what its agent said, or here this node's for every rank. */
static double cpu_share_of(hang_probes *p, int r)
{
    if (p->remote)
        return hang_remote_cpu_share(p->remote, r);
    if (!p->cpu_share)
        p->cpu_share = rank_scan_cpu_share((size_t)p->job->nranks);
    return p->cpu_share;
}

/* Whether rank r's process is gone (ended or a zombie), as this node sees it: a rank on another
 * node whose agent cannot say is not known gone. */
static bool gone(const hang_probes *p, int r)
{
    int pid = p->job->ranks[r].pid;
    if (p->remote || pid <= 0)
        return false;
    return (kill(pid, 0) != 0 && errno == ESRCH) ||
           mg_process_state_gone(rank_scan_process_state(pid));
}

/* The kind of wait a call publishes on entry (src/interpose/state_waits.c); UNKNOWN for the
 * others, which leave the wait of an earlier call in place, for MPI_Sendrecv, which publishes its
 * receive half alone (two of them exchanging a long message are both still), and for MPI_Wait*,
 * whose requests may be complete but one; a poll's requests are tried one call at a time. */
static enum hang_watch_wait_kind wait_kind(mpi_function_ids_fn fn)
{
    switch (fn) {
    case MG_FN_Test:
    case MG_FN_Testall:
    case MG_FN_Testany:
    case MG_FN_Testsome:
        return HANG_WATCH_WAIT_REQUESTS;
    case MG_FN_Send:
    case MG_FN_Ssend:
    case MG_FN_Bsend:
    case MG_FN_Rsend:
        return HANG_WATCH_WAIT_SEND;
    case MG_FN_Recv:
    case MG_FN_Probe:
        return HANG_WATCH_WAIT_RECV;
    case MG_FN_Barrier:
    case MG_FN_Bcast:
    case MG_FN_Reduce:
    case MG_FN_Allreduce:
    case MG_FN_Scan:
    case MG_FN_Exscan:
    case MG_FN_Gather:
    case MG_FN_Scatter:
    case MG_FN_Allgather:
    case MG_FN_Alltoall:
    case MG_FN_Finalize:
        return HANG_WATCH_WAIT_COLLECTIVE;
    default:
        return HANG_WATCH_WAIT_UNKNOWN;
    }
}

struct hang_watch_wait hang_probes_wait(const rank_state *s, const rank_probe_reading *reading)
{
    enum hang_watch_wait_kind kind = wait_kind(reading->fn);
    if (!reading->in_mpi || kind == HANG_WATCH_WAIT_UNKNOWN)
        return (struct hang_watch_wait){.kind = HANG_WATCH_WAIT_UNKNOWN};
    /* MPI_Finalize is collective over the world and publishes nothing: the wait left is an
     * earlier call's */
    if (reading->fn == MG_FN_Finalize)
        return (struct hang_watch_wait){.kind = HANG_WATCH_WAIT_COLLECTIVE, .comm = 0};
    /* a ptrace reading's function is its stack's, the segment read after the rank was let go: a
     * wait published by another call (the rank went on) would pair the wrong peer */
    if (!s || !atomic_load_explicit(&s->threads_in_mpi, memory_order_acquire) ||
        atomic_load_explicit(&s->current_fn, memory_order_relaxed) != (uint32_t)reading->fn)
        return (struct hang_watch_wait){.kind = kind == HANG_WATCH_WAIT_SEND ||
                                                        kind == HANG_WATCH_WAIT_RECV
                                                    ? kind
                                                    : HANG_WATCH_WAIT_UNKNOWN,
                                        .direction_only = true};
    return kind == HANG_WATCH_WAIT_REQUESTS ? hang_facts_watch_requests(s)
                                            : hang_facts_watch_wait(s, kind);
}

void hang_probes_read_for_watch(hang_probes *p, int r, int with_cpu_time,
                                struct hang_watch_reading *out)
{
    rank_probe_reading reading;
    int unseen = hang_probes_read(p, r, with_cpu_time, &reading);
    /* shm knows nothing of a rank that has not published its state (before MPI_Init) */
    bool known = !unseen && (hang_probes_kind(p, r) != RANK_PROBE_SHM || reading.counter_known);
    /* a read refused or timed out says nothing of whether the rank lives: only its process does */
    bool exited = unseen ? gone(p, r) : reading.exited;
    *out = (struct hang_watch_reading){
        .known = known,
        .exited = exited,
        .unreadable = unseen && !exited,
        .in_mpi = reading.in_mpi,
        .progressed = reading.progressed,
        .counter_known = reading.counter_known,
        .stopped = reading.stopped,
        .runnable = reading.runnable,
        .func = reading.fn == MG_FN_NONE ? -1 : (int)reading.fn,
        .counter = reading.counter,
        .cpu_s = reading.cpu_time_ns >= 0 ? 1e-9 * (double)reading.cpu_time_ns : -1,
        .slices = reading.cpu_slices >= 0 ? (double)reading.cpu_slices : -1,
        .cpu_share = with_cpu_time ? cpu_share_of(p, r) : 0,
        .wait = unseen ? (struct hang_watch_wait){.kind = HANG_WATCH_WAIT_UNKNOWN}
                       : hang_probes_wait(p->remote ? NULL : p->job->ranks[r].state, &reading),
    };
}
