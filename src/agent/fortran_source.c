/* Where a Fortran procedure's source names an MPI function (fortran_source.h). */
#include "fortran_source.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Included files within included files: deeper ones are not read, and the answer is unknown. */
enum { MAX_INCLUDE_DEPTH = 4 };

typedef struct scan {
    const char *name;
    size_t name_len;
    int refs; /* namings seen anywhere: the procedure's text, included files, #define lines */
    int own;  /* namings in the procedure's text itself, the last one on `line` */
    int line;
} scan;

static int is_word(int c)
{
    return isalnum(c) || c == '_';
}

static const char *skip_blanks(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* Whether s, past its blanks, starts with keyword (case-insensitive) followed by a blank or a
 * quote, and then a quoted name: *name and *len are the text between the quotes. */
static int quoted_after(const char *s, const char *keyword, const char **name, size_t *len)
{
    size_t k = strlen(keyword);
    s = skip_blanks(s);
    if (strncasecmp(s, keyword, k) != 0 || is_word((unsigned char)s[k]))
        return 0;
    s = skip_blanks(s + k);
    char close = *s == '<' ? '>' : *s;
    if (close != '"' && close != '\'' && close != '>')
        return 0;
    const char *end = strchr(s + 1, close);
    if (!end)
        return 0;
    *name = s + 1;
    *len = (size_t)(end - s - 1);
    return 1;
}

/* Blanks out a free-form line's comment and quoted text, so that only its code names things. A
 * string continued on the next line is read there as code: more namings, which leave the answer
 * unknown, never a wrong one. */
static void strip(char *s)
{
    char quote = 0;
    for (; *s; s++) {
        if (quote) {
            quote = *s == quote ? 0 : quote;
            *s = ' ';
        } else if (*s == '"' || *s == '\'') {
            quote = *s;
            *s = ' ';
        } else if (*s == '!') {
            *s = '\0';
            return;
        }
    }
}

static int names(const char *s, const scan *sc)
{
    int n = 0;
    for (const char *p = s; *p; p++)
        if (strncasecmp(p, sc->name, sc->name_len) == 0 &&
            (p == s || !is_word((unsigned char)p[-1])) && !is_word((unsigned char)p[sc->name_len]))
            n++;
    return n;
}

/* Whether a stripped line continues on the next one (free form: it ends with &). */
static int continued(const char *s)
{
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    return n && s[n - 1] == '&';
}

static int scan_file(const char *path, int first, int end, scan *sc, int depth);

/* Scans the file an include line of `from` names, looked up beside `from`, as text of the
 * procedure or, out of it, for its macros alone: 0, or -1 when it cannot be read. */
static int scan_included(const char *from, const char *name, size_t len, int in_text, scan *sc,
                         int depth)
{
    if (len == 6 && strncasecmp(name, "mpif.h", 6) == 0)
        return 0;
    if (depth >= MAX_INCLUDE_DEPTH || len >= PATH_MAX)
        return -1;
    const char *slash = strrchr(from, '/');
    int dir = name[0] != '/' && slash ? (int)(slash - from + 1) : 0;
    char path[2 * PATH_MAX];
    snprintf(path, sizeof path, "%.*s%.*s", dir, from, (int)len, name);
    return scan_file(path, in_text ? 1 : 0, in_text ? INT_MAX : 0, sc, depth + 1);
}

/* Counts the namings of sc->name in path's lines first .. end - 1 and in what they include, and
 * in the preprocessor lines of the file and of every file it includes; depth 0 is the procedure's
 * own file. 0, or -1 when a file cannot be read. */
static int scan_file(const char *path, int first, int end, scan *sc, int depth)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char *text = NULL;
    size_t cap = 0;
    int rc = 0, n = 0, in_use = 0;
    while (rc == 0 && getline(&text, &cap, f) >= 0) {
        int in_text = ++n >= first && n < end;
        const char *included;
        size_t len;
        if (quoted_after(text, "#include", &included, &len) ||
            quoted_after(text, "include", &included, &len)) {
            rc = scan_included(path, included, len, in_text, sc, depth);
        } else if (*skip_blanks(text) == '#') {
            /* a macro may call the function from any line that uses it */
            sc->refs += names(text, sc);
        } else if (in_text) {
            strip(text);
            const char *word = skip_blanks(text);
            int use = in_use ||
                      (strncasecmp(word, "use", 3) == 0 && !is_word((unsigned char)word[3]));
            in_use = use && continued(text);
            int k = use ? 0 : names(text, sc);
            sc->refs += k;
            if (k && depth == 0) {
                sc->own += k;
                sc->line = n;
            }
        }
    }
    free(text);
    fclose(f);
    return rc;
}

int fortran_source_call_line(const char *path, int first, int end, const char *name)
{
    scan sc = {.name = name, .name_len = strlen(name)};
    if (!sc.name_len || scan_file(path, first, end, &sc, 0) != 0)
        return 0;
    return sc.refs == 1 && sc.own == 1 ? sc.line : 0;
}
