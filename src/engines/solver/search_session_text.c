/* A campaign's search as text (search_session_text.h). */
#include "search_session_text.h"

#include "mg_error.h"
#include "search_snapshot.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static void put_logs(text_codec_buf *t, const search_session *s)
{
    text_codec_buf_printf(t, "logs %zu\n", s->nstack);
    for (size_t i = 0; i < s->nstack; i++) {
        uint8_t *bytes = NULL;
        size_t n = 0;
        if (path_log_encode(&s->stack[i], &bytes, &n)) {
            t->failed = 1;
            return;
        }
        text_codec_buf_printf(t, "log ");
        text_codec_buf_hex(t, bytes, n);
        text_codec_buf_printf(t, "\n");
        free(bytes);
    }
}

static void put_arms(text_codec_buf *t, const char *word, const coverage_set *s)
{
    text_codec_buf_printf(t, "%s %zu", word, s->n);
    for (size_t i = 0; i < s->n; i++)
        text_codec_buf_printf(t, " %" PRIu32, s->arms[i]);
    text_codec_buf_printf(t, "\n");
}

static void put_frontier(text_codec_buf *t, const focus_frontier *f)
{
    text_codec_buf_printf(t, "frontier %" PRIu32 "\n", f->nranks);
    for (uint32_t r = 0; r < f->nranks; r++) {
        put_arms(t, "reached", &f->reached[r]);
        put_arms(t, "examined", &f->examined[r]);
    }
}

static void put_runs(text_codec_buf *t, const search_session *s)
{
    text_codec_buf_printf(t, "ran %zu\n", s->nran);
    for (size_t i = 0; i < s->nran; i++) {
        const search_session_run *r = &s->ran[i];
        text_codec_buf_printf(t, "run %" PRIu32 " %" PRIu32 " %zu", r->np, r->focus, r->ninputs);
        for (size_t k = 0; k < r->ninputs; k++)
            text_codec_buf_printf(t, " %" PRId64, r->inputs[k]);
        text_codec_buf_printf(t, "\n");
    }
    size_t nrefused = 0;
    for (size_t i = 0; i < s->nran; i++)
        nrefused += s->refused[i];
    text_codec_buf_printf(t, "refused %zu", nrefused);
    for (size_t i = 0; i < s->nran; i++)
        if (s->refused[i])
            text_codec_buf_printf(t, " %zu", i);
    text_codec_buf_printf(t, "\n");
}

void search_session_text_write(const search_session *s, const mg_rng *rng, text_codec_buf *t)
{
    char *snap = NULL;
    size_t len;
    text_codec_buf_printf(t, "rng");
    for (int i = 0; i < 4; i++)
        text_codec_buf_printf(t, " %016" PRIx64, rng->s[i]);
    text_codec_buf_printf(t, "\n");
    put_logs(t, s);
    put_frontier(t, &s->frontier);
    text_codec_buf_printf(t, "stall %" PRIu32 "\n", s->stalled);
    put_arms(t, "left", &s->leave_tried);
    put_runs(t, s);
    if (search_snapshot_write(s->strategy, &snap, &len))
        t->failed = 1;
    else
        text_codec_buf_printf(t, "snapshot\n%s", snap);
    free(snap);
}

/* Decodes the next "log HEX" line into a path log of this build (any run id). */
static int read_log(text_codec_cursor *c, uint64_t build_id, path_log *out)
{
    text_codec_cursor_word(c, "log");
    size_t digits = 0;
    while (!c->bad && c->p + digits < c->end && c->p[digits] != '\n')
        digits++;
    uint8_t *bytes = malloc(digits / 2 + 1);
    if (!bytes)
        return MG_ERROR_ENOMEM;
    text_codec_cursor_hex(c, bytes, digits / 2);
    path_log_expect ex = {.build_id = build_id, .run_id = 0};
    int rc = c->bad ? MG_ERROR_EFORMAT : path_log_decode(bytes, digits / 2, &ex, NULL, out);
    free(bytes);
    return rc;
}

/* Reads "WORD N ARM..." into the set s (merged). */
static int read_set(text_codec_cursor *c, const char *word, coverage_set *s)
{
    text_codec_cursor_word(c, word);
    size_t n = (size_t)text_codec_cursor_number(c, 10, (uint64_t)(c->end - c->p) / 2);
    uint32_t *arms = c->bad ? NULL : malloc((n + 1) * sizeof *arms);
    for (size_t i = 0; arms && i < n; i++)
        arms[i] = (uint32_t)text_codec_cursor_number(c, 10, UINT32_MAX);
    int rc = c->bad ? MG_ERROR_EFORMAT : !arms ? MG_ERROR_ENOMEM : coverage_set_add(s, arms, n);
    free(arms);
    return rc;
}

/* Reads "WORD N ARM..." into one rank's set of f (was_focus: the examined one). */
static int read_arms(text_codec_cursor *c, const char *word, focus_frontier *f, uint32_t rank,
                     int was_focus)
{
    coverage_set s;
    coverage_set_init(&s);
    int rc = read_set(c, word, &s);
    if (!rc)
        rc = focus_frontier_observe(f, rank, &s, was_focus);
    coverage_set_free(&s);
    return rc;
}

/* Reads the head "WORD N" of an optional record of N items, each at least min_bytes long in the
 * text: 1 with *n set when it is there (c->bad when damaged), 0 when absent. */
static int record_head(text_codec_cursor *c, const char *word, size_t min_bytes, size_t *n)
{
    size_t len = strlen(word);
    if ((size_t)(c->end - c->p) <= len || strncmp(c->p, word, len) || c->p[len] != ' ')
        return 0;
    text_codec_cursor_word(c, word);
    *n = (size_t)text_codec_cursor_number(c, 10, (uint64_t)(c->end - c->p) / min_bytes);
    return 1;
}

/* The stall count and the leaves' arms, absent from states saved before the search moved. */
static int read_stall(text_codec_cursor *c, search_session *s)
{
    if ((size_t)(c->end - c->p) < 6 || strncmp(c->p, "stall ", 6))
        return 0;
    text_codec_cursor_word(c, "stall");
    s->stalled = (uint32_t)text_codec_cursor_number(c, 10, UINT32_MAX);
    return c->bad ? MG_ERROR_EFORMAT : read_set(c, "left", &s->leave_tried);
}

/* The runs made, absent from states saved before repeats were skipped (the resumed search may
 * then make one of those runs again). */
static int read_runs(text_codec_cursor *c, search_session *s)
{
    size_t n;
    if (!record_head(c, "ran", 8, &n))
        return 0;
    int rc = c->bad ? MG_ERROR_EFORMAT : 0;
    for (size_t i = 0; !rc && i < n; i++) {
        text_codec_cursor_word(c, "run");
        search_session_run r = {0};
        r.np = (uint32_t)text_codec_cursor_number(c, 10, UINT32_MAX);
        r.focus = (uint32_t)text_codec_cursor_number(c, 10, UINT32_MAX);
        r.ninputs = (size_t)text_codec_cursor_number(c, 10, (uint64_t)(c->end - c->p) / 2);
        r.inputs = c->bad ? NULL : calloc(r.ninputs + 1, sizeof *r.inputs);
        for (size_t k = 0; r.inputs && k < r.ninputs; k++)
            r.inputs[k] = text_codec_cursor_signed(c, INT64_MIN, INT64_MAX);
        rc = c->bad      ? MG_ERROR_EFORMAT
             : !r.inputs ? MG_ERROR_ENOMEM
                         : search_session_remember_run(s, &r);
        free(r.inputs);
    }
    /* Which of them the program refused, absent from states saved before runs were re-tuned. */
    if (rc || !record_head(c, "refused", 2, &n))
        return rc;
    for (size_t i = 0; !c->bad && i < n; i++) {
        size_t k = (size_t)text_codec_cursor_number(c, 10, s->nran ? s->nran - 1 : 0);
        if (!c->bad && s->nran)
            s->refused[k] = 1;
    }
    return c->bad || (n && !s->nran) ? MG_ERROR_EFORMAT : 0;
}

/* The frontier record, absent from states saved before it existed (the rule then starts from
 * nothing: only the focus choices of the resumed runs can differ). */
static int read_frontier(text_codec_cursor *c, focus_frontier *f)
{
    size_t n;
    if (!record_head(c, "frontier", 16, &n))
        return 0;
    int rc = c->bad ? MG_ERROR_EFORMAT : 0;
    /* examined is a subset of reached: merging it into reached again changes nothing */
    for (uint32_t r = 0; !rc && r < n; r++) {
        rc = read_arms(c, "reached", f, r, 0);
        if (!rc)
            rc = read_arms(c, "examined", f, r, 1);
    }
    return rc;
}

int search_session_text_read(search_session *s, mg_rng *rng, uint64_t build_id,
                             text_codec_cursor *c)
{
    text_codec_cursor_word(c, "rng");
    for (int i = 0; i < 4; i++)
        rng->s[i] = text_codec_cursor_number(c, 16, UINT64_MAX);
    text_codec_cursor_word(c, "logs");
    size_t n = (size_t)text_codec_cursor_number(c, 10, (uint64_t)(c->end - c->p) / 8);
    if (c->bad)
        return MG_ERROR_EFORMAT;
    s->stack = calloc(n + 1, sizeof *s->stack);
    if (!s->stack)
        return MG_ERROR_ENOMEM;
    for (; s->nstack < n; s->nstack++) {
        int rc = read_log(c, build_id, &s->stack[s->nstack]);
        if (rc)
            return rc;
    }
    int rc = read_frontier(c, &s->frontier);
    if (!rc)
        rc = read_stall(c, s);
    if (!rc)
        rc = read_runs(c, s);
    if (rc)
        return rc;
    text_codec_cursor_word(c, "snapshot");
    if (c->bad)
        return MG_ERROR_EFORMAT;
    search_state *strategy;
    rc = search_snapshot_read(c->p, (size_t)(c->end - c->p), &strategy);
    if (!rc && (rc = search_session_restore(s, strategy)))
        search_destroy(strategy);
    return rc;
}
