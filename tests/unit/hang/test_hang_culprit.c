/* Unit tests of the culprit search (hang_culprit.h): each rule on the shape of job it is for. */
#include "hang_culprit.h"
#include "mg_error.h"
#include "mg_test.h"

#include <string.h>

#define NR 8

static struct hang_culprit_rank ranks[NR];
static uint8_t links[NR];

static struct hang_culprit_rank waiting_on(int a, int b)
{
    struct hang_culprit_rank k = {.live = true, .in_mpi = true, .wait = HANG_CULPRIT_WAIT_PEERS};
    if (a >= 0)
        k.peers[k.npeers++] = a;
    if (b >= 0)
        k.peers[k.npeers++] = b;
    return k;
}

/* A 1-D halo exchange of n ranks, every rank in MPI_Waitall on its neighbours. */
static void stencil(int n)
{
    for (int r = 0; r < NR; r++)
        ranks[r] = r < n ? waiting_on(r - 1, r + 1 < n ? r + 1 : -1)
                         : (struct hang_culprit_rank){0};
}

/* Each rank's link to the culprits, against want ("C" culprit, "d" directly, "t" through, "-"). */
static void expect_links(const char *want)
{
    static const char codes[] = {[HANG_CULPRIT_UNLINKED] = '-',
                                 [HANG_CULPRIT_IS_CULPRIT] = 'C',
                                 [HANG_CULPRIT_WAITS_DIRECTLY] = 'd',
                                 [HANG_CULPRIT_WAITS_THROUGH] = 't'};
    char got[NR + 1] = "";
    for (size_t r = 0; r < strlen(want); r++)
        got[r] = codes[links[r]];
    MG_CHECK_STR(got, want);
}

static struct hang_culprit_result find(size_t n)
{
    struct hang_culprit_result out;
    MG_CHECK_INT(hang_culprit_find(ranks, n, links, &out), MG_ERROR_OK);
    return out;
}

static void stopped_rank_in_a_stencil_and_who_waits_on_it(void)
{
    stencil(NR);
    ranks[6].stopped = true;
    struct hang_culprit_result out = find(NR);
    MG_CHECK_INT(out.reason, HANG_CULPRIT_STOPPED);
    MG_CHECK_INT(out.first, 6);
    MG_CHECK_INT(out.nculprits, 1);
    expect_links("tttttdCd");
}

static void rank_outside_mpi_in_a_computation_hang(void)
{
    stencil(4);
    ranks[2].in_mpi = false;
    struct hang_culprit_result out = find(4);
    MG_CHECK_INT(out.reason, HANG_CULPRIT_OUTSIDE);
    MG_CHECK_INT(out.first, 2);
    expect_links("tdCd");
}

/* The process state is what is known first: a rank SIGSTOPped outside MPI is stopped, even beside
 * another rank that computes outside MPI. */
static void rank_stopped_outside_mpi_is_stopped(void)
{
    stencil(4);
    ranks[2].in_mpi = false;
    ranks[2].stopped = true;
    struct hang_culprit_result out = find(4);
    MG_CHECK_INT(out.reason, HANG_CULPRIT_STOPPED);
    MG_CHECK_INT(out.first, 2);
    MG_CHECK_INT(out.nculprits, 1);
    expect_links("tdCd");
    ranks[0].in_mpi = false;
    out = find(4);
    MG_CHECK_INT(out.reason, HANG_CULPRIT_STOPPED);
    MG_CHECK_INT(out.first, 2);
    MG_CHECK_INT(out.nculprits, 1);
}

static void symmetric_stencil_names_nobody(void)
{
    stencil(NR);
    struct hang_culprit_result out = find(NR);
    MG_CHECK_INT(out.reason, HANG_CULPRIT_NONE);
    MG_CHECK_INT(out.first, -1);
    MG_CHECK_INT(out.nculprits, 0);
    expect_links("--------");
}

static void every_rank_stopped_is_no_culprit(void)
{
    stencil(4);
    for (int r = 0; r < 4; r++)
        ranks[r].stopped = true;
    MG_CHECK_INT(find(4).reason, HANG_CULPRIT_NONE);
}

static void behind_in_the_collective_epoch(void)
{
    for (int r = 0; r < 4; r++)
        ranks[r] = (struct hang_culprit_rank){.live = true,
                                              .in_mpi = true,
                                              .wait = HANG_CULPRIT_WAIT_ALL,
                                              .collectives_known = true,
                                              .collectives = 5};
    ranks[2] = waiting_on(1, -1);
    ranks[2].collectives_known = true;
    ranks[2].collectives = 4;
    struct hang_culprit_result out = find(4);
    MG_CHECK_INT(out.reason, HANG_CULPRIT_BEHIND);
    MG_CHECK_INT(out.first, 2);
    expect_links("ddCd");
}

/* A 2x2 stencil: rank 1 stuck in a receive from any source before the collective; its neighbours
 * 0 and 3 wait on it in the halo exchange, one collective behind rank 2, which went on into the
 * next collective. Of the three behind, rank 1 is the one the others wait on. */
static void behind_narrowed_to_the_rank_the_others_wait_on(void)
{
    ranks[0] = waiting_on(1, 2);
    ranks[1] = (struct hang_culprit_rank){.live = true, .in_mpi = true, .wait = HANG_CULPRIT_WAIT_ALL};
    ranks[2] = (struct hang_culprit_rank){.live = true, .in_mpi = true, .wait = HANG_CULPRIT_WAIT_ALL};
    ranks[3] = waiting_on(1, 2);
    for (int r = 0; r < 4; r++) {
        ranks[r].collectives_known = true;
        ranks[r].collectives = r == 2 ? 308 : 307;
    }
    struct hang_culprit_result out = find(4);
    MG_CHECK_INT(out.reason, HANG_CULPRIT_BEHIND);
    MG_CHECK_INT(out.first, 1);
    MG_CHECK_INT(out.nculprits, 1);
    expect_links("dCdd");
    ranks[0].peers[0] = 3; /* two sinks among the behind, {0, 3} and 1: none narrowed */
    ranks[3].peers[0] = 0;
    out = find(4);
    MG_CHECK_INT(out.reason, HANG_CULPRIT_BEHIND);
    MG_CHECK_INT(out.nculprits, 3);
}

static void the_one_rank_everyone_waits_on(void)
{
    ranks[0] = waiting_on(1, -1);
    ranks[1] = waiting_on(2, -1);
    ranks[2] = (struct hang_culprit_rank){.live = true, .in_mpi = true};
    ranks[3] = waiting_on(2, -1);
    ranks[4] = (struct hang_culprit_rank){.live = false}; /* exited: no part of it */
    struct hang_culprit_result out = find(5);
    MG_CHECK_INT(out.reason, HANG_CULPRIT_WAITED_ON);
    MG_CHECK_INT(out.first, 2);
    MG_CHECK_INT(out.nculprits, 1);
    expect_links("tdCd-");
}

static void two_ranks_waited_on_are_not_one_culprit(void)
{
    ranks[0] = waiting_on(1, -1);
    ranks[1] = (struct hang_culprit_rank){.live = true, .in_mpi = true};
    ranks[2] = waiting_on(3, -1);
    ranks[3] = (struct hang_culprit_rank){.live = true, .in_mpi = true};
    MG_CHECK_INT(find(4).reason, HANG_CULPRIT_NONE);
}

static void handler_in_a_worker_holds_the_master(void)
{
    ranks[0] = (struct hang_culprit_rank){.live = true, .in_mpi = true, .wait = HANG_CULPRIT_WAIT_ALL};
    for (int r = 1; r < 4; r++)
        ranks[r] = waiting_on(0, -1);
    ranks[3].in_handler = true;
    ranks[1].spun = true; /* outranked by the handler's own frames */
    struct hang_culprit_result out = find(4);
    MG_CHECK_INT(out.reason, HANG_CULPRIT_IN_HANDLER);
    MG_CHECK_INT(out.first, 3);
    expect_links("dttC");
}

/* Open MPI's waits busy-poll: the watch may see any waiting rank spin (issue 31). Rank 1 spun in
 * the world's collective 1, as rank 0 waits there, while rank 2 never entered it (a receive from
 * rank 0): its wait explains its CPU, and rank 2 is the one behind. A receive whose source is in a
 * world collective is explained too. Where every rank entered the collective, or its source may
 * send to it, a rank that spun there spins (a handler whose frames were not read); one whose
 * frames show the handler is named for them, whatever its wait. */
static void a_rank_spinning_in_a_wait_not_met_waits(void)
{
    for (int r = 0; r < 3; r++)
        ranks[r] = (struct hang_culprit_rank){.live = true,
                                              .in_mpi = true,
                                              .wait = HANG_CULPRIT_WAIT_ALL,
                                              .collectives_known = true,
                                              .collectives = 1,
                                              .world_collective = true};
    ranks[1].spun = true;
    ranks[2] = waiting_on(0, -1);
    ranks[2].collectives_known = true;
    struct hang_culprit_result out = find(3);
    MG_CHECK_INT(out.reason, HANG_CULPRIT_BEHIND);
    MG_CHECK_INT(out.first, 2);
    MG_CHECK_INT(out.nculprits, 1);
    expect_links("ddC");
    ranks[1].spun = false;
    ranks[2].spun = true;
    out = find(3);
    MG_CHECK_INT(out.reason, HANG_CULPRIT_BEHIND);
    MG_CHECK_INT(out.first, 2);
    ranks[0].world_collective = false; /* rank 0 in a receive from any source: it may meet rank 2 */
    out = find(3);
    MG_CHECK_INT(out.reason, HANG_CULPRIT_SPINNING);
    MG_CHECK_INT(out.first, 2);
    ranks[0].world_collective = true;
    ranks[2] = ranks[0]; /* every rank in collective 1 */
    ranks[1].spun = true;
    out = find(3);
    MG_CHECK_INT(out.reason, HANG_CULPRIT_SPINNING);
    MG_CHECK_INT(out.first, 1);
    ranks[2].collectives = 0;
    ranks[1].in_handler = true;
    out = find(3);
    MG_CHECK_INT(out.reason, HANG_CULPRIT_IN_HANDLER);
    MG_CHECK_INT(out.first, 1);
}

static void bad_input(void)
{
    struct hang_culprit_result out;
    stencil(4);
    MG_CHECK_INT(hang_culprit_find(ranks, 0, links, &out), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_culprit_find(NULL, 4, links, &out), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_culprit_find(ranks, 4, NULL, &out), MG_ERROR_EINVAL);
    ranks[1].peers[0] = 4;
    MG_CHECK_INT(hang_culprit_find(ranks, 4, links, &out), MG_ERROR_EINVAL);
    ranks[1].peers[0] = -3;
    MG_CHECK_INT(hang_culprit_find(ranks, 4, links, &out), MG_ERROR_EINVAL);
}

int main(void)
{
    MG_RUN(stopped_rank_in_a_stencil_and_who_waits_on_it);
    MG_RUN(rank_outside_mpi_in_a_computation_hang);
    MG_RUN(rank_stopped_outside_mpi_is_stopped);
    MG_RUN(symmetric_stencil_names_nobody);
    MG_RUN(every_rank_stopped_is_no_culprit);
    MG_RUN(behind_in_the_collective_epoch);
    MG_RUN(behind_narrowed_to_the_rank_the_others_wait_on);
    MG_RUN(the_one_rank_everyone_waits_on);
    MG_RUN(two_ranks_waited_on_are_not_one_culprit);
    MG_RUN(handler_in_a_worker_holds_the_master);
    MG_RUN(a_rank_spinning_in_a_wait_not_met_waits);
    MG_RUN(bad_input);
    MG_TEST_END();
}
