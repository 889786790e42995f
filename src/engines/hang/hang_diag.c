/* Transient slowdown vs hang, faulty ranks and hang type (ParaStack §3.3 and §4). */
#include "hang_diag.h"

#include "mg_error.h"

bool hang_diag_job_stopped(const struct hang_diag_rank *scan, size_t n)
{
    size_t alive = 0;
    for (size_t r = 0; r < n; r++) {
        if (hang_diag_rank_absent(&scan[r]))
            continue;
        if (!scan[r].stopped)
            return false;
        alive++;
    }
    return alive > 0;
}

static bool is_polling(const struct hang_diag_input *in, int func)
{
    return func >= 0 && (size_t)func < in->npolling && in->polling[func];
}

static bool progressed(const struct hang_diag_input *in, const struct hang_diag_rank *a,
                       const struct hang_diag_rank *b)
{
    bool poll_a = is_polling(in, a->func), poll_b = is_polling(in, b->func);
    if (b->progressed)
        return true;
    if (a->counter_known && b->counter_known && a->counter != b->counter && !(poll_a && poll_b))
        return true;
    if (!a->out_mpi && !b->out_mpi)
        return a->func != b->func && !(poll_a && poll_b);
    if (a->out_mpi != b->out_mpi)
        return a->out_mpi ? !poll_b : !poll_a;
    return false;
}

/* Outside MPI in every scan, or computing though some scans put it in a polling call: seen outside
 * MPI once, else in a polling call, at one call count throughout. A poll returns at once and
 * polling moves the count; readings that still place the rank in one repeat the poll it last
 * left (a reading after a long pause counts that poll's moves: run 51020 of issue 29, a master
 * gone into a compute loop read "in MPI_Test"). */
static bool computes(const struct hang_diag_input *in, size_t rank)
{
    size_t n = in->nranks;
    const struct hang_diag_rank *first = &in->scans[rank];
    bool always_out = true, seen_out = false, still_polled = true;
    for (size_t s = 0; s < in->nscans; s++) {
        const struct hang_diag_rank *x = &in->scans[s * n + rank];
        always_out = always_out && x->out_mpi;
        seen_out = seen_out || x->out_mpi;
        still_polled = still_polled && (x->out_mpi || is_polling(in, x->func)) &&
                       x->counter_known && x->counter == first->counter;
    }
    return always_out || (seen_out && still_polled);
}

/* The first scan in which rank exited after a scan read it alive; nscans when none. */
static size_t vanished_in(const struct hang_diag_input *in, size_t rank)
{
    bool seen_alive = false;
    for (size_t s = 0; s < in->nscans; s++) {
        const struct hang_diag_rank *x = &in->scans[s * in->nranks + rank];
        if (x->exited && seen_alive)
            return s;
        seen_alive = seen_alive || !hang_diag_rank_absent(x);
    }
    return in->nscans;
}

/* The rank that vanished first (hang_diag_result.vanished_rank), or -1; *sure: it is known to be
 * (vanished_first). */
static int first_vanished(const struct hang_diag_input *in, bool *sure)
{
    int first = -1;
    size_t first_scan = in->nscans, in_scan = 0;
    bool all_ordered = true;
    uint64_t first_order = 0;
    for (size_t rank = 0; rank < in->nranks; rank++) {
        size_t s = vanished_in(in, rank);
        if (s == in->nscans || s > first_scan)
            continue;
        uint64_t order = in->scans[s * in->nranks + rank].exit_order;
        if (s < first_scan) {
            in_scan = 0;
            all_ordered = true;
        }
        in_scan++;
        all_ordered = all_ordered && order;
        /* an exit whose start is known to come first comes before one not known */
        bool earlier = s < first_scan || (order && (!first_order || order < first_order));
        if (earlier) {
            first = (int)rank;
            first_scan = s;
            first_order = order;
        }
    }
    *sure = in_scan == 1 || all_ordered;
    return first;
}

int hang_diag_classify(const struct hang_diag_input *in, int *faulty, size_t faulty_cap,
                       struct hang_diag_result *out)
{
    if (!in || !out || !in->scans || in->nranks == 0 || in->nscans < 2 ||
        (!faulty && faulty_cap > 0) || (!in->polling && in->npolling > 0))
        return MG_ERROR_EINVAL;
    struct hang_diag_result r = {
        .kind = HANG_DIAG_COMMUNICATION, .progress_rank = -1, .vanished_rank = -1};
    size_t n = in->nranks;
    bool sure;
    int vanished = first_vanished(in, &sure);
    if (vanished >= 0) {
        *out = (struct hang_diag_result){.kind = HANG_DIAG_VANISHED,
                                         .progress_rank = -1,
                                         .vanished_rank = vanished,
                                         .vanished_first = sure};
        return MG_ERROR_OK;
    }
    for (size_t s = 0; s < in->nscans; s++) {
        if (hang_diag_job_stopped(&in->scans[s * n], n)) {
            *out = (struct hang_diag_result){
                .kind = HANG_DIAG_SUSPENDED, .progress_rank = -1, .vanished_rank = -1};
            return MG_ERROR_OK;
        }
    }
    for (size_t rank = 0; rank < n; rank++) {
        bool exited = false;
        for (size_t s = 0; s < in->nscans; s++)
            exited = exited || hang_diag_rank_absent(&in->scans[s * n + rank]);
        if (exited) {
            /* its last steps say nothing about whether the others can move */
            r.nexited++;
            continue;
        }
        for (size_t s = 1; s < in->nscans && r.progress_rank < 0; s++) {
            const struct hang_diag_rank *x = &in->scans[s * n + rank];
            if (progressed(in, x - n, x))
                r.progress_rank = (int)rank;
        }
        if (computes(in, rank)) {
            if (r.nfaulty < faulty_cap)
                faulty[r.nfaulty] = (int)rank;
            r.nfaulty++;
        }
    }
    if (r.nexited == n)
        r.kind = HANG_DIAG_ALL_EXITED;
    else if (r.progress_rank >= 0)
        r.kind = HANG_DIAG_PROGRESS;
    else if (in->starved)
        r.kind = HANG_DIAG_STARVED;
    else if (r.nfaulty > 0)
        r.kind = HANG_DIAG_COMPUTATION;
    if (r.kind == HANG_DIAG_PROGRESS || r.kind == HANG_DIAG_STARVED)
        r.nfaulty = 0;
    *out = r;
    return MG_ERROR_OK;
}

double hang_diag_own_time(double elapsed_s, double ran_s, double slices, bool runnable,
                          double cpu_share)
{
    if (!(elapsed_s > 0))
        return 0;
    if (!runnable || ran_s < 0 || (slices > 0 && ran_s < slices * HANG_DIAG_YIELD_SLICE_S))
        return elapsed_s;
    double share = cpu_share > 0 && cpu_share < 1 ? cpu_share : 1;
    return ran_s >= elapsed_s * share ? elapsed_s : ran_s / share;
}

/* The most CPU time any live rank runnable at both scans got per second of the gap; 0 when none
 * is known. */
static double best_rate(const struct hang_diag_cpu *ranks, size_t n, double elapsed_s)
{
    double best = 0;
    for (size_t r = 0; r < n; r++) {
        const struct hang_diag_cpu *c = &ranks[r];
        if (c->alive && c->runnable && c->ran_s > 0 && c->ran_s / elapsed_s > best)
            best = c->ran_s / elapsed_s;
    }
    return best;
}

double hang_diag_least_own_time(const struct hang_diag_cpu *ranks, size_t n, double elapsed_s,
                                enum hang_diag_share against, size_t *who)
{
    double least = elapsed_s;
    double sibling_share = against == HANG_DIAG_SHARE_SIBLINGS && elapsed_s > 0
                               ? HANG_DIAG_SIBLING_SHARE * best_rate(ranks, n, elapsed_s)
                               : 0;
    *who = SIZE_MAX;
    for (size_t r = 0; r < n; r++) {
        if (!ranks[r].alive)
            continue;
        const struct hang_diag_cpu *c = &ranks[r];
        double share = c->share > 0 && c->share < 1 ? c->share : 1;
        if (sibling_share > 0 && sibling_share < share)
            share = sibling_share;
        double own = hang_diag_own_time(elapsed_s, c->ran_s, c->slices, c->runnable, share);
        if (*who == SIZE_MAX || own < least) {
            least = own;
            *who = r;
        }
    }
    return least;
}

double hang_diag_retake_after(double gap_s, double elapsed_s, double least_own_s,
                              double max_stretch)
{
    if (least_own_s >= gap_s || elapsed_s >= gap_s * max_stretch)
        return 0;
    double missing = gap_s - least_own_s;
    return missing > HANG_DIAG_MIN_RETAKE_S ? missing : HANG_DIAG_MIN_RETAKE_S;
}
