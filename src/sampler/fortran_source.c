/* Where a Fortran procedure's source names an MPI function (fortran_source.h). */
#include "fortran_source.h"

#include <ctype.h>
#include <dwarf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

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

/* The procedure (subprogram, or inlined one) innermost around pc, into *out; 0 when none. */
static int procedure_around(Dwarf_Die *cu, Dwarf_Addr pc_in_cu, Dwarf_Die *out)
{
    Dwarf_Die *scopes;
    int nscopes = dwarf_getscopes(cu, pc_in_cu, &scopes), found = 0;
    for (int i = 0; i < nscopes && !found; i++) {
        int tag = dwarf_tag(&scopes[i]);
        if ((found = tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine))
            *out = scopes[i];
    }
    if (nscopes > 0)
        free(scopes);
    return found;
}

/* Whether file:line:column (column 0: not in the line table) is where procedure is declared: then
 * the line table named no line of a call there. The column tells a call written on the line of its
 * function's declaration (C's one-liners) from the declaration itself. */
static int is_procedure_line(Dwarf_Die *procedure, const char *file, int line, int column)
{
    const char *decl_file = dwarf_decl_file(procedure);
    int decl_line, decl_column;
    return decl_file && strcmp(decl_file, file) == 0 &&
           dwarf_decl_line(procedure, &decl_line) == 0 && decl_line == line &&
           (column == 0 ||
            (dwarf_decl_column(procedure, &decl_column) == 0 && decl_column == column));
}

/* The least declaration line above `after` of a procedure or module defined in file under die,
 * or `next` when none is less: where the text of the procedure declared at `after` ends. */
static int next_definition(Dwarf_Die *die, const char *file, int after, int next)
{
    Dwarf_Die child;
    if (dwarf_child(die, &child) != 0)
        return next;
    do {
        int tag = dwarf_tag(&child), line;
        const char *decl_file;
        if ((tag == DW_TAG_subprogram || tag == DW_TAG_module) &&
            !dwarf_hasattr(&child, DW_AT_declaration) && (decl_file = dwarf_decl_file(&child)) &&
            strcmp(decl_file, file) == 0 && dwarf_decl_line(&child, &line) == 0 && line > after &&
            line < next)
            next = line;
        next = next_definition(&child, file, after, next);
    } while (dwarf_siblingof(&child, &child) == 0);
    return next;
}

static int is_fortran(Dwarf_Die *cu)
{
    int lang = dwarf_srclang(cu);
    return lang == DW_LANG_Fortran77 || lang == DW_LANG_Fortran90 || lang == DW_LANG_Fortran95 ||
           lang == DW_LANG_Fortran03 || lang == DW_LANG_Fortran08;
}

/* Whether the source file was changed after m's file was written: its lines may then not be the
 * ones compiled. */
static int source_newer(Dwfl_Module *m, const char *file)
{
    const char *object = NULL;
    dwfl_module_info(m, NULL, NULL, NULL, NULL, NULL, &object, NULL);
    struct stat source, binary;
    return !object || stat(file, &source) != 0 || stat(object, &binary) != 0 ||
           source.st_mtim.tv_sec > binary.st_mtim.tv_sec ||
           (source.st_mtim.tv_sec == binary.st_mtim.tv_sec &&
            source.st_mtim.tv_nsec > binary.st_mtim.tv_nsec);
}

/* gfortran 12 writes no row for a call through an explicit interface whose arguments need no code
 * (docs/design/platform-notes.md, "gfortran 12's line table"), so the rows before and after the
 * call are other statements', and only the source can say which statement it is: the one of the
 * procedure's text naming `called`, when there is exactly one and nothing else could make the
 * call. */
int fortran_source_site_line(Dwfl_Module *m, Dwarf_Addr pc, const char *called, const char *file,
                             int *line, int column)
{
    Dwarf_Addr bias;
    Dwarf_Die *cu = dwfl_module_addrdie(m, pc, &bias), procedure;
    int first;
    if (!cu || !procedure_around(cu, pc - bias, &procedure) ||
        !is_procedure_line(&procedure, file, *line, column))
        return 0;
    if (!called || !is_fortran(cu) || dwarf_decl_line(&procedure, &first) != 0 ||
        source_newer(m, file))
        return 1;
    int found = fortran_source_call_line(file, first, next_definition(cu, file, first, INT_MAX),
                                         called);
    *line = found ? found : *line;
    return !found;
}
