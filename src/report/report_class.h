/* The one table of finding classes of every mpiguard tool (docs/check-classes.md "Finding
 * classes"): each class's stable name (a finding's `kind`), the tool that reports it, its
 * `--checks` group, its severity, what it means and what to do about it. A new class is one line in
 * report_class.c. */
#ifndef MG_REPORT_CLASS_H
#define MG_REPORT_CLASS_H

#include <stddef.h>

typedef struct report_class {
    const char *name;       /* the finding's kind: "deadlock", "datatype_freed" */
    const char *tool;       /* the tool that reports it: "check", "hang", ... */
    const char *group;      /* what `mpiguard check --checks` selects it by: "deadlock", "args" */
    const char *severity;   /* "error", "warning" or "note" */
    const char *meaning;    /* one line: what was found */
    const char *suggestion; /* one line: what to do; a finding may carry a more specific one */
} report_class;

/* The class named `name`, or NULL. */
const report_class *report_class_find(const char *name);
/* Class i of the table (in its order), or NULL past the end. */
const report_class *report_class_at(size_t i);
/* Every class name, in the table's order, NULL-terminated (for the schema's allowed kinds).
 * Thread-safe. */
const char *const *report_class_names(void);

/* The number of classes in the table. */
size_t report_class_count(void);
/* Which of check's classes `--checks SPEC` selects: selected[i] for class i of the table (0 for
 * other tools' classes). SPEC is a comma list of groups or class names, "all", each optionally
 * preceded by '-' to leave it out; a list starting with a '-' item starts from all of them.
 * Returns 0, or MG_ERROR_EINVAL with err naming the word that is neither a group nor a class of
 * check. */
int report_class_select(const char *spec, unsigned char *selected, size_t nselected, char *err,
                        size_t errlen);

/* Whether the class named `name` is selected (selected as report_class_select fills it); 1 for a
 * name missing from the table, whose finding a report then fails to validate with. */
int report_class_selected(const unsigned char *selected, const char *name);

/* The names of check's classes with selected[i] == want, comma-separated, into out ("" when
 * none). */
void report_class_list(const unsigned char *selected, int want, char *out, size_t outlen);

#endif
