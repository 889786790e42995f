/* The search state of a campaign, saved and restored (concolic_resume.h). Text, after the bugs
 * in DIR/campaign:
 *
 *   search 1 STRATEGY
 *   rng S0 S1 S2 S3        the xoshiro state, hexadecimal
 *   logs N
 *   log HEX                N lines: the search stack's path logs, re-encoded (path_log_encode)
 *   frontier R             the frontier focus rule's record (focus_frontier.h), R ranks, then
 *   reached N ARM...       per rank, its arms (decimal, ascending)
 *   examined N ARM...
 *   stall N                runs since coverage last grew, then the arms the search's leaves
 *   left N ARM...          aimed at since (search_session.h)
 *   snapshot
 *   search-snapshot 1 ...  the engine's snapshot (search_snapshot.h), to the end
 */
#include "concolic_resume.h"

#include "mg_error.h"
#include "mg_exit.h"
#include "mg_log.h"
#include "search_snapshot.h"
#include "text_codec.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static void put_logs(text_buf *t, const concolic_loop *L)
{
    const search_session *s = &L->search;
    text_buf_printf(t, "logs %zu\n", s->nstack);
    for (size_t i = 0; i < s->nstack; i++) {
        uint8_t *bytes = NULL;
        size_t n = 0;
        if (path_log_encode(&s->stack[i], &bytes, &n)) {
            t->failed = 1;
            return;
        }
        text_buf_printf(t, "log ");
        text_buf_hex(t, bytes, n);
        text_buf_printf(t, "\n");
        free(bytes);
    }
}

static void put_arms(text_buf *t, const char *word, const coverage_set *s)
{
    text_buf_printf(t, "%s %zu", word, s->n);
    for (size_t i = 0; i < s->n; i++)
        text_buf_printf(t, " %" PRIu32, s->arms[i]);
    text_buf_printf(t, "\n");
}

static void put_frontier(text_buf *t, const focus_frontier *f)
{
    text_buf_printf(t, "frontier %" PRIu32 "\n", f->nranks);
    for (uint32_t r = 0; r < f->nranks; r++) {
        put_arms(t, "reached", &f->reached[r]);
        put_arms(t, "examined", &f->examined[r]);
    }
}

void concolic_resume_save(concolic_loop *L)
{
    static int warned;
    text_buf t = {0};
    char *snap = NULL, *text = NULL;
    size_t len;
    text_buf_printf(&t, "search %d %s\nrng", CONCOLIC_RESUME_VERSION,
                    concolic_strategy_names[L->strategy]);
    for (int i = 0; i < 4; i++)
        text_buf_printf(&t, " %016" PRIx64, L->rng.s[i]);
    text_buf_printf(&t, "\n");
    put_logs(&t, L);
    put_frontier(&t, &L->search.frontier);
    text_buf_printf(&t, "stall %" PRIu32 "\n", L->search.stalled);
    put_arms(&t, "left", &L->search.leave_tried);
    if (search_snapshot_write(L->search.strategy, &snap, &len))
        t.failed = 1;
    else
        text_buf_printf(&t, "snapshot\n%s", snap);
    free(snap);
    int rc = text_buf_finish(&t, &text, &len);
    if (rc || concolic_campaign_set_search(L->c, text)) {
        concolic_campaign_set_search(L->c, NULL);
        if (!warned++)
            mg_warn("cannot save the search state: a --resume will restart the search tree");
    }
    free(text);
}

/* Decodes the next "log HEX" line into a path log of this build (any run id). */
static int read_log(text_cursor *c, uint64_t build_id, path_log *out)
{
    text_cursor_word(c, "log");
    size_t digits = 0;
    while (!c->bad && c->p + digits < c->end && c->p[digits] != '\n')
        digits++;
    uint8_t *bytes = malloc(digits / 2 + 1);
    if (!bytes)
        return MG_ENOMEM;
    text_cursor_hex(c, bytes, digits / 2);
    path_log_expect ex = {.build_id = build_id, .run_id = 0};
    int rc = c->bad ? MG_EFORMAT : path_log_decode(bytes, digits / 2, &ex, NULL, out);
    free(bytes);
    return rc;
}

/* Reads "WORD N ARM..." into the set s (merged). */
static int read_set(text_cursor *c, const char *word, coverage_set *s)
{
    text_cursor_word(c, word);
    size_t n = (size_t)text_cursor_number(c, 10, (uint64_t)(c->end - c->p) / 2);
    uint32_t *arms = c->bad ? NULL : malloc((n + 1) * sizeof *arms);
    for (size_t i = 0; arms && i < n; i++)
        arms[i] = (uint32_t)text_cursor_number(c, 10, UINT32_MAX);
    int rc = c->bad ? MG_EFORMAT : !arms ? MG_ENOMEM : coverage_set_add(s, arms, n);
    free(arms);
    return rc;
}

/* Reads "WORD N ARM..." into one rank's set of f (was_focus: the examined one). */
static int read_arms(text_cursor *c, const char *word, focus_frontier *f, uint32_t rank,
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

/* The stall count and the leaves' arms, absent from states saved before the search moved. */
static int read_stall(text_cursor *c, search_session *s)
{
    if ((size_t)(c->end - c->p) < 6 || strncmp(c->p, "stall ", 6))
        return 0;
    text_cursor_word(c, "stall");
    s->stalled = (uint32_t)text_cursor_number(c, 10, UINT32_MAX);
    return c->bad ? MG_EFORMAT : read_set(c, "left", &s->leave_tried);
}

/* The frontier record, absent from states saved before it existed (the rule then starts from
 * nothing: only the focus choices of the resumed runs can differ). */
static int read_frontier(text_cursor *c, focus_frontier *f)
{
    if ((size_t)(c->end - c->p) < 9 || strncmp(c->p, "frontier ", 9))
        return 0;
    text_cursor_word(c, "frontier");
    uint32_t n = (uint32_t)text_cursor_number(c, 10, (uint64_t)(c->end - c->p) / 16);
    int rc = c->bad ? MG_EFORMAT : 0;
    /* examined is a subset of reached: merging it into reached again changes nothing */
    for (uint32_t r = 0; !rc && r < n; r++) {
        rc = read_arms(c, "reached", f, r, 0);
        if (!rc)
            rc = read_arms(c, "examined", f, r, 1);
    }
    return rc;
}

static int read_state(concolic_loop *L, text_cursor *c)
{
    text_cursor_word(c, "rng");
    for (int i = 0; i < 4; i++)
        L->rng.s[i] = text_cursor_number(c, 16, UINT64_MAX);
    text_cursor_word(c, "logs");
    size_t n = (size_t)text_cursor_number(c, 10, (uint64_t)(c->end - c->p) / 8);
    if (c->bad)
        return MG_EFORMAT;
    search_session *ss = &L->search;
    ss->stack = calloc(n + 1, sizeof *ss->stack);
    if (!ss->stack)
        return MG_ENOMEM;
    for (; ss->nstack < n; ss->nstack++) {
        int rc = read_log(c, L->c->build_id, &ss->stack[ss->nstack]);
        if (rc)
            return rc;
    }
    int rc = read_frontier(c, &ss->frontier);
    if (!rc)
        rc = read_stall(c, ss);
    if (rc)
        return rc;
    text_cursor_word(c, "snapshot");
    if (c->bad)
        return MG_EFORMAT;
    search_state *s;
    rc = search_snapshot_read(c->p, (size_t)(c->end - c->p), &s);
    if (!rc && (rc = search_session_restore(ss, s)))
        search_destroy(s);
    return rc;
}

int concolic_resume_restore(concolic_loop *L)
{
    const concolic_campaign *c = L->c;
    char name[64];
    if (!c->search_text) {
        mg_warn("%s/campaign holds no search state (saved by an older mpiguard): the search tree "
                "restarts from the saved inputs",
                c->dir);
        return 0;
    }
    text_cursor cur = {c->search_text, c->search_text + strlen(c->search_text), 0};
    int rc = text_cursor_version(&cur, "search", CONCOLIC_RESUME_VERSION);
    text_cursor_token(&cur, name, sizeof name);
    rc = rc ? rc : cur.bad ? MG_EFORMAT : 0;
    if (!rc && strcmp(name, concolic_strategy_names[L->strategy])) {
        mg_warn("the campaign was searched with --strategy %s: the %s search tree restarts from "
                "the saved inputs",
                name, concolic_strategy_names[L->strategy]);
        return 0;
    }
    if (!rc)
        rc = read_state(L, &cur);
    if (rc == MG_ENOMEM) {
        mg_error("out of memory restoring the search state");
        return MG_EXIT_SOFTWARE;
    }
    if (rc)
        mg_error("%s/campaign: %s search state", c->dir,
                 rc == MG_EVERSION ? "unknown version of the" : "damaged");
    return rc ? MG_EXIT_DATAERR : 0;
}
