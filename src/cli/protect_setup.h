/* Internal to src/cli: no other folder includes it (docs/architecture.md). */
/* The protection module as the job-running tools set it up (`mpiguard protect`, and `mpiguard
 * run`, which loads it by default): its options, one table for both; the checks made before the
 * job starts (the safe-bounds file, W3 on this MPI); the settings passed to the ranks; and what the
 * ranks report back, as findings (docs/cli.md, docs/collectives.md). */
#ifndef MG_PROTECT_SETUP_H
#define MG_PROTECT_SETUP_H

#include "cli.h"

/* What the options say; filled by the parse of protect_setup_options. */
typedef struct protect_setup_settings {
    const char *bounds; /* --bounds FILE, or NULL */
    long bound;         /* --bound N, or 0 */
    int form;           /* --bound-form: a scaling_bounds_form (nP, the first, by default) */
    int calls;          /* --bound-calls: index into int, large, all */
    int workaround;     /* --workaround: index into auto, W1A, W1B, W2, W3 */
    int agree;          /* --agree: Gatherv/Scatterv/Alltoallv agree on each plan (a message) */
} protect_setup_settings;

extern protect_setup_settings protect_setup_opts;
/* --bounds, --bound, --bound-form, --bound-calls, --workaround, --agree (terminated like every
 * mg_options_option table). */
extern const mg_options_option protect_setup_options[];

/* Whether any protect option was given (for a tool to refuse them where they make no sense). */
int protect_setup_options_given(void);

/* Checks the options against the job's MPI (command: the launcher words) and passes the module's
 * settings to the ranks (job_session_add_env): the bounds file in the module's text form, the
 * artificial bound, the forced workaround, and a private directory for the ranks' events. Returns
 * 0, or an exit status after saying why: 66 a bounds file that cannot be read; 65 one that is
 * malformed or of another MPI or version; 69 `--workaround W3` or `--bound-calls large|all` where
 * the MPI has no large-count collectives; 73 nothing can be written. Nothing is left behind on
 * failure. */
int protect_setup_prepare(char **command, int ncommand);

/* Turns the ranks' events into findings (one per call site and kind, with every rank that reported
 * it), records the counts in the tool data and prints
 * "mpiguard: <tool>: N call site(s) routed through a workaround, M trigger(s) left unprotected"
 * (unless --quiet; with only_if_any, only when N or M is not 0). Removes the settings directory. */
void protect_setup_collect(cli_session *s, int only_if_any);

/* Removes the settings directory of a job that did not start. */
void protect_setup_discard(void);

#endif
