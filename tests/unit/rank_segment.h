/* A rank's state segment written by a test as the interposition library's state module writes it
 * (src/interpose/state_module.c), for the probes that read it (src/agent/rank_probe.h): shared by
 * the shm probe's unit test and the ptrace probe's segment test. */
#ifndef RANK_SEGMENT_H
#define RANK_SEGMENT_H

#include "rank_state.h"

/* The segment of token's rank, published by pid (the pid a probe's rank must have for the segment
 * to be its own), mapped; NULL when it cannot be made. */
rank_state *rank_segment_publish(const char *token, int rank, int pid);

/* Removes the segment's name (mappings stay valid: a probe that mapped it keeps reading), and
 * unmaps s unless NULL. */
void rank_segment_unpublish(const char *token, int rank, rank_state *s);

#endif
