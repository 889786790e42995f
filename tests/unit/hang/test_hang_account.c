/* Unit tests of the hang report's words (hang_account.h): how a rank is told from the last scan
 * (a poller waits, a faulty one computes, an unreadable one is neither exited nor in MPI), the
 * roll-call's groups, the chain of evidence with its waiters, and the suggestion by hang type. */
#include "hang_account.h"
#include "mg_error.h"
#include "mg_test.h"
#include "rank_state.h"

#include <stdio.h>
#include <string.h>

static void ranks_are_judged_from_the_last_scan(void)
{
    struct hang_diag_rank seen = {.out_mpi = true, .func = 3};
    /* caught between two calls of a polling function: it waits there */
    struct hang_account_rank a = hang_account_judge(&seen, false, true, false, false, false);
    MG_CHECK(a.in_mpi && !a.culprit && !a.ask_process);
    MG_CHECK_INT(a.state, HANG_ACCOUNT_IN_MPI);
    MG_CHECK_STR(a.label, "IN_MPI");
    MG_CHECK(a.watch.live && a.watch.in_mpi && !a.watch.stopped && !a.watch.spun);
    /* outside MPI in every scan (faulty), here: the process tells what it does */
    a = hang_account_judge(&seen, true, true, false, false, false);
    MG_CHECK(!a.in_mpi && a.ask_process);
    MG_CHECK_STR(a.label, "OUT_MPI");
    /* on another node: computing, or stopped, as its agent said */
    seen.stopped = true;
    a = hang_account_judge(&seen, true, false, false, false, true);
    MG_CHECK(!a.ask_process);
    MG_CHECK_INT(a.state, HANG_ACCOUNT_STOPPED);
    /* faulty inside MPI: the culprit of a communication hang */
    seen = (struct hang_diag_rank){.stopped = true};
    a = hang_account_judge(&seen, true, false, false, false, false);
    MG_CHECK(a.in_mpi && a.culprit);
    MG_CHECK_INT(a.state, HANG_ACCOUNT_STOPPED);
    /* the search takes it as stopped, not as spinning */
    MG_CHECK(a.watch.stopped && !a.watch.spun);
    seen.stopped = false;
    a = hang_account_judge(&seen, true, false, false, false, false);
    MG_CHECK(!a.watch.stopped && a.watch.spun);
    seen.stopped = true;
    /* its stack shows it before MPI_Init: not in MPI */
    a = hang_account_judge(&seen, false, false, false, true, false);
    MG_CHECK(!a.in_mpi);
    /* issue 29: alive but unreadable is neither exited nor waiting in MPI */
    seen = (struct hang_diag_rank){.unreadable = true};
    a = hang_account_judge(&seen, false, false, false, false, false);
    MG_CHECK(!a.in_mpi && !a.ask_process);
    MG_CHECK_INT(a.state, HANG_ACCOUNT_UNREADABLE);
    MG_CHECK_STR(a.label, "UNREADABLE");
    seen = (struct hang_diag_rank){.exited = true};
    a = hang_account_judge(&seen, false, false, true, false, false);
    MG_CHECK_INT(a.state, HANG_ACCOUNT_LOST);
    MG_CHECK_STR(a.label, "UNKNOWN");
    a = hang_account_judge(&seen, false, false, false, false, false);
    MG_CHECK_INT(a.state, HANG_ACCOUNT_EXITED);
    MG_CHECK_STR(a.label, "EXITED");
    MG_CHECK(!a.watch.live);
}

static void the_hang_type_follows_the_first_faulty_rank(void)
{
    struct hang_diag_result watch = {.kind = HANG_DIAG_COMMUNICATION};
    struct hang_culprit_rank facts[3] = {{.in_mpi = true}, {.in_mpi = false}, {.in_mpi = true}};
    int faulty[2] = {2, 1};
    MG_CHECK(!hang_account_computation(&watch, faulty, 2, facts));
    /* read as starting, its stack before MPI_Init: outside MPI */
    faulty[0] = 1;
    MG_CHECK(hang_account_computation(&watch, faulty, 2, facts));
    MG_CHECK(!hang_account_computation(&watch, faulty, 0, facts));
    watch.kind = HANG_DIAG_COMPUTATION;
    MG_CHECK(hang_account_computation(&watch, faulty, 0, facts));
}

static void a_death_leaves_the_others_as_they_were(void)
{
    MG_CHECK_INT(hang_account_at_death(2, 2, true), HANG_ACCOUNT_EXITED);
    MG_CHECK_INT(hang_account_at_death(0, 2, true), HANG_ACCOUNT_IN_MPI);
    MG_CHECK_INT(hang_account_at_death(1, 2, false), HANG_ACCOUNT_COMPUTING);
}

static void the_roll_call_groups_ranks(void)
{
    struct hang_account_view views[5] = {{HANG_ACCOUNT_IN_MPI, "MPI_Allreduce"},
                                         {HANG_ACCOUNT_COMPUTING, "solve"},
                                         {HANG_ACCOUNT_IN_MPI, "MPI_Allreduce"},
                                         {HANG_ACCOUNT_UNREADABLE, "?"},
                                         {HANG_ACCOUNT_IN_MPI, "MPI_Allreduce"}};
    char done[5] = {0}, line[300];
    int group[5];
    MG_CHECK(hang_account_roll_call(views, 5, done, group, line, sizeof line));
    MG_CHECK_STR(line, "ranks 0,2,4 wait in MPI_Allreduce");
    MG_CHECK(hang_account_roll_call(views, 5, done, group, line, sizeof line));
    MG_CHECK_STR(line, "rank 1 is computing in solve()");
    MG_CHECK(hang_account_roll_call(views, 5, done, group, line, sizeof line));
    MG_CHECK_STR(line, "rank 3 is alive but could not be read (its last reading was refused or "
                       "timed out)");
    MG_CHECK(!hang_account_roll_call(views, 5, done, group, line, sizeof line));
}

/* Ranks 0 and 2 receive from rank 1, which is stopped inside MPI_Send; rank 3 waits on rank 0. */
static void the_chain_names_the_culprit_and_its_waiters(void)
{
    struct hang_culprit_rank facts[4] = {
        {.live = true, .in_mpi = true, .wait = HANG_CULPRIT_WAIT_PEERS, .npeers = 1, .peers = {1}},
        {.live = true, .in_mpi = true, .stopped = true},
        {.live = true, .in_mpi = true, .wait = HANG_CULPRIT_WAIT_PEERS, .npeers = 1, .peers = {1}},
        {.live = true, .in_mpi = true, .wait = HANG_CULPRIT_WAIT_PEERS, .npeers = 1, .peers = {0}},
    };
    const char *functions[4] = {"MPI_Recv", "MPI_Send", "MPI_Recv", "MPI_Recv"};
    struct hang_account_wait waits[4] = {
        {RANK_STATE_WAIT_PEER, 3}, {RANK_STATE_WAIT_NOTHING, 0}, {RANK_STATE_WAIT_PEER, 3}, {RANK_STATE_WAIT_PEER, 5}};
    int culprits[4], direct[4], through[4];
    struct hang_account_chain c = {.culprits = culprits, .direct = direct, .through = through};
    MG_CHECK_INT(hang_account_chain(facts, functions, waits, 4, &c), MG_ERROR_OK);
    MG_CHECK_INT((int)c.nculprits, 1);
    MG_CHECK_INT(c.culprits[0], 1);
    MG_CHECK_STR(hang_account_reason_name(c.reason), "stopped");
    MG_CHECK_INT((int)c.ndirect, 2);
    MG_CHECK_INT((int)c.nthrough, 1);
    MG_CHECK_INT(c.through[0], 3);
    MG_CHECK_STR(c.text, "ranks 0,2 wait on rank 1 (MPI_Recv, source 1, tag 3); rank 3 waits on "
                         "those in turn; rank 1 is stopped (state T) inside MPI_Send");
    /* nothing singles a rank out: no chain */
    for (int r = 0; r < 4; r++)
        facts[r] = (struct hang_culprit_rank){.live = true, .in_mpi = true};
    MG_CHECK_INT(hang_account_chain(facts, functions, waits, 4, &c), 1);
    MG_CHECK_STR(c.text, "");
}

static void the_suggestion_follows_the_hang_type(void)
{
    struct hang_account_view views[2] = {{HANG_ACCOUNT_COMPUTING, "solve"},
                                         {HANG_ACCOUNT_STOPPED, "MPI_Send"}};
    char text[512];
    int first[1] = {0}, second[1] = {1};
    hang_account_suggestion(true, first, 1, views, text, sizeof text);
    MG_CHECK(strstr(text, "rank 0 never returns to MPI from solve()") == text);
    hang_account_suggestion(false, second, 1, views, text, sizeof text);
    MG_CHECK(strstr(text, "rank 1 holds the others: it is stopped inside MPI_Send") == text);
    hang_account_suggestion(false, second, 0, views, text, sizeof text);
    MG_CHECK(strstr(text, "every rank waits inside MPI") == text);
}

/* The watch named ranks 0 and 1 (both seen spinning); the search names rank 1 alone, spinning:
 * rank 0 is told waiting again, rank 1 computing. Named behind instead, rank 1 is told waiting
 * too: it spun busy-polling its wait. */
static void the_search_reranks_the_watchs_culprits(void)
{
    struct hang_account_view views[3] = {{HANG_ACCOUNT_COMPUTING, "MPI_Test"},
                                         {HANG_ACCOUNT_IN_MPI, "MPI_Recv"},
                                         {HANG_ACCOUNT_IN_MPI, "MPI_Recv"}};
    int faulty[2] = {0, 1}, named[1] = {1};
    hang_account_rerank(views, HANG_CULPRIT_SPINNING, faulty, 2, named, 1);
    MG_CHECK_INT(views[0].state, HANG_ACCOUNT_IN_MPI);
    MG_CHECK_INT(views[1].state, HANG_ACCOUNT_COMPUTING);
    MG_CHECK_INT(views[2].state, HANG_ACCOUNT_IN_MPI);
    hang_account_rerank(views, HANG_CULPRIT_BEHIND, faulty, 2, named, 1);
    MG_CHECK_INT(views[1].state, HANG_ACCOUNT_IN_MPI);
}

/* The CI run of issue 31 (tests/multinode multinode_hang-culprit_openmpi, mn_behind.c): ranks 0 and
 * 1 wait in collective 1 on the world, rank 2 in a receive from rank 0 that never comes, 0
 * collectives entered. Open MPI's waits busy-poll, and the watch named rank 1 for its CPU (long
 * slices in every gap); its published wait explains it: rank 2 never entered that collective. The
 * culprit is rank 2, and rank 1 is told waiting. */
static void a_busy_rank_whose_wait_is_explained_waits(void)
{
    static rank_state segs[3];
    const char *functions[3] = {"MPI_Allreduce", "MPI_Allreduce", "MPI_Recv"};
    struct hang_account_view views[3];
    struct hang_culprit_rank facts[3];
    struct hang_account_wait waits[3];
    for (int r = 0; r < 3; r++) {
        rank_state *s = &segs[r];
        s->size = 3;
        s->world_like[0] = 0x44000000;
        s->world_like_count = 1;
        s->wait_comm = 0x44000000;
        s->wait_on = r < 2 ? RANK_STATE_WAIT_ALL : RANK_STATE_WAIT_PEER;
        s->wait_peer = r < 2 ? RANK_STATE_PEER_ANY : 0;
        s->wait_tag = r < 2 ? RANK_STATE_TAG_ANY : 7;
        s->world_collectives = r < 2 ? 1 : 0;
        struct hang_diag_rank seen = {.func = -1, .counter_known = true, .counter = 3};
        struct hang_account_rank judged = hang_account_judge(&seen, r == 1, false, false, false,
                                                             r > 0);
        rank_stack st = {0};
        snprintf(st.mpi_function, sizeof st.mpi_function, "%s", functions[r]);
        hang_facts_rank(&judged.watch, &st, "mn_behind", s, r, &facts[r]);
        views[r] = (struct hang_account_view){judged.state, functions[r]};
        waits[r] = (struct hang_account_wait){s->wait_on, s->wait_tag};
    }
    MG_CHECK(facts[1].spun && views[1].state == HANG_ACCOUNT_COMPUTING);
    int culprits[3], direct[3], through[3], faulty[1] = {1};
    struct hang_account_chain c = {.culprits = culprits, .direct = direct, .through = through};
    MG_CHECK_INT(hang_account_chain(facts, functions, waits, 3, &c), MG_ERROR_OK);
    MG_CHECK_INT((int)c.nculprits, 1);
    MG_CHECK_INT(c.culprits[0], 2);
    MG_CHECK_STR(hang_account_reason_name(c.reason), "behind");
    MG_CHECK_STR(c.text, "ranks 0-1 wait on rank 2 (MPI_Allreduce, collective 1 on "
                         "MPI_COMM_WORLD); rank 2 entered fewer collectives than they did; it "
                         "waits in MPI_Recv");
    hang_account_rerank(views, c.reason, faulty, 1, c.culprits, c.nculprits);
    char done[3] = {0}, line[300];
    int group[3];
    MG_CHECK(hang_account_roll_call(views, 3, done, group, line, sizeof line));
    MG_CHECK_STR(line, "ranks 0-1 wait in MPI_Allreduce");
}

int main(void)
{
    MG_RUN(ranks_are_judged_from_the_last_scan);
    MG_RUN(the_hang_type_follows_the_first_faulty_rank);
    MG_RUN(a_death_leaves_the_others_as_they_were);
    MG_RUN(the_roll_call_groups_ranks);
    MG_RUN(the_chain_names_the_culprit_and_its_waiters);
    MG_RUN(the_suggestion_follows_the_hang_type);
    MG_RUN(the_search_reranks_the_watchs_culprits);
    MG_RUN(a_busy_rank_whose_wait_is_explained_waits);
    MG_TEST_END();
}
