/* Finding a job's POSIX shared-memory segments: mpiguard's ranks name theirs by the job's token, so
 * the segments of a job (to attach, or what a crashed job left behind) are found by name prefix. */
#ifndef MG_SHM_H
#define MG_SHM_H

/* Calls fn(suffix, ctx) for every segment in /dev/shm whose name starts with prefix (given without
 * the leading '/'); suffix is the rest of the name. Stops at the first non-zero return of fn and
 * returns it; 0 otherwise, also when /dev/shm cannot be read. */
int mg_shm_each_prefixed(const char *prefix, int (*fn)(const char *suffix, void *ctx), void *ctx);

/* Unlinks every segment whose name starts with prefix; returns how many it removed. */
int mg_shm_remove_prefixed(const char *prefix);

#endif
