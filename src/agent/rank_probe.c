/* Rank probes over the shm and ptrace backends (rank_probe.h). */
#include "rank_probe.h"

#include "mg_error.h"
#include "mg_log.h"
#include "rank_scan.h"
#include "rank_state_reader.h"
#include "stack_from_sample.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What asked for a ptrace sample, for the held time's breakdown. */
enum probe_purpose { PURPOSE_MODEL, PURPOSE_SCAN, PURPOSE_STACKS, PURPOSES };

/* The held time of one purpose's samples, by phase (sampler_ptrace_result). */
typedef struct probe_costs {
    uint64_t samples;
    int64_t held_ns, stop_ns, wait_ns, unwind_ns, release_ns;
} probe_costs;

struct rank_probe {
    rank_probe_kind kind;
    int rank;
    int pid;
    char token[64];          /* ptrace: the job's, to map the segment once it is published */
    const rank_state *state; /* shm; ptrace: the segment of a job mpiguard started, or NULL */
    sampler_ptrace *sampler; /* ptrace, opened on first need */
    uint64_t last_counter;
    uint64_t last_others; /* the calls among them that do not poll */
    int read_before;
    uint64_t
        frame_moves; /* ptrace without the library's counter: its stand-in (count_frame_moves) */
    uint64_t last_digest;
    int digest_before;
    mpi_function_ids_fn last_fn;    /* ptrace: the MPI function it was last seen in */
    int last_in_mpi;                /* ptrace: the latest sample's verdict */
    int counter_readings_left;      /* ptrace: readings the counter alone may answer before the next
                                       sample must be taken */
    int64_t sampled_stopped_cpu_ns; /* ptrace: the main thread's CPU time at the latest sample that
                                       found the rank stopped from outside, -1 when it did not */
    probe_costs costs[PURPOSES];
    uint64_t by_segment[PURPOSES]; /* ptrace: readings the segment answered without a stop */
    uint64_t by_counter; /* ptrace: model readings the counter or its stand-in answered so */
    rank_probe *next_open;
};

/* Open probes, so a signal handler can abort their samples. Only the sampling thread links and
 * unlinks; the handler only walks the list and stores an atomic flag in each sampler. */
static rank_probe *_Atomic open_probes;

static int process_exited(int pid)
{
    return mg_process_state_gone(rank_scan_process_state(pid));
}

int rank_probe_open(rank_probe_kind kind, const char *token, int rank, int pid, rank_probe **out)
{
    *out = NULL;
    rank_probe *p = calloc(1, sizeof *p);
    if (!p)
        return MG_ERROR_ENOMEM;
    p->kind = kind;
    p->rank = rank;
    p->pid = pid;
    p->sampled_stopped_cpu_ns = -1;
    if (kind == RANK_PROBE_SHM) {
        int rc = rank_state_reader_open(token, rank, &p->state);
        if (rc) {
            free(p);
            return rc;
        }
    } else if (process_exited(pid)) {
        free(p);
        return MG_ERROR_ENOENT;
    } else if (token) {
        snprintf(p->token, sizeof p->token, "%s", token);
    }
    p->next_open = atomic_load(&open_probes);
    atomic_store(&open_probes, p);
    *out = p;
    return MG_ERROR_OK;
}

static int open_sampler(rank_probe *p)
{
    if (p->sampler)
        return MG_ERROR_OK;
    sampler_ptrace_params params;
    sampler_ptrace_params_default(&params);
    return sampler_ptrace_open(p->pid, &params, &p->sampler);
}

/* What a call counter that moved since the previous reading means: a rank whose last call polls
 * (MPI_Test, MPI_Iprobe) in a loop counts as in MPI, as ParaStack treats busy-waiting; any other
 * move is progress. others counts the calls that do not poll (ptrace: all but the polls; shm: the
 * state's own count). The function is the one the rank was read in, which for a rank that polls
 * between its other calls is nearly always the poll; others moving says it made other calls in
 * between (hpcc's MPIRandomAccess, read "in MPI_Testany" at every scan while it posted its sends:
 * issue 29's false alarms under ptrace and shm). */
static void apply_counter(rank_probe *p, uint64_t others, rank_probe_reading *out)
{
    int moved = p->read_before && out->counter != p->last_counter;
    int polling = mpi_function_ids_class_of(out->fn) == MG_MPI_FUNCTION_IDS_CLASS_POLL;
    int other_calls = p->read_before && others != p->last_others;
    if (!out->in_mpi && polling && moved)
        out->in_mpi = 1;
    out->progressed = (moved && !polling) || other_calls;
    p->last_counter = out->counter;
    p->last_others = others;
    p->read_before = 1;
}

/* Under ptrace without the library's call counter (a job attached to), its stand-in: how many times
 * its frames around the call were seen to change between two readings inside MPI
 * (sampler_ptrace_result. frames_digest), each time a return from MPI at least. Until its first
 * reading inside MPI a rank read outside reads as still, as the library's count would be for a rank
 * that makes no call (one already looping when the watch began), and that first reading counts as a
 * call. Once it was read inside, a reading outside is not counted: it may have come back to MPI
 * between two readings, unseen. Every rule that reads a counter reads this one: a rank whose frames
 * changed between two readings in a call that does not poll progressed; one in a polling call whose
 * frames change polls on (its loop's locals), as a counter would say. */
static void count_frame_moves(rank_probe *p, const sampler_ptrace_result *sample,
                              rank_probe_reading *out)
{
    if (out->in_mpi ? !sample->frames_known : p->digest_before)
        return;
    if (out->in_mpi) {
        p->frame_moves += p->digest_before ? sample->frames_digest != p->last_digest
                                           : (uint64_t)p->read_before;
        p->last_digest = sample->frames_digest;
        p->digest_before = 1;
    }
    out->counter_known = 1;
    out->counter = p->frame_moves;
    int polling = mpi_function_ids_class_of(out->fn) == MG_MPI_FUNCTION_IDS_CLASS_POLL;
    apply_counter(p, polling ? p->last_others : p->frame_moves, out);
}

static int read_shm(rank_probe *p, const rank_state *s, rank_probe_reading *out)
{
    out->counter_known = 1;
    out->counter = atomic_load_explicit(&s->calls, memory_order_relaxed);
    out->fn = (mpi_function_ids_fn)atomic_load_explicit(&s->current_fn, memory_order_relaxed);
    out->in_mpi = atomic_load_explicit(&s->threads_in_mpi, memory_order_acquire) > 0 ||
                  atomic_load_explicit(&s->finalized, memory_order_relaxed);
    apply_counter(p, atomic_load_explicit(&s->calls_not_polling, memory_order_relaxed), out);
    return MG_ERROR_OK;
}

/* Under ptrace, the readings in a row that the call counter may answer alone after a sample. */
enum { COUNTER_READINGS_PER_SAMPLE = 3 };

/* Under ptrace, a model's reading that the call counter answers without a sample: the counter
 * moved since the previous reading, and the latest sample caught the rank computing or in a call
 * that does not poll. The rank progressed, all a model sample asks (S_out counts it as active), and
 * stopping it would tell no more. After COUNTER_READINGS_PER_SAMPLE such readings one samples
 * again, so a rank that turned to polling (its counter moving all the same) is caught inside the
 * polling call within that many readings and sampled every time from then on; scans with the CPU
 * time (the verification) always sample. A rank without the counter (a job attached to) has its
 * stand-in read the same way: its stack above the call the latest sample caught it in, read again
 * without a stop, changed (count_frame_moves; an attached job's stops were nearly all model
 * samples: docs/hang-measurements.md "Under load"). Returns 1 when *out is answered. */
static int read_counter_only(rank_probe *p, int with_cpu_time, rank_probe_reading *out)
{
    uint64_t counter, polls, others;
    if (with_cpu_time || p->counter_readings_left == 0 ||
        mpi_function_ids_class_of(p->last_fn) == MG_MPI_FUNCTION_IDS_CLASS_POLL)
        return 0;
    if (sampler_ptrace_read_counter(p->sampler, &counter, &polls)) {
        if (counter == p->last_counter)
            return 0;
        others = counter - polls;
    } else if (sampler_ptrace_frames_moved(p->sampler) == 1) {
        counter = others = ++p->frame_moves;
    } else {
        return 0;
    }
    out->counter_known = 1;
    out->counter = counter;
    out->fn = p->last_fn;
    out->in_mpi = p->last_in_mpi;
    apply_counter(p, others, out);
    p->counter_readings_left--;
    p->by_counter++;
    return 1;
}

static int sample_for(rank_probe *p, enum probe_purpose purpose, const sampler_ptrace_result **out)
{
    int rc = open_sampler(p);
    if (rc == MG_ERROR_OK)
        rc = sampler_ptrace_sample(p->sampler, out);
    /* a sample that stopped no thread in time held them all the same, waiting */
    if (rc == MG_ERROR_OK || rc == MG_ERROR_ETIMEOUT) {
        const sampler_ptrace_result *s = *out;
        probe_costs *c = &p->costs[purpose];
        c->samples++;
        c->held_ns += s->held_ns;
        c->stop_ns += s->stop_ns;
        c->wait_ns += s->wait_ns;
        c->unwind_ns += s->unwind_ns;
        c->release_ns += s->release_ns;
    }
    return rc;
}

/* The CPU time a stopped rank spends taking a ptrace stop and going back to its own stop: 5-35 µs
 * measured (it is woken for each), against the milliseconds a rank continued in between would run
 * at the readings' pace. */
enum { RESTOP_CPU_NS = 1000000 };

/* Under ptrace, a reading of a rank stopped from outside (state T) that has not run since the
 * latest sample, which found it stopped too: its stacks cannot have changed, and stopping it again
 * would only wait for it to be scheduled to take the ptrace stop (under load, a wait as long as a
 * running rank's). Its main thread's CPU time, moved by no more than the stop itself costs, tells
 * it has not run (a SIGCONT and a new stop in between would show). Returns 1 when *out is answered
 * with the latest sample's. */
static int read_still_stopped(rank_probe *p, rank_probe_reading *out)
{
    int64_t cpu_ns = out->cpu_time_ns, slices;
    if (!out->stopped || p->sampled_stopped_cpu_ns < 0)
        return 0;
    if (cpu_ns < 0 && rank_scan_cpu_time(p->pid, &cpu_ns, &slices) != MG_ERROR_OK)
        return 0;
    if (cpu_ns - p->sampled_stopped_cpu_ns > RESTOP_CPU_NS)
        return 0;
    out->fn = p->last_fn;
    out->in_mpi = p->last_in_mpi;
    out->counter_known = p->read_before;
    out->counter = p->last_counter;
    return 1;
}

/* Under ptrace, a reading without a sample: one whose sample stopped no thread in time (the main
 * thread waited longer than the sampler's timeout for a CPU to take the stop: a loaded node;
 * MPICH's other thread, UCX's, is never sampled), or a GAP_ONLY one. The rank lives (its process
 * was read first), and an error here read as a rank gone (CI: a rank waiting forever "has
 * exited"). The call counter, read without a stop, tells whether it progressed; where it is, the
 * latest sample. */
static void read_unstopped(rank_probe *p, rank_probe_reading *out)
{
    uint64_t polls;
    out->fn = p->last_fn;
    out->in_mpi = p->last_in_mpi;
    out->counter_known = sampler_ptrace_read_counter(p->sampler, &out->counter, &polls);
    if (out->counter_known)
        apply_counter(p, out->counter - polls, out);
}

/* Under ptrace, the segment the rank publishes (a job mpiguard started loads the state module),
 * mapped by the first reading that finds it; NULL while there is none, or when another process
 * published it (a wrapper that forked the rank). The counter read before was the library's count
 * of calls entered, the segment's is of calls completed: its first reading compares with none. */
static const rank_state *segment(rank_probe *p)
{
    if (!p->state && p->token[0] &&
        rank_state_reader_open(p->token, p->rank, &p->state) == MG_ERROR_OK)
        p->read_before = 0;
    return p->state && p->state->pid == p->pid ? p->state : NULL;
}

/* A scan's reading of a rank its segment reads outside MPI, by its stack (read_segment). A stop
 * that timed out leaves the segment's answer. */
static int read_stack_verdict(rank_probe *p, rank_probe_reading *out)
{
    if (read_still_stopped(p, out))
        return MG_ERROR_OK;
    const sampler_ptrace_result *sample;
    int rc = sample_for(p, PURPOSE_SCAN, &sample);
    if (rc == MG_ERROR_ENOENT) {
        out->exited = 1;
        return MG_ERROR_OK;
    }
    if (rc != MG_ERROR_OK && rc != MG_ERROR_ETIMEOUT)
        return rc;
    out->held_ns = sample->held_ns;
    p->sampled_stopped_cpu_ns = -1;
    if (rc == MG_ERROR_ETIMEOUT)
        return MG_ERROR_OK;
    out->frozen_ns = sample->held_ns - sample->stop_ns;
    out->exited = sample->verdict == STACK_CLASSIFY_EXITED;
    if (sample->verdict == STACK_CLASSIFY_IN_MPI) {
        mpi_function_ids_fn fn = mpi_function_ids_lookup(sample->mpi_function);
        out->in_mpi = 1;
        out->fn = fn == MG_FN_NONE ? out->fn : fn;
    }
    p->last_in_mpi = out->in_mpi;
    p->last_fn = out->fn;
    int64_t slices;
    if (out->stopped && !out->exited)
        rank_scan_cpu_time(p->pid, &p->sampled_stopped_cpu_ns, &slices);
    return MG_ERROR_OK;
}

/* Under ptrace, a reading the rank's segment answers as under shm, without stopping the rank: all
 * a model sample asks (in MPI or not, the call, its count), and a scan's reading of a rank inside
 * MPI. A scan's rank outside MPI is sampled all the same: the verification takes a rank outside
 * MPI at one count for a computation hang's culprit, and only its stack tells a call the wrappers
 * do not see (as every reading did before). Returns 0 with *out set, -1 when the segment cannot
 * answer (none mapped, another process's), or the sampler's error. */
static int read_segment(rank_probe *p, int with_cpu_time, rank_probe_reading *out)
{
    const rank_state *s = segment(p);
    if (!s)
        return -1;
    read_shm(p, s, out);
    if (with_cpu_time && with_cpu_time != RANK_PROBE_GAP_ONLY && !out->in_mpi && !out->exited)
        return read_stack_verdict(p, out);
    p->by_segment[with_cpu_time ? PURPOSE_SCAN : PURPOSE_MODEL]++;
    return MG_ERROR_OK;
}

static int read_state(rank_probe *p, int with_cpu_time, rank_probe_reading *out)
{
    if (p->kind == RANK_PROBE_SHM)
        return read_shm(p, p->state, out);
    int rc = read_segment(p, with_cpu_time, out);
    if (rc >= 0)
        return rc;
    if (read_counter_only(p, with_cpu_time, out) || read_still_stopped(p, out))
        return MG_ERROR_OK;
    if (with_cpu_time == RANK_PROBE_GAP_ONLY && p->sampler) {
        read_unstopped(p, out);
        return MG_ERROR_OK;
    }
    const sampler_ptrace_result *sample;
    rc = sample_for(p, with_cpu_time ? PURPOSE_SCAN : PURPOSE_MODEL, &sample);
    if (rc == MG_ERROR_ENOENT) {
        out->exited = 1;
        return MG_ERROR_OK;
    }
    if (rc == MG_ERROR_ETIMEOUT) {
        out->held_ns = sample->held_ns;
        if (!out->exited)
            read_unstopped(p, out);
        return MG_ERROR_OK;
    }
    if (rc)
        return rc;
    out->exited = sample->verdict == STACK_CLASSIFY_EXITED;
    out->in_mpi = sample->verdict == STACK_CLASSIFY_IN_MPI;
    out->held_ns = sample->held_ns;
    out->frozen_ns = sample->held_ns - sample->stop_ns;
    /* Outside MPI the reading carries the function last seen, as the shm state does: a rank that
     * polls flips between MPI_Test and its loop, and that must not read as a change of function. */
    if (out->in_mpi)
        p->last_fn = mpi_function_ids_lookup(sample->mpi_function);
    out->fn = p->last_fn;
    out->counter_known = sample->counter_known;
    out->counter = sample->counter;
    if (out->counter_known && !out->exited)
        apply_counter(p, sample->counter - sample->polls, out);
    else if (!out->exited)
        count_frame_moves(p, sample, out);
    p->last_in_mpi = out->in_mpi;
    p->counter_readings_left = out->counter_known && !out->exited ? COUNTER_READINGS_PER_SAMPLE : 0;
    p->sampled_stopped_cpu_ns = -1;
    int64_t slices;
    if (out->stopped && !out->exited)
        rank_scan_cpu_time(p->pid, &p->sampled_stopped_cpu_ns, &slices);
    return MG_ERROR_OK;
}

/* What /proc says of the process: gone, runnable, stopped from outside, and with_cpu_time its CPU
 * time; the rest of *out unknown. */
static void read_process(int pid, int with_cpu_time, rank_probe_reading *out)
{
    *out = mg_probe_reading_unknown();
    char state = rank_scan_process_state(pid);
    out->exited = mg_process_state_gone(state);
    out->runnable = state == 'R';
    out->stopped = mg_process_state_stopped(state);
    if (with_cpu_time)
        rank_scan_cpu_time(pid, &out->cpu_time_ns, &out->cpu_slices);
}

int rank_probe_read(rank_probe *p, int with_cpu_time, rank_probe_reading *out)
{
    /* before the MPI state: a ptrace reading stops and resumes the process, and its state just
     * after tells more of the sampler than of the rank (ptrace's sample says exited again); and
     * after letting go of a thread an earlier sample left stopped, whose stop (state t) would read
     * as one from outside */
    sampler_ptrace_release_late(p->sampler);
    read_process(p->pid, with_cpu_time, out);
    return read_state(p, with_cpu_time, out);
}

int rank_probe_read_opening(rank_probe_kind kind, const char *token, int rank, int pid,
                            rank_probe **probe, int with_cpu_time, rank_probe_reading *out)
{
    int rc = *probe ? MG_ERROR_OK : rank_probe_open(kind, token, rank, pid, probe);
    if (rc == MG_ERROR_ENOENT) {
        /* the process tells whether it is stopped from outside: a rank stopped before MPI_Init
         * publishes nothing, and the others wait for it */
        read_process(pid, with_cpu_time, out);
        if (!out->exited) {
            out->in_mpi = 1;
            out->fn = MG_FN_Init;
        }
        return MG_ERROR_OK;
    }
    return rc ? rc : rank_probe_read(*probe, with_cpu_time, out);
}

/* The rank's stacks now, through ptrace whatever the probe's kind (for the diagnosis). *out is
 * owned by the probe until the next call or close. */
static int rank_probe_stacks(rank_probe *p, const sampler_ptrace_result **out)
{
    return sample_for(p, PURPOSE_STACKS, out);
}

/* Says with -v what ptrace samples held the rank, by purpose and phase (the benchmarks read it:
 * bench/hang/held_under_load.sh). */
static void say_costs(const rank_probe *p)
{
    static const char *const purposes[] = {"model", "scan", "stacks"};
    for (int k = 0; k < PURPOSES; k++) {
        const probe_costs *c = &p->costs[k];
        if (c->samples)
            mg_log_info(
                "hang: ptrace held rank %d %.1f ms in %llu %s samples: seize %.1f, wait for "
                "the stop %.1f, registers and unwind %.1f, release %.1f ms",
                p->rank, 1e-6 * (double)c->held_ns, (unsigned long long)c->samples, purposes[k],
                1e-6 * (double)(c->stop_ns - c->wait_ns), 1e-6 * (double)c->wait_ns,
                1e-6 * (double)c->unwind_ns, 1e-6 * (double)c->release_ns);
    }
    if (p->by_segment[PURPOSE_MODEL] || p->by_segment[PURPOSE_SCAN])
        mg_log_info(
            "hang: rank %d was read from its segment without a stop in %llu model samples and "
            "%llu scan samples",
            p->rank, (unsigned long long)p->by_segment[PURPOSE_MODEL],
            (unsigned long long)p->by_segment[PURPOSE_SCAN]);
    if (p->by_counter)
        mg_log_info("hang: rank %d was read from its call counter or its frames without a stop in "
                    "%llu model samples",
                    p->rank, (unsigned long long)p->by_counter);
}

void rank_probe_stack(rank_probe *p, rank_stack *out)
{
    stack_from_sample(NULL, out);
    for (int i = 0; i < RANK_PROBE_STACK_TRIES && out->nframes == 0; i++) {
        const sampler_ptrace_result *sample;
        int rc = rank_probe_stacks(p, &sample);
        if (rc == MG_ERROR_OK) {
            sampler_ptrace_add_sources(p->sampler);
            stack_from_sample(sample, out);
        }
        if ((rc != MG_ERROR_OK && rc != MG_ERROR_ETIMEOUT) ||
            (rc == MG_ERROR_OK && sample->verdict == STACK_CLASSIFY_EXITED))
            return;
    }
}

void rank_probe_close(rank_probe *p)
{
    if (!p)
        return;
    rank_probe *head = atomic_load(&open_probes);
    if (head == p) {
        atomic_store(&open_probes, p->next_open);
    } else {
        for (rank_probe *q = head; q; q = q->next_open)
            if (q->next_open == p) {
                q->next_open = p->next_open;
                break;
            }
    }
    say_costs(p);
    sampler_ptrace_close(p->sampler);
    rank_state_reader_close(p->state);
    free(p);
}

void rank_probe_abort_all(void)
{
    for (rank_probe *q = atomic_load(&open_probes); q; q = q->next_open)
        if (q->sampler)
            sampler_ptrace_abort(q->sampler);
}
