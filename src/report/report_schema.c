/* What a loaded report must be (docs/report-schema.md, "Validation"): one table of field rules,
 * checked in order, so that a field the schema gains is one line here. */
#include "report_internal.h"

#include "mg_error.h"
#include "report_class.h"

#include <string.h>

/* A rule's allowed types: bits of json-c's json_type. */
#define JSON_STRING (1u << json_type_string)
#define JSON_INT (1u << json_type_int)
#define JSON_ARRAY (1u << json_type_array)
#define JSON_OBJECT (1u << json_type_object)
#define JSON_NULL (1u << json_type_null)
#define JSON_BOOLEAN (1u << json_type_boolean)

typedef struct field_rule {
    const char *path;          /* from the top: "job.ranks[].pid"; "[]" is every element */
    unsigned types;            /* JSON_* bits the value may have */
    int required;              /* present wherever its parent is */
    const char *const *values; /* the strings allowed (NULL-terminated), or NULL for any */
    const char *const *(*values_of)(void); /* or a function returning them */
} field_rule;

static const char *const tools[] = {"run",     "hang",     "check", "collectives",
                                    "protect", "concolic", NULL};
static const char *const severities[] = {"error", "warning", "note", NULL};
static const char *const outcomes[] = {"completed",   "failed",   "stopped",
                                       "interrupted", "released", NULL};
/* rank_observe_cause_name's names but "pending" (never reported), and a rank never found;
 * test_report checks that each cause's name is here. */
static const char *const observe_causes[] = {"observed",
                                             "preload_replaced",
                                             "library_not_loaded",
                                             "static_binary",
                                             "not_mpi",
                                             "other_mpi",
                                             "unwrapped_binding",
                                             "unknown_interface",
                                             "vanished",
                                             "other_node",
                                             "agent_lost",
                                             "not_found",
                                             "stopped_before_init",
                                             NULL};
static const char *const samplers[] = {"shm", "ring", "ptrace", NULL};
static const char *const site_roles[] = {"call", "creation", NULL};
static const char *const site_line_kinds[] = {"procedure", NULL};

/* A container comes before its fields, so a wrong container is named before what it holds.
 * Fields not listed are free (a tool's evidence and tool_data), but for the tool_data field the
 * text view reads. */
static const field_rule rules[] = {
    {"tool", JSON_STRING, 1, tools, NULL},
    {"version", JSON_STRING, 1, NULL, NULL},
    {"command", JSON_ARRAY, 1, NULL, NULL},
    {"command[]", JSON_STRING, 1, NULL, NULL},
    {"mpi", JSON_OBJECT, 0, NULL, NULL},
    {"mpi.flavor", JSON_STRING | JSON_NULL, 0, NULL, NULL},
    {"mpi.launcher", JSON_STRING | JSON_NULL, 0, NULL, NULL},
    {"mpi.library", JSON_STRING | JSON_NULL, 0, NULL, NULL},
    {"job", JSON_OBJECT, 0, NULL, NULL},
    {"job.ranks", JSON_ARRAY, 0, NULL, NULL},
    {"job.ranks[]", JSON_OBJECT, 1, NULL, NULL},
    {"job.ranks[].rank", JSON_INT, 1, NULL, NULL},
    {"job.ranks[].pid", JSON_INT, 1, NULL, NULL},
    {"job.ranks[].host", JSON_STRING | JSON_NULL, 1, NULL, NULL},
    {"job.exit_status", JSON_INT, 0, NULL, NULL},
    {"job.outcome", JSON_STRING, 0, outcomes, NULL},
    {"tool_data", JSON_OBJECT, 0, NULL, NULL},
    {"tool_data.unmodelled_calls", JSON_ARRAY, 0, NULL, NULL},
    {"tool_data.unmodelled_calls[]", JSON_STRING, 1, NULL, NULL},
    {"observation", JSON_ARRAY, 0, NULL, NULL},
    {"observation[]", JSON_OBJECT, 1, NULL, NULL},
    {"observation[].rank", JSON_INT, 1, NULL, NULL},
    {"observation[].observed", JSON_BOOLEAN, 1, NULL, NULL},
    {"observation[].cause", JSON_STRING, 1, observe_causes, NULL},
    {"observation[].detail", JSON_STRING | JSON_NULL, 1, NULL, NULL},
    {"observation[].sampler", JSON_STRING | JSON_NULL, 1, samplers, NULL},
    {"findings", JSON_ARRAY, 1, NULL, NULL},
    {"findings[]", JSON_OBJECT, 1, NULL, NULL},
    {"findings[].kind", JSON_STRING, 1, NULL, report_class_names},
    {"findings[].severity", JSON_STRING, 1, severities, NULL},
    {"findings[].summary", JSON_STRING, 1, NULL, NULL},
    {"findings[].ranks", JSON_ARRAY, 1, NULL, NULL},
    {"findings[].ranks[]", JSON_INT, 1, NULL, NULL},
    {"findings[].sites", JSON_ARRAY, 1, NULL, NULL},
    {"findings[].sites[]", JSON_OBJECT, 1, NULL, NULL},
    {"findings[].sites[].rank", JSON_INT, 1, NULL, NULL},
    {"findings[].sites[].function", JSON_STRING | JSON_NULL, 1, NULL, NULL},
    {"findings[].sites[].file", JSON_STRING | JSON_NULL, 1, NULL, NULL},
    {"findings[].sites[].line", JSON_INT, 1, NULL, NULL},
    {"findings[].sites[].role", JSON_STRING, 0, site_roles, NULL},
    {"findings[].sites[].line_is", JSON_STRING, 0, site_line_kinds, NULL},
    {"findings[].evidence", JSON_OBJECT, 0, NULL, NULL},
    {"findings[].suggestion", JSON_STRING, 1, NULL, NULL},
    {"findings[].graph", JSON_OBJECT, 0, NULL, NULL},
    {"findings[].graph.nodes", JSON_ARRAY, 0, NULL, NULL},
    {"findings[].graph.nodes[]", JSON_OBJECT, 1, NULL, NULL},
    {"findings[].graph.nodes[].id", JSON_STRING, 1, NULL, NULL},
    {"findings[].graph.nodes[].label", JSON_STRING, 1, NULL, NULL},
    {"findings[].graph.nodes[].shape", JSON_STRING, 1, NULL, NULL},
    {"findings[].graph.nodes[].highlight", JSON_BOOLEAN, 0, NULL, NULL},
    {"findings[].graph.edges", JSON_ARRAY, 0, NULL, NULL},
    {"findings[].graph.edges[]", JSON_OBJECT, 1, NULL, NULL},
    {"findings[].graph.edges[].from", JSON_STRING, 1, NULL, NULL},
    {"findings[].graph.edges[].to", JSON_STRING, 1, NULL, NULL},
    {"findings[].graph.edges[].style", JSON_STRING, 1, NULL, NULL},
};

/* The words for each json_type, indexed by it. */
static const char *const type_words[] = {
    [json_type_null] = "null",        [json_type_boolean] = "true or false",
    [json_type_double] = "a number",  [json_type_int] = "an integer",
    [json_type_object] = "an object", [json_type_array] = "an array",
    [json_type_string] = "a string",
};

/* Where the walk is, and where a failure is told. */
typedef struct walk {
    const char *file;
    char *err;
    size_t errlen;
} walk;

/* The strings rule allows, or NULL for any. */
static const char *const *allowed_values(const field_rule *rule)
{
    return rule->values_of ? rule->values_of() : rule->values;
}

static void describe_expected(const field_rule *rule, char *out, size_t outlen)
{
    size_t n = 0;
    out[0] = '\0';
    const char *const *values = allowed_values(rule);
    if (values) {
        n = (size_t)snprintf(out, outlen, "one of");
        for (int i = 0; values[i] && n < outlen; i++)
            n += (size_t)snprintf(out + n, outlen - n, "%s%s", i ? "|" : " ", values[i]);
        return;
    }
    for (size_t t = 0; t < sizeof type_words / sizeof *type_words && n < outlen; t++)
        if (rule->types & (1u << t))
            n += (size_t)snprintf(out + n, outlen - n, "%s%s", n ? " or " : "", type_words[t]);
}

/* Writes why the value at `where` breaks rule ("is missing", "is a string", "is \"haang\"") and
 * returns MG_ERROR_EFORMAT. */
static int refuse(const field_rule *rule, const char *where, const char *found, const walk *w)
{
    char expected[1024];
    describe_expected(rule, expected, sizeof expected);
    snprintf(w->err, w->errlen, "'%s': %s is %s (expected %s)", w->file, where, found, expected);
    return MG_ERROR_EFORMAT;
}

/* Checks one value of rule's path (present: the key exists, its value possibly JSON null). */
static int check_value(const field_rule *rule, int present, json_object *value, const char *where,
                       const walk *w)
{
    if (!present)
        return rule->required ? refuse(rule, where, "missing", w) : MG_ERROR_OK;
    json_type type = json_object_get_type(value);
    if (!(rule->types & (1u << type)))
        return refuse(rule, where, type_words[type], w);
    const char *const *values = allowed_values(rule);
    if (!values || type != json_type_string)
        return MG_ERROR_OK;
    for (int i = 0; values[i]; i++)
        if (strcmp(values[i], json_object_get_string(value)) == 0)
            return MG_ERROR_OK;
    char quoted[128];
    snprintf(quoted, sizeof quoted, "\"%s\"", json_object_get_string(value));
    return refuse(rule, where, quoted, w);
}

/* Applies rule to what `rest` (the rule's path still to walk) names below node, which is at the
 * JSON path where[0..used). A container of the wrong type is skipped: its own rule, earlier in the
 * table, has failed already. */
static int check_below(const field_rule *rule, json_object *node, const char *rest, char *where,
                       size_t used, size_t wherelen, const walk *w)
{
    if (*rest == '.')
        rest++;
    if (strncmp(rest, "[]", 2) == 0) {
        if (!json_object_is_type(node, json_type_array))
            return MG_ERROR_OK;
        for (size_t i = 0; i < json_object_array_length(node); i++) {
            size_t n = used + (size_t)snprintf(where + used, wherelen - used, "[%zu]", i);
            json_object *element = json_object_array_get_idx(node, i);
            int rc = rest[2] ? check_below(rule, element, rest + 2, where, n, wherelen, w)
                             : check_value(rule, 1, element, where, w);
            if (rc)
                return rc;
        }
        return MG_ERROR_OK;
    }
    if (!json_object_is_type(node, json_type_object))
        return MG_ERROR_OK;
    size_t len = strcspn(rest, ".[");
    size_t n = used + (size_t)snprintf(where + used, wherelen - used, "%s%.*s", used ? "." : "",
                                       (int)len, rest);
    char key[64];
    snprintf(key, sizeof key, "%.*s", (int)len, rest);
    json_object *value = NULL;
    int present = json_object_object_get_ex(node, key, &value);
    if (!rest[len])
        return check_value(rule, present, value, where, w);
    return present ? check_below(rule, value, rest + len, where, n, wherelen, w) : MG_ERROR_OK;
}

int report_schema_validate(json_object *root, const char *file, char *err, size_t errlen)
{
    json_object *o;
    if (!json_object_is_type(root, json_type_object)) {
        snprintf(err, errlen, "'%s' is JSON but not an mpiguard report (not an object)", file);
        return MG_ERROR_EFORMAT;
    }
    if (!json_object_object_get_ex(root, "schema", &o) ||
        !json_object_is_type(o, json_type_string)) {
        snprintf(err, errlen, "'%s' is not an mpiguard report (no \"schema\" field)", file);
        return MG_ERROR_EFORMAT;
    }
    if (strcmp(json_object_get_string(o), REPORT_SCHEMA) != 0) {
        snprintf(err, errlen, "'%s' has schema '%s'; this mpiguard reads '%s'", file,
                 json_object_get_string(o), REPORT_SCHEMA);
        return MG_ERROR_EVERSION;
    }
    const walk w = {file, err, errlen};
    for (size_t i = 0; i < sizeof rules / sizeof *rules; i++) {
        char where[512]; /* the deepest rule's path, with 20-digit indices, takes under 200 */
        int rc = check_below(&rules[i], root, rules[i].path, where, 0, sizeof where, &w);
        if (rc)
            return rc;
    }
    return MG_ERROR_OK;
}
