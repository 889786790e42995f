/* Internal to src/engines/hang: no other folder includes it (docs/architecture.md). */
/* Two disjoint random sets of sampled ranks, alternated every N observations (ParaStack §3.3
 * "Prevention of a corner case failure"; docs/design/hang.md "The model"). Owns its rank arrays;
 * not thread-safe per object. */
#ifndef HANG_SETS_H
#define HANG_SETS_H

#include <stdbool.h>
#include <stddef.h>

#include "mg_rng.h"

struct hang_sets;

/* Draws two disjoint sets of min(c, nranks/2) ranks each from 0..nranks-1 (one set of one rank when
 * nranks == 1). When the sets are smaller than c, or there is one set, they are "reduced", and a
 * reduced pair is drawn again at every switch so that, over time, every rank is watched.
 * 0 ok; MG_ERROR_EINVAL on NULL, nranks == 0 or > INT_MAX, c == 0 or switch_every == 0;
 * MG_ERROR_ENOMEM (*out untouched). */
int hang_sets_create(size_t nranks, size_t c, size_t switch_every, mg_rng *rng,
                     struct hang_sets **out);
void hang_sets_destroy(struct hang_sets *s);

/* The current set: *ranks stays valid until the next hang_sets_advance or destroy. */
void hang_sets_current(const struct hang_sets *s, const int **ranks, size_t *count);
/* Set index (0 or 1): *count is 0 for a set that does not exist. Same lifetime as above. */
void hang_sets_members(const struct hang_sets *s, size_t index, const int **ranks, size_t *count);
/* Which set is current (0 or 1) and how many switches happened. */
size_t hang_sets_index(const struct hang_sets *s);
size_t hang_sets_switches(const struct hang_sets *s);
/* True when the sets hold fewer than c ranks each, or when there is a single set. */
bool hang_sets_reduced(const struct hang_sets *s);
/* True when only one set exists (nranks == 1): the two-set protection is unavailable. */
bool hang_sets_single(const struct hang_sets *s);

/* Counts one observation on the current set; once switch_every observations are counted and
 * may_switch holds, makes the other set current (a caller defers the switch while suspicions are
 * accumulating). Uses rng only to redraw a reduced pair. */
void hang_sets_advance(struct hang_sets *s, bool may_switch, mg_rng *rng);

#endif
