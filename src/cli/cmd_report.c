/* `mpiguard report FILE`: renders a report of any tool as text, JSON, DOT or HTML
 * (docs/report-schema.md). */
#include "cli.h"

#include "mg_error.h"
#include "mg_exit.h"
#include "mg_log.h"

#include <errno.h>
#include <string.h>

static const char *const formats[] = {"text", "json", "dot", "html", NULL};

int cmd_report(int argc, char **argv)
{
    static const char usage[] =
        "mpiguard report [--format text|json|dot|html] [--output FILE] REPORT.json";
    int format = 0;
    const char *output = NULL;
    const mg_options_option options[] = {
        {"format", 'f', MG_OPTIONS_CHOICE, &format, "text|json|dot|html",
         "what to render (default text; html: one self-contained page)", formats, 0, 0},
        {"output", 'o', MG_OPTIONS_STRING, &output, "FILE",
         "write there instead of standard output", NULL, 0, 0},
        {NULL, 0, 0, NULL, NULL, NULL, NULL, 0, 0},
    };
    char *positional[1];
    mg_options_parsed_args args;
    int done;
    int rc = cli_options_parse(usage, "Render a report written by any mpiguard tool.", options,
                               argc, argv, CLI_NO_JOB, positional, 1, &args, &done);
    if (rc || done)
        return rc;
    if (args.npositional != 1)
        return cli_options_refuse(usage, "name the report to render");
    report_doc *r;
    char err[1024];
    rc = report_load(args.positional[0], &r, err, sizeof err);
    if (rc) {
        mg_log_error("%s", err);
        return rc == MG_ERROR_ENOENT ? MG_EXIT_NOINPUT : MG_EXIT_DATAERR;
    }
    FILE *out = output ? fopen(output, "w") : stdout;
    if (!out) {
        mg_log_error("cannot write '%s': %s", output, strerror(errno));
        report_destroy(r);
        return MG_EXIT_CANTCREAT;
    }
    void (*const render[])(const report_doc *, FILE *) = {report_render_text, report_render_json,
                                                          report_render_dot, report_html_render};
    render[format](r, out);
    int write_failed = ferror(out) || (output && fclose(out) != 0);
    report_destroy(r);
    if (write_failed) {
        mg_log_error("cannot write '%s'", output ? output : "standard output");
        return MG_EXIT_CANTCREAT;
    }
    return rc;
}
