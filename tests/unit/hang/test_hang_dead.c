/* Unit tests of the dead-rank decisions (hang_dead.h): the first rank to die by its exit time, a
 * finalized or aborting rank is no death, without a published state only a signal is, every exit
 * heard of; the watch ends only after the grace, on a death that lasts. */
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
        {.found = true, .exit_seen = true, .signaled = true, .when = 9},
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
    MG_RUN(a_death_ends_the_watch_after_the_grace);
    MG_TEST_END();
}
