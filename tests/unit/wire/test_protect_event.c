/* The protection module's event line (protect_event.h): what a rank writes is what the CLI reads
 * back, field by field, and both say the same sentence of it. */
#include "mg_test.h"
#include "protect_event.h"

#include <string.h>

static void a_workaround_goes_and_comes_back(void)
{
    const protect_event sent = {
        "workaround", "MPI_Igatherv", "/opt/app/bin/app+0x1a2b", "GX", "W1-B", 1, NULL};
    char line[256];
    int n = protect_event_put(line, sizeof line, &sent);
    MG_CHECK_STR(line, "workaround\tMPI_Igatherv\t/opt/app/bin/app+0x1a2b\tGX\tW1-B\t1\t-\n");
    MG_CHECK_INT(n, (int)strlen(line));
    protect_event got;
    MG_CHECK_INT(protect_event_take(line, &got), 0);
    MG_CHECK_STR(got.kind, "workaround");
    MG_CHECK_STR(got.function, "MPI_Igatherv");
    MG_CHECK_STR(got.site, "/opt/app/bin/app+0x1a2b");
    MG_CHECK_STR(got.detectors, "GX");
    MG_CHECK_STR(got.workaround, "W1-B");
    MG_CHECK_INT(got.eager, 1);
    MG_CHECK_INT(protect_event_used(&got), 1);
    char said[256];
    protect_event_summary(&got, "app.c:12", said, sizeof said);
    MG_CHECK_STR(said, "MPI_Igatherv at app.c:12: detector GX fired, workaround W1-B "
                       "(nonblocking call completed eagerly)");
}

static void an_unprotected_call_says_why(void)
{
    const protect_event sent = {"not_protected",        "MPI_Alltoallv", "0x7f00", NULL, NULL, 0,
                                "no workaround applies"};
    char line[256];
    protect_event_put(line, sizeof line, &sent);
    protect_event got;
    MG_CHECK_INT(protect_event_take(line, &got), 0);
    MG_CHECK_INT(protect_event_used(&got), 0);
    MG_CHECK_STR(got.workaround, "-");
    char said[256];
    protect_event_summary(&got, "app+0x10", said, sizeof said);
    MG_CHECK_STR(said, "MPI_Alltoallv at app+0x10: no workaround applies");
}

/* A rank that died while writing leaves a line cut short: not an event. */
static void a_cut_line_is_refused(void)
{
    char cut[] = "workaround\tMPI_Bcast\t/app+0x1\tD\n";
    protect_event got;
    MG_CHECK_INT(protect_event_take(cut, &got), -1);
    char empty[] = "\n";
    MG_CHECK_INT(protect_event_take(empty, &got), -1);
}

int main(void)
{
    MG_RUN(a_workaround_goes_and_comes_back);
    MG_RUN(an_unprotected_call_says_why);
    MG_RUN(a_cut_line_is_refused);
    MG_TEST_END();
}
