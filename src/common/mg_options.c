/* Table-driven option parsing for every subcommand (mg_options.h). */
#include "mg_options.h"

#include "mg_error.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const mg_options_option *find_long(const mg_options_option *const *tables, const char *name,
                                          size_t len)
{
    for (int t = 0; tables[t]; t++)
        for (const mg_options_option *o = tables[t]; o->name; o++)
            if (strlen(o->name) == len && strncmp(o->name, name, len) == 0)
                return o;
    return NULL;
}

static const mg_options_option *find_short(const mg_options_option *const *tables, char c)
{
    for (int t = 0; tables[t]; t++)
        for (const mg_options_option *o = tables[t]; o->name; o++)
            if (o->short_name == c)
                return o;
    return NULL;
}

static mg_options_option_type value_type(const mg_options_option *o)
{
    return (mg_options_option_type)(o->type & ~MG_OPTIONS_HIDDEN);
}

static int store_value(const mg_options_option *o, const char *value, char *err, size_t errlen)
{
    char *end;
    switch (value_type(o)) {
    case MG_OPTIONS_FLAG:
        *(int *)o->dest = 1;
        return MG_ERROR_OK;
    case MG_OPTIONS_STRING:
    case MG_OPTIONS_LIST:
        if (*value == '\0') {
            snprintf(err, errlen, "option --%s needs a non-empty %s", o->name, o->metavar);
            return MG_ERROR_EINVAL;
        }
        *(const char **)o->dest = value;
        return MG_ERROR_OK;
    case MG_OPTIONS_INT: {
        errno = 0;
        long v = strtol(value, &end, 10);
        if (errno || end == value || *end != '\0' || v < o->min || v > o->max) {
            snprintf(err, errlen, "option --%s takes a whole number from %.0f to %.0f, not '%s'",
                     o->name, o->min, o->max, value);
            return MG_ERROR_EINVAL;
        }
        *(long *)o->dest = v;
        return MG_ERROR_OK;
    }
    case MG_OPTIONS_DOUBLE: {
        errno = 0;
        double v = strtod(value, &end);
        if (errno || end == value || *end != '\0' || !(v >= o->min && v <= o->max)) {
            snprintf(err, errlen, "option --%s takes a number from %g to %g, not '%s'", o->name,
                     o->min, o->max, value);
            return MG_ERROR_EINVAL;
        }
        *(double *)o->dest = v;
        return MG_ERROR_OK;
    }
    case MG_OPTIONS_CHOICE:
        for (int i = 0; o->choices[i]; i++)
            if (strcmp(o->choices[i], value) == 0) {
                *(int *)o->dest = i;
                return MG_ERROR_OK;
            }
        {
            size_t n = (size_t)snprintf(err, errlen, "option --%s takes one of", o->name);
            for (int i = 0; o->choices[i] && n < errlen; i++)
                n += (size_t)snprintf(err + n, errlen - n, "%s%s", i ? "|" : " ", o->choices[i]);
            if (n < errlen)
                snprintf(err + n, errlen - n, ", not '%s'", value);
        }
        return MG_ERROR_EINVAL;
    }
    return MG_ERROR_EINVAL;
}

int mg_options_parse(const mg_options_option *const *tables, int argc, char **argv,
                     char **positional_storage, int max_positional, mg_options_parsed_args *out,
                     char *err, size_t errlen)
{
    *out = (mg_options_parsed_args){.positional = positional_storage};
    for (int i = 0; i < argc; i++) {
        char *word = argv[i];
        if (strcmp(word, "--") == 0) {
            out->command = argv + i + 1;
            out->ncommand = argc - i - 1;
            return MG_ERROR_OK;
        }
        if (word[0] != '-' || word[1] == '\0') {
            if (out->npositional == max_positional) {
                snprintf(err, errlen,
                         "unexpected argument '%s' (the job's command goes after '--')", word);
                return MG_ERROR_EINVAL;
            }
            out->positional[out->npositional++] = word;
            continue;
        }
        const mg_options_option *o;
        const char *inline_value = NULL;
        if (word[1] == '-') {
            const char *name = word + 2;
            const char *eq = strchr(name, '=');
            size_t len = eq ? (size_t)(eq - name) : strlen(name);
            o = find_long(tables, name, len);
            if (eq)
                inline_value = eq + 1;
        } else {
            o = word[2] == '\0' ? find_short(tables, word[1]) : NULL;
        }
        if (!o) {
            snprintf(err, errlen, "unknown option '%s' (see --help)", word);
            return MG_ERROR_EINVAL;
        }
        if (value_type(o) == MG_OPTIONS_FLAG) {
            if (inline_value) {
                snprintf(err, errlen, "option --%s takes no value", o->name);
                return MG_ERROR_EINVAL;
            }
            store_value(o, NULL, err, errlen);
            continue;
        }
        if (!inline_value) {
            if (i + 1 >= argc || strcmp(argv[i + 1], "--") == 0) {
                snprintf(err, errlen, "option --%s needs a value (%s)", o->name, o->metavar);
                return MG_ERROR_EINVAL;
            }
            inline_value = argv[++i];
        }
        int rc = store_value(o, inline_value, err, errlen);
        if (rc)
            return rc;
    }
    return MG_ERROR_OK;
}

void mg_options_print_help(FILE *out, const char *usage, const char *description,
                           const mg_options_option *const *tables)
{
    fprintf(out, "usage: %s\n\n%s\n\noptions:\n", usage, description);
    for (int t = 0; tables[t]; t++)
        for (const mg_options_option *o = tables[t]; o->name; o++) {
            if (o->type & MG_OPTIONS_HIDDEN)
                continue;
            char left[64];
            if (o->short_name)
                snprintf(left, sizeof left, "-%c, --%s%s%s", o->short_name, o->name,
                         o->metavar ? " " : "", o->metavar ? o->metavar : "");
            else
                snprintf(left, sizeof left, "    --%s%s%s", o->name, o->metavar ? " " : "",
                         o->metavar ? o->metavar : "");
            fprintf(out, "  %-30s %s\n", left, o->help);
        }
}

/* The most items mg_options_numbers reads. */
enum { NUMBERS_MAX = 32 };

int mg_options_list(char *text, char **items, int max)
{
    int n = 0;
    for (char *save = NULL, *w = strtok_r(text, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        if (n == max)
            return -1;
        items[n++] = w;
    }
    return n;
}

int mg_options_numbers(char *text, uint64_t *out, int max, uint64_t lo, uint64_t hi)
{
    char *items[NUMBERS_MAX];
    int n = mg_options_list(text, items, max < NUMBERS_MAX ? max : NUMBERS_MAX);
    for (int i = 0; i < n; i++) {
        char *end;
        unsigned long long v = strtoull(items[i], &end, 10);
        if (*end || v < lo || v > hi)
            return -1;
        out[i] = v;
    }
    return n;
}

int mg_options_bytes(const char *text, uint64_t *out)
{
    char *end;
    unsigned long long v = strtoull(text, &end, 10);
    int shift = *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : *end == 'T' ? 40 : 0;
    if (end == text || (shift && end[1]) || (!shift && *end))
        return -1;
    *out = (uint64_t)v << shift;
    return 0;
}
