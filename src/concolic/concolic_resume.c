/* The search state of a campaign, saved and restored (concolic_resume.h). Text, after the bugs
 * in DIR/campaign: a line "search 1 STRATEGY", then the engine's search state
 * (search_session_text.h) to the end. */
#include "concolic_resume.h"

#include "mg_error.h"
#include "mg_exit.h"
#include "mg_log.h"
#include "search_session_text.h"

#include <stdlib.h>
#include <string.h>

void concolic_resume_save(concolic_loop *L)
{
    static int warned;
    text_codec_buf t = {0};
    char *text = NULL;
    size_t len;
    text_codec_buf_printf(&t, "search %d %s\n", CONCOLIC_RESUME_VERSION,
                          concolic_loop_strategy_names[L->strategy]);
    search_session_text_write(&L->search, &L->rng, &t);
    int rc = text_codec_buf_finish(&t, &text, &len);
    if (rc || concolic_campaign_set_search(L->c, text)) {
        concolic_campaign_set_search(L->c, NULL);
        if (!warned++)
            mg_log_warn("cannot save the search state: a --resume will restart the search tree");
    }
    free(text);
}

int concolic_resume_restore(concolic_loop *L)
{
    const concolic_campaign *c = L->c;
    char name[64];
    if (!c->search_text) {
        mg_log_warn(
            "%s/campaign holds no search state (saved by an older mpiguard): the search tree "
            "restarts from the saved inputs",
            c->dir);
        return 0;
    }
    text_codec_cursor cur = {c->search_text, c->search_text + strlen(c->search_text), 0};
    int rc = text_codec_cursor_version(&cur, "search", CONCOLIC_RESUME_VERSION);
    text_codec_cursor_token(&cur, name, sizeof name);
    rc = rc ? rc : cur.bad ? MG_ERROR_EFORMAT : 0;
    if (!rc && strcmp(name, concolic_loop_strategy_names[L->strategy])) {
        mg_log_warn(
            "the campaign was searched with --strategy %s: the %s search tree restarts from "
            "the saved inputs",
            name, concolic_loop_strategy_names[L->strategy]);
        return 0;
    }
    if (!rc)
        rc = search_session_text_read(&L->search, &L->rng, c->build_id, &cur);
    if (rc == MG_ERROR_ENOMEM) {
        mg_log_error("out of memory restoring the search state");
        return MG_EXIT_SOFTWARE;
    }
    if (rc)
        mg_log_error("%s/campaign: %s search state", c->dir,
                     rc == MG_ERROR_EVERSION ? "unknown version of the" : "damaged");
    return rc ? MG_EXIT_DATAERR : 0;
}
