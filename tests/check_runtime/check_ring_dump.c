/* Test helper: reads the event rings of a job (token argv[1]) as the check agent does, until
 * every stream ended or argv[2] seconds passed, and prints one line per record:
 *   rank seq kind func peer tag comm request aux root op n_requests n_statuses src0 tag0 count
 *   ranks...
 * then "end RANK HOW LOST" per ended stream, and on stderr "caller_sites N", the records that
 * carried their caller's site. Exit 0 when every stream ended. */
#include "check_agent.h"
#include "mg_error.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static void on_record(void *ctx, const check_event *ev, const uint8_t *b, size_t len)
{
    (void)ctx, (void)b, (void)len;
    printf("rec %d %" PRIu64 " %u %s %d %d %" PRIx64 " %" PRIu64 " %" PRIx64 " %d %u %u %u",
           ev->rank, ev->seq, ev->kind, check_event_func_describe(ev->func)->name, ev->peer, ev->tag,
           ev->comm, ev->request, ev->aux, ev->root, ev->op, ev->n_requests, ev->n_statuses);
    printf(" %d %d %" PRId64, ev->n_statuses ? ev->statuses[0].source : -9,
           ev->n_statuses ? ev->statuses[0].tag : -9, ev->count);
    for (uint32_t i = 0; i < ev->n_ranks; i++)
        printf(" %d", ev->ranks[i]);
    printf("\n");
}

static void on_end(void *ctx, int rank, int end, uint64_t lost)
{
    (void)ctx;
    printf("end %d %d %" PRIu64 "\n", rank, end, lost);
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    check_agent *a;
    if (check_agent_create(argv[1], 0, 1, &a) != MG_ERROR_OK)
        return 2;
    check_agent_sink sink = {NULL, on_record, NULL, on_end};
    time_t deadline = time(NULL) + atoi(argv[2]);
    check_agent_stats st = {0};
    while (time(NULL) < deadline) {
        size_t n;
        check_agent_poll(a, &sink, 0, &n);
        check_agent_stats_get(a, &st);
        if (st.world_size && st.ended == st.world_size)
            break;
        if (!n) {
            struct timespec pause = {0, 10000000};
            nanosleep(&pause, NULL);
        }
    }
    fprintf(stderr, "caller_sites %" PRIu64 "\n", st.caller_sites);
    check_agent_destroy(a);
    return st.world_size && st.ended == st.world_size ? 0 : 1;
}
