/* Campaign state of `mpiguard concolic` (concolic_campaign.h). */
#include "concolic_campaign.h"

#include "concolic_file.h"
#include "mg_array.h"
#include "mg_error.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Version 2 appended the search state after the bugs; version 1 files are still read (their
 * search tree restarts from the saved inputs). */
#define STATE_MAGIC "mpiguard-concolic-campaign "
#define STATE_VERSION 2

void concolic_campaign_path(const concolic_campaign *c, const char *name, char *out, size_t len)
{
    snprintf(out, len, "%s/%s", c->dir, name);
}

static int read_table(concolic_campaign *c, char *err, size_t errlen)
{
    char path[2200], line[4096];
    snprintf(path, sizeof path, "%s.mpiguard-branches.tsv", c->app);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: %s (build the program with mpiguard-cc)", path, strerror(errno));
        return MG_ERROR_ENOENT;
    }
    unsigned long long id = 0;
    if (!fgets(line, sizeof line, f) ||
        sscanf(line, "# mpiguard-branches 1 build_id=%llx", &id) != 1) {
        fclose(f);
        snprintf(err, errlen, "%s: not a branch table of this version", path);
        return MG_ERROR_EFORMAT;
    }
    c->build_id = id;
    size_t cap = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        char fn[1024], loc[2048], arm[64];
        unsigned bid;
        if (sscanf(line, "%u\t%1023[^\t]\t%2047[^\t]\t%63s", &bid, fn, loc, arm) != 4 ||
            bid != c->nbranches)
            break;
        int rc = mg_array_reserve((void **)&c->branches, &cap, (size_t)c->nbranches + 1,
                                  sizeof *c->branches);
        if (rc != MG_ERROR_OK) {
            fclose(f);
            return rc;
        }
        char *colon = strrchr(loc, ':');
        concolic_campaign_branch *b = &c->branches[c->nbranches++];
        b->line = colon ? atoi(colon + 1) : 0;
        if (colon)
            *colon = 0;
        b->function = strdup(fn);
        b->file = strdup(loc);
        b->arm = strdup(arm);
    }
    fclose(f);
    return 0;
}

int concolic_campaign_set_inputs(concolic_campaign *c, const int64_t *v, size_t n)
{
    int64_t *in = malloc((n ? n : 1) * sizeof *in);
    if (!in)
        return MG_ERROR_ENOMEM;
    if (n)
        memcpy(in, v, n * sizeof *v);
    free(c->inputs);
    c->inputs = in;
    c->ninputs = n;
    return 0;
}

int concolic_campaign_set_search(concolic_campaign *c, const char *text)
{
    char *copy = text ? strdup(text) : NULL;
    if (text && !copy)
        return MG_ERROR_ENOMEM;
    free(c->search_text);
    c->search_text = copy;
    return 0;
}

int concolic_campaign_add_bug(concolic_campaign *c, const char *key)
{
    for (size_t i = 0; i < c->nbugs; i++)
        if (!strcmp(c->bug_keys[i], key))
            return 1;
    char **k = realloc(c->bug_keys, (c->nbugs + 1) * sizeof *k);
    if (!k)
        return 0;
    c->bug_keys = k;
    c->bug_keys[c->nbugs++] = strdup(key);
    return 0;
}

int concolic_campaign_save(const concolic_campaign *c)
{
    char path[2200], tmp[2300];
    concolic_campaign_path(c, "campaign", path, sizeof path);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return MG_ERROR_EIO;
    fprintf(f, STATE_MAGIC "%d\nbuild_id %016" PRIx64 "\niterations %" PRIu64 "\nnp %u\nfocus %u\n",
            STATE_VERSION, c->build_id, c->iterations, c->np, c->focus);
    fprintf(f, "inputs %zu", c->ninputs);
    for (size_t i = 0; i < c->ninputs; i++)
        fprintf(f, " %" PRId64, c->inputs[i]);
    fprintf(f, "\ncovered %zu", c->covered.n);
    for (size_t i = 0; i < c->covered.n; i++)
        fprintf(f, " %u", c->covered.arms[i]);
    fprintf(f, "\n");
    for (size_t i = 0; i < c->nbugs; i++)
        fprintf(f, "bug %s\n", c->bug_keys[i]);
    if (c->search_text)
        fputs(c->search_text, f);
    int bad = ferror(f);
    bad |= fclose(f);
    return bad || rename(tmp, path) ? MG_ERROR_EIO : 0;
}

/* What follows the bugs: the search state, kept as text for the loop to parse. */
static int load_search(concolic_campaign *c, FILE *f)
{
    size_t n = 0;
    char *text = (char *)concolic_file_read_rest(f, &n);
    if (!text)
        return MG_ERROR_ENOMEM;
    free(c->search_text);
    c->search_text = n ? text : NULL;
    if (!n)
        free(text);
    return 0;
}

static int load_state(concolic_campaign *c, FILE *f, uint64_t *build)
{
    size_t n;
    int version;
    unsigned long long id, it;
    if (fscanf(f, STATE_MAGIC "%d build_id %llx iterations %llu np %u focus %u inputs %zu",
               &version, &id, &it, &c->np, &c->focus, &n) != 6 ||
        version < 1)
        return MG_ERROR_EFORMAT;
    if (version > STATE_VERSION)
        return MG_ERROR_EVERSION;
    c->version = version;
    *build = id;
    c->iterations = it;
    int64_t *v = calloc(n + 1, sizeof *v);
    if (!v)
        return MG_ERROR_ENOMEM;
    for (size_t i = 0; i < n; i++)
        if (fscanf(f, "%" SCNd64, &v[i]) != 1) {
            free(v);
            return MG_ERROR_EFORMAT;
        }
    int rc = concolic_campaign_set_inputs(c, v, n);
    free(v);
    if (rc || fscanf(f, " covered %zu", &n) != 1)
        return rc ? rc : MG_ERROR_EFORMAT;
    for (size_t i = 0; i < n; i++) {
        uint32_t arm;
        if (fscanf(f, "%u", &arm) != 1 || coverage_set_add(&c->covered, &arm, 1))
            return MG_ERROR_EFORMAT;
    }
    char key[512];
    while (fscanf(f, " bug %511[^\n]", key) == 1)
        concolic_campaign_add_bug(c, key);
    return version >= 2 ? load_search(c, f) : 0;
}

int concolic_campaign_read_table(concolic_campaign *c, const char *app, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    snprintf(c->app, sizeof c->app, "%s", app);
    snprintf(c->heavy, sizeof c->heavy, "%s.mpiguard-heavy", app);
    return read_table(c, err, errlen);
}

int concolic_campaign_open(concolic_campaign *c, const char *dir, const char *app, int resume,
                           uint32_t np, uint32_t focus, char *err, size_t errlen)
{
    int rc = concolic_campaign_read_table(c, app, err, errlen);
    snprintf(c->dir, sizeof c->dir, "%s", dir);
    c->np = np;
    c->focus = focus;
    if (rc)
        return rc;
    if (mkdir(dir, 0755) && errno != EEXIST) {
        snprintf(err, errlen, "%s: %s", dir, strerror(errno));
        return MG_ERROR_EIO;
    }
    char path[2200];
    concolic_campaign_path(c, "campaign", path, sizeof path);
    FILE *f = fopen(path, "r");
    if (!f) {
        if (resume) {
            snprintf(err, errlen, "%s: no campaign to resume", dir);
            return MG_ERROR_ENOENT;
        }
        return 0;
    }
    concolic_campaign saved = {0};
    uint64_t build = 0;
    rc = load_state(resume ? c : &saved, f, &build);
    fclose(f);
    concolic_campaign_free(&saved);
    if (rc) {
        snprintf(err, errlen, "%s: %s", path,
                 rc == MG_ERROR_EVERSION ? "saved by a newer mpiguard" : "damaged campaign state");
        return rc;
    }
    if (build != c->build_id) {
        snprintf(err, errlen,
                 "%s holds a campaign of another build (%016" PRIx64 ", the program is %016" PRIx64
                 "): use another --dir",
                 dir, build, c->build_id);
        return MG_ERROR_EVERSION;
    }
    if (!resume) {
        c->np = np;
        c->focus = focus;
    }
    return 0;
}

void concolic_campaign_free(concolic_campaign *c)
{
    for (uint32_t i = 0; i < c->nbranches; i++) {
        free(c->branches[i].function);
        free(c->branches[i].file);
        free(c->branches[i].arm);
    }
    free(c->branches);
    free(c->inputs);
    coverage_set_free(&c->covered);
    for (size_t i = 0; i < c->nbugs; i++)
        free(c->bug_keys[i]);
    free(c->bug_keys);
    free(c->search_text);
    memset(c, 0, sizeof *c);
}
