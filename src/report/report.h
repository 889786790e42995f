/* The one report schema of every mpiguard tool (docs/report-schema.md): a JSON document built in
 * memory, written atomically after every finding so nothing found is ever lost, loaded back for
 * `mpiguard report`, and rendered as text or DOT. json-c objects are exposed for evidence only. */
#ifndef MG_REPORT_H
#define MG_REPORT_H

#include <json-c/json.h>
#include <stddef.h>
#include <stdio.h>

#define REPORT_SCHEMA "mpiguard-report/1"

typedef struct report_doc report_doc;
typedef struct json_object report_entry; /* a finding is a JSON object inside the report */

/* Creates an empty report for `tool` run as the words command[0..ncommand). Returns NULL when out
 * of memory. The report owns copies of every string. */
report_doc *report_create(const char *tool, const char *version, char *const *command,
                          int ncommand);
void report_destroy(report_doc *r);

/* The MPI the job used: flavour ("openmpi", "mpich"), the launcher's path, the interposition
 * library. */
void report_set_mpi(report_doc *r, const char *flavor, const char *launcher, const char *library);
/* The job section: one entry per discovered rank and the job's exit status (-1 while unknown). */
void report_add_rank(report_doc *r, int rank, int pid, const char *host);
void report_set_exit(report_doc *r, int exit_status, const char *outcome);
/* Whether the tool observed rank `rank` (docs/report-schema.md, `observation`): cause is
 * "observed" or why not, detail a sentence for a person (NULL when observed), sampler how the
 * tool read the rank (NULL when it did not). */
void report_add_observation(report_doc *r, int rank, int observed, const char *cause,
                            const char *detail, const char *sampler);
/* Extra tool-level facts (model parameters, settings) as a JSON object the report owns. */
json_object *report_tool_data(report_doc *r);

/* Adds a finding of class `kind` (report_class.h): its severity and suggestion are the class's
 * (report_finding_set_suggestion may say more). A kind missing from the table gets severity "error"
 * and no suggestion, and the report then fails validation. Returns NULL when out of memory. */
report_entry *report_add_finding(report_doc *r, const char *kind, const char *summary);
/* Replaces finding i by an empty one, as report_add_finding makes it (a finding that grew since
 * it was added is written anew). Returns NULL when there is no finding i or out of memory. */
report_entry *report_replace_finding(report_doc *r, size_t i, const char *kind,
                                     const char *summary);
/* Lists rank in the finding's "ranks", once, in the order of first addition; O(1) amortised. */
void report_finding_add_rank(report_entry *f, int rank);
/* A call site; file may be NULL and line 0 when unknown. */
void report_finding_add_site(report_entry *f, int rank, const char *function, const char *file,
                             int line);
/* Where the object the finding is about was created ("MPI_Type_vector" at file:line): a site
 * with role "creation". */
void report_finding_add_creation_site(report_entry *f, int rank, const char *function,
                                      const char *file, int line);
/* The site added last has its procedure's declaration line (the `program` or `subroutine`
 * statement), as the compiler's line table gave it for the call: "line_is": "procedure". */
void report_mark_procedure_line(report_entry *f);
void report_finding_set_suggestion(report_entry *f, const char *text);
/* The finding's evidence object (created on first use; owned by the finding). */
json_object *report_finding_evidence(report_entry *f);
/* A graph for the DOT view: nodes and edges (style "solid" for AND, "dashed" for OR). */
void report_finding_add_graph_node(report_entry *f, const char *id, const char *label,
                                   const char *shape);
/* Marks node `id` (added before) as highlighted: drawn filled (an OR-knot's processes). */
void report_finding_highlight_graph_node(report_entry *f, const char *id);
void report_finding_add_graph_edge(report_entry *f, const char *from, const char *to,
                                   const char *style);

size_t report_finding_count(const report_doc *r);
report_entry *report_finding(const report_doc *r, size_t i);

/* Writes the report to path atomically (a temporary file renamed over it). On failure returns a
 * negative MG_ERROR_E* code, leaves any earlier file intact, and writes the reason into err. */
int report_write(const report_doc *r, const char *path, char *err, size_t errlen);

/* Loads and validates a report. MG_ERROR_ENOENT (missing, unreadable or a directory),
 * MG_ERROR_EFORMAT (empty, not JSON, or not the schema: docs/report-schema.md, "Validation") or
 * MG_ERROR_EVERSION (another schema version); err names the file and the problem (for the schema,
 * the JSON path). */
int report_load(const char *path, report_doc **out, char *err, size_t errlen);

/* Renderers. The banner is the stable one-line form of a finding for stderr:
 * "mpiguard: ERROR HANG <summary>", then one line per site: "mpiguard:   rank 0: MPI_Recv() at
 * a.c:12". */
void report_render_text(const report_doc *r, FILE *out);
void report_render_json(const report_doc *r, FILE *out);
void report_render_dot(const report_doc *r, FILE *out);
/* A self-contained HTML page (inline CSS and SVG, no script, no network): findings grouped by
 * class with their ranks, sites and source lines (read from the files where readable), and each
 * graph drawn as SVG. */
void report_html_render(const report_doc *r, FILE *out);
void report_render_finding_banner(const report_entry *f, FILE *out);
/* "calls the run made that are not checked: MPI_Comm_idup, ..." after `before`, from check's
 * tool_data.unmodelled_calls (docs/report-schema.md), on the clean line and in the text view;
 * nothing when it names none. Returns whether it wrote. */
int report_render_unmodelled(json_object *tool_data, const char *before, FILE *out);

#endif
