/* The detector's side of the agents' TCP streams (record_stream.h): a listener, one connection per
 * agent that proved it holds the run's secret, frames dispatched to the same sink the in-process
 * agent uses.
 * docs/design/check.md "How it is built". */
#ifndef MG_CHECK_REMOTE_H
#define MG_CHECK_REMOTE_H

#include <stddef.h>
#include <stdint.h>

#include "check_agent.h"

typedef struct check_remote check_remote;

/* What only a remote agent tells: the world size and which ranks are still in their call. */
typedef struct check_remote_sink {
    check_agent_sink base;
    void (*world)(void *ctx, int size);
    void (*state)(void *ctx, int rank, uint64_t blocked_seq);
} check_remote_sink;

#include "agent_proto.h"

/* Takes listen_fd (listening, nonblocking; owned from then on, even on failure) to accept the
 * streams of `agents` agents, each of which must open with the AUTH frame of secret: a connection
 * that does not is closed with a warning and takes no agent's place. Errors: MG_EINVAL, MG_ENOMEM.
 */
int check_remote_create(int listen_fd, int agents, const uint8_t secret[AGENT_SECRET_BYTES],
                        check_remote **out);
/* Accepts, reads what arrived (waiting up to timeout_ms for something) and dispatches complete
 * frames; *records gets the records dispatched. A stream that turns out malformed or truncated is
 * closed with a warning naming the problem; the others go on. Errors: MG_ENOMEM. */
int check_remote_poll(check_remote *r, const check_remote_sink *sink, int timeout_ms,
                      size_t *records);
/* 1 once every expected agent joined and closed its stream. */
int check_remote_done(const check_remote *r);
void check_remote_destroy(check_remote *r);

#endif
