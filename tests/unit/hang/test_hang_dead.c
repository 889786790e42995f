/* Unit tests of the dead-rank decisions (hang_dead.h): the first rank to die by the kernel's order
 * or its exit time, an abort inside MPI after the kill it followed, a finalized or aborting rank is
 * no death, without a published state only a signal is, every exit heard of; the watch ends only
 * after the grace, on a death that lasts. */
#include "hang_dead.h"
#include "mg_test.h"

static void the_first_to_die_is_named(void)
{
    struct hang_dead_rank ranks[4] = {
        {.found = true, .published = true},
        {.found = true, .exit_seen = true, .published = true, .when = 50},
        {.found = true, .exit_seen = true, .published = true, .when = 20},
        {.found = true, .exit_seen = true, .published = true, .finalized = true, .when = 5},
    };
    bool all_seen = true;
    MG_CHECK_INT(hang_dead_first(ranks, 4, &all_seen), 2);
    MG_CHECK(!all_seen); /* rank 0's exit is not announced */
    ranks[0].exit_seen = true;
    ranks[0].when = 60;
    MG_CHECK_INT(hang_dead_first(ranks, 4, &all_seen), 2);
    MG_CHECK(all_seen);
}

static void finalized_or_aborting_is_no_death(void)
{
    struct hang_dead_rank ranks[2] = {
        {.found = true, .exit_seen = true, .published = true, .finalized = true, .when = 1},
        {.found = true, .exit_seen = true, .published = true, .aborting = true, .when = 2},
    };
    MG_CHECK_INT(hang_dead_first(ranks, 2, NULL), -1);
}

/* Without a published state, a rank gone by /proc or with a plain exit status says nothing. */
static void unpublished_dies_by_a_signal_only(void)
{
    struct hang_dead_rank ranks[3] = {
        {.found = true, .gone = true},
        {.found = true, .exit_seen = true, .when = 3},
        {.found = true, .exit_seen = true, .signal = 9, .when = 9},
    };
    MG_CHECK_INT(hang_dead_first(ranks, 3, NULL), 2);
    ranks[2].found = false; /* not found: never named, and no exit awaited */
    bool all_seen = false;
    MG_CHECK_INT(hang_dead_first(ranks, 3, &all_seen), -1);
    MG_CHECK(!all_seen);
    ranks[0].exit_seen = true;
    MG_CHECK_INT(hang_dead_first(ranks, 3, &all_seen), -1);
    MG_CHECK(all_seen);
}

/* A published rank gone by /proc alone (no exit events) is dead, after any with a time. */
static void gone_by_proc_counts_last(void)
{
    struct hang_dead_rank ranks[2] = {
        {.found = true, .gone = true, .published = true},
        {.found = true, .exit_seen = true, .published = true, .when = 7},
    };
    MG_CHECK_INT(hang_dead_first(ranks, 2, NULL), 1);
    MG_CHECK_INT(hang_dead_first(ranks, 1, NULL), 0);
}

/* A published rank that ended by signal inside an MPI call, announced at when, the order-th to
 * begin its exit. */
static struct hang_dead_rank ended_in_mpi(int signal, uint64_t when, uint64_t order)
{
    return (struct hang_dead_rank){.found = true,
                                   .exit_seen = true,
                                   .published = true,
                                   .in_mpi = true,
                                   .signal = signal,
                                   .when = when,
                                   .ordered = true,
                                   .order = order};
}

/* Run 131088 of issue 29 (MPICH, fft, 4 ranks): rank 3 killed with SIGKILL in MPI_Alltoall; ranks
 * 0 and 1 aborted there (UCX could no longer read rank 3's memory), the launcher killed rank 2.
 * The kernel's exit events came rank 1, rank 0, then rank 3 (its memory torn down last), rank 2:
 * with the kernel's order of the exits' starts, and without it, rank 3 is named, whichever of
 * the aborts and the kill was announced first. */
static void a_kill_that_makes_peers_abort_is_named(void)
{
    struct hang_dead_rank ranks[4] = {ended_in_mpi(6, 12, 3), ended_in_mpi(6, 10, 2),
                                      ended_in_mpi(9, 30, 4), ended_in_mpi(9, 20, 1)};
    MG_CHECK_INT(hang_dead_first(ranks, 4, NULL), 3);
    ranks[3].when = 5; /* the kill announced first */
    MG_CHECK_INT(hang_dead_first(ranks, 4, NULL), 3);
    /* no order of rank 0's start: the aborts inside MPI come after the kills */
    ranks[0].ordered = false;
    ranks[3].when = 20;
    MG_CHECK_INT(hang_dead_first(ranks, 4, NULL), 3);
    ranks[3].when = 5;
    MG_CHECK_INT(hang_dead_first(ranks, 4, NULL), 3);
}

/* A launcher's kills start after the exit it saw: the kernel's order names the rank whose death
 * they followed, even when a killed rank's exit was announced first (a loaded node: seen in a
 * repeat of run 131088, the launcher's SIGKILL of rank 1 announced 5 ms before rank 3's). */
static void the_kernels_order_beats_the_announcement(void)
{
    struct hang_dead_rank ranks[3] = {ended_in_mpi(9, 11, 2), ended_in_mpi(9, 16, 1),
                                      ended_in_mpi(9, 17, 3)};
    MG_CHECK_INT(hang_dead_first(ranks, 3, NULL), 1);
    ranks[2].ordered = false; /* without the order of every death: by the announcements */
    MG_CHECK_INT(hang_dead_first(ranks, 3, NULL), 0);
}

/* Without the kernel's order, an abort outside MPI (a failed assert in the program) is the
 * program's own: named before the launcher's kill that follows it; so is an abort inside MPI that
 * is the only death. */
static void an_abort_of_its_own_is_named(void)
{
    struct hang_dead_rank ranks[3] = {ended_in_mpi(6, 10, 0),
                                      ended_in_mpi(9, 20, 0),
                                      {.found = true, .published = true, .in_mpi = true}};
    ranks[0].in_mpi = ranks[0].ordered = ranks[1].ordered = false;
    MG_CHECK_INT(hang_dead_first(ranks, 3, NULL), 0);
    ranks[1] = ranks[2];
    ranks[0].in_mpi = true;
    MG_CHECK_INT(hang_dead_first(ranks, 3, NULL), 0);
}

static void a_death_ends_the_watch_after_the_grace(void)
{
    struct hang_dead_watch w;
    hang_dead_watch_init(&w);
    MG_CHECK(!hang_dead_watch_feed(&w, -1, 0.0));
    MG_CHECK(!hang_dead_watch_feed(&w, 1, 1.0));
    MG_CHECK(!hang_dead_watch_feed(&w, 1, 1.0 + HANG_DEAD_GRACE_S - 0.1));
    MG_CHECK(hang_dead_watch_feed(&w, 1, 1.0 + HANG_DEAD_GRACE_S));
    /* a death no longer seen (the launcher ended the job) starts over */
    hang_dead_watch_init(&w);
    MG_CHECK(!hang_dead_watch_feed(&w, 1, 10.0));
    MG_CHECK(!hang_dead_watch_feed(&w, -1, 12.0));
    MG_CHECK(!hang_dead_watch_feed(&w, 1, 14.0));
    MG_CHECK(!hang_dead_watch_feed(&w, 1, 16.0));
    MG_CHECK(hang_dead_watch_feed(&w, 1, 17.0));
}

int main(void)
{
    MG_RUN(the_first_to_die_is_named);
    MG_RUN(finalized_or_aborting_is_no_death);
    MG_RUN(unpublished_dies_by_a_signal_only);
    MG_RUN(gone_by_proc_counts_last);
    MG_RUN(a_kill_that_makes_peers_abort_is_named);
    MG_RUN(the_kernels_order_beats_the_announcement);
    MG_RUN(an_abort_of_its_own_is_named);
    MG_RUN(a_death_ends_the_watch_after_the_grace);
    MG_TEST_END();
}
