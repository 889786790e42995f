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

/* The events file's name carries the rank, the world's size and the pid: the CLI notes a rank
 * that ended before a scan saw it; anything else in the directory is not taken for one. */
static void an_events_file_names_its_rank(void)
{
    char name[128];
    int rank = -1, size = -1, pid = -1;
    protect_event_file_name(name, sizeof name, 3, 8, 4242);
    MG_CHECK_STR(name, "rank-3-of-8-pid-4242.txt");
    MG_CHECK_INT(protect_event_file_take(name, &rank, &size, &pid), 0);
    MG_CHECK(rank == 3 && size == 8 && pid == 4242);
    const char *not_ones[] = {"rank-3.txt", "rank-3-of-8-pid-4242.txt~", "rank-8-of-8-pid-1.txt",
                              "rank--1-of-8-pid-1.txt", "rank-0-of-2-pid-0.txt", ".", ".."};
    for (size_t i = 0; i < sizeof not_ones / sizeof *not_ones; i++)
        MG_CHECK_INT(protect_event_file_take(not_ones[i], &rank, &size, &pid), -1);
}

/* A site names its object by path and an offset the CLI resolves to a line, or is a bare address;
 * a line names the object by its file name alone. */
static void a_site_splits_into_object_and_offset(void)
{
    char object[64];
    uint64_t offset = 0;
    MG_CHECK_INT(protect_event_site_object("/opt/a+0x1/app+0x1a2b", object, sizeof object, &offset),
                 0);
    MG_CHECK_STR(object, "/opt/a+0x1/app");
    MG_CHECK(offset == 0x1a2b);
    MG_CHECK_STR(protect_event_site_short("/opt/a+0x1/app+0x1a2b"), "app+0x1a2b");
    MG_CHECK_INT(protect_event_site_object("0x7f00", object, sizeof object, &offset), -1);
    MG_CHECK_STR(protect_event_site_short("0x7f00"), "0x7f00");
    MG_CHECK_INT(protect_event_site_object("app+0x10", object, sizeof object, &offset), -1);
    MG_CHECK_INT(protect_event_site_object("/opt/app+0x10", object, 8, &offset), -1);
}

int main(void)
{
    MG_RUN(a_workaround_goes_and_comes_back);
    MG_RUN(an_unprotected_call_says_why);
    MG_RUN(a_cut_line_is_refused);
    MG_RUN(an_events_file_names_its_rank);
    MG_RUN(a_site_splits_into_object_and_offset);
    MG_TEST_END();
}
