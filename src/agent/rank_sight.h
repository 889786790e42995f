/* What /proc shows of a rank's process that tells whether mpiguard can observe it: its LD_PRELOAD,
 * the libraries it maps, how its executable was linked (docs/architecture.md, "Never blind in
 * silence"): the reading (rank_observe_sight, the observe engine's input); rank_observe.h decides
 * what it means. */
#ifndef MG_RANK_SIGHT_H
#define MG_RANK_SIGHT_H

#include "rank_observe.h"

/* Reads the process pid under proc_root ("/proc" except in tests); library is the interposition
 * library's path as mpiguard passed it. *out is zeroed first and its `read` set only when the
 * process's maps and executable could be read. Returns 0, or MG_ERROR_ENOENT when the process is
 * gone. */
int rank_sight_read(const char *proc_root, int pid, const char *library, rank_observe_sight *out);

#endif
