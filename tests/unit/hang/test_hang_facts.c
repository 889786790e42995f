/* Unit tests of what the culprit search takes of one rank (hang_facts.h): its wait from a
 * published segment written by hand (a peer, any source, a root, a collective, posted requests, a
 * communicator that is not the world's), MPI_Init, and a handler or application frame inside the
 * MPI call. Spec: docs/hang.md "The culprit". */
#include "hang_facts.h"
#include "mg_test.h"

#include <stdio.h>
#include <string.h>

enum { WORLD = 0x44000000, SPLIT = 0x84000002 };

static const struct hang_facts_seen waiting = {.live = true, .in_mpi = true};

/* A segment of a rank of 8 whose world-like communicators are WORLD alone. */
static void segment(rank_state *s, enum rank_state_wait_on on, int peer, uint64_t comm)
{
    memset(s, 0, sizeof *s);
    s->size = 8;
    s->world_like[0] = WORLD;
    s->world_like_count = 1;
    s->wait_on = on;
    s->wait_peer = peer;
    s->wait_comm = comm;
    s->world_collectives = 57;
}

static void push(rank_stack *st, const char *function, const char *module)
{
    rank_stack_frame *f = &st->frames[st->nframes++];
    snprintf(f->function, sizeof f->function, "%s", function);
    snprintf(f->module, sizeof f->module, "%s", module);
}

static void posted(rank_state *s, int peer, uint64_t comm)
{
    s->posted_peer[s->posted] = peer;
    s->posted_comm[s->posted] = comm;
    s->posted++;
}

static void a_peer_of_the_world_and_of_another_communicator(void)
{
    static rank_state s;
    rank_stack st = {0};
    struct hang_culprit_rank k;
    segment(&s, RANK_STATE_WAIT_PEER, 3, WORLD);
    hang_facts_rank(&waiting, &st, "app", &s, 2, &k);
    MG_CHECK_INT(k.wait, HANG_CULPRIT_WAIT_PEERS);
    MG_CHECK_INT((int)k.npeers, 1);
    MG_CHECK_INT(k.peers[0], 3);
    MG_CHECK(k.collectives_known);
    MG_CHECK_INT((int)k.collectives, 57);
    segment(&s, RANK_STATE_WAIT_PEER, 3, SPLIT);
    hang_facts_rank(&waiting, &st, "app", &s, 2, &k);
    MG_CHECK_INT(k.wait, HANG_CULPRIT_WAIT_UNKNOWN);
    segment(&s, RANK_STATE_WAIT_PEER, 8, WORLD); /* past the world's size */
    hang_facts_rank(&waiting, &st, "app", &s, 2, &k);
    MG_CHECK_INT(k.wait, HANG_CULPRIT_WAIT_UNKNOWN);
}

static void any_source_a_collective_and_roots(void)
{
    static rank_state s;
    rank_stack st = {0};
    struct hang_culprit_rank k;
    segment(&s, RANK_STATE_WAIT_PEER, RANK_STATE_PEER_ANY, WORLD);
    hang_facts_rank(&waiting, &st, "app", &s, 2, &k);
    MG_CHECK_INT(k.wait, HANG_CULPRIT_WAIT_ALL);
    MG_CHECK(!k.world_collective);
    segment(&s, RANK_STATE_WAIT_ALL, 0, WORLD);
    hang_facts_rank(&waiting, &st, "app", &s, 2, &k);
    MG_CHECK_INT(k.wait, HANG_CULPRIT_WAIT_ALL);
    MG_CHECK(k.world_collective);
    segment(&s, RANK_STATE_WAIT_ROOT, 2, WORLD); /* the root itself waits on every other rank */
    hang_facts_rank(&waiting, &st, "app", &s, 2, &k);
    MG_CHECK_INT(k.wait, HANG_CULPRIT_WAIT_ALL);
    segment(&s, RANK_STATE_WAIT_ROOT, 0, WORLD);
    hang_facts_rank(&waiting, &st, "app", &s, 2, &k);
    MG_CHECK_INT(k.wait, HANG_CULPRIT_WAIT_PEERS);
    MG_CHECK_INT(k.peers[0], 0);
    MG_CHECK(k.world_collective);
    /* a world-like duplicate's collectives are not the ones world_collectives counts */
    segment(&s, RANK_STATE_WAIT_ALL, 0, SPLIT);
    s.world_like[1] = SPLIT;
    s.world_like_count = 2;
    hang_facts_rank(&waiting, &st, "app", &s, 2, &k);
    MG_CHECK_INT(k.wait, HANG_CULPRIT_WAIT_ALL);
    MG_CHECK(!k.world_collective);
}

static void posted_requests_give_their_distinct_peers(void)
{
    static rank_state s;
    rank_stack st = {0};
    struct hang_culprit_rank k;
    segment(&s, RANK_STATE_WAIT_REQUESTS, 0, WORLD);
    posted(&s, 1, WORLD);
    posted(&s, 6, WORLD);
    posted(&s, 1, WORLD);
    hang_facts_rank(&waiting, &st, "app", &s, 2, &k);
    MG_CHECK_INT(k.wait, HANG_CULPRIT_WAIT_PEERS);
    MG_CHECK_INT((int)k.npeers, 2);
    MG_CHECK_INT(k.peers[0], 1);
    MG_CHECK_INT(k.peers[1], 6);
    posted(&s, RANK_STATE_PEER_ANY, WORLD);
    hang_facts_rank(&waiting, &st, "app", &s, 2, &k);
    MG_CHECK_INT(k.wait, HANG_CULPRIT_WAIT_ALL);
    segment(&s, RANK_STATE_WAIT_REQUESTS, 0, WORLD);
    posted(&s, 1, SPLIT);
    hang_facts_rank(&waiting, &st, "app", &s, 2, &k);
    MG_CHECK_INT(k.wait, HANG_CULPRIT_WAIT_UNKNOWN);
}

static void mpi_init_waits_on_all_without_a_segment(void)
{
    rank_stack st = {0};
    struct hang_culprit_rank k;
    snprintf(st.mpi_function, sizeof st.mpi_function, "PMPI_Init");
    hang_facts_rank(&waiting, &st, "app", NULL, 0, &k);
    MG_CHECK_INT(k.wait, HANG_CULPRIT_WAIT_ALL);
    MG_CHECK(!k.collectives_known);
    struct hang_facts_seen outside = {.live = true};
    hang_facts_rank(&outside, &st, "app", NULL, 0, &k);
    MG_CHECK_INT(k.wait, HANG_CULPRIT_WAIT_UNKNOWN);
}

static void a_handler_or_the_application_inside_the_call_computes(void)
{
    rank_stack st = {0};
    struct hang_culprit_rank k;
    push(&st, "spin", "app");
    push(&st, RANK_STACK_SIGNAL_FRAME, "libc.so.6");
    push(&st, "poll", "libmpi.so.40");
    push(&st, "PMPI_Recv", "libmpi.so.40");
    push(&st, "main", "app");
    hang_facts_rank(&waiting, &st, "app", NULL, 1, &k);
    MG_CHECK(k.in_handler);
    st.frames[0] = st.frames[2]; /* the library's own frame innermost: it waits */
    snprintf(st.frames[1].function, sizeof st.frames[1].function, "progress");
    hang_facts_rank(&waiting, &st, "app", NULL, 1, &k);
    MG_CHECK(!k.in_handler);
    st.nframes = 1; /* no MPI entry frame: the stack says nothing */
    snprintf(st.frames[0].module, sizeof st.frames[0].module, "app");
    hang_facts_rank(&waiting, &st, "app", NULL, 1, &k);
    MG_CHECK(!k.in_handler);
    st.nframes = 0; /* unwound only to a handler's trampoline: the handler computes */
    push(&st, "spin", "app");
    push(&st, RANK_STACK_SIGNAL_FRAME, "libc.so.6");
    hang_facts_rank(&waiting, &st, "app", NULL, 1, &k);
    MG_CHECK(k.in_handler);
    /* issue 29's rank 2: a preloaded handler interrupted mpiguard's own MPI_Waitall, the call's
     * only MPI frame */
    st.nframes = 0;
    push(&st, "spin_forever", "libspin_on_signal.so");
    push(&st, RANK_STACK_SIGNAL_FRAME, "libc.so.6");
    push(&st, "MPI_Waitall", "libmpiguard-mpich.so");
    push(&st, "main", "stencil");
    hang_facts_rank(&waiting, &st, "stencil", NULL, 2, &k);
    MG_CHECK(k.in_handler);
}

int main(void)
{
    MG_RUN(a_peer_of_the_world_and_of_another_communicator);
    MG_RUN(any_source_a_collective_and_roots);
    MG_RUN(posted_requests_give_their_distinct_peers);
    MG_RUN(mpi_init_waits_on_all_without_a_segment);
    MG_RUN(a_handler_or_the_application_inside_the_call_computes);
    MG_TEST_END();
}
