/* The state of a `mpiguard concolic` campaign: the program's branch table, the campaign
 * directory, the next launch (inputs, process count, focus), merged coverage and the distinct
 * bugs found, saved after every iteration so `--resume` continues it (docs/design/concolic.md
 * "mpiguard concolic"). */
#ifndef CONCOLIC_CAMPAIGN_H
#define CONCOLIC_CAMPAIGN_H

#include "coverage_set.h"

#include <stddef.h>
#include <stdint.h>

/* One row of APP.mpiguard-branches.tsv. */
typedef struct concolic_campaign_branch {
    char *function;
    char *file;
    int line;
    char *arm; /* "if" or "case=V" */
} concolic_campaign_branch;

typedef struct concolic_campaign {
    char dir[2048];
    char app[2048];   /* the light executable as given */
    char heavy[2100]; /* app.mpiguard-heavy */
    uint64_t build_id;
    concolic_campaign_branch *branches;
    uint32_t nbranches;
    /* The next launch. */
    int64_t *inputs;
    size_t ninputs;
    uint32_t np, focus;
    /* Progress. */
    uint64_t iterations;
    coverage_set covered;
    char **bug_keys;
    size_t nbugs;
    /* The search state (concolic_resume.h), saved after the bugs and read back as text. */
    char *search_text; /* NULL: none (a new campaign, or one saved by format version 1) */
    int version;       /* format version of the loaded state; 0 for a new campaign */
} concolic_campaign;

/* Reads the branch table next to app (app, heavy, build_id, branches) and touches nothing else.
 * MG_ERROR_ENOENT: no branch table (not built with mpiguard-cc); MG_ERROR_EFORMAT: a damaged table.
 */
int concolic_campaign_read_table(concolic_campaign *c, const char *app, char *err, size_t errlen);
/* Reads the branch table next to app and prepares dir (created if missing). With resume, loads
 * the saved state (format version 1 or 2: c->version) and refuses (MG_ERROR_EVERSION) a directory
 * from another build; without it, a directory holding a campaign of another build is refused too,
 * and one of the same build is started over. MG_ERROR_ENOENT: no branch table (not built with
 * mpiguard-cc); MG_ERROR_EFORMAT: a damaged table or state file; MG_ERROR_EIO. err receives the
 * reason. */
int concolic_campaign_open(concolic_campaign *c, const char *dir, const char *app, int resume,
                           uint32_t np, uint32_t focus, char *err, size_t errlen);
/* Saves the state atomically (written then renamed), in format version 2, with search_text
 * when set. MG_ERROR_EIO. */
int concolic_campaign_save(const concolic_campaign *c);
/* Sets the inputs of the next launch (copied). MG_ERROR_ENOMEM. */
int concolic_campaign_set_inputs(concolic_campaign *c, const int64_t *v, size_t n);
/* Replaces the saved search state with a copy of text (NULL: none). MG_ERROR_ENOMEM. */
int concolic_campaign_set_search(concolic_campaign *c, const char *text);
/* 1 and nothing changed when key is already a known bug; else records it and returns 0. */
int concolic_campaign_add_bug(concolic_campaign *c, const char *key);
/* Path of a file in the campaign directory (name may contain a subdirectory). */
void concolic_campaign_path(const concolic_campaign *c, const char *name, char *out, size_t len);
void concolic_campaign_free(concolic_campaign *c);

#endif
