/* A campaign's search as text, so that `mpiguard concolic --resume` continues its search tree
 * where it stopped (docs/design/concolic.md "--resume"): the rng state, the path logs of the
 * search stack, the frontier focus rule's record, the stall count and the strategy's snapshot.
 * Memory only: the driver (src/concolic/concolic_resume.c) keeps the text in the campaign file
 * after its own "search VERSION STRATEGY" line. Z3's internal state is not saved.
 *
 *   rng S0 S1 S2 S3        the xoshiro state, hexadecimal
 *   logs N
 *   log HEX                N lines: the search stack's path logs, re-encoded (path_log_encode)
 *   frontier R             the frontier focus rule's record (focus_frontier.h), R ranks, then
 *   reached N ARM...       per rank, its arms (decimal, ascending)
 *   examined N ARM...
 *   stall N                runs since coverage last grew, then the arms the search's leaves
 *   left N ARM...          aimed at since (search_session.h)
 *   ran N                  the runs made (search_session.h: a solution that is one is not
 *   run NP FOCUS K V...    run), N lines: process count, focus, K inputs (decimal)
 *   snapshot
 *   search-snapshot 1 ...  the engine's snapshot (search_snapshot.h), to the end
 */
#ifndef SEARCH_SESSION_TEXT_H
#define SEARCH_SESSION_TEXT_H

#include "mg_rng.h"
#include "search_session.h"
#include "text_codec.h"

#include <stdint.h>

/* Appends s's state and rng's to t; a failure (memory) sets t->failed (text_codec_buf_finish
 * reports it). */
void search_session_text_write(const search_session *s, const mg_rng *rng, text_codec_buf *t);

/* Reads the state that search_session_text_write wrote from c into s, started with the same
 * parameters and nothing observed yet, and rng; the path logs must be of build build_id. A state
 * saved before the frontier, the stall or the ran lines existed restores without them.
 * MG_ERROR_EFORMAT for a damaged text or one that disagrees with the strategy, MG_ERROR_ENOMEM; s
 * is then left to search_session_end. */
int search_session_text_read(search_session *s, mg_rng *rng, uint64_t build_id,
                             text_codec_cursor *c);

#endif
