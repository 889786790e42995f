/* The protection module's CLI side, shared by `mpiguard protect` and `mpiguard run`; see
 * protect_setup.h. The safe bounds (a file of `mpiguard collectives`), an artificial bound (tests),
 * or only Detector D (no file needed) reach the ranks' module as a small text file; what the module
 * did comes back as event lines and becomes the report's findings. */
#include "protect_setup.h"

#include "bounds_file_load.h"
#include "bounds_text.h"
#include "mg_error.h"
#include "mg_exit.h"
#include "mg_log.h"
#include "mpi_version.h"
#include "protect_event.h"
#include "scaling_bounds.h"
#include "site_resolver.h"
#include "mg_env.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const workaround_choices[] = {"auto", "W1A", "W1B", "W2", "W3", NULL};
static const char *const calls_choices[] = {"int", "large", "all", NULL};
enum { WORKAROUND_W3 = 4 };

protect_setup_settings protect_setup_opts;

const mg_options_option protect_setup_options[] = {
    {"bounds", 0, MG_OPTIONS_STRING, &protect_setup_opts.bounds, "FILE",
     "safe bounds measured by `mpiguard collectives` (Detectors G and X); Detector D needs none",
     NULL, 0, 0},
    {"bound", 0, MG_OPTIONS_INT | MG_OPTIONS_HIDDEN, &protect_setup_opts.bound, "N",
     "an artificial Class G bound for every collective (tests): fires when the form's product "
     "exceeds N",
     NULL, 1, 9.2e18},
    {"bound-form", 0, MG_OPTIONS_CHOICE | MG_OPTIONS_HIDDEN, &protect_setup_opts.form,
     "nP|snP|sn|n|sn(P-1)|n(P-1)",
     "the form of --bound (default nP: count times processes; n(P-1): count times the other "
     "processes)",
     scaling_bounds_form_names, 0, 0},
    {"bound-calls", 0, MG_OPTIONS_CHOICE | MG_OPTIONS_HIDDEN, &protect_setup_opts.calls,
     "int|large|all",
     "the collectives --bound bounds: int (default; the int-count forms), large (the MPI-4 "
     "large-count forms, MPI_Gatherv_c, ...: the application's own and W3's) or all",
     calls_choices, 0, 0},
    {"workaround", 0, MG_OPTIONS_CHOICE, &protect_setup_opts.workaround, "auto|W1A|W1B|W2|W3",
     "use this workaround where it applies (default auto: the cost model chooses; W3 needs an "
     "MPI with the MPI-4 large-count collectives)",
     workaround_choices, 0, 0},
    {"agree", 0, MG_OPTIONS_FLAG, &protect_setup_opts.agree, NULL,
     "let W1-A, W1-B and W3 serve Gatherv, Scatterv and Alltoallv (and their nonblocking forms): "
     "the ranks agree on each call's plan with one small control message per call (default: no "
     "message; only W2, which changes one rank's side alone, serves them)",
     NULL, 0, 0},
    {NULL, 0, 0, NULL, NULL, NULL, NULL, 0, 0},
};

/* What reaches the ranks (job_session_add_env keeps pointers: static storage). */
static char dir[] = "/tmp/mpiguard-protect.XXXXXX";
static char module_bounds[sizeof dir + 16], artificial[64];
static int have_dir;

int protect_setup_options_given(void)
{
    return protect_setup_opts.bounds || protect_setup_opts.bound || protect_setup_opts.form ||
           protect_setup_opts.calls || protect_setup_opts.workaround || protect_setup_opts.agree;
}

/* The job's MPI as cli_session_start will choose it (launcher, or --mpi). */
static mg_mpi_flavor job_flavor(char **command, int ncommand)
{
    launcher l;
    char err[512];
    if (launcher_identify(command, ncommand, &l, err, sizeof err) != 0)
        return cli_options_mpi(); /* cli_session_start refuses the command, saying why */
    return launcher_job_flavor(&l, cli_options_mpi());
}

/* Reads the bounds file, checks it was measured on this MPI, and writes the module's text form to
 * module_path. Returns 0 or an exit status after saying why. */
static int prepare_bounds(const char *path, mg_mpi_flavor flavor, const char *module_path)
{
    bounds_file_doc doc;
    char err[1024];
    int status = bounds_file_load(path, flavor, &doc);
    if (status)
        return status;
    if (bounds_file_write_module(module_path, &doc, err, sizeof err) != 0) {
        mg_log_error("%s", err);
        status = MG_EXIT_CANTCREAT;
    }
    bounds_file_free(&doc);
    return status;
}

/* An option about the MPI-4 large-count collectives (W3 calls them; --bound-calls large bounds
 * them): refused, before anything runs, on an MPI without them (Open MPI 4.1), where it could do
 * nothing. An MPI that cannot be told is left to the module. */
static int check_large(mg_mpi_flavor flavor, const char *what, const char *instead)
{
    int count = 0;
    char version[32] = "";
    if (flavor == MG_MPI_FLAVOR_UNKNOWN || mpi_large_count_of(flavor, &count) != 0 || count > 0)
        return 0;
    mpi_version_of(flavor, version, sizeof version);
    mg_log_error("%s the MPI-4 large-count collectives (MPI_Gatherv_c, ...), which %s %s does not "
                 "have; %s, or an MPI-4 library such as MPICH 4",
                 what, mg_mpi_flavor_name(flavor), version[0] ? version : "(version unknown)",
                 instead);
    return MG_EXIT_UNAVAILABLE;
}

void protect_setup_discard(void)
{
    if (!have_dir)
        return;
    unlink(module_bounds);
    rmdir(dir);
    have_dir = 0;
}

int protect_setup_prepare(char **command, int ncommand)
{
    const protect_setup_settings *o = &protect_setup_opts;
    mg_mpi_flavor flavor = job_flavor(command, ncommand);
    int rc;
    if (o->workaround == WORKAROUND_W3 &&
        (rc = check_large(flavor, "--workaround W3 calls", "use auto, W1A, W1B or W2")))
        return rc;
    if (o->calls && (rc = check_large(flavor, "--bound-calls large or all bounds",
                                      "use --bound-calls int (the default)")))
        return rc;
    memcpy(dir + sizeof dir - 7, "XXXXXX", 6);
    if (!mkdtemp(dir)) {
        mg_log_error("cannot create a temporary directory for the protection module's settings");
        return MG_EXIT_CANTCREAT;
    }
    have_dir = 1;
    snprintf(module_bounds, sizeof module_bounds, "%s/bounds.txt", dir);
    if (o->bounds && (rc = prepare_bounds(o->bounds, flavor, module_bounds))) {
        protect_setup_discard();
        return rc;
    }
    if (o->bounds)
        job_session_add_env(MG_ENV_PROTECT_BOUNDS, module_bounds);
    if (o->bound) {
        bounds_text_artificial a = {
            .limit = (uint64_t)o->bound, .on_int = o->calls != 1, .on_large = o->calls != 0};
        snprintf(a.form, sizeof a.form, "%s",
                 scaling_bounds_form_name((scaling_bounds_form)o->form));
        bounds_text_put_artificial(artificial, sizeof artificial, &a);
        job_session_add_env(MG_ENV_PROTECT_ARTIFICIAL, artificial);
    }
    if (o->workaround)
        job_session_add_env(MG_ENV_PROTECT_WORKAROUND, workaround_choices[o->workaround]);
    if (o->agree)
        job_session_add_env(MG_ENV_PROTECT_AGREE, "1");
    job_session_add_env(MG_ENV_PROTECT_EVENTS, dir);
    return 0;
}

/* The findings made so far, by (kind, collective, call site, workaround): ranks that report the
 * same event (every rank of an Alltoallv can fire) join one finding. */
typedef struct seen_event {
    char key[4352]; /* the site names its object by path */
    report_entry *finding;
} seen_event;

enum { SEEN_MAX = 256 };

/* The source line of a call site of `called`, read from the object's file; unknown fields where the
 * object has no debug information or is gone. */
static void resolve_site(site_resolver *sites, const char *where, const char *called,
                         site_resolver_info *out)
{
    memset(out, 0, sizeof *out);
    char object[4096];
    uint64_t offset;
    if (sites && protect_event_site_object(where, object, sizeof object, &offset) == 0)
        site_resolver_lookup_object(sites, object, offset, called, out);
}

/* How a summary names a site: "file.c:line" where known, else as the rank's own line does. */
static void site_label(const char *where, const site_resolver_info *site, char *out, size_t len)
{
    const char *name = site->file ? strrchr(site->file, '/') : NULL;
    if (site->file && site->line)
        snprintf(out, len, "%s:%d", name ? name + 1 : site->file, site->line);
    else
        snprintf(out, len, "%s", protect_event_site_short(where));
}

/* A rank's site of a finding, said to be its procedure's line where the call's is not known. */
static void add_site(report_entry *fd, int rank, const char *function,
                     const site_resolver_info *site)
{
    report_finding_add_site(fd, rank, function, site->file, site->line);
    if (site->line_is_procedure)
        report_mark_procedure_line(fd);
}

/* One event line of a rank (protect_event.h). */
static void add_event(cli_session *s, site_resolver *sites, int rank, char *line, seen_event *seen,
                      int *nseen, int *uses, int *unprotected)
{
    protect_event ev;
    if (protect_event_take(line, &ev) != 0)
        return;
    char key[sizeof seen->key];
    snprintf(key, sizeof key, "%s\t%s\t%s\t%s", ev.kind, ev.function, ev.site, ev.workaround);
    site_resolver_info site;
    resolve_site(sites, ev.site, ev.function, &site);
    for (int i = 0; i < *nseen; i++)
        if (strcmp(seen[i].key, key) == 0) {
            report_finding_add_rank(seen[i].finding, rank);
            add_site(seen[i].finding, rank, ev.function, &site);
            return;
        }
    int used = protect_event_used(&ev);
    char label[512], summary[1024];
    site_label(ev.site, &site, label, sizeof label);
    protect_event_summary(&ev, label, summary, sizeof summary);
    report_entry *fd = report_add_finding(s->report, used ? "workaround" : "scaling_trigger",
                                          summary);
    if (!fd)
        return;
    report_finding_add_rank(fd, rank);
    add_site(fd, rank, ev.function, &site);
    json_object *evidence = report_finding_evidence(fd);
    json_object_object_add(evidence, "collective", json_object_new_string(ev.function));
    json_object_object_add(evidence, "call_site", json_object_new_string(ev.site));
    if (used) {
        json_object_object_add(evidence, "detectors", json_object_new_string(ev.detectors));
        json_object_object_add(evidence, "workaround", json_object_new_string(ev.workaround));
        json_object_object_add(evidence, "completed_eagerly", json_object_new_boolean(ev.eager));
    } else {
        json_object_object_add(evidence, "user_error",
                               json_object_new_boolean(strcmp(ev.kind, "user_error") == 0));
        json_object_object_add(evidence, "detail", json_object_new_string(ev.detail));
    }
    if (*nseen < SEEN_MAX) {
        snprintf(seen[*nseen].key, sizeof seen[*nseen].key, "%s", key);
        seen[(*nseen)++].finding = fd;
    }
    *(used ? uses : unprotected) += 1;
}

/* Never silent: a rank that made no events file either ran without the protection module, and its
 * collectives were not protected, or could not write the file (a rank on another node). */
static void say_unprotected_ranks(const cli_session *s)
{
    int missing = 0, first = -1;
    for (int r = 0; r < s->job.nranks; r++)
        if (!s->job.ranks[r].pid) {
            missing++;
            first = first < 0 ? r : first;
        }
    if (s->job.nranks == 0)
        mg_log_warn("%s: no rank of the job left a trace of the protection module: it did not run, "
                    "or could not write its events file",
                    s->tool);
    else if (missing)
        mg_log_warn("%s: %d of %d rank(s) left no trace of the protection module (the first: rank "
                    "%d): it did not run there, or could not write its events file (another node?)",
                    s->tool, missing, s->job.nranks, first);
}

void protect_setup_collect(cli_session *s, int only_if_any)
{
    int uses = 0, unprotected = 0, nseen = 0;
    seen_event *seen = calloc(SEEN_MAX, sizeof *seen);
    site_resolver *sites = NULL;
    if (site_resolver_create(&sites) != MG_ERROR_OK)
        sites = NULL;
    DIR *d = have_dir ? opendir(dir) : NULL;
    struct dirent *e;
    while (d && (e = readdir(d))) {
        int rank, size, pid;
        char path[4096], line[8192];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (seen && protect_event_file_take(e->d_name, &rank, &size, &pid) == 0) {
            job_session_note_rank(&s->job, rank, size, pid);
            FILE *f = fopen(path, "r");
            while (f && fgets(line, sizeof line, f))
                add_event(s, sites, rank, line, seen, &nseen, &uses, &unprotected);
            if (f)
                fclose(f);
        }
        if (e->d_name[0] != '.')
            unlink(path);
    }
    if (d)
        closedir(d);
    if (have_dir && !only_if_any)
        say_unprotected_ranks(s);
    free(seen);
    site_resolver_destroy(sites);
    protect_setup_discard();
    json_object *data = report_tool_data(s->report);
    json_object_object_add(data, "workaround_sites", json_object_new_int(uses));
    json_object_object_add(data, "unprotected_sites", json_object_new_int(unprotected));
    if (!only_if_any || uses || unprotected)
        cli_options_say(
            s->tool, "%d call site(s) routed through a workaround, %d trigger(s) left unprotected",
            uses, unprotected);
}
