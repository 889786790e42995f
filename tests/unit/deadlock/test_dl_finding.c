/* A finding's identity (dl_finding_signature), which check reports once however often the detector
 * finds it, and which findings the detector may still change after it found them. */
#include "check_event.h"
#include "dl_finding.h"
#include "mg_test.h"

static void a_finding_found_again_is_the_same(void)
{
    dl_finding_call calls[] = {{.rank = 0, .func = CHECK_EVENT_FN_SEND, .callsite = 0x100},
                               {.rank = 1, .func = CHECK_EVENT_FN_SEND, .callsite = 0x200}};
    dl_finding_call again[] = {calls[0], calls[1]};
    again[0].peer = 7; /* not part of its identity: the same call, found in a later analysis */
    dl_finding f = {.kind = DL_FINDING_POTENTIAL_DEADLOCK, .calls = calls, .n_calls = 2};
    dl_finding g = f;
    g.calls = again;
    g.time = 99;
    MG_CHECK(dl_finding_signature(&f) == dl_finding_signature(&g));
    /* another kind, rank, function or call site is another finding */
    g.kind = DL_FINDING_DEADLOCK;
    MG_CHECK(dl_finding_signature(&f) != dl_finding_signature(&g));
    g.kind = f.kind;
    again[1].rank = 2;
    MG_CHECK(dl_finding_signature(&f) != dl_finding_signature(&g));
    again[1] = calls[1];
    again[1].func = CHECK_EVENT_FN_RECV;
    MG_CHECK(dl_finding_signature(&f) != dl_finding_signature(&g));
    again[1] = calls[1];
    again[1].callsite = 0x204;
    MG_CHECK(dl_finding_signature(&f) != dl_finding_signature(&g));
    g.n_calls = 1;
    MG_CHECK(dl_finding_signature(&f) != dl_finding_signature(&g));
}

static void only_mismatches_and_invalid_calls_change(void)
{
    dl_finding f = {.kind = DL_FINDING_COLLECTIVE_MISMATCH};
    MG_CHECK(dl_finding_may_change(&f));
    f.kind = DL_FINDING_INVALID_ARGUMENTS;
    MG_CHECK(dl_finding_may_change(&f));
    const int fixed[] = {DL_FINDING_DEADLOCK, DL_FINDING_POTENTIAL_DEADLOCK,
                         DL_FINDING_TYPE_MISMATCH, DL_FINDING_LIFECYCLE, DL_FINDING_MESSAGE_RACE};
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++) {
        f.kind = fixed[i];
        MG_CHECK(!dl_finding_may_change(&f));
    }
}

int main(void)
{
    MG_RUN(a_finding_found_again_is_the_same);
    MG_RUN(only_mismatches_and_invalid_calls_change);
    MG_TEST_END();
}
