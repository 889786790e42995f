/* One detector watching one simulated run through the watch engine (sim_watch.h). */
#include "sim_watch.h"

#include "mg_error.h"

/* Rank r read at t as the probe would: a counter that moved since the rank's previous reading is
 * progress; a computing rank is runnable, and its CPU time grew at its current rate since its
 * last scan (exact within one slowdown). */
static void read_rank(const struct sim_cursor *c, size_t r, double t, double last_scan,
                      const struct sim_watch_config *cfg, struct sim_probe_buf *buf, bool with_cpu,
                      struct hang_watch_reading *out)
{
    struct sim_rank_state st;
    sim_rank_state(c, r, t, &st);
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

static void account(const struct sim_run *run, const struct hang_watch *w,
                    const struct hang_watch_step *step, double verdict_at, struct sim_outcome *out)
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

int sim_watch(const struct sim_run *run, const struct hang_detector *det,
              const struct sim_watch_config *cfg, struct sim_probe_buf *buf,
              struct sim_outcome *out)
{
    *out = (struct sim_outcome){.kind = HANG_DIAG_COMMUNICATION};
    struct hang_watch *w;
    int rc = hang_watch_create(&cfg->watch, det, run->nranks, &w);
    if (rc != MG_OK)
        return rc;
    buf->stamp++;
    struct sim_cursor c;
    sim_cursor_init(&c, run);
    struct hang_watch_step step;
    double last_scan = 0, verdict_at = 0;
    rc = hang_watch_begin(w, 0, &step);
    while (rc == MG_OK && step.at <= cfg->end_time) {
        double t = step.at;
        sim_cursor_seek(&c, t);
        bool scan = step.action == HANG_WATCH_SCAN;
        for (size_t i = 0; i < step.count; i++)
            read_rank(&c, scan ? i : (size_t)step.ranks[i], t, last_scan, cfg, buf, step.with_cpu,
                      &buf->readings[i]);
        if (scan && step.with_cpu)
            last_scan = t;
        if ((rc = hang_watch_feed(w, buf->readings, t, &step)) != MG_OK)
            break;
        out->observations += (step.events & HANG_WATCH_OBSERVED) != 0;
        if (step.events & (HANG_WATCH_SUSPECTED | HANG_WATCH_STILL)) {
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
