/* One detector watching one simulated run through the watch engine (sim_watch.h). */
#include "sim_watch.h"

#include "mg_error.h"

#include <math.h>

/* Rank r read at t as the probe would: a counter that moved since the rank's previous reading is
 * progress; a computing rank is runnable, and its CPU time grew at its current rate since its
 * last scan (exact within one slowdown). */
static void read_rank(const struct sim_app_cursor *c, size_t r, double t, double last_scan,
                      const struct sim_watch_config *cfg, struct sim_watch_probe_buf *buf,
                      bool with_cpu, struct hang_watch_reading *out)
{
    struct sim_app_rank st;
    sim_app_rank_state(c, r, t, &st);
    bool read_before = buf->read_in[r] == buf->stamp;
    *out = (struct hang_watch_reading){
        .known = true,
        .in_mpi = !st.out_mpi,
        .progressed = cfg->counters && read_before && buf->last_counter[r] != st.counter,
        .counter_known = cfg->counters,
        .runnable = st.out_mpi,
        .func = st.func,
        .counter = st.counter,
        .cpu_s = -1,
        .slices = -1,
    };
    buf->last_counter[r] = st.counter;
    buf->read_in[r] = buf->stamp;
    if (with_cpu) {
        buf->cpu_s[r] += (t - last_scan) * st.cpu_rate;
        out->cpu_s = buf->cpu_s[r];
        out->cpu_share = 1;
    }
}

/* A reading as an agent sends it, and back as the front gives it to the watch. */
static void to_wire(const struct hang_watch_reading *in, int32_t rank, agent_proto_reading *out)
{
    *out = (agent_proto_reading){.rank = rank,
                                 .in_mpi = in->in_mpi,
                                 .progressed = in->progressed,
                                 .counter_known = in->counter_known,
                                 .runnable = in->runnable,
                                 .fn = (uint32_t)in->func,
                                 .counter = in->counter,
                                 .cpu_time_ns = in->cpu_s < 0 ? -1 : llround(1e9 * in->cpu_s),
                                 .cpu_slices = -1};
}

static void from_wire(const agent_proto_reading *in, bool with_cpu, struct hang_watch_reading *out)
{
    *out = (struct hang_watch_reading){
        .known = !in->unseen,
        .exited = in->unseen || in->exited,
        .in_mpi = in->in_mpi,
        .progressed = in->progressed,
        .counter_known = in->counter_known,
        .runnable = in->runnable,
        .func = (int)in->fn,
        .counter = in->counter,
        .cpu_s = in->cpu_time_ns < 0 ? -1 : 1e-9 * (double)in->cpu_time_ns,
        .slices = -1,
        .cpu_share = with_cpu ? 1 : 0,
    };
}

/* What an agent's read of one rank needs (agent_reads_fn's context). */
struct agent_side {
    const struct sim_app_cursor *c;
    double t, last_scan;
    const struct sim_watch_config *cfg;
    struct sim_watch_probe_buf *buf;
};

static void read_for_agent(void *ctx, int32_t rank, int with_cpu_time, agent_proto_reading *out)
{
    struct agent_side *side = ctx;
    struct hang_watch_reading reading;
    read_rank(side->c, (size_t)rank, side->t, side->last_scan, side->cfg, side->buf, with_cpu_time,
              &reading);
    to_wire(&reading, rank, out);
}

/* Reads what step asks for at t, directly or through the agents (adding to the round's cost). */
static int read_step(const struct sim_app_cursor *c, const struct hang_watch_step *step, double t,
                     double last_scan, const struct sim_watch_config *cfg,
                     struct sim_watch_probe_buf *buf, struct sim_watch_outcome *out)
{
    bool scan = step->action == HANG_WATCH_SCAN;
    if (!cfg->agents) {
        for (size_t i = 0; i < step->count; i++)
            read_rank(c, scan ? i : (size_t)step->ranks[i], t, last_scan, cfg, buf, step->with_cpu,
                      &buf->readings[i]);
        return MG_ERROR_OK;
    }
    struct agent_side side = {c, t, last_scan, cfg, buf};
    agent_reads_stats before, after;
    double began, ended;
    char err[160];
    sim_agents_stats(cfg->agents, &before, &began);
    int rc = sim_agents_read(cfg->agents, scan ? NULL : step->ranks, step->count, step->with_cpu,
                             read_for_agent, &side, buf->wire, err, sizeof err);
    if (rc != MG_ERROR_OK)
        return rc;
    sim_agents_stats(cfg->agents, &after, &ended);
    struct sim_watch_wire_cost *cost = scan ? &out->scans : &out->samples;
    cost->rounds += after.rounds - before.rounds;
    cost->frames += after.frames - before.frames;
    cost->bytes += after.bytes - before.bytes;
    cost->seconds += ended - began;
    for (size_t i = 0; i < step->count; i++)
        from_wire(&buf->wire[i], step->with_cpu, &buf->readings[i]);
    return MG_ERROR_OK;
}

static void account(const struct sim_app_run *run, const struct hang_watch *w,
                    const struct hang_watch_step *step, double verdict_at,
                    struct sim_watch_outcome *out)
{
    out->alarm = true;
    out->alarm_time = verdict_at;
    out->kind = step->result.kind;
    out->nfaulty = step->result.nfaulty;
    out->from_start = step->from_start;
    const int *faulty = hang_watch_faulty(w);
    for (size_t i = 0; i < out->nfaulty && i < run->nranks; i++)
        out->faulty_named = out->faulty_named || (size_t)faulty[i] == run->fault_rank;
}

int sim_watch(const struct sim_app_run *run, const struct hang_watch_detector *det,
              const struct sim_watch_config *cfg, struct sim_watch_probe_buf *buf,
              struct sim_watch_outcome *out)
{
    *out = (struct sim_watch_outcome){.kind = HANG_DIAG_COMMUNICATION};
    struct hang_watch *w;
    int rc = hang_watch_create(&cfg->watch, det, run->nranks, &w);
    if (rc != MG_ERROR_OK)
        return rc;
    buf->stamp++;
    struct sim_app_cursor c;
    sim_app_cursor_init(&c, run);
    struct hang_watch_step step;
    double last_scan = 0, verdict_at = 0;
    rc = hang_watch_begin(w, 0, &step);
    while (rc == MG_ERROR_OK && step.at <= cfg->end_time) {
        double t = step.at;
        sim_app_cursor_seek(&c, t);
        bool scan = step.action == HANG_WATCH_SCAN;
        if ((rc = read_step(&c, &step, t, last_scan, cfg, buf, out)) != MG_ERROR_OK)
            break;
        if (scan && step.with_cpu)
            last_scan = t;
        if ((rc = hang_watch_feed(w, buf->readings, t, &step)) != MG_ERROR_OK)
            break;
        out->observations += (step.events & HANG_WATCH_OBSERVED) != 0;
        if (step.events & (HANG_WATCH_SUSPECTED | HANG_WATCH_STILL | HANG_WATCH_HALTED)) {
            out->raw_hangs++;
            verdict_at = t;
        }
        out->dismissed += (step.events & HANG_WATCH_SET_ASIDE) != 0;
        if (step.action == HANG_WATCH_VERDICT) {
            account(run, w, &step, verdict_at, out);
            break;
        }
    }
    hang_watch_destroy(w);
    return rc;
}
