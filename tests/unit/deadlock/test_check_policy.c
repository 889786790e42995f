/* Unit tests of check_policy (when `mpiguard check` analyses and when a deadlock is confirmed) over
 * a real detector fed hand-made records, with made-up times and readings of the ranks. */
#include "check_policy.h"
#include "dl_stream.h"

#define MS 1000000ULL
#define S (1000 * MS)

/* Fig. 1b's recv-recv deadlock of ranks 0 and 1, fed at times 1..4 ns. */
static void open_recv_recv(dl_stream *s)
{
    st_open(s, 2, NULL);
    ST_RECV(s, 0, 1, 0);
    ST_RECV(s, 1, 0, 0);
}

/* The recv-recv deadlock found by an analysis the policy (quiet time 1 s) was told of. */
static const dl_finding *recv_recv_found(dl_stream *s, check_policy *p)
{
    open_recv_recv(s);
    check_policy_init(p, 1.0, 0);
    MG_CHECK_INT(deadlock_detector_check_now(s->det, s->now, NULL), MG_ERROR_OK);
    check_policy_analysed(p, s->det);
    size_t n;
    const dl_finding *f = st_find(s, DL_FINDING_DEADLOCK, &n);
    MG_CHECK_INT(n, 1);
    return f;
}

static void no_detector_no_analysis(void)
{
    check_policy p;
    check_policy_init(&p, 1.0, 0);
    check_policy_note_stream_end(&p);
    MG_CHECK_INT(check_policy_due(&p, NULL, 10 * S), 0);
}

/* Every live process blocked: due once the 200 ms settle passed, not before; quiet time alone
 * after that is not asked for. */
static void every_blocked_after_the_settle(void)
{
    dl_stream s;
    open_recv_recv(&s);
    check_policy p;
    check_policy_init(&p, 5.0, 0);
    check_policy_note_record(&p, 1 * S);
    MG_CHECK_INT(check_policy_due(&p, s.det, 1 * S + 199 * MS), 0);
    MG_CHECK_INT(check_policy_due(&p, s.det, 1 * S + 200 * MS), 1);
    st_close(&s);
}

/* Quiet time: a rank still running (not blocked) makes an analysis due only after --quiet-time;
 * once analysed, nothing is due until a new record comes or a stream ends. */
static void quiet_time_then_nothing_new(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    ST_RECV(&s, 0, 1, 0);
    check_policy p;
    check_policy_init(&p, 2.0, 0);
    check_policy_note_record(&p, 1 * S);
    MG_CHECK_INT(check_policy_due(&p, s.det, 2 * S), 0);
    MG_CHECK_INT(check_policy_due(&p, s.det, 3 * S), 1);
    MG_CHECK_INT(deadlock_detector_check_now(s.det, 3 * S, NULL), MG_ERROR_OK);
    check_policy_analysed(&p, s.det);
    MG_CHECK_INT(check_policy_due(&p, s.det, 100 * S), 0);
    check_policy_note_stream_end(&p);
    MG_CHECK_INT(check_policy_due(&p, s.det, 100 * S), 1);
    check_policy_analysed(&p, s.det);
    MG_CHECK_INT(check_policy_due(&p, s.det, 100 * S), 0);
    ST_SEND(&s, 1, 0, 1);
    check_policy_note_record(&p, 100 * S);
    MG_CHECK_INT(check_policy_due(&p, s.det, 100 * S + 1 * S), 0);
    MG_CHECK_INT(check_policy_due(&p, s.det, 102 * S), 1);
    st_close(&s);
}

/* A collective mismatch held through an analysis (a call of it may still be refused) makes the
 * next analysis due when its hold runs out, though no record comes; then nothing more is due. */
static void held_mismatch_due_without_records(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    st_coll(&s, 0, CHECK_EVENT_FN_BCAST, CHECK_EVENT_COMM_WORLD, 0, 0, 0, 0);
    st_coll(&s, 1, CHECK_EVENT_FN_BCAST, CHECK_EVENT_COMM_WORLD, 1, 0, 0, 0);
    check_policy p;
    check_policy_init(&p, 1.0, 0);
    check_policy_note_stream_end(&p);
    MG_CHECK_INT(check_policy_due(&p, s.det, 10 * MS), 1);
    MG_CHECK_INT(deadlock_detector_check_now(s.det, 10 * MS, NULL), MG_ERROR_OK);
    check_policy_analysed(&p, s.det);
    size_t n;
    st_find(&s, DL_FINDING_COLLECTIVE_MISMATCH, &n);
    MG_CHECK_INT(n, 0);
    deadlock_detector_queues q;
    deadlock_detector_queue_sizes(s.det, &q);
    MG_CHECK(q.mismatch_due > 10 * MS);
    MG_CHECK_INT(check_policy_due(&p, s.det, q.mismatch_due - 1), 0);
    MG_CHECK_INT(check_policy_due(&p, s.det, q.mismatch_due), 1);
    MG_CHECK_INT(deadlock_detector_check_now(s.det, q.mismatch_due, NULL), MG_ERROR_OK);
    check_policy_analysed(&p, s.det);
    st_find(&s, DL_FINDING_COLLECTIVE_MISMATCH, &n);
    MG_CHECK_INT(n, 1);
    MG_CHECK_INT(check_policy_due(&p, s.det, 100 * S), 0);
    st_close(&s);
}

/* A deadlock is confirmed at once when both ranks of its knot are inside a call with their rings
 * drained. */
static void confirmed_when_the_knot_is_in_calls(void)
{
    dl_stream s;
    check_policy p;
    const dl_finding *f = recv_recv_found(&s, &p);
    MG_CHECK(f != NULL);
    uint64_t in_call[2] = {7, 9}, records[2] = {1, 1};
    uint8_t ended[2] = {0, 0};
    check_policy_readings rd = {2, in_call, records, ended, NULL};
    MG_CHECK_INT(check_policy_stops(f), 1);
    MG_CHECK_INT(check_policy_confirm(&p, 0, f, &rd, 1 * S), CHECK_POLICY_CONFIRMED);
    MG_CHECK_INT(p.pending, 0);
    st_close(&s);
}

/* Rank 1 not in a call yet: unconfirmed while its records stay as they were, for at most 5 s;
 * dropped at once when one of the knot's ranks sent a new record. */
static void unconfirmed_waits_then_drops(void)
{
    dl_stream s;
    check_policy p;
    const dl_finding *f = recv_recv_found(&s, &p);
    uint64_t in_call[2] = {7, 0}, records[2] = {1, 1};
    uint8_t ended[2] = {0, 0};
    check_policy_readings rd = {2, in_call, records, ended, NULL};
    MG_CHECK_INT(check_policy_confirm(&p, 0, f, &rd, 1 * S), CHECK_POLICY_UNCONFIRMED);
    MG_CHECK_INT(p.pending, 1);
    MG_CHECK_INT(check_policy_confirm(&p, 0, f, &rd, 5 * S + 999 * MS), CHECK_POLICY_UNCONFIRMED);
    MG_CHECK_INT(check_policy_confirm(&p, 0, f, &rd, 6 * S), CHECK_POLICY_DROPPED);
    MG_CHECK_INT(p.pending, 0);

    MG_CHECK_INT(check_policy_confirm(&p, 0, f, &rd, 7 * S), CHECK_POLICY_UNCONFIRMED);
    records[1] = 2;
    MG_CHECK_INT(check_policy_confirm(&p, 0, f, &rd, 7 * S + 1), CHECK_POLICY_DROPPED);

    /* Caught between its record and the call: confirmed once it is in the call. */
    MG_CHECK_INT(check_policy_confirm(&p, 0, f, &rd, 8 * S), CHECK_POLICY_UNCONFIRMED);
    in_call[1] = 3;
    MG_CHECK_INT(check_policy_confirm(&p, 0, f, &rd, 8 * S + 1), CHECK_POLICY_CONFIRMED);
    st_close(&s);
}

/* Fig. 8 through a tree of detectors: ranks 1 and 2 wait on each other (recv-recv), and rank 0's
 * receive from rank 1, which rank 0 published being in (seq 1), is still held at its leaf (the
 * root's last record of rank 0: none). */
typedef struct held_job {
    dl_stream s;
    uint64_t in_call[3], seen[3], records[3];
    uint8_t ended[3];
    check_policy_readings rd;
    check_policy p;
} held_job;

static void open_knot_rank_0_held(held_job *h)
{
    memset(h, 0, sizeof *h);
    st_open(&h->s, 3, NULL);
    ST_RECV(&h->s, 1, 2, 0);
    ST_RECV(&h->s, 2, 1, 0);
    h->in_call[0] = h->in_call[1] = h->in_call[2] = 1;
    h->seen[1] = h->seen[2] = h->records[1] = h->records[2] = 1;
    h->rd = (check_policy_readings){3, h->in_call, h->records, h->ended, h->seen};
    check_policy_init(&h->p, 1.0, 0);
}

/* Analysed without rank 0's record, the deadlock leaves rank 0 out and is confirmed (its knot is
 * in calls): the root reports ranks 1,2 where the job's deadlock is 1,2,0. */
static void held_call_analysed_too_early(void)
{
    static held_job h;
    open_knot_rank_0_held(&h);
    MG_CHECK_INT(deadlock_detector_check_now(h.s.det, 1 * S, NULL), MG_ERROR_OK);
    size_t n;
    const dl_finding *f = st_find(&h.s, DL_FINDING_DEADLOCK, &n);
    MG_CHECK_INT(n, 1);
    MG_CHECK_INT(st_waiting_is(f, NULL, 0), 1);
    MG_CHECK_INT(check_policy_confirm(&h.p, 0, f, &h.rd, 1 * S), CHECK_POLICY_CONFIRMED);
    st_close(&h.s);
}

/* The view: the root asks once and waits while rank 0's published call has no record; once it
 * came, the analysis finds rank 0 waiting on the knot. */
static void held_call_waited_for(void)
{
    static held_job h;
    open_knot_rank_0_held(&h);
    int32_t rank = 7;
    MG_CHECK_INT(check_policy_view(&h.p, &h.rd, 1 * S, &rank), CHECK_POLICY_VIEW_ASK);
    MG_CHECK_INT(rank, 0);
    MG_CHECK_INT(check_policy_view(&h.p, &h.rd, 3 * S, &rank), CHECK_POLICY_VIEW_BEHIND);
    ST_RECV(&h.s, 0, 1, 0);
    h.seen[0] = 1;
    MG_CHECK_INT(check_policy_view(&h.p, &h.rd, 3 * S + 1, &rank), CHECK_POLICY_VIEW_WHOLE);
    MG_CHECK_INT(rank, -1);
    MG_CHECK_INT(deadlock_detector_check_now(h.s.det, 4 * S, NULL), MG_ERROR_OK);
    size_t n;
    const dl_finding *f = st_find(&h.s, DL_FINDING_DEADLOCK, &n);
    MG_CHECK_INT(n, 1);
    static const int32_t knot[] = {1, 2}, waiting[] = {0};
    MG_CHECK_INT(st_knot_is(f, knot, 2), 1);
    MG_CHECK_INT(st_waiting_is(f, waiting, 1), 1);
    st_close(&h.s);
}

/* A record that never comes: waited for 3 s, then the analysis goes on without it (said once),
 * until the view is whole again; a reading older than the root's last record is no missing call,
 * and without a tree (seen NULL) nothing is. */
static void held_call_given_up(void)
{
    uint64_t in_call[2] = {4, 9}, seen[2] = {4, 8}, records[2] = {0};
    uint8_t ended[2] = {0};
    check_policy_readings rd = {2, in_call, records, ended, seen};
    check_policy p;
    check_policy_init(&p, 1.0, 0);
    int32_t rank;
    MG_CHECK_INT(check_policy_view(&p, &rd, 10 * S, &rank), CHECK_POLICY_VIEW_ASK);
    MG_CHECK_INT(rank, 1);
    MG_CHECK_INT(check_policy_view(&p, &rd, 12 * S + 999 * MS, &rank), CHECK_POLICY_VIEW_BEHIND);
    MG_CHECK_INT(check_policy_view(&p, &rd, 13 * S, &rank), CHECK_POLICY_VIEW_GAVE_UP);
    MG_CHECK_INT(rank, 1);
    MG_CHECK_INT(check_policy_view(&p, &rd, 20 * S, &rank), CHECK_POLICY_VIEW_WHOLE);
    seen[1] = 12;
    MG_CHECK_INT(check_policy_view(&p, &rd, 21 * S, &rank), CHECK_POLICY_VIEW_WHOLE);
    in_call[0] = 5;
    MG_CHECK_INT(check_policy_view(&p, &rd, 22 * S, &rank), CHECK_POLICY_VIEW_ASK);
    MG_CHECK_INT(rank, 0);
    rd.seen = NULL;
    check_policy_init(&p, 1.0, 0);
    MG_CHECK_INT(check_policy_view(&p, &rd, 23 * S, &rank), CHECK_POLICY_VIEW_WHOLE);
}

/* After errors, stuck only after three quiet times (at least 3 s) with every live rank in a call;
 * a rank whose stream ended does not count; without errors never. */
static void stuck_after_errors(void)
{
    check_policy p;
    check_policy_init(&p, 0.5, 0);
    check_policy_note_record(&p, 10 * S);
    uint64_t in_call[3] = {1, 1, 0}, records[3] = {0};
    uint8_t ended[3] = {0, 0, 0};
    check_policy_readings rd = {3, in_call, records, ended, NULL};
    MG_CHECK_INT(check_policy_stuck(&p, 1, &rd, 20 * S), 0);
    ended[2] = 1;
    MG_CHECK_INT(check_policy_stuck(&p, 1, &rd, 12 * S + 999 * MS), 0);
    MG_CHECK_INT(check_policy_stuck(&p, 1, &rd, 13 * S), 1);
    MG_CHECK_INT(check_policy_stuck(&p, 0, &rd, 20 * S), 0);
    check_policy_init(&p, 2.0, 0);
    check_policy_note_record(&p, 10 * S);
    MG_CHECK_INT(check_policy_stuck(&p, 1, &rd, 15 * S), 0);
    MG_CHECK_INT(check_policy_stuck(&p, 1, &rd, 16 * S), 1);
}

/* The errors after which the library may hang where the model goes on; a deadlock (which stops
 * the job itself) and a leak are not such errors. */
static void errors_that_may_hang(void)
{
    static const struct {
        uint8_t kind;
        int hangs;
    } cases[] = {{DL_FINDING_COLLECTIVE_MISMATCH, 1},
                 {DL_FINDING_INVALID_ARGUMENTS, 1},
                 {DL_FINDING_DEADLOCK, 0},
                 {DL_FINDING_STUCK_ON_TERMINATED, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dl_finding f = {.kind = cases[i].kind};
        MG_CHECK_INT(check_policy_hangs_after(&f), cases[i].hangs);
    }
}

int main(void)
{
    MG_RUN(no_detector_no_analysis);
    MG_RUN(every_blocked_after_the_settle);
    MG_RUN(quiet_time_then_nothing_new);
    MG_RUN(held_mismatch_due_without_records);
    MG_RUN(confirmed_when_the_knot_is_in_calls);
    MG_RUN(unconfirmed_waits_then_drops);
    MG_RUN(held_call_analysed_too_early);
    MG_RUN(held_call_waited_for);
    MG_RUN(held_call_given_up);
    MG_RUN(stuck_after_errors);
    MG_RUN(errors_that_may_hang);
    MG_TEST_END();
}
