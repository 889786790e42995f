/* Unit tests of the wait the watch engine gets for a reading (hang_probes_wait, issue 29): the
 * published peer and tag where the segment's call is the reading's, the direction alone where it is
 * not (a ptrace sample's function is its stack's, the segment read after the rank went on) or where
 * nothing is published (a job not started by mpiguard). The segment is written by hand, as
 * src/interpose/state_waits.c writes it. */
#include "hang_probes.h"

#include "mg_test.h"

#include <string.h>

enum { WORLD = 0x44000000 };

/* A rank blocked in MPI_Recv from source 6, tag 3, on MPI_COMM_WORLD. */
static void recv_from_6(rank_state *s)
{
    memset(s, 0, sizeof *s);
    s->size = 8;
    atomic_store(&s->world_like[0], WORLD);
    atomic_store(&s->world_like_count, 1);
    atomic_store(&s->current_fn, MG_FN_Recv);
    atomic_store(&s->threads_in_mpi, 1);
    atomic_store(&s->wait_on, RANK_STATE_WAIT_PEER);
    atomic_store(&s->wait_peer, 6);
    atomic_store(&s->wait_tag, 3);
    atomic_store(&s->wait_comm, WORLD);
}

/* The wait of a reading that caught the rank inside fn (in_mpi 0: outside MPI, fn its last). */
static struct hang_watch_wait wait_in(const rank_state *s, mpi_function_ids_fn fn, int in_mpi)
{
    rank_probe_reading r = mg_probe_reading_unknown();
    r.in_mpi = in_mpi;
    r.fn = fn;
    return hang_probes_wait(s, &r);
}

static void the_published_wait_of_the_readings_call(void)
{
    rank_state s;
    recv_from_6(&s);
    struct hang_watch_wait w = wait_in(&s, MG_FN_Recv, 1);
    MG_CHECK_INT(w.kind, HANG_WATCH_WAIT_RECV);
    MG_CHECK(!w.direction_only);
    MG_CHECK_INT(w.peer, 6);
    MG_CHECK_INT(w.tag, 3);
    MG_CHECK_INT((long long)w.comm, 0); /* the world's place among the world-like ones */
}

/* The sample caught MPI_Send; by the segment's reading the rank was in its MPI_Recv. */
static void another_calls_wait_gives_the_direction(void)
{
    rank_state s;
    recv_from_6(&s);
    struct hang_watch_wait w = wait_in(&s, MG_FN_Send, 1);
    MG_CHECK_INT(w.kind, HANG_WATCH_WAIT_SEND);
    MG_CHECK(w.direction_only);
}

/* The wait stays published after its call: with no call in progress it is not the reading's. */
static void a_finished_calls_wait_gives_the_direction(void)
{
    rank_state s;
    recv_from_6(&s);
    atomic_store(&s.threads_in_mpi, 0);
    struct hang_watch_wait w = wait_in(&s, MG_FN_Recv, 1);
    MG_CHECK_INT(w.kind, HANG_WATCH_WAIT_RECV);
    MG_CHECK(w.direction_only);
}

static void nothing_published_gives_the_direction(void)
{
    struct hang_watch_wait w = wait_in(NULL, MG_FN_Recv, 1);
    MG_CHECK_INT(w.kind, HANG_WATCH_WAIT_RECV);
    MG_CHECK(w.direction_only);
    MG_CHECK_INT(wait_in(NULL, MG_FN_Allreduce, 1).kind, HANG_WATCH_WAIT_UNKNOWN);
}

static void a_communicator_not_the_worlds_is_unknown(void)
{
    rank_state s;
    recv_from_6(&s);
    atomic_store(&s.wait_comm, WORLD + 1);
    struct hang_watch_wait w = wait_in(&s, MG_FN_Recv, 1);
    MG_CHECK_INT(w.kind, HANG_WATCH_WAIT_UNKNOWN);
    MG_CHECK(!w.direction_only);
}

static void out_of_mpi_waits_for_nothing(void)
{
    rank_state s;
    recv_from_6(&s);
    MG_CHECK_INT(wait_in(&s, MG_FN_Recv, 0).kind, HANG_WATCH_WAIT_UNKNOWN);
}

/* master_worker's master polling MPI_Test (issue 29, run 148083): its requests are the receives
 * of results it posted, from any source, tag 2, on the world; folded into one REQUESTS wait. Two
 * tags, or a slot on a communicator not the world's, fold to any tag, or to unknown. */
static void a_polls_requests_are_folded(void)
{
    rank_state s;
    recv_from_6(&s);
    atomic_store(&s.current_fn, MG_FN_Test);
    atomic_store(&s.wait_on, RANK_STATE_WAIT_REQUESTS);
    for (int i = 0; i < 12; i++) {
        atomic_store(&s.posted_peer[i % RANK_STATE_POSTED], RANK_STATE_PEER_ANY);
        atomic_store(&s.posted_tag[i % RANK_STATE_POSTED], 2);
        atomic_store(&s.posted_comm[i % RANK_STATE_POSTED], WORLD);
    }
    atomic_store(&s.posted, 12);
    struct hang_watch_wait w = wait_in(&s, MG_FN_Test, 1);
    MG_CHECK_INT(w.kind, HANG_WATCH_WAIT_REQUESTS);
    MG_CHECK_INT(w.peer, -1);
    MG_CHECK_INT(w.tag, 2);
    MG_CHECK_INT((long long)w.comm, 0);
    atomic_store(&s.posted_tag[3], 5);
    MG_CHECK_INT(wait_in(&s, MG_FN_Test, 1).tag, -1);
    atomic_store(&s.posted_comm[5], WORLD + 1);
    MG_CHECK_INT(wait_in(&s, MG_FN_Test, 1).kind, HANG_WATCH_WAIT_UNKNOWN);
    atomic_store(&s.posted, 0);
    MG_CHECK_INT(wait_in(&s, MG_FN_Test, 1).kind, HANG_WATCH_WAIT_UNKNOWN);
    /* a poll read by its stack, not the segment's call: nothing known of its requests */
    MG_CHECK_INT(wait_in(NULL, MG_FN_Test, 1).kind, HANG_WATCH_WAIT_UNKNOWN);
}

/* MPI_Finalize publishes nothing (the segment still holds the receive before it): a collective on
 * the world, read from the segment or not. */
static void finalize_waits_for_the_world(void)
{
    rank_state s;
    recv_from_6(&s);
    atomic_store(&s.current_fn, MG_FN_Finalize);
    struct hang_watch_wait w = wait_in(&s, MG_FN_Finalize, 1);
    MG_CHECK_INT(w.kind, HANG_WATCH_WAIT_COLLECTIVE);
    MG_CHECK_INT((long long)w.comm, 0);
    MG_CHECK_INT(wait_in(NULL, MG_FN_Finalize, 1).kind, HANG_WATCH_WAIT_COLLECTIVE);
}

int main(void)
{
    MG_RUN(a_polls_requests_are_folded);
    MG_RUN(finalize_waits_for_the_world);
    MG_RUN(the_published_wait_of_the_readings_call);
    MG_RUN(another_calls_wait_gives_the_direction);
    MG_RUN(a_finished_calls_wait_gives_the_direction);
    MG_RUN(nothing_published_gives_the_direction);
    MG_RUN(a_communicator_not_the_worlds_is_unknown);
    MG_RUN(out_of_mpi_waits_for_nothing);
    MG_TEST_END();
}
