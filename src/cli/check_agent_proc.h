/* An agent process of `mpiguard check --agents N`: owns the ranks rank % shares == share on this
 * node and streams their records to the detector over TCP (record_stream.h), until its ranks'
 * streams ended or the detector went away. docs/design/check.md "How it is built". */
#ifndef MG_CHECK_AGENT_PROC_H
#define MG_CHECK_AGENT_PROC_H

#include "agent_proto.h"

#include <stdint.h>

/* Runs the agent, which proves itself with secret first (agent_proto.h, AUTH); returns the process
 * exit status (0, or 70 when it could not start or the detector vanished: the ranks then see a dead
 * reader and never block on it). */
int check_agent_proc_run(const char *token, int share, int shares, const char *address,
                         const uint8_t secret[AGENT_SECRET_BYTES]);

#endif
