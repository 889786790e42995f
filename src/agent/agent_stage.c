/* `mpiguard agent stage`: a stage process of the tree of detectors over inherited descriptors. */
#include "agent_stage.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mg_array.h"
#include "mg_env.h"
#include "mg_error.h"
#include "mg_exit.h"
#include "mg_log.h"
#include "tbon_stage.h"

/* Children of one stage, at most (a middle stage's leaves). */
#define STAGE_MAX_INPUTS 256
/* A leaf of a live job whose input stayed quiet this long may hold a deadlock: its held calls go
 * up (tbon_stage_params.quiet_ms). Not for the verdict's sake: the root waits for a call a rank
 * published that it has no record of, and asks the leaves for it (check_policy_view, RELEASE);
 * so that a leaf's records do not lag far behind the job's. MG_ENV_LEAF_QUIET_MS overrides it. */
#define LEAF_QUIET_MS 100

/* "/FD" (where answers go) at s, or nothing: *answers -1. Returns the characters read, -1 if
 * malformed. */
static int parse_answers(const char *s, int *answers)
{
    int used = 0;
    *answers = -1;
    if (*s != '/') {
        return 0;
    }
    return sscanf(s + 1, "%d%n", answers, &used) == 1 && *answers >= 0 ? used + 1 : -1;
}

/* A share at s: ranges "A-B" (or one rank "A") joined by '+', ascending and apart, e.g. a node's
 * ranks round robin "1+4+7", appended to *set (grown, the caller frees it) as *count ranks.
 * Returns the characters read, -1 if malformed or out of memory. */
static int parse_ranks(const char *s, int32_t **set, int32_t *count)
{
    int at = 0;
    size_t cap = 0;
    *count = 0;
    do {
        int a, b, used = 0, more = 0;
        if (sscanf(s + at, "%d%n", &a, &used) != 1 || a < 0 ||
            (*count && a <= (*set)[*count - 1])) {
            return -1;
        }
        b = a;
        if (s[at + used] == '-' && (sscanf(s + at + used + 1, "%d%n", &b, &more) != 1 || b < a)) {
            return -1;
        }
        at += used + (more ? more + 1 : 0);
        if (mg_array_reserve((void **)set, &cap, (size_t)*count + (size_t)(b - a) + 1,
                             sizeof **set) != MG_ERROR_OK) {
            return -1;
        }
        for (int r = a; r <= b; r++) {
            (*set)[(*count)++] = r;
        }
    } while (s[at] == '+' && ++at);
    return at;
}

int agent_stage_format_ranks(const int32_t *ranks, int32_t n, char *out, size_t cap)
{
    size_t len = 0;
    if (cap)
        out[0] = '\0';
    for (int32_t i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && ranks[j] == ranks[j - 1] + 1; j++) {
        }
        int w = snprintf(out + len, cap - len, "%s%d-%d", i ? "+" : "", ranks[i], ranks[j - 1]);
        if (w < 0 || (size_t)w >= cap - len) {
            return 0;
        }
        len += (size_t)w;
    }
    return 1;
}

/* "FD" then answers at s. Returns the characters read, -1 if malformed. */
static int parse_fds(const char *s, int *fd, int *answers)
{
    int used = 0;
    if (sscanf(s, "%d%n", fd, &used) != 1 || *fd < 0) {
        return -1;
    }
    int more = parse_answers(s + used, answers);
    return more < 0 ? -1 : used + more;
}

/* One child of --inputs at s, "FD:RANKS[/FD]" (RANKS as parse_ranks), into input i. Returns the
 * characters read, -1 if malformed. */
static int parse_input(const char *s, int i, int *fds, int *answers, int32_t **ranks,
                       int32_t *count)
{
    int used = 0;
    if (sscanf(s, "%d:%n", &fds[i], &used) != 1 || !used || fds[i] < 0) {
        return -1;
    }
    int range = parse_ranks(s + used, &ranks[i], &count[i]);
    int more = range < 0 ? -1 : parse_answers(s + used + range, &answers[i]);
    return more < 0 ? -1 : used + range + more;
}

/* A leaf's one input, "FD": its agent streams the leaf's share. Returns the characters read, -1
 * if malformed. */
static int parse_leaf_input(const char *s, tbon_stage_params *p, int *fds, int *answers)
{
    int used = parse_fds(s, &fds[0], &answers[0]);
    p->n_inputs = 1;
    answers[0] = -1; /* an agent waits for no answer */
    return used;
}

/* Frees the sets parsed for the share and the inputs; returns status. */
static int stage_done(int32_t *share, int32_t **in_ranks, int n_inputs, int status)
{
    free(share);
    for (int i = 0; i < n_inputs; i++) {
        free(in_ranks[i]);
        in_ranks[i] = NULL;
    }
    return status;
}

int agent_stage_run(const char *ranks, int share, int shares, const char *inputs,
                    const char *output, int agent_bound)
{
    static int in_fds[STAGE_MAX_INPUTS], answer_fds[STAGE_MAX_INPUTS];
    static int32_t *in_ranks[STAGE_MAX_INPUTS], in_count[STAGE_MAX_INPUTS];
    int32_t *set = NULL;
    /* a leaf of check: its share given (a node's ranks) or share k of the world */
    int leaf = !ranks || shares > 0;
    tbon_stage_params p = {.inputs = in_fds,
                           .input_ranks = (const int32_t *const *)in_ranks,
                           .input_count = in_count,
                           .answers_out = answer_fds,
                           .share = share,
                           .shares = leaf ? shares : 0,
                           .quiet_ms = leaf ? LEAF_QUIET_MS : 0,
                           .agent_bound = agent_bound};
    const char *quiet = getenv(MG_ENV_LEAF_QUIET_MS);
    if (leaf && quiet && atoi(quiet) > 0) {
        p.quiet_ms = atoi(quiet);
    }
    if (!inputs || !output || (ranks && parse_ranks(ranks, &set, &p.count) != (int)strlen(ranks)) ||
        (leaf && ((!ranks && share >= shares) ||
                  parse_leaf_input(inputs, &p, in_fds, answer_fds) != (int)strlen(inputs))) ||
        parse_fds(output, &p.output, &p.answers_in) != (int)strlen(output)) {
        mg_log_error(
            "agent stage: needs --ranks A-B[+C-D...] (or --share K --shares N and one input "
            "FD), --inputs FD:A-B[+C-D...][/FD],... and --output FD[/FD], not '%s', '%s', "
            "'%s'",
            ranks ? ranks : "", inputs ? inputs : "", output ? output : "");
        return stage_done(set, in_ranks, 0, MG_EXIT_USAGE);
    }
    p.ranks = set;
    for (const char *at = leaf ? "" : inputs; *at; p.n_inputs++) {
        int used = p.n_inputs < STAGE_MAX_INPUTS
                       ? parse_input(at, p.n_inputs, in_fds, answer_fds, in_ranks, in_count)
                       : -1;
        if (used < 0 || (at[used] != ',' && at[used] != '\0')) {
            mg_log_error("agent stage: --inputs takes up to %d FD:A-B[+C-D...][/FD] separated by "
                         "commas, not '%s'",
                         STAGE_MAX_INPUTS, at);
            return stage_done(set, in_ranks, p.n_inputs + 1, MG_EXIT_USAGE);
        }
        at += used + (at[used] == ',');
    }
    /* a parent or child that went away is an error of the write, not a signal */
    signal(SIGPIPE, SIG_IGN);
    tbon_stage_result res;
    char err[256] = "";
    int rc = tbon_stage_run(&p, &res, err, sizeof err);
    char counts[256];
    snprintf(counts, sizeof counts,
             "stage %d-%d (%d ranks): records %llu passed %llu resolved %llu summaries %llu "
             "broken %d",
             res.first, res.last, res.count, (unsigned long long)res.counts.records,
             (unsigned long long)res.counts.passed, (unsigned long long)res.counts.resolved,
             (unsigned long long)res.counts.summaries, res.broken_inputs);
    /* a leaf of check keeps the job's stdout clean: it logs them; the benchmark reads stdout */
    if (leaf)
        mg_log_info("%s", counts);
    else
        printf("%s\n", counts);
    if (rc) {
        mg_log_error("agent stage %d-%d (%d ranks): %s (%s)", res.first, res.last, res.count, err,
                     mg_error_string(rc));
        return stage_done(set, in_ranks, p.n_inputs, MG_EXIT_SOFTWARE);
    }
    return stage_done(set, in_ranks, p.n_inputs, 0);
}
