/* What `--resume` needs to continue a campaign's search tree where it stopped
 * (docs/design/concolic.md
 * "--resume"): the strategy, the rng state, the path logs of the search stack and the engine's
 * search snapshot, saved as text in DIR/campaign after every
 * iteration. Z3's internal state is not saved (see the docs for what that changes). */
#ifndef CONCOLIC_RESUME_H
#define CONCOLIC_RESUME_H

#include "concolic_loop.h"

#define CONCOLIC_RESUME_VERSION 1

/* Stores L's search state into its campaign (c->search_text), to be written by the next
 * concolic_campaign_save. On failure (memory) the campaign keeps no search state, so a resume
 * falls back to restarting the tree; a warning says so once. */
void concolic_resume_save(concolic_loop *L);

/* Restores the state saved in L->c->search_text into L (started with the same options). A
 * campaign saved by format version 1 (no search state) or with another --strategy restarts the
 * tree from the saved inputs, with a warning. Returns 0, or MG_EXIT_DATAERR (logged) for a
 * damaged or unknown-version state, MG_EXIT_SOFTWARE when memory runs out. */
int concolic_resume_restore(concolic_loop *L);

#endif
