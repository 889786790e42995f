/* One detector watching one simulated run (docs/design/hang.md "Proof"; ParaStack §3.3-4). */
#include "sim_watch.h"

#include "hang_model.h"
#include "hang_timeout.h"
#include "mg_error.h"

static int model_sampled(const void *self, const int **ranks, size_t *count)
{
    return hang_model_sampled(self, ranks, count);
}

static int model_delay(void *self, double *delay)
{
    return hang_model_next_delay(self, delay);
}

static int model_observe(void *self, size_t out_mpi, double now, struct hang_verdict *v)
{
    return hang_model_observe(self, out_mpi, now, v);
}

static int model_resume(void *self)
{
    return hang_model_resume(self);
}

static int timeout_sampled(const void *self, const int **ranks, size_t *count)
{
    return hang_timeout_sampled(self, ranks, count);
}

static int timeout_delay(void *self, double *delay)
{
    return hang_timeout_next_delay(self, delay);
}

static int timeout_observe(void *self, size_t out_mpi, double now, struct hang_verdict *v)
{
    return hang_timeout_observe(self, out_mpi, now, v);
}

static int timeout_resume(void *self)
{
    return hang_timeout_resume(self);
}

struct sim_detector sim_detector_model(struct hang_model *m)
{
    return (struct sim_detector){m, model_sampled, model_delay, model_observe, model_resume};
}

struct sim_detector sim_detector_timeout(struct hang_timeout *t)
{
    return (struct sim_detector){t, timeout_sampled, timeout_delay, timeout_observe,
                                 timeout_resume};
}

/* Scan s of every rank at ts, and what each did with the CPU since the previous scan at prev (a
 * rank computing at both ran at its current rate in between: exact within one slowdown). */
static void scan(const struct sim_cursor *c, size_t s, double ts, double prev,
                 const struct sim_watch_config *cfg, struct sim_scan_buf *buf)
{
    size_t n = c->run->nranks;
    for (size_t r = 0; r < n; r++) {
        struct sim_rank_state st;
        sim_rank_state(c, r, ts, &st);
        struct hang_diag_rank *now = &buf->scans[s * n + r];
        *now = (struct hang_diag_rank){
            .out_mpi = st.out_mpi,
            .counter_known = cfg->counters,
            .func = st.func,
            .counter = st.counter,
        };
        if (s > 0)
            buf->cpu[r] = (struct hang_diag_cpu){.alive = true,
                                                 .runnable = now->out_mpi && (now - n)->out_mpi,
                                                 .ran_s = (ts - prev) * st.cpu_rate,
                                                 .slices = -1,
                                                 .share = 1};
    }
}

/* Scans every rank nscans times from t on, as the front does (hang_diagnosis.c): each gap lasts
 * until every rank had scan_gap for itself (hang_diag_retake_after), and one that ends short of it
 * leaves the verification starved. Classifies, and says when the last scan was taken (*last). */
static int diagnose(const struct sim_run *run, const struct sim_cursor *at, double t,
                    const struct sim_watch_config *cfg, struct sim_scan_buf *buf,
                    struct hang_diag_result *res, double *last)
{
    static const bool polling[SIM_FUNC_COUNT] = {false};
    struct sim_cursor c = *at;
    size_t n = run->nranks, who;
    bool starved = false;
    scan(&c, 0, t, t, cfg, buf);
    for (size_t s = 1; s < cfg->nscans; s++) {
        double prev = t, wait = cfg->scan_gap, own = 0;
        while (wait > 0) {
            t += wait;
            sim_cursor_seek(&c, t);
            scan(&c, s, t, prev, cfg, buf);
            own = hang_diag_least_own_time(buf->cpu, n, t - prev, &who);
            wait = hang_diag_retake_after(cfg->scan_gap, t - prev, own, cfg->max_stretch);
        }
        starved = starved || own < cfg->scan_gap;
    }
    *last = t;
    struct hang_diag_input in = {.nranks = n, .nscans = cfg->nscans, .scans = buf->scans,
                                 .polling = polling, .npolling = SIM_FUNC_COUNT,
                                 .starved = starved};
    return hang_diag_classify(&in, buf->faulty, n, res);
}

static void name_faulty(const struct sim_run *run, const struct sim_scan_buf *buf,
                        struct sim_outcome *out)
{
    for (size_t i = 0; i < out->nfaulty; i++) {
        if ((size_t)buf->faulty[i] == run->fault_rank)
            out->faulty_named = true;
    }
}

int sim_watch(const struct sim_run *run, const struct sim_detector *det,
              const struct sim_watch_config *cfg, struct sim_scan_buf *buf, struct sim_outcome *out)
{
    *out = (struct sim_outcome){.kind = HANG_DIAG_COMMUNICATION};
    struct sim_cursor c;
    sim_cursor_init(&c, run);
    double t = 0.0;
    for (;;) {
        double d;
        int rc = det->next_delay(det->self, &d);
        if (rc != MG_OK)
            return rc;
        t += d;
        if (t > cfg->end_time)
            return MG_OK;
        sim_cursor_seek(&c, t);
        const int *ranks;
        size_t count, out_mpi = 0;
        rc = det->sampled(det->self, &ranks, &count);
        if (rc != MG_OK)
            return rc;
        for (size_t i = 0; i < count; i++) {
            struct sim_rank_state st;
            sim_rank_state(&c, (size_t)ranks[i], t, &st);
            out_mpi += st.out_mpi;
        }
        struct hang_verdict v;
        rc = det->observe(det->self, out_mpi, t, &v);
        if (rc != MG_OK)
            return rc;
        out->observations++;
        if (v.kind != HANG_VERDICT_HANG)
            continue;
        out->raw_hangs++;
        if (cfg->diagnose) {
            struct hang_diag_result res;
            double verified_at;
            rc = diagnose(run, &c, t, cfg, buf, &res, &verified_at);
            if (rc != MG_OK)
                return rc;
            if (res.kind == HANG_DIAG_PROGRESS || res.kind == HANG_DIAG_ALL_EXITED ||
                res.kind == HANG_DIAG_STARVED) {
                out->dismissed++;
                t = verified_at;
                rc = det->resume(det->self);
                if (rc != MG_OK)
                    return rc;
                continue;
            }
            out->kind = res.kind;
            out->nfaulty = res.nfaulty;
            name_faulty(run, buf, out);
        }
        out->alarm = true;
        out->alarm_time = t;
        return MG_OK;
    }
}
