/* Text snapshot of a search_state (search_snapshot.h):
 *
 *   search-snapshot 1
 *   params KIND DFS_PHASE_RUNS BOUND_ROUND FIXED_BOUND CFG_DEPTH
 *   state RUNS LONGEST BOUND PENDING PENDING_INDEX DEPTH
 *   level N NEXT            DEPTH times, bottom of the stack first, each followed by
 *   steps ID TAKEN ...      its path (N pairs)
 *   tried T ...             and its tried flags (N values, 0 or 1; DFS: a folded exit's note)
 *   end
 */
#include "search_snapshot.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "coverage_set.h"
#include "mg_error.h"
#include "search_internal.h"
#include "text_codec.h"

int search_snapshot_kind_of(const search_state *s)
{
    return s->p.kind;
}

static void write_level(text_codec_buf *t, const search_internal_level *l)
{
    text_codec_buf_printf(t, "level %" PRIu32 " %" PRIu32 "\nsteps", l->n, l->next);
    for (uint32_t i = 0; i < l->n; i++)
        text_codec_buf_printf(t, " %" PRIu32 " %u", l->path[i].branch_id,
                              (unsigned)l->path[i].taken);
    text_codec_buf_printf(t, "\ntried");
    for (uint32_t i = 0; i < l->n; i++)
        text_codec_buf_printf(t, " %u", (unsigned)l->tried[i]);
    text_codec_buf_printf(t, "\n");
}

int search_snapshot_write(const search_state *s, char **out, size_t *len)
{
    if (!s || !out || !len)
        return MG_ERROR_EINVAL;
    text_codec_buf t = {0};
    const search_params *p = &s->p;
    text_codec_buf_printf(
        &t, "search-snapshot %d\nparams %d %" PRIu32 " %" PRIu32 " %" PRIu32 " %" PRIu32 "\n",
        SEARCH_SNAPSHOT_VERSION, p->kind, p->dfs_phase_runs, p->bound_round, p->fixed_bound,
        p->cfg_depth);
    text_codec_buf_printf(&t,
                          "state %" PRIu32 " %" PRIu32 " %" PRIu32 " %d %" PRIu32 " %" PRIu32 "\n",
                          s->runs, s->longest, s->bound, s->pending, s->pending_index, s->depth);
    for (uint32_t d = 0; d < s->depth; d++)
        write_level(&t, &s->levels[d]);
    text_codec_buf_printf(&t, "end\n");
    return text_codec_buf_finish(&t, out, len);
}

static int read_level(text_codec_cursor *c, search_internal_level *l)
{
    text_codec_cursor_word(c, "level");
    uint32_t n = (uint32_t)text_codec_cursor_number(c, 10, UINT32_MAX / 16);
    uint32_t next = (uint32_t)text_codec_cursor_number(c, 10, n);
    text_codec_cursor_word(c, "steps");
    if (c->bad)
        return MG_ERROR_EFORMAT;
    /* Each step takes at least 4 bytes of text: a count past that is a lie, not memory to ask. */
    if ((size_t)(c->end - c->p) / 4 < n)
        return MG_ERROR_EFORMAT;
    l->path = malloc(((size_t)n + 1) * sizeof *l->path);
    l->tried = calloc((size_t)n + 1, 1);
    if (!l->path || !l->tried)
        return MG_ERROR_ENOMEM; /* the caller's search_destroy frees the level */
    l->n = n;
    l->next = next;
    for (uint32_t i = 0; i < n; i++) {
        l->path[i].branch_id = (uint32_t)text_codec_cursor_number(c, 10, COVERAGE_SET_MAX_BRANCH);
        l->path[i].taken = (uint8_t)text_codec_cursor_number(c, 10, 1);
    }
    text_codec_cursor_word(c, "tried");
    for (uint32_t i = 0; i < n;
         i++) /* DFS: a folded exit's note, up to 3 * SEARCH_INTERNAL_FOLD_BARREN */
        l->tried[i] = (uint8_t)text_codec_cursor_number(c, 10, 3 * SEARCH_INTERNAL_FOLD_BARREN);
    return c->bad ? MG_ERROR_EFORMAT : 0;
}

static int read_head(text_codec_cursor *c, search_state *s)
{
    int rc = text_codec_cursor_version(c, "search-snapshot", SEARCH_SNAPSHOT_VERSION);
    if (rc)
        return rc;
    text_codec_cursor_word(c, "params");
    s->p.kind = (int)text_codec_cursor_number(c, 10, SEARCH_KIND_END - 1);
    s->p.dfs_phase_runs = (uint32_t)text_codec_cursor_number(c, 10, UINT32_MAX);
    s->p.bound_round = (uint32_t)text_codec_cursor_number(c, 10, UINT32_MAX);
    s->p.fixed_bound = (uint32_t)text_codec_cursor_number(c, 10, UINT32_MAX);
    s->p.cfg_depth = (uint32_t)text_codec_cursor_number(c, 10, UINT32_MAX);
    text_codec_cursor_word(c, "state");
    s->runs = (uint32_t)text_codec_cursor_number(c, 10, UINT32_MAX);
    s->longest = (uint32_t)text_codec_cursor_number(c, 10, UINT32_MAX);
    s->bound = (uint32_t)text_codec_cursor_number(c, 10, UINT32_MAX);
    s->pending = (int)text_codec_cursor_number(c, 10, 1);
    s->pending_index = (uint32_t)text_codec_cursor_number(c, 10, UINT32_MAX);
    return c->bad || s->p.bound_round == 0 ? MG_ERROR_EFORMAT : 0;
}

static int read_all(text_codec_cursor *c, search_state *s)
{
    int rc = read_head(c, s);
    if (rc)
        return rc;
    uint32_t depth = (uint32_t)text_codec_cursor_number(c, 10, UINT32_MAX / 16);
    if (c->bad || (size_t)(c->end - c->p) / 16 < depth)
        return MG_ERROR_EFORMAT;
    s->cap = depth > 16 ? depth : 16;
    s->levels = calloc(s->cap, sizeof *s->levels);
    if (!s->levels)
        return MG_ERROR_ENOMEM;
    for (uint32_t d = 0; d < depth; d++) {
        s->depth = d + 1; /* counted before reading, so a failure frees the partial level */
        if ((rc = read_level(c, &s->levels[d])))
            return rc;
    }
    text_codec_cursor_word(c, "end");
    if (!text_codec_cursor_done(c))
        return MG_ERROR_EFORMAT;
    /* A pending choice is a constraint of the top path. */
    if (s->pending && (depth == 0 || s->pending_index >= s->levels[depth - 1].n))
        return MG_ERROR_EFORMAT;
    return 0;
}

int search_snapshot_read(const char *text, size_t len, search_state **out)
{
    if (!out || (!text && len))
        return MG_ERROR_EINVAL;
    *out = NULL;
    search_state *s = calloc(1, sizeof *s);
    if (!s)
        return MG_ERROR_ENOMEM;
    text_codec_cursor c = {text, text + len, 0};
    int rc = read_all(&c, s);
    if (rc) {
        search_destroy(s);
        return rc;
    }
    *out = s;
    return 0;
}
