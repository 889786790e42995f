/* Unit tests of the diagnosis helpers (ParaStack §3.3 transient slowdowns, §4 faulty ranks). */
#include "hang_diag.h"
#include "mg_error.h"
#include "mg_test.h"

enum { ALLREDUCE, WAITALL, TEST, IPROBE, SEND, NFUNCS };
static const bool polling[NFUNCS] = {[TEST] = true, [IPROBE] = true};

#define NR 4
#define NS 3

static struct hang_diag_rank scans[NS * NR];

/* Every rank IN_MPI in MPI_Allreduce with a frozen counter, in every scan. */
static void stuck(bool counters)
{
    for (int s = 0; s < NS; s++) {
        for (int r = 0; r < NR; r++)
            scans[s * NR + r] = (struct hang_diag_rank){
                .out_mpi = false, .counter_known = counters, .func = ALLREDUCE, .counter = 100};
    }
}

static bool starved; /* the input's: some gap left a rank short of its own time */

static struct hang_diag_result run(int *faulty, size_t cap)
{
    struct hang_diag_input in = {NR, NS, scans, polling, NFUNCS, starved};
    struct hang_diag_result r;
    MG_CHECK_INT(hang_diag_classify(&in, faulty, cap, &r), MG_ERROR_OK);
    return r;
}

static void communication_hang(void)
{
    for (int counters = 0; counters < 2; counters++) {
        stuck(counters);
        int faulty[NR];
        struct hang_diag_result r = run(faulty, NR);
        MG_CHECK_INT(r.kind, HANG_DIAG_COMMUNICATION);
        MG_CHECK_INT(r.nfaulty, 0);
        MG_CHECK_INT(r.progress_rank, -1);
    }
}

static void computation_hang_names_the_faulty_rank(void)
{
    stuck(true);
    for (int s = 0; s < NS; s++) {
        scans[s * NR + 2].out_mpi = true;
        scans[s * NR + 2].func = WAITALL; /* its last call */
        scans[s * NR + 2].counter = 57;
    }
    /* rank 1 is OUT_MPI in one scan only (a polling neighbour stepping out): not faulty, and its
     * step is into a polling function, so not progress either */
    scans[1 * NR + 1].out_mpi = true;
    scans[0 * NR + 1].func = scans[1 * NR + 1].func = scans[2 * NR + 1].func = TEST;
    scans[1 * NR + 1].counter = 101;
    scans[2 * NR + 1].counter = 102;
    int faulty[NR];
    struct hang_diag_result r = run(faulty, NR);
    MG_CHECK_INT(r.kind, HANG_DIAG_COMPUTATION);
    MG_CHECK_INT(r.nfaulty, 1);
    MG_CHECK_INT(faulty[0], 2);
    MG_CHECK_INT(r.progress_rank, -1);
}

static void moving_counter_is_a_transient_slowdown(void)
{
    stuck(true);
    for (int s = 0; s < NS; s++)
        scans[s * NR + 3].out_mpi = true;
    scans[2 * NR + 3].counter = 101; /* the slow rank finished a call between scans */
    int faulty[NR];
    struct hang_diag_result r = run(faulty, NR);
    MG_CHECK_INT(r.kind, HANG_DIAG_PROGRESS);
    MG_CHECK_INT(r.progress_rank, 3);
    MG_CHECK_INT(r.nfaulty, 0);
    /* the same movement inside MPI_Test in both scans is a busy-wait loop: no progress */
    stuck(true);
    scans[1 * NR + 0].func = scans[2 * NR + 0].func = scans[0 * NR + 0].func = TEST;
    scans[1 * NR + 0].counter = 150;
    scans[2 * NR + 0].counter = 190;
    MG_CHECK_INT(run(faulty, NR).kind, HANG_DIAG_COMMUNICATION);
    /* a counter known in one scan only falls back to the state rules: nothing changed */
    stuck(true);
    scans[1 * NR + 0].counter_known = false;
    scans[1 * NR + 0].counter = 7;
    MG_CHECK_INT(run(faulty, NR).kind, HANG_DIAG_COMMUNICATION);
}

static void without_counters_the_papers_rule(void)
{
    int faulty[NR];
    /* (1) a different MPI function */
    stuck(false);
    scans[2 * NR + 1].func = SEND;
    struct hang_diag_result r = run(faulty, NR);
    MG_CHECK_INT(r.kind, HANG_DIAG_PROGRESS);
    MG_CHECK_INT(r.progress_rank, 1);
    /* but MPI_Test -> MPI_Iprobe is one busy-wait loop */
    stuck(false);
    scans[1 * NR + 1].func = TEST;
    scans[2 * NR + 1].func = IPROBE;
    scans[0 * NR + 1].func = IPROBE;
    MG_CHECK_INT(run(faulty, NR).kind, HANG_DIAG_COMMUNICATION);
    /* (2) stepping out of a non-polling function */
    stuck(false);
    scans[1 * NR + 0].out_mpi = true;
    r = run(faulty, NR);
    MG_CHECK_INT(r.kind, HANG_DIAG_PROGRESS);
    MG_CHECK_INT(r.progress_rank, 0);
    /* stepping out of MPI_Test and back is staying in MPI */
    stuck(false);
    for (int s = 0; s < NS; s++)
        scans[s * NR + 0].func = TEST;
    scans[1 * NR + 0].out_mpi = true;
    MG_CHECK_INT(run(faulty, NR).kind, HANG_DIAG_COMMUNICATION);
    /* an unknown function counts as non-polling */
    stuck(false);
    scans[0 * NR + 3].func = -1;
    scans[1 * NR + 3].out_mpi = true;
    MG_CHECK_INT(run(faulty, NR).kind, HANG_DIAG_PROGRESS);
}

static void exited_ranks_are_not_a_hang(void)
{
    int faulty[NR];
    stuck(false);
    for (int s = 0; s < NS; s++)
        scans[s * NR + 0] = (struct hang_diag_rank){.out_mpi = true, .exited = true, .func = -1};
    scans[0 * NR + 1] = scans[0 * NR + 0]; /* absent throughout too: gone before verifying */
    scans[1 * NR + 1].unreadable = true;   /* and unreadable once: it never vanished */
    struct hang_diag_result r = run(faulty, NR);
    MG_CHECK_INT(r.kind, HANG_DIAG_COMMUNICATION);
    MG_CHECK_INT(r.nexited, 2);
    MG_CHECK_INT(r.nfaulty, 0);
    for (int i = 0; i < NS * NR; i++)
        scans[i].exited = true;
    MG_CHECK_INT(run(faulty, NR).kind, HANG_DIAG_ALL_EXITED);
}

/* Run 81023 of issue 29 (MPICH master_worker under ptrace, kill -9 of worker 1): a suspicion of
 * the healthy job was verified while rank 0 polled MPI_Test; the last scan came after the kill and
 * after Hydra had killed ranks 2-3 as well. Ranks that vanish during verification are no
 * communication hang: the first to die, by the kernel's order of the exits' starts, is the one the
 * others waited for. */
static void ranks_vanishing_during_verification(void)
{
    int faulty[NR];
    stuck(false);
    for (int s = 0; s < NS; s++)
        scans[s * NR + 0].func = TEST;
    for (int r = 1; r < NR; r++)
        scans[2 * NR + r] = (struct hang_diag_rank){.out_mpi = true, .exited = true, .func = -1};
    scans[2 * NR + 1].exit_order = 2;
    scans[2 * NR + 2].exit_order = 3;
    /* rank 3's exit not known to the kernel's order: after those known, and no rank said first */
    struct hang_diag_result r = run(faulty, NR);
    MG_CHECK_INT(r.kind, HANG_DIAG_VANISHED);
    MG_CHECK_INT(r.vanished_rank, 1);
    MG_CHECK(!r.vanished_first);
    MG_CHECK_INT(r.nfaulty, 0);
    /* the kernel's order of the exits' starts, not the rank order, says who died first */
    scans[2 * NR + 3].exit_order = 1;
    r = run(faulty, NR);
    MG_CHECK_INT(r.vanished_rank, 3);
    MG_CHECK(r.vanished_first);
    /* a rank gone a scan earlier died first, whatever the order of the others, and alone there */
    scans[1 * NR + 2] = scans[2 * NR + 2];
    r = run(faulty, NR);
    MG_CHECK_INT(r.vanished_rank, 2);
    MG_CHECK(r.vanished_first);
    scans[1 * NR + 2].exit_order = 0;
    MG_CHECK(run(faulty, NR).vanished_first);
    /* the death explains a suspended-looking or starved scan as well: still no verdict */
    scans[1 * NR + 0].stopped = scans[1 * NR + 1].stopped = scans[1 * NR + 3].stopped = true;
    MG_CHECK(hang_diag_job_stopped(&scans[1 * NR], NR));
    starved = true;
    MG_CHECK_INT(run(faulty, NR).kind, HANG_DIAG_VANISHED);
    starved = false;
}

/* A job stopped from outside (a suspend) is no hang; one stopped rank among the others is. */
static void stopped_job_is_suspended_not_hung(void)
{
    int faulty[NR];
    stuck(true);
    for (int r = 0; r < NR; r++)
        scans[1 * NR + r].stopped = true;
    MG_CHECK(hang_diag_job_stopped(&scans[1 * NR], NR));
    MG_CHECK(!hang_diag_job_stopped(&scans[0], NR));
    struct hang_diag_result r = run(faulty, NR);
    MG_CHECK_INT(r.kind, HANG_DIAG_SUSPENDED);
    MG_CHECK_INT(r.nfaulty, 0);
    /* an exited rank does not keep the others from counting as the whole job (one gone before
     * the scans: one that vanishes during them is ranks_vanishing_during_verification's) */
    for (int s = 0; s < NS; s++)
        scans[s * NR + 0] = (struct hang_diag_rank){.out_mpi = true, .exited = true, .func = -1};
    MG_CHECK(hang_diag_job_stopped(&scans[1 * NR], NR));
    MG_CHECK_INT(run(faulty, NR).kind, HANG_DIAG_SUSPENDED);
    /* a frozen node: rank 2 stopped outside MPI in every scan, the others waiting for it */
    stuck(true);
    for (int s = 0; s < NS; s++)
        scans[s * NR + 2] = (struct hang_diag_rank){
            .out_mpi = true, .stopped = true, .func = SEND, .counter_known = true, .counter = 9};
    MG_CHECK(!hang_diag_job_stopped(&scans[0], NR));
    r = run(faulty, NR);
    MG_CHECK_INT(r.kind, HANG_DIAG_COMPUTATION);
    MG_CHECK_INT(r.nfaulty, 1);
    MG_CHECK_INT(faulty[0], 2);
    /* nothing alive: not a stopped job (ALL_EXITED says it) */
    for (int i = 0; i < NS * NR; i++)
        scans[i] = (struct hang_diag_rank){.exited = true, .stopped = true, .func = -1};
    MG_CHECK(!hang_diag_job_stopped(&scans[0], NR));
}

/* A rank kept from running in a gap may have been about to move: no verdict on either hang type,
 * but progress seen elsewhere still clears the suspicion. */
static void starved_rank_gives_no_verdict(void)
{
    int faulty[NR] = {0};
    stuck(true);
    for (int s = 0; s < NS; s++)
        scans[s * NR + 1].out_mpi = true; /* the starved one, silent outside MPI */
    MG_CHECK_INT(run(faulty, NR).kind, HANG_DIAG_COMPUTATION);
    starved = true;
    struct hang_diag_result r = run(faulty, NR);
    MG_CHECK_INT(r.kind, HANG_DIAG_STARVED);
    MG_CHECK_INT(r.nfaulty, 0);
    MG_CHECK_INT(r.progress_rank, -1);
    stuck(true);
    MG_CHECK_INT(run(faulty, NR).kind, HANG_DIAG_STARVED); /* every rank inside MPI */
    scans[2 * NR + 3].counter = 101;                       /* rank 3 moved on */
    r = run(faulty, NR);
    MG_CHECK_INT(r.kind, HANG_DIAG_PROGRESS);
    MG_CHECK_INT(r.progress_rank, 3);
    for (int s = 0; s < NS; s++)
        for (int k = 0; k < NR; k++)
            scans[s * NR + k].stopped = true;
    MG_CHECK_INT(run(faulty, NR).kind, HANG_DIAG_SUSPENDED); /* a suspend says more */
    starved = false;
}

static void capacity_smaller_than_faulty_count(void)
{
    stuck(true);
    for (int i = 0; i < NS * NR; i++)
        scans[i].out_mpi = i % NR != 0;
    int faulty[1] = {-1};
    struct hang_diag_result r = run(faulty, 1);
    MG_CHECK_INT(r.kind, HANG_DIAG_COMPUTATION);
    MG_CHECK_INT(r.nfaulty, 3);
    MG_CHECK_INT(faulty[0], 1);
    r = run(NULL, 0);
    MG_CHECK_INT(r.nfaulty, 3);
}

static void bad_arguments(void)
{
    stuck(true);
    struct hang_diag_result r;
    int faulty[NR];
    struct hang_diag_input in = {NR, NS, scans, polling, NFUNCS, false};
    MG_CHECK_INT(hang_diag_classify(NULL, faulty, NR, &r), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_diag_classify(&in, faulty, NR, NULL), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_diag_classify(&in, NULL, NR, &r), MG_ERROR_EINVAL);
    in.nscans = 1;
    MG_CHECK_INT(hang_diag_classify(&in, faulty, NR, &r), MG_ERROR_EINVAL);
    in.nscans = NS, in.nranks = 0;
    MG_CHECK_INT(hang_diag_classify(&in, faulty, NR, &r), MG_ERROR_EINVAL);
    in.nranks = NR, in.scans = NULL;
    MG_CHECK_INT(hang_diag_classify(&in, faulty, NR, &r), MG_ERROR_EINVAL);
    in.scans = scans, in.polling = NULL;
    MG_CHECK_INT(hang_diag_classify(&in, faulty, NR, &r), MG_ERROR_EINVAL);
    in.npolling = 0; /* no polling table at all is fine */
    MG_CHECK_INT(hang_diag_classify(&in, faulty, NR, &r), MG_ERROR_OK);
}

/* Hand values: a gap of 2 s. */
static void own_time_counts_what_the_node_kept_from_the_rank(void)
{
    /* long slices (-1: unknown, or 3 ms each as MPICH's busy polling): the CPU time counts */
    MG_CHECK_NEAR(hang_diag_own_time(2.0, 2.0, -1, true, 1.0), 2.0, 1e-12);    /* a CPU alone */
    MG_CHECK_NEAR(hang_diag_own_time(2.0, 1.0, 300, true, 0.5), 2.0, 1e-12);   /* 4 on 2 CPUs */
    MG_CHECK_NEAR(hang_diag_own_time(2.0, 0.25, 80, true, 0.125), 2.0, 1e-12); /* 16 ranks */
    MG_CHECK_NEAR(hang_diag_own_time(2.0, 0.5, 150, true, 0.5), 1.0, 1e-12);   /* half its share */
    MG_CHECK_NEAR(hang_diag_own_time(2.0, 0.5, -1, true, 1.0), 0.5, 1e-12);
    MG_CHECK_NEAR(hang_diag_own_time(2.0, 0.1, 30, true, 0.125), 0.8, 1e-12);
    MG_CHECK_NEAR(hang_diag_own_time(2.0, 0.0, 0, true, 0.5), 0.0, 1e-12);     /* never ran */
    MG_CHECK_NEAR(hang_diag_own_time(2.0, 0.002, 2, true, 0.5), 0.004, 1e-12); /* throttled */
    /* slices shorter than HANG_DIAG_YIELD_SLICE_S: it yields the CPU itself (2 us each) */
    MG_CHECK_NEAR(hang_diag_own_time(2.0, 0.25, 125000, true, 0.5), 2.0, 1e-12);
    MG_CHECK_NEAR(hang_diag_own_time(2.0, 0.0099, 100, true, 0.5), 2.0, 1e-12);    /* 99 us */
    MG_CHECK_NEAR(hang_diag_own_time(2.0, 0.0101, 100, true, 0.5), 0.0202, 1e-12); /* 101 us */
    MG_CHECK_NEAR(hang_diag_own_time(2.0, 0.0, 0, false, 0.5), 2.0, 1e-12);        /* asleep */
    MG_CHECK_NEAR(hang_diag_own_time(2.0, -1.0, -1, true, 0.5), 2.0, 1e-12);       /* unknown */
    MG_CHECK_NEAR(hang_diag_own_time(2.0, 0.5, -1, true, 7.0), 0.5, 1e-12); /* share above 1 */
    MG_CHECK_NEAR(hang_diag_own_time(2.0, 0.5, -1, true, 0.0), 0.5, 1e-12); /* share unknown */
    MG_CHECK_NEAR(hang_diag_own_time(2.0, 0.5, -1, true, -3.0), 0.5, 1e-12);
    MG_CHECK_NEAR(hang_diag_own_time(0.0, 0.0, -1, true, 1.0), 0.0, 1e-12);
    MG_CHECK_NEAR(hang_diag_own_time(-1.0, 0.0, -1, false, 1.0), 0.0, 1e-12);
}

static void least_own_time_skips_exited_ranks(void)
{
    struct hang_diag_cpu cpu[4] = {
        {.alive = true, .runnable = true, .ran_s = 1.0, .slices = -1, .share = 0.5}, /* all 2 s */
        {.alive = true, .runnable = true, .ran_s = 0.25, .slices = 9, .share = 0.5}, /* 0.5 s */
        {.alive = false, .runnable = true, .ran_s = 0.0, .slices = 0, .share = 0.5}, /* exited */
        {.alive = true, .runnable = false, .ran_s = 0.0, .slices = 0, .share = 0.5}, /* asleep */
    };
    size_t who;
    MG_CHECK_NEAR(hang_diag_least_own_time(cpu, 4, 2.0, HANG_DIAG_SHARE_NODE, &who), 0.5, 1e-12);
    MG_CHECK_INT((int)who, 1);
    cpu[1].alive = false;
    MG_CHECK_NEAR(hang_diag_least_own_time(cpu, 4, 2.0, HANG_DIAG_SHARE_NODE, &who), 2.0, 1e-12);
    MG_CHECK_INT((int)who, 0);
    cpu[0].alive = cpu[3].alive = false;
    MG_CHECK_NEAR(hang_diag_least_own_time(cpu, 4, 2.0, HANG_DIAG_SHARE_NODE, &who), 2.0, 1e-12);
    MG_CHECK(who == SIZE_MAX);
}

/* srun: every busy-polling rank in one session got 2-3% of a CPU where cores over ranks is 0.5;
 * beside its siblings none was kept from running. One throttled by a cpu cgroup beside busy
 * siblings still is. */
static void against_the_siblings(void)
{
    struct hang_diag_cpu cpu[4] = {
        {.alive = true, .runnable = true, .ran_s = 0.03, .slices = 10, .share = 0.5},
        {.alive = true, .runnable = false, .ran_s = 0.0, .slices = 0, .share = 0.5}, /* stopped */
        {.alive = true, .runnable = true, .ran_s = 0.02, .slices = 7, .share = 0.5},
        {.alive = true, .runnable = true, .ran_s = 0.025, .slices = 8, .share = 0.5},
    };
    size_t who;
    MG_CHECK_NEAR(hang_diag_least_own_time(cpu, 4, 1.0, HANG_DIAG_SHARE_NODE, &who), 0.04, 1e-9);
    MG_CHECK_INT((int)who, 2);
    MG_CHECK_NEAR(hang_diag_least_own_time(cpu, 4, 1.0, HANG_DIAG_SHARE_SIBLINGS, &who), 1.0,
                  1e-12);
    cpu[2].ran_s = 0.005; /* a sixth of what rank 0 got: a third of half of it */
    MG_CHECK_NEAR(hang_diag_least_own_time(cpu, 4, 1.0, HANG_DIAG_SHARE_SIBLINGS, &who), 1.0 / 3,
                  1e-9);
    MG_CHECK_INT((int)who, 2);
    cpu[0].ran_s = cpu[3].ran_s = 0.5; /* the stall: busy siblings, one rank at 1 ms a second */
    cpu[2].ran_s = 0.001;
    cpu[2].slices = 5; /* 200 us each: it does not yield the CPU, it is not given it */
    MG_CHECK_NEAR(hang_diag_least_own_time(cpu, 4, 1.0, HANG_DIAG_SHARE_SIBLINGS, &who), 0.004,
                  1e-9);
    MG_CHECK_INT((int)who, 2);
    cpu[0].ran_s = cpu[3].ran_s = 1.0; /* siblings above cores over ranks: that share rules */
    MG_CHECK_NEAR(hang_diag_least_own_time(cpu, 4, 1.0, HANG_DIAG_SHARE_SIBLINGS, &who), 0.002,
                  1e-9);
}

static void retake_waits_for_what_is_missing_up_to_the_stretch(void)
{
    MG_CHECK_NEAR(hang_diag_retake_after(1.0, 1.0, 1.0, 10), 0.0, 1e-12); /* complete */
    MG_CHECK_NEAR(hang_diag_retake_after(1.0, 1.0, 0.4, 10), 0.6, 1e-12);
    MG_CHECK_NEAR(hang_diag_retake_after(1.0, 1.0, 0.99, 10), HANG_DIAG_MIN_RETAKE_S, 1e-12);
    MG_CHECK_NEAR(hang_diag_retake_after(1.0, 9.99, 0.0, 10), 1.0, 1e-12);
    MG_CHECK_NEAR(hang_diag_retake_after(1.0, 10.0, 0.0, 10), 0.0, 1e-12); /* stretched out */
    MG_CHECK_NEAR(hang_diag_retake_after(1.0, 1.2, 0.0, 1), 0.0, 1e-12);   /* the paper's gaps */
}

int main(void)
{
    MG_RUN(communication_hang);
    MG_RUN(computation_hang_names_the_faulty_rank);
    MG_RUN(moving_counter_is_a_transient_slowdown);
    MG_RUN(without_counters_the_papers_rule);
    MG_RUN(exited_ranks_are_not_a_hang);
    MG_RUN(ranks_vanishing_during_verification);
    MG_RUN(stopped_job_is_suspended_not_hung);
    MG_RUN(starved_rank_gives_no_verdict);
    MG_RUN(capacity_smaller_than_faulty_count);
    MG_RUN(bad_arguments);
    MG_RUN(own_time_counts_what_the_node_kept_from_the_rank);
    MG_RUN(least_own_time_skips_exited_ranks);
    MG_RUN(against_the_siblings);
    MG_RUN(retake_waits_for_what_is_missing_up_to_the_stretch);
    MG_TEST_END();
}
