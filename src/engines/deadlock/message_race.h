/* Internal to src/engines/deadlock: no other folder includes it (docs/architecture.md). */
/* Message races (issue 28 item 6): a wildcard receive (MPI_ANY_SOURCE: Recv, Irecv, a persistent
 * receive, Sendrecv, Mprobe, or a Probe/Iprobe/Improbe then the receive) that had more than one
 * matching send available when MPI matched it, whichever one MPI took in this run.
 *
 * "Available" (docs/design/check-classes.md "Message races"): a send from another rank than the one
 * taken, on the same communicator, to the receiving rank, with a tag the receive accepts, that no
 * receive posted before the wildcard one matched, and that is not causally after the wildcard
 * receive's posting. Causality comes from the matching order over the records the detector already
 * has, not from anything the ranks carry: each rank's knowledge of the others (the latest sequence
 * number of each it heard of) grows at every receive it matched (the sender's knowledge joins its
 * own) and at every collective it completed (the members' knowledge joins), and a send remembers
 * what its sender knew of its destination when it posted it (p2p_match_post.dest_seen). A send
 * whose sender had heard of the receiving rank at or after the wildcard receive was made possible
 * by it, and is no candidate. Merging at matches uses the sender's knowledge when the match is
 * modelled, which can only be more than at the send: it may miss a race, never invent one.
 *
 * The state lives in the detector; a probing copy has none. Jobs of more than
 * MESSAGE_RACE_MAX_WORLD ranks are not checked for races (the knowledge is world x world). */
#ifndef MESSAGE_RACE_H
#define MESSAGE_RACE_H

#include <stdint.h>

#include "check_event.h"

typedef struct deadlock_detector deadlock_detector;
typedef struct message_race message_race;

#define MESSAGE_RACE_MAX_WORLD 512

/* A new state for world ranks, or NULL when world is past the limit or memory is short (races
 * are then not checked). */
message_race *message_race_create(int32_t world);
void message_race_destroy(message_race *mr);

/* Rank posts a send (its sequence number seq) to dest: what it knew of dest then, for the send's
 * dest_seen. Applies the matches made so far first. Errors: MG_ERROR_ENOMEM (a finding lost). */
int message_race_send_posted(deadlock_detector *det, int32_t rank, uint64_t seq, int32_t dest,
                             uint64_t *dest_seen);
/* Applies the matches the matcher made since the last call: knowledge, the wildcard receives
 * they decided, and the races they show (DL_FINDING_MESSAGE_RACE findings). Errors:
 * MG_ERROR_ENOMEM. */
int message_race_sync(deadlock_detector *det);
/* Rank entered a collective on communicator comm (comm_table index) with sequence number seq;
 * complete: its arrival completed it, and every member knows what each knew. */
int message_race_collective(deadlock_detector *det, int32_t rank, uint64_t seq, uint32_t comm,
                            int complete);
/* The latest sequence number of rank `of` that `rank` heard of through the matches and
 * collectives applied so far (message_race_sync applies the pending ones); 0 for none. */
uint64_t message_race_heard(const message_race *mr, int32_t rank, int32_t of);
/* The entry record ev of a Probe, Iprobe or Improbe (its source and tag; the exit has neither). */
void message_race_probe_entered(deadlock_detector *det, const check_event *ev);
/* The exit record ev of that probe, on communicator comm (comm_table index): when it probed
 * MPI_ANY_SOURCE and found a message, the rank's next receive of that message is the wildcard
 * receive, at the probe's call. */
int message_race_probed(deadlock_detector *det, const check_event *ev, uint32_t comm);

#endif
