/* The front's side of hang detection through per-node agents (docs/hang.md, "Many nodes"): it
 * listens, starts the agents (locally, each owning a share of the ranks, or one per node through
 * the job's own launcher), learns from each which ranks it owns, and asks the owner whenever a rank
 * is to be looked at. Agents that own no sampled rank are never asked and stay idle. */
#ifndef MG_HANG_REMOTE_H
#define MG_HANG_REMOTE_H

#include "rank_probe.h"
#include "rank_stack.h"
#include "rank_state.h"

#include <stdbool.h>

enum { HANG_REMOTE_NODE = 64 };

typedef struct hang_remote hang_remote;

typedef struct hang_remote_options {
    const char *token;          /* the job's (borrowed until hang_remote_stop) */
    int world;                  /* the job's size when known (local agents share it out), else 0 */
    int local_agents;           /* > 0: that many agents on this machine, each owning a share */
    const char *agent_launcher; /* else: words that start one agent per node ("srun --overlap
                                   --ntasks-per-node=1"); the agents then find their node's ranks */
    const char *sampler;        /* "shm" or "ptrace", for the agents */
    double connect_timeout;     /* seconds for every agent to say hello */
    int fanout; /* > 0 with more agents than that: the front reads them through relays of fanout
                   agents each (an agent tree, docs/hang.md "Many nodes"); 0: directly */
} hang_remote_options;

/* Starts the agents and waits for them to say which ranks they own (hang_remote_world,
 * hang_remote_pid). Returns 0, or an exit status after printing why (70: an agent could not start
 * or did not say hello in time, or out of memory; 66: they own no rank). *out is set either way:
 * hang_remote_stop frees it. */
int hang_remote_start(const hang_remote_options *o, hang_remote **out);
/* The job's size: as given, or as the agents said. */
int hang_remote_world(const hang_remote *h);
/* Rank r's process id on its node (0: no agent owns it) and that node (*node, owned by h; "" when
 * the agents run here or no agent owns it). */
int hang_remote_pid(const hang_remote *h, int r, const char **node);
/* Reads the count ranks of ranks (NULL: ranks 0..count-1) in one round: one request frame to each
 * agent that owns some of them, all sent before any answer is awaited (agent_reads.h). An agent
 * that fails to answer is lost. with_cpu_time, as for rank_probe_read, travels as the
 * request's kind (agent_reads_kind): an agent reads a GAP_ONLY one as a local probe does. The
 * readings wait for hang_remote_read. 0, or MG_ERROR_ENOMEM. */
int hang_remote_prefetch(hang_remote *h, const int *ranks, size_t count, int with_cpu_time);
/* Rank r's reading (with_cpu_time as for rank_probe_read): the one the last round took, if
 * not taken yet and read as asked, else through a round of its own. *unseen is set when the agent
 * could not look at it. MG_ERROR_EIO when the agent is gone. */
int hang_remote_read(hang_remote *h, int r, int with_cpu_time, rank_probe_reading *out,
                     int *unseen);
/* 1 when rank r's agent is lost (it stopped answering or its connection broke, or the relay
 * before it said so when asked for the rank, agent_relay.h): what is known of the rank then is
 * only what it said before. */
int hang_remote_lost(const hang_remote *h, int r);

/* 1 when no rank an agent owned is read any more: each one's agent, or the relay above it, is
 * lost (hang_remote_lost). */
int hang_remote_all_lost(const hang_remote *h);
/* 1 when the agents run on this machine (--agents), so that its /proc shows their ranks. */
int hang_remote_here(const hang_remote *h);
/* Rank r's CPU share on its node, as its agent said in its hello (1 for a rank no agent owns). */
double hang_remote_cpu_share(const hang_remote *h, int r);
/* Rank r's stack through its agent; an empty stack on failure. The agent sends with it what the
 * rank's blocking call waits for as the rank published it (agent_waits.h): *state, the caller's
 * view of the rank's state, then points at a copy of it, owned by h until hang_remote_stop, so
 * that the culprit search reads a rank on another node as one here (docs/hang.md "The culprit");
 * a segment of this node that *state already maps is left as it is. */
void hang_remote_stack(hang_remote *h, int r, rank_stack *out, const rank_state **state);
/* true when state is one of h's copies (hang_remote_stack): the caller drops it before
 * hang_remote_stop. h may be NULL. */
bool hang_remote_forwarded(const hang_remote *h, const rank_state *state);
/* Says how many requests each agent served ("agent 0 (ranks 0-5): 120 requests") with -v, tells
 * every agent to stop, and frees h. */
void hang_remote_stop(hang_remote *h);

#endif
