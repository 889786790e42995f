/* The one command-line parser of mpiguard: every subcommand describes its options in a table and
 * parses with mg_options_parse; help text comes from the same table (docs/cli.md). */
#ifndef MG_OPTIONS_H
#define MG_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum mg_options_option_type {
    MG_OPTIONS_FLAG,   /* no value; *(int *)dest = 1 */
    MG_OPTIONS_STRING, /* *(const char **)dest = the value (points into argv) */
    MG_OPTIONS_INT,    /* *(long *)dest, checked against [min, max] */
    MG_OPTIONS_DOUBLE, /* *(double *)dest, checked against [min, max] */
    MG_OPTIONS_CHOICE, /* *(int *)dest = index of the value in choices (NULL-terminated) */
    MG_OPTIONS_LIST /* *(const char **)dest = comma list; repeated options are joined later by the
                   caller */
} mg_options_option_type;

/* Or'ed into a type: an option mpiguard passes to its own processes, or that tests and benches
 * set; parsed as any other, left out of --help (docs/cli.md lists these as internal). */
enum { MG_OPTIONS_HIDDEN = 0x100 };

typedef struct mg_options_option {
    const char *name;            /* long name without the dashes: "report" for --report */
    char short_name;             /* single-letter alias, or 0 */
    mg_options_option_type type; /* possibly | MG_OPTIONS_HIDDEN */
    void *dest;
    const char *metavar; /* shown in help: FILE, N, SECONDS */
    const char *help;
    const char *const *choices; /* MG_OPTIONS_CHOICE only */
    double min, max;            /* MG_OPTIONS_INT and MG_OPTIONS_DOUBLE only */
} mg_options_option;

/* What a parse found besides the options. */
typedef struct mg_options_parsed_args {
    char **positional; /* arguments before "--" that are not options (points into argv) */
    int npositional;
    char **command; /* the words after "--" (the launcher command), or NULL when there is no "--" */
    int ncommand;
} mg_options_parsed_args;

/* Parses argv[0..argc) (argv[0] is the first option, not a program name) against the NULL-name-
 * terminated tables in `tables` (NULL-terminated array), accepting "--name value", "--name=value",
 * "-x value" and "-x". Stops at "--". At most max_positional positional arguments are accepted;
 * their pointer array is written into positional_storage. On error returns MG_ERROR_EINVAL and
 * writes a message naming the bad word into err. Does not allocate. */
int mg_options_parse(const mg_options_option *const *tables, int argc, char **argv,
                     char **positional_storage, int max_positional, mg_options_parsed_args *out,
                     char *err, size_t errlen);

/* Prints "usage: ...", the description and one line per option of every table that is not
 * MG_OPTIONS_HIDDEN. */
void mg_options_print_help(FILE *out, const char *usage, const char *description,
                           const mg_options_option *const *tables);

/* The values of a list option (MG_OPTIONS_LIST, or a STRING that takes "1,2,4"): splits text at its
 * commas, in place, into at most max items. Returns how many, or -1 when there are more. */
int mg_options_list(char *text, char **items, int max);
/* A list of decimal numbers, each in [lo, hi], into out (at most max of them, and at most 32).
 * Returns how many, or -1 for too many or a word that is not such a number. */
int mg_options_numbers(char *text, uint64_t *out, int max, uint64_t lo, uint64_t hi);
/* A size in bytes with an optional K, M, G or T suffix (powers of 1024): "80M". Returns 0, or -1
 * for anything else. */
int mg_options_bytes(const char *text, uint64_t *out);

#endif
