/* Unit tests of the observation decision (rank_observe.h) over made-up readings. */
#include "mg_test.h"
#include "rank_observe.h"

#include <stdio.h>

#define LIBRARY "/opt/mpiguard/lib/libmpiguard-openmpi.so"

/* A rank whose process is as mpiguard wants it: preloaded, mapped, linked to Open MPI. */
static rank_observe_sight healthy(void)
{
    rank_observe_sight s = {.read = 1,
                            .preload_set = 1,
                            .preload_names_library = 1,
                            .library_mapped = 1,
                            .mapped_mpi = MG_MPI_FLAVOR_OPENMPI};
    snprintf(s.preload, sizeof s.preload, "%s", LIBRARY);
    return s;
}

static rank_observe_input input(const rank_observe_sight *s, double age)
{
    return (rank_observe_input){
        .sight = s, .expected = MG_MPI_FLAVOR_OPENMPI, .age = age, .sibling_published_for = -1};
}

static void published_rank_is_observed_at_once(void)
{
    rank_observe_sight s = {0};
    rank_observe_input in = input(&s, 0.0);
    in.published = 1;
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_OK);
    MG_CHECK_STR(rank_observe_cause_name(RANK_OBSERVE_OK), "observed");
}

static void causes_from_proc_wait_for_the_loader(void)
{
    rank_observe_sight s = healthy();
    s.preload_names_library = 0;
    rank_observe_input in = input(&s, RANK_OBSERVE_SETTLE_S - 0.1);
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_PENDING);
    in.age = RANK_OBSERVE_SETTLE_S;
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_PRELOAD_REPLACED);
    char text[512];
    rank_observe_explain(&in, RANK_OBSERVE_PRELOAD_REPLACED, text, sizeof text);
    MG_CHECK(strstr(text, "does not name mpiguard's library") != NULL);
}

static void each_cause_from_proc(void)
{
    rank_observe_sight s = healthy();
    rank_observe_input in = input(&s, 3.0);
    s.static_binary = 1;
    s.binary_defines_mpi = 1;
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_STATIC_BINARY);
    s = healthy();
    s.library_mapped = 0;
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_LIBRARY_NOT_LOADED);
    s = healthy();
    s.mapped_mpi = MG_MPI_FLAVOR_UNKNOWN;
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_NOT_MPI);
    s = healthy();
    s.mapped_mpi = MG_MPI_FLAVOR_MPICH;
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_OTHER_MPI);
    char text[512];
    rank_observe_explain(&in, RANK_OBSERVE_OTHER_MPI, text, sizeof text);
    MG_CHECK(strstr(text, "linked to mpich but given mpiguard's openmpi library") != NULL);
    /* a hostname of its own: on another node, named with the option that reads every node */
    s = healthy();
    s.other_node = 1;
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_OTHER_NODE);
    rank_observe_explain(&in, RANK_OBSERVE_OTHER_NODE, text, sizeof text);
    MG_CHECK(strstr(text, "another node") != NULL && strstr(text, "--agent-launcher") != NULL);
    in.published = 1;
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_OK);
}

/* The static check comes first: a static binary has LD_PRELOAD set and nothing mapped. */
static void static_binary_is_told_from_a_missing_library(void)
{
    rank_observe_sight s = healthy();
    s.library_mapped = 0;
    s.mapped_mpi = MG_MPI_FLAVOR_UNKNOWN;
    s.static_binary = 1;
    rank_observe_input in = input(&s, 3.0);
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_STATIC_BINARY);
    char text[512];
    rank_observe_explain(&in, RANK_OBSERVE_STATIC_BINARY, text, sizeof text);
    MG_CHECK(strstr(text, "program that is not MPI") != NULL);
}

static void binding_waits_for_init_then_is_named(void)
{
    rank_observe_sight s = healthy();
    snprintf(s.binding, sizeof s.binding, "libmpi_mpifh.so.40");
    rank_observe_input in = input(&s, RANK_OBSERVE_BINDING_GRACE_S - 0.1);
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_PENDING);
    in.sibling_published_for = RANK_OBSERVE_INIT_GRACE_S;
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_UNWRAPPED_BINDING);
    in.sibling_published_for = -1;
    in.age = RANK_OBSERVE_BINDING_GRACE_S;
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_UNWRAPPED_BINDING);
    char text[512];
    rank_observe_explain(&in, RANK_OBSERVE_UNWRAPPED_BINDING, text, sizeof text);
    MG_CHECK(strstr(text, "libmpi_mpifh.so.40 calls PMPI_*") != NULL);
}

/* Without a binding, a rank computing before MPI_Init looks the same until a sibling published a
 * grace period ago: ranks leave MPI_Init together. */
/* A rank pending as in is named cause RANK_OBSERVE_INIT_GRACE_S after a sibling published, not
 * before, or at its end. */
static void named_after_a_sibling_or_at_the_end(rank_observe_input in, rank_observe_cause cause)
{
    in.sibling_published_for = RANK_OBSERVE_INIT_GRACE_S - 0.1;
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_PENDING);
    in.sibling_published_for = RANK_OBSERVE_INIT_GRACE_S;
    MG_CHECK_INT(rank_observe_decide(&in), cause);
    in.sibling_published_for = -1;
    in.ended = 1;
    MG_CHECK_INT(rank_observe_decide(&in), cause);
}

static void silent_rank_needs_a_sibling_or_the_end(void)
{
    rank_observe_sight s = healthy();
    rank_observe_input in = input(&s, 100.0);
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_PENDING);
    named_after_a_sibling_or_at_the_end(in, RANK_OBSERVE_UNKNOWN_INTERFACE);
}

/* A rank publishes only once its MPI_Init returned through mpiguard's own wrapper (C or Fortran):
 * its binding is wrapped, and no call since is a rank computing, past every grace, a sibling
 * published long ago (issue 26: hang_start.sh poll-long's rank 1, 25 s of computing while rank 0
 * polls MPI_Test, was named unobserved). Not published, the same rank is named by elimination. */
static void published_rank_computing_long_after_init(void)
{
    rank_observe_sight s = healthy();
    rank_observe_input in = input(&s, 10 * RANK_OBSERVE_BINDING_GRACE_S);
    in.sibling_published_for = 10 * RANK_OBSERVE_INIT_GRACE_S;
    in.published = 1;
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_OK);
    snprintf(s.binding, sizeof s.binding, "libmpi_mpifh.so.40");
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_OK);
    in.published = 0;
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_UNWRAPPED_BINDING);
    s.binding[0] = 0;
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_UNKNOWN_INTERFACE);
}

/* Read by stacks alone (no interposition library, another MPI's): any MPI in it will do; a
 * process with none is not MPI once its loader is done, or when it ended. */
static void by_stack_needs_only_some_mpi(void)
{
    rank_observe_sight s = {.read = 1, .mapped_mpi = MG_MPI_FLAVOR_MPICH};
    rank_observe_input in = input(&s, 0.0);
    in.by_stack = 1;
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_OK);
    s = (rank_observe_sight){.read = 1, .static_binary = 1, .binary_defines_mpi = 1};
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_OK);
    s = (rank_observe_sight){.read = 1};
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_PENDING);
    in.ended = 1;
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_NOT_MPI);
    in.ended = 0;
    in.age = RANK_OBSERVE_SETTLE_S;
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_NOT_MPI);
}

static void unread_rank_that_ended_vanished(void)
{
    rank_observe_sight s = {0};
    rank_observe_input in = input(&s, 0.0);
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_PENDING);
    in.ended = 1;
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_VANISHED);
}

/* A rank the tool's stop ended before it published: not blind for a cause only elimination gives
 * (that no call came), but a cause /proc shows stays; a rank that ended by itself keeps it too. */
static void stopped_before_init_only_by_elimination(void)
{
    rank_observe_sight s = healthy();
    rank_observe_input in = input(&s, RANK_OBSERVE_SETTLE_S);
    in.ended = 1;
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_UNKNOWN_INTERFACE);
    in.stopped = 1;
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_STOPPED_BEFORE_INIT);
    snprintf(s.binding, sizeof s.binding, "libmpi_mpifh.so.40");
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_STOPPED_BEFORE_INIT);
    s = healthy();
    s.preload_names_library = 0;
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_PRELOAD_REPLACED);
    MG_CHECK_INT(rank_observe_stopped(RANK_OBSERVE_UNKNOWN_INTERFACE),
                 RANK_OBSERVE_STOPPED_BEFORE_INIT);
    MG_CHECK_INT(rank_observe_stopped(RANK_OBSERVE_NOT_MPI), RANK_OBSERVE_NOT_MPI);
    MG_CHECK_INT(rank_observe_stopped(RANK_OBSERVE_AGENT_LOST), RANK_OBSERVE_AGENT_LOST);
    char text[256];
    rank_observe_explain(&in, RANK_OBSERVE_STOPPED_BEFORE_INIT, text, sizeof text);
    MG_CHECK_STR(rank_observe_cause_name(RANK_OBSERVE_STOPPED_BEFORE_INIT), "stopped_before_init");
    MG_CHECK(strstr(text, "stopped the job before this rank reached its MPI_Init") != NULL);
}

/* A rank that ended while young, read only while its loader was still mapping its libraries (a
 * rank of a job stopped 1-2 s after its start, caught between its exec and libmpich's mapping):
 * what /proc showed had not settled, so no cause read from it is given, as for a rank never read;
 * stopped by the tool, it is stopped_before_init (it was taken for not_mpi). Settled, it stays. */
static void young_reading_is_not_a_cause(void)
{
    rank_observe_sight s = healthy();
    s.mapped_mpi = MG_MPI_FLAVOR_UNKNOWN;
    rank_observe_input in = input(&s, RANK_OBSERVE_SETTLE_S - 0.5);
    in.ended = 1;
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_VANISHED);
    in.stopped = 1;
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_STOPPED_BEFORE_INIT);
    s.read = 0;
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_STOPPED_BEFORE_INIT);
    s.read = 1;
    in.age = RANK_OBSERVE_SETTLE_S;
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_NOT_MPI);
    /* another node's agent decides without knowing of the stop; the tool maps its verdict */
    MG_CHECK_INT(rank_observe_stopped(RANK_OBSERVE_VANISHED), RANK_OBSERVE_STOPPED_BEFORE_INIT);
}

/* A rank no agent found across nodes: named only once both the job's size and every agent have
 * been known for the bound, never while an agent is still expected (the rank may be its). */
static void unfound_rank_waits_for_size_and_agents(void)
{
    const double b = RANK_OBSERVE_UNFOUND_S;
    MG_CHECK(rank_observe_unfound(b, b, 0));
    MG_CHECK(rank_observe_unfound(10 * b, b + 1, 0));
    MG_CHECK(!rank_observe_unfound(b - 0.1, 10 * b, 0));
    MG_CHECK(!rank_observe_unfound(10 * b, b - 0.1, 0));
    MG_CHECK(!rank_observe_unfound(10 * b, -1, 0));
    MG_CHECK(!rank_observe_unfound(-1, 10 * b, 0));
    char detail[64];
    rank_observe_sight s = {0};
    rank_observe_input in = input(&s, 0.0);
    rank_observe_explain(&in, RANK_OBSERVE_NOT_FOUND, detail, sizeof detail);
    MG_CHECK_STR(rank_observe_cause_name(RANK_OBSERVE_NOT_FOUND), "not_found");
    MG_CHECK_STR(detail, "no agent found it while the job ran");
}

/* While the agents' counts leave ranks to come (an agent its launcher started late), the wait is
 * RANK_OBSERVE_ANNOUNCED_S, not RANK_OBSERVE_UNFOUND_S, and bounded all the same. */
static void announced_ranks_are_waited_for_longer(void)
{
    const double a = RANK_OBSERVE_ANNOUNCED_S;
    MG_CHECK(a > RANK_OBSERVE_UNFOUND_S);
    MG_CHECK(!rank_observe_unfound(a - 0.1, a - 0.1, 1));
    MG_CHECK(!rank_observe_unfound(10 * a, a - 0.1, 1));
    MG_CHECK(rank_observe_unfound(a, a, 1));
    MG_CHECK(rank_observe_unfound(10 * a, a + 1, 3));
}

/* The ranks still to come from the agents' HELLOs: a job of 3 ranks, one per node. */
static void ranks_to_come_from_the_agents_counts(void)
{
    /* two agents joined, each named its node's one rank: the third node's agent brings one */
    rank_observe_agent two[] = {{1, 1, 0}, {1, 1, 0}};
    MG_CHECK_INT(rank_observe_to_come(3, two, 2), 1);
    /* a node of two ranks whose agent named one so far */
    rank_observe_agent part[] = {{2, 1, 0}, {1, 1, 0}};
    MG_CHECK_INT(rank_observe_to_come(3, part, 2), 1);
    MG_CHECK_INT(rank_observe_to_come(4, part, 2), 2);
    /* every rank accounted for and named: nothing to come */
    rank_observe_agent all[] = {{1, 1, 0}, {1, 1, 0}, {1, 1, 0}};
    MG_CHECK_INT(rank_observe_to_come(3, all, 3), 0);
    /* an agent joined that found no rank yet (no HELLO) does not stop the count */
    rank_observe_agent early[] = {{1, 1, 0}, {0, 0, 0}, {1, 1, 0}};
    MG_CHECK_INT(rank_observe_to_come(3, early, 3), 1);
    /* an agent that named ranks without a count holds an unknown part of the rest: only what the
     * others announced and did not name is to come */
    rank_observe_agent unsaid[] = {{2, 1, 0}, {0, 1, 0}};
    MG_CHECK_INT(rank_observe_to_come(5, unsaid, 2), 1);
    rank_observe_agent unsaid_all[] = {{1, 1, 0}, {0, 1, 0}};
    MG_CHECK_INT(rank_observe_to_come(3, unsaid_all, 2), 0);
    /* an agent whose stream closed brings nothing more: its rank not named is lost, not to come */
    rank_observe_agent lost[] = {{2, 1, 1}, {1, 1, 0}};
    MG_CHECK_INT(rank_observe_to_come(3, lost, 2), 0);
    MG_CHECK_INT(rank_observe_to_come(3, NULL, 0), 3);
}

/* Across nodes, a rank this node sees on another node is its agent's to judge: pending while the
 * job runs, however long, and not_found if it ends unjudged; without agents it is other_node. */
static void other_node_waits_for_its_agent(void)
{
    rank_observe_sight s = healthy();
    s.other_node = 1;
    rank_observe_input in = input(&s, 10 * RANK_OBSERVE_ANNOUNCED_S);
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_OTHER_NODE);
    in.node_agents = 1;
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_PENDING);
    in.ended = 1;
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_NOT_FOUND);
}

/* A wrapper script that has not exec'd the program yet (a shell, or its sleep, maps no MPI) is
 * not named for what its interpreter shows, by /proc or by stacks: until RANK_OBSERVE_SCRIPT_S
 * after it was found, or RANK_OBSERVE_INIT_GRACE_S after a sibling published, or its end. A
 * program that is no script is named not_mpi as soon as its readings settled. */
static void script_is_named_only_if_it_never_execs(void)
{
    rank_observe_sight s = healthy();
    s.mapped_mpi = MG_MPI_FLAVOR_UNKNOWN;
    rank_observe_input in = input(&s, RANK_OBSERVE_SETTLE_S);
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_NOT_MPI);
    s.script = 1;
    for (int by_stack = 0; by_stack < 2; by_stack++) {
        in = input(&s, 3.0);
        in.by_stack = by_stack;
        MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_PENDING);
        in.age = RANK_OBSERVE_SCRIPT_S - 0.1;
        MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_PENDING);
        in.age = RANK_OBSERVE_SCRIPT_S;
        MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_NOT_MPI);
        in.age = 3.0;
        named_after_a_sibling_or_at_the_end(in, RANK_OBSERVE_NOT_MPI);
    }
    char text[512];
    in = input(&s, RANK_OBSERVE_SCRIPT_S);
    rank_observe_explain(&in, RANK_OBSERVE_NOT_MPI, text, sizeof text);
    MG_CHECK(strstr(text, "not an MPI program") != NULL && strstr(text, "a script") != NULL);
    /* what the script's interpreter shows of LD_PRELOAD waits as well: it may still set it */
    s.preload_names_library = 0;
    in = input(&s, 3.0);
    MG_CHECK_INT(rank_observe_decide(&in), RANK_OBSERVE_PENDING);
}

int main(void)
{
    MG_RUN(published_rank_is_observed_at_once);
    MG_RUN(causes_from_proc_wait_for_the_loader);
    MG_RUN(each_cause_from_proc);
    MG_RUN(static_binary_is_told_from_a_missing_library);
    MG_RUN(binding_waits_for_init_then_is_named);
    MG_RUN(silent_rank_needs_a_sibling_or_the_end);
    MG_RUN(published_rank_computing_long_after_init);
    MG_RUN(by_stack_needs_only_some_mpi);
    MG_RUN(unread_rank_that_ended_vanished);
    MG_RUN(unfound_rank_waits_for_size_and_agents);
    MG_RUN(announced_ranks_are_waited_for_longer);
    MG_RUN(ranks_to_come_from_the_agents_counts);
    MG_RUN(other_node_waits_for_its_agent);
    MG_RUN(stopped_before_init_only_by_elimination);
    MG_RUN(young_reading_is_not_a_cause);
    MG_RUN(script_is_named_only_if_it_never_execs);
    MG_TEST_END();
}
