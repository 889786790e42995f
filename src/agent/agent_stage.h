/* `mpiguard agent stage`: one process of the tree of detectors
 * (docs/design/check-detector.md §14). */
#ifndef MG_AGENT_STAGE_H
#define MG_AGENT_STAGE_H

#include <stddef.h>
#include <stdint.h>

/* Runs a stage (tbon_stage_run) for the share `ranks` ("A-B", or any set: "A-B+C+D-E", ascending)
 * over inherited descriptors: inputs "FD:RANKS[/ANSWERS_FD],..." (each child's stream, the ranks
 * it streams, where its answers go), output "FD[/ANSWERS_FD]" (the parent's stream and its
 * answers). With ranks NULL or shares > 0, a leaf of `mpiguard check --detector-leaves`: its share
 * `ranks` (a node's ranks) or else share `share` of `shares` of the world, inputs "FD" (its one
 * agent's stream); agent_bound as tbon_stage_params' (a node's leaf, forked by its agent). Prints
 * one line of counts on stdout at the end. Returns the exit status: 0,
 * MG_EXIT_USAGE (a malformed list, named on stderr), MG_EXIT_SOFTWARE (the stage failed: the
 * message says why). */
/* Writes the ascending ranks[0..n) as a share of --ranks/--inputs takes it: runs "A-B" joined by
 * '+'. Returns 1, or 0 when it does not fit cap bytes (out holds what did). */
int agent_stage_format_ranks(const int32_t *ranks, int32_t n, char *out, size_t cap);
int agent_stage_run(const char *ranks, int share, int shares, const char *inputs,
                    const char *output, int agent_bound);

#endif
