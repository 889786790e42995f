/* What a detector finding says (finding_text.h), over findings made by hand: the class of each
 * kind, the standard's spelling of a function, and the summary of a deadlock, a one-rank knot, a
 * collective mismatch, a truncation and a rank waiting for one that finalized. */
#include "check_event.h"
#include "finding_text.h"
#include "mg_test.h"

#include <string.h>

static dl_finding_call call(int32_t rank, uint16_t func, int32_t peer, int32_t root, uint8_t state)
{
    return (dl_finding_call){.rank = rank,
                     .func = func,
                     .peer = peer,
                     .root = root,
                     .state = state,
                     .in_knot = state == WAIT_GRAPH_BLOCKED};
}

static void test_classes_and_functions(void)
{
    dl_finding f = {.kind = DL_FINDING_DEADLOCK};
    MG_CHECK_STR(finding_text_class(&f), "deadlock");
    f.kind = DL_FINDING_STUCK_ON_TERMINATED;
    MG_CHECK_STR(finding_text_class(&f), "stuck_on_terminated");
    MG_CHECK_STR(finding_text_kind(DL_FINDING_MESSAGE_RACE), "message_race");
    MG_CHECK_STR(finding_text_function(CHECK_EVENT_FN_COMM_DUP), "MPI_Comm_dup");
    MG_CHECK_STR(finding_text_function(CHECK_EVENT_FN_GROUP_RANGE_INCL), "MPI_Group_range_incl");
    MG_CHECK_STR(finding_text_function(CHECK_EVENT_FN_GROUP_FREE), "MPI_Group_free");
    char text[64];
    finding_text_call(CHECK_EVENT_FN_RECV, CHECK_EVENT_ANY_SOURCE, -1, text, sizeof text);
    MG_CHECK_STR(text, "MPI_Recv(from MPI_ANY_SOURCE)");
    finding_text_call(CHECK_EVENT_FN_BCAST, -1, 1, text, sizeof text);
    MG_CHECK_STR(text, "MPI_Bcast(root 1)");
    finding_text_call(CHECK_EVENT_FN_WIN_LOCK, 1, -1, text, sizeof text);
    MG_CHECK_STR(text, "MPI_Win_lock(target 1)");
}

static void test_knots(void)
{
    dl_finding_call calls[] = {call(0, CHECK_EVENT_FN_RECV, 1, -1, WAIT_GRAPH_BLOCKED),
                       call(1, CHECK_EVENT_FN_RECV, 0, -1, WAIT_GRAPH_BLOCKED)};
    dl_finding f = {.kind = DL_FINDING_DEADLOCK, .calls = calls, .n_calls = 2, .n_knot = 2};
    char text[256];
    finding_text_summary(&f, text, sizeof text);
    MG_CHECK_STR(text, "ranks 0-1 wait for each other (rank 0 in MPI_Recv(from 1))");
    calls[0].peer = 0;
    f.n_calls = f.n_knot = 1;
    f.kind = DL_FINDING_POTENTIAL_DEADLOCK;
    finding_text_summary(&f, text, sizeof text);
    MG_CHECK_STR(text, "rank 0 waits for itself if standard sends are not buffered (rank 0 in "
                       "MPI_Recv(from 0))");
    dl_finding_call coll[] = {call(2, CHECK_EVENT_FN_BCAST, -1, 0, WAIT_GRAPH_BLOCKED),
                      call(0, CHECK_EVENT_FN_BCAST, -1, 1, WAIT_GRAPH_BLOCKED)};
    dl_finding m = {.kind = DL_FINDING_COLLECTIVE_MISMATCH, .calls = coll, .n_calls = 2};
    finding_text_summary(&m, text, sizeof text);
    MG_CHECK_STR(text, "ranks 0,2 call disagreeing collectives (rank 2: MPI_Bcast(root 0))");
}

static void test_pairs_and_ends(void)
{
    dl_finding_call pair[] = {call(0, CHECK_EVENT_FN_SEND, 1, -1, WAIT_GRAPH_RUNNING),
                      call(1, CHECK_EVENT_FN_RECV, 0, -1, WAIT_GRAPH_RUNNING)};
    dl_finding t = {
        .kind = DL_FINDING_TRUNCATION, .calls = pair, .n_calls = 2, .send_elems = 8, .recv_elems = 4};
    char text[256];
    finding_text_summary(&t, text, sizeof text);
    MG_CHECK_STR(text, "rank 0's MPI_Send(to 1) sends 8 elements, more than the 4 of rank 1's "
                       "MPI_Recv(from 0)");
    dl_finding_call stuck[] = {call(0, CHECK_EVENT_FN_FINALIZE, -1, -1, WAIT_GRAPH_TERMINATED),
                       call(1, CHECK_EVENT_FN_RECV, 0, -1, WAIT_GRAPH_BLOCKED)};
    dl_finding s = {.kind = DL_FINDING_STUCK_ON_TERMINATED, .calls = stuck, .n_calls = 2};
    finding_text_summary(&s, text, sizeof text);
    MG_CHECK_STR(text, "rank 0 ended (finalized); rank 1 waits for it: rank 1 in MPI_Recv(from 0)");
    /* a summary cut to its buffer stays a string */
    char small[12];
    finding_text_summary(&s, small, sizeof small);
    MG_CHECK_INT(strlen(small), sizeof small - 1);
}

int main(void)
{
    MG_RUN(test_classes_and_functions);
    MG_RUN(test_knots);
    MG_RUN(test_pairs_and_ends);
    MG_TEST_END();
}
