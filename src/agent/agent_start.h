/* Starting a tool's per-node agents, for hang and check alike (docs/hang.md, "Many nodes"): the
 * run's secret, put where only the agents find it (the environment they inherit, never a command
 * line), the address other nodes reach this one at, and the launch, on this machine or through the
 * job's own launcher, one agent per node. */
#ifndef MG_AGENT_START_H
#define MG_AGENT_START_H

#include "agent_proto.h"
#include "job.h"

#include <stddef.h>
#include <stdint.h>

/* Makes the run's secret and puts it in this process's environment (MG_ENV_AGENT_SECRET), for the
 * agents started after. Call it after the job's launcher started: the ranks do not get it.
 * Errors: MG_ERROR_ESYS (no random source), MG_ERROR_ENOMEM. */
int agent_start_secret(uint8_t secret[AGENT_PROTO_SECRET_BYTES]);

/* The path of this process's executable, the mpiguard binary an agent runs (agent_argv[0]).
 * Errors: MG_ERROR_ESYS, MG_ERROR_ERANGE (no room in out). */
int agent_start_self(char *out, size_t outlen);

/* Listens on an ephemeral port of every interface (the loopback only when local), nonblocking or
 * not; writes "ADDRESS:PORT" for the agents to connect to: 127.0.0.1 when local, else this node's
 * own address (its hostname's when an interface of this node holds it, else its first IPv4
 * interface that is up and not the loopback: a node of a container or namespace whose hostname
 * resolves elsewhere). Returns the socket, or -1 with a message in err. */
int agent_start_listen(int local, int nonblocking, char *address, size_t addresslen, char *err,
                       size_t errlen);

/* Starts agent_argv (mpiguard agent ...): on this machine when agent_launcher is NULL, else behind
 * its words, which start one agent per node. An Open MPI launcher gets -x MG_ENV_AGENT_SECRET
 * (by name: the value stays in the environment); Hydra and srun pass the environment on. Errors,
 * with err saying why: those of job_start and launcher_identify, MG_ERROR_ERANGE (too many words).
 */
int agent_start_launch(const char *agent_launcher, char *const *agent_argv, job_handle **out,
                       char *err, size_t errlen);

#endif
