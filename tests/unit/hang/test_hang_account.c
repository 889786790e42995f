/* Unit tests of the hang report's words (hang_account.h): how a rank is told from the last scan
 * (a poller waits, a faulty one computes, an unreadable one is neither exited nor in MPI), the
 * roll-call's groups, the chain of evidence with its waiters, and the suggestion by hang type. */
#include "hang_account.h"
#include "mg_error.h"
#include "mg_test.h"
#include "rank_state.h"

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
    hang_account_suggestion(true, first, 1, views, NULL, text, sizeof text);
    MG_CHECK(strstr(text, "rank 0 never returns to MPI from solve()") == text);
    hang_account_suggestion(false, second, 1, views, NULL, text, sizeof text);
    MG_CHECK(strstr(text, "rank 1 holds the others: it is stopped inside MPI_Send") == text);
    hang_account_suggestion(false, second, 0, views, NULL, text, sizeof text);
    MG_CHECK(strstr(text, "every rank waits inside MPI") == text);
}

/* The watch named ranks 0 and 1 (both seen spinning); the search names rank 1 alone, which spun:
 * rank 0 is told waiting again, rank 1 computing. */
static void the_search_reranks_the_watchs_culprits(void)
{
    struct hang_account_view views[3] = {{HANG_ACCOUNT_COMPUTING, "MPI_Test"},
                                         {HANG_ACCOUNT_IN_MPI, "MPI_Recv"},
                                         {HANG_ACCOUNT_IN_MPI, "MPI_Recv"}};
    struct hang_culprit_rank facts[3] = {{.spun = true}, {.spun = true}, {0}};
    int faulty[2] = {0, 1}, named[1] = {1};
    hang_account_rerank(views, facts, faulty, 2, named, 1);
    MG_CHECK_INT(views[0].state, HANG_ACCOUNT_IN_MPI);
    MG_CHECK_INT(views[1].state, HANG_ACCOUNT_COMPUTING);
    MG_CHECK_INT(views[2].state, HANG_ACCOUNT_IN_MPI);
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
    MG_TEST_END();
}
