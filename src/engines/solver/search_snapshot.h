/* Saving and restoring a search_state, so a campaign stopped and resumed explores what one
 * uninterrupted campaign would (docs/design/concolic.md "--resume"; docs/design/concolic-solver.md
 * §7): the parameters, the stack of observed paths with each level's next constraint and tried
 * flags, the pending choice, the run count and the depth bound. Text in memory: the caller stores
 * it. The rng the strategies draw from belongs to the caller and is saved by it. */
#ifndef SEARCH_SNAPSHOT_H
#define SEARCH_SNAPSHOT_H

#include <stddef.h>

#include "search.h"

#define SEARCH_SNAPSHOT_VERSION 1

/* The state as text (lines, ending with "end\n"); *out is malloc'd and NUL-terminated, owned by
 * the caller. MG_ERROR_EINVAL, MG_ERROR_ENOMEM. */
int search_snapshot_write(const search_state *s, char **out, size_t *len);

/* A new state equal to the one that wrote text[0..len) (the whole text: nothing may follow).
 * MG_ERROR_EVERSION for another snapshot version, MG_ERROR_EFORMAT for anything malformed or
 * inconsistent (a kind out of range, a pending choice past its path, a level's next past its path),
 * MG_ERROR_ENOMEM. The caller compares (*out)'s kind with the one it expects. */
int search_snapshot_read(const char *text, size_t len, search_state **out);

/* The strategy kind of a state (enum search_kind). */
int search_snapshot_kind_of(const search_state *s);

#endif
