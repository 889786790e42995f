/* The parts of a hang finding that are rendering alone (docs/report-schema.md, `hang`): a rank's
 * stack as report frames, the verdict's time, a published wait as "waits_for", and the whole
 * finding of a rank that died (docs/hang.md "A rank that dies"). The decisions are the hang
 * engine's; the caller passes what it read. */
#ifndef MG_HANG_FINDING_H
#define MG_HANG_FINDING_H

#include "rank_stack.h"
#include "rank_state.h"
#include "report.h"

#include <stdbool.h>

/* A rank's "stack": its first frames as "function+0xoffset (module) at file:line". */
json_object *hang_finding_stack_json(const rank_stack *st);

/* Adds detection_time_s (seconds from the start of watching) and detected_at_unix (now) to ev. */
void hang_finding_add_time(json_object *ev, double detection_time);

/* The "waits_for" object of a rank's entry from its published state; world_like says whether a
 * communicator of the state has the world's ranks. */
json_object *hang_finding_waits_json(const rank_state *state,
                                     bool (*world_like)(const rank_state *, uint64_t comm));

/* A rank that died, and the others as they were when it did. */
struct hang_finding_dead {
    int rank, n;
    const int *pids;                 /* n */
    const rank_state *const *states; /* n, NULL where none is published */
    bool exit_seen;                  /* wait_status is its exit's */
    bool listening;                  /* exits were listened for (else the kernel refused) */
    int wait_status;
    bool job_ended; /* the launcher ended the job after it */
    double detection_time;
    const char *calls; /* the roll-call */
};

/* Adds the dead rank's finding to rep and prints its banner. */
void hang_finding_dead_rank(report_doc *rep, const struct hang_finding_dead *d);

#endif
