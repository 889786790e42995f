/* The detector's side of the agents' TCP streams (record_stream.h): a listener, one connection per
 * agent that proved it holds the run's secret (a given number of them, or any number: one per node
 * of the job), frames dispatched to the same sink the in-process agent uses.
 * docs/design/check.md "How it is built". */
#ifndef MG_CHECK_REMOTE_H
#define MG_CHECK_REMOTE_H

#include <stddef.h>
#include <stdint.h>

#include "check_agent.h"

typedef struct check_remote check_remote;

/* No run takes more agents (one per node) or leaves. */
#define CHECK_REMOTE_MAX_AGENTS 256

#include "agent_proto.h"
#include "rank_observe.h"
#include "record_stream.h"
#include "tbon_leaf.h"

/* How a stream ended (agent_closed): its HELLO's share of the ranks (share k of shares, or the
 * ranks it named: with the world size known, its n_ranks ranks[], valid for the call; NULL
 * before), and whether its last frame was DONE (a leaf of the tree of detectors that ended
 * cleanly). */
typedef struct check_remote_end {
    int share, shares, done;
    const int32_t *ranks;
    int32_t n_ranks;
} check_remote_end;

/* What only a remote agent tells: the world size, which ranks are still in their call, a node
 * agent's verdicts on its ranks, a leaf's summary of a collective (tbon_leaf.h: the n world ranks
 * ranks[] of the leaf's share each entered and left it), and that an agent's stream closed. agent
 * numbers the agents in the order they joined; node is the name its HELLO gave. */
typedef struct check_remote_sink {
    check_agent_sink base;
    void (*world)(void *ctx, int size);
    void (*state)(void *ctx, int rank, uint64_t blocked_seq);
    void (*observe)(void *ctx, int agent, const char *node, const record_stream_verdict *v);
    void (*summary)(void *ctx, const check_event *ev, const int32_t *ranks, int32_t n);
    void (*agent_closed)(void *ctx, int agent, const char *node, const check_remote_end *end);
    /* a stream's share, once its HELLO and the world size came: the n ranks ranks[] (ascending),
     * valid for the call */
    void (*share)(void *ctx, int agent, const char *node, const int32_t *ranks, int32_t n);
} check_remote_sink;

/* Takes listen_fd (listening, nonblocking; owned from then on, even on failure) to accept the
 * streams of `agents` agents (0: any number, up to 256), each of which must open with the AUTH
 * frame of secret: a connection that does not, or has not sent it whole AGENT_PROTO_AUTH_WAIT_MS
 * after it was accepted, is closed with a warning and takes no agent's place.
 * Errors: MG_ERROR_EINVAL, MG_ERROR_ENOMEM. */
int check_remote_create(int listen_fd, int agents, const uint8_t secret[AGENT_PROTO_SECRET_BYTES],
                        check_remote **out);
/* Accepts, reads what arrived (waiting up to timeout_ms for something) and dispatches complete
 * frames; *records gets the records dispatched. A stream that turns out malformed or truncated is
 * closed with a warning naming the problem; the others go on. Errors: MG_ERROR_ENOMEM. */
int check_remote_poll(check_remote *r, const check_remote_sink *sink, int timeout_ms,
                      size_t *records);
/* Takes fd (a connected stream socket; owned from then on) as a connection that must open with the
 * AUTH frame, within AGENT_PROTO_AUTH_WAIT_MS from now, as an accepted one.
 * Errors: MG_ERROR_ERANGE (no room: 256 connections; fd is closed). */
int check_remote_adopt(check_remote *r, int fd);
/* check_remote_adopt for the stream of the leaf of share `share` of `shares` this run started (over
 * a socketpair: no deadline for its AUTH frame, which comes after its agent's start): if it closes
 * before its HELLO, its ranks are lost all the same (agent_closed is told). */
int check_remote_adopt_leaf(check_remote *r, int fd, int share, int shares);
/* Tells the leaves the calls the root's model left (tbon_root_answers): each as a COMPLETED frame
 * to the stream whose share (check_remote_sink.share) holds its rank; then, once
 * every expected leaf said ENDED or closed, NO_MORE to each (once): no further answer comes, so
 * they send what they hold and end. A stream that went away is skipped (its reader closes it). */
void check_remote_answer(check_remote *r, const tbon_leaf_call *calls, size_t n);
/* Asks every leaf to send up what it holds now (a RELEASE frame): the root waits for a call a
 * rank published and the root has no record of; not once NO_MORE was said (they send all they
 * hold then). NULL (no leaves) is accepted. */
void check_remote_release(check_remote *r);
/* 1 once every expected agent (any number: at least one) joined and closed its stream. */
int check_remote_done(const check_remote *r);
/* The agents that joined so far, numbered as the sink's `agent`: in out[agent], the ranks its
 * HELLO said its launcher started on its node and whether its stream closed (named is left 0 for
 * the caller, which knows the verdicts). Returns how many joined. */
int check_remote_agents(const check_remote *r, rank_observe_agent out[CHECK_REMOTE_MAX_AGENTS]);
/* When (mg_clock_seconds) the last agent joined, once every expected one did (any number: the
 * latest so far); 0 before. */
double check_remote_joined_at(const check_remote *r);
void check_remote_destroy(check_remote *r);

#endif
