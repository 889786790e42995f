/* Where a Fortran procedure's source names an MPI function (fortran_source.h). */
#include "fortran_source.h"

#include "call_decode.h"

#include <ctype.h>
#include <dwarf.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* Included files within included files: deeper ones are not read, and the answer is unknown. */
enum { MAX_INCLUDE_DEPTH = 4 };

/* Namings of one function kept in order: a procedure naming it more often is left unknown. */
enum { MAX_NAMINGS = 64 };
/* `do` loops open at once: past it no loop is followed any more, and no row on one corrected. */
enum { MAX_DO_DEPTH = 32 };
/* Fixed form's statement columns: a label in 1-5, a continuation mark in 6, text up to 72. */
enum { FIXED_MARK_COLUMN = 6, FIXED_LAST_COLUMN = 72 };
/* A statement's code kept, blanks dropped, to tell what it is: past it no loop is followed. */
enum { STATEMENT_MAX = 2048 };

/* An open `do` loop: the line of its do statement, and the label of the statement that ends it
 * (0: a block loop, which `end do` ends). */
typedef struct open_loop {
    int line, label;
} open_loop;

typedef struct scan {
    const char *name;
    size_t name_len;
    int fixed; /* fixed form (by the file's suffix, as gfortran picks it): included files too */
    int refs;  /* namings seen anywhere: the procedure's text, included files, #define lines */
    int own;   /* namings in the procedure's text itself, each naming's line in lines */
    int lines[MAX_NAMINGS];
    int continues;  /* free form: the line before ended with &, so the next starts no statement */
    char quote;     /* the quote of a string the line before left open: a continuation goes on */
    int in_use;     /* the statement being read is a USE statement */
    int row;        /* the line the line table gives the call */
    int unreadable; /* an included file could not be read: namings may be missed */
    int statement;  /* the first line of the statement being read (the procedure's own file) */
    char code[STATEMENT_MAX]; /* its code so far, without blanks and & */
    size_t code_len;
    int row_statement; /* the first line of the statement holding row; 0 while not read */
    open_loop open[MAX_DO_DEPTH]; /* innermost last */
    int open_n;
    int loops_lost; /* too deep, or loops that do not nest as read: none followed further */
    int loop_first, loop_last; /* the body of the loop whose do or ending statement is on row */
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

/* Whether s holds blanks alone. */
static int blank(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    return *s == '\0';
}

/* Blanks out a line's comment (from !) and quoted text, so that only its code names things; the
 * line starts inside a string of `quote` when it continues one (0: none). Returns the quote of the
 * string open at the line's end. Free form continues a string with an & as the line's last
 * nonblank character (Fortran 2008 3.3.2.4), kept here so that the line reads as continued; fixed
 * form's runs on past column 72 into the next line marked in column 6 (3.3.3.4). */
static char strip(char *s, char quote)
{
    for (; *s; s++) {
        if (quote) {
            quote = *s == quote ? 0 : quote;
            *s = quote && *s == '&' && blank(s + 1) ? '&' : ' ';
        } else if (*s == '"' || *s == '\'') {
            quote = *s;
            *s = ' ';
        } else if (*s == '!') {
            *s = '\0';
            break;
        }
    }
    return quote;
}

static int names(const char *s, const scan *sc)
{
    int n = 0;
    for (const char *p = s; sc->name_len && *p; p++)
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

/* A statement label's digits at *s (at most 5), *s moved past them; 0 when none. */
static int label_digits(const char **s)
{
    const char *digits = *s;
    int label = 0;
    for (; isdigit((unsigned char)**s) && *s - digits < 5; (*s)++)
        label = label * 10 + (**s - '0');
    return label;
}

/* Whether *s starts with word (case-insensitive): then *s is moved past it. */
static int starts_with(const char **s, const char *word)
{
    size_t n = strlen(word);
    if (strncasecmp(*s, word, n) != 0)
        return 0;
    *s += n;
    return 1;
}

/* Whether s holds c outside parentheses and brackets. */
static int outside_brackets(const char *s, char c)
{
    for (int depth = 0; *s; s++) {
        depth += (*s == '(' || *s == '[') - (*s == ')' || *s == ']');
        if (depth == 0 && *s == c)
            return 1;
    }
    return 0;
}

/* The code past the bracket that closes the one at s, or NULL when none does. */
static const char *past_brackets(const char *s)
{
    int depth = 0;
    do
        depth += (*s == '(' || *s == '[') - (*s == ')' || *s == ']');
    while (depth > 0 && *++s);
    return depth == 0 ? s + 1 : NULL;
}

/* Whether blank-free statement code s (its label gone) opens a do loop (`DO`, `DOI=1,N`,
 * `DOWHILE(...)`, `DOCONCURRENT(...)`, `NAME:DO...`, and `DO10I=1,N`, `DO10,I=1,N`,
 * `DO10WHILE(...)`, the loop a statement labelled 10 ends, whose label goes to *label) or is an
 * `ENDDO` (with its loop's name): 1, -1, or 0 for any other. Blanks mean nothing in fixed form, and
 * in free form no valid statement reads otherwise without them; what follows DO tells a loop from
 * an assignment (`DO10I=1.5` sets the variable DO10I, `DOUBLEPRECISION::X=1.0,Y` declares): a
 * variable's `=` followed by a comma outside brackets, or WHILE or CONCURRENT with no `=` past its
 * parenthesis. */
static int do_statement(const char *s, int *label)
{
    const char *w = s;
    while (is_word((unsigned char)*w))
        w++;
    if (w > s && *w == ':' && w[1] != ':')
        s = w + 1;
    if (starts_with(&s, "enddo"))
        return strpbrk(s, "=(") ? 0 : -1;
    if (!starts_with(&s, "do"))
        return 0;
    *label = label_digits(&s);
    if (*s == '\0')
        return 1;
    s += *s == ',';
    const char *control = s, *past;
    if ((starts_with(&control, "while(") || starts_with(&control, "concurrent(")) &&
        (past = past_brackets(control - 1)) != NULL && !outside_brackets(past, '='))
        return 1;
    if (!isalpha((unsigned char)*s))
        return 0;
    for (w = s; is_word((unsigned char)*w);)
        w++;
    return *w == '=' && outside_brackets(w, ',');
}

/* Ends the innermost open loop at the statement of line n, which is in its body when labelled. */
static void close_loop(scan *sc, int n)
{
    const open_loop *loop = &sc->open[--sc->open_n];
    if (loop->line == sc->row_statement || n == sc->row_statement) {
        sc->loop_first = loop->line;
        sc->loop_last = loop->label ? n : n - 1;
    }
}

/* Follows the do loops of the procedure's text by the statement read, on line sc->statement: the
 * one opened or ended on the row's statement is kept (of loops ending together, the outermost). */
static void follow_loops(scan *sc)
{
    if (sc->loops_lost || !sc->statement)
        return;
    const char *s = sc->code;
    int n = sc->statement, label = label_digits(&s), ended = 0, do_label = 0;
    /* nested labelled loops may share their ending statement */
    while (label && sc->open_n > 0 && sc->open[sc->open_n - 1].label == label) {
        close_loop(sc, n);
        ended = 1;
    }
    for (int i = 0; label && i < sc->open_n; i++)
        sc->loops_lost |= sc->open[i].label == label;
    int kind = do_statement(s, &do_label);
    if (kind > 0 && sc->open_n < MAX_DO_DEPTH)
        sc->open[sc->open_n++] = (open_loop){.line = n, .label = do_label};
    else if (kind > 0)
        sc->loops_lost = 1;
    /* `do 10 ...` ... `10 end do` ends its labelled loop alone */
    if (kind < 0 && !ended && sc->open_n > 0 && sc->open[sc->open_n - 1].label == 0)
        close_loop(sc, n);
    else if (kind < 0 && !ended)
        sc->loops_lost = 1;
}

/* Reads a stripped line of the procedure's own text, n, into the statement it starts or continues:
 * the statement before, complete, has its loops followed. Blanks and free form's & are dropped
 * from the code kept; a statement too long for it follows no loop any more. */
static void read_statement(scan *sc, const char *s, int n, int continuation)
{
    if (!continuation || !sc->statement) {
        follow_loops(sc);
        sc->statement = n;
        sc->code_len = 0;
    }
    if (n == sc->row)
        sc->row_statement = sc->statement;
    for (; *s; s++) {
        if (isspace((unsigned char)*s) || *s == '&')
            continue;
        if (sc->code_len + 1 < STATEMENT_MAX)
            sc->code[sc->code_len++] = *s;
        else
            sc->loops_lost = 1;
    }
    sc->code[sc->code_len] = '\0';
}

/* What path's text shows of its form: 1 fixed, 0 free, -1 neither or both. Free form puts code
 * (not a label) in columns 1-5 or ends a line with &; fixed form starts a comment line with * or
 * with c or d followed by no statement (`C     text`, not `c = 1` or `call`), or a line with & in
 * column 6 where the line before does not end with one. */
static int form_shown(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char *text = NULL;
    size_t cap = 0;
    int fixed = 0, free_form = 0, continues = 0;
    char quote = 0;
    while (getline(&text, &cap, f) >= 0) {
        const char *rest = skip_blanks(text + (*text != '\0'));
        int comment_mark = *text && strchr("cCdD", *text);
        if (*text == '*' ||
            (comment_mark && !is_word((unsigned char)text[1]) && *rest && !strchr("=(%[", *rest))) {
            fixed = 1;
            continue;
        }
        quote = strip(text, continues ? quote : 0);
        /* c and d lines are statements of either form's, or comments */
        if (*text == '#' || comment_mark || blank(text))
            continue;
        fixed |= !continues && strncmp(text, "     &", 6) == 0;
        for (int i = 0; i < FIXED_MARK_COLUMN - 1 && text[i] && text[i] != '\t'; i++)
            free_form |= !isspace((unsigned char)text[i]) && !isdigit((unsigned char)text[i]);
        free_form |= continues = continued(text);
    }
    free(text);
    fclose(f);
    return fixed != free_form ? fixed : -1;
}

/* Whether path is fixed-form source compiled in form: by its suffix, as gfortran decides without
 * -ffixed-form or -ffree-form (.f, .for, .ftn, .fpp, .f77, any case), where its text does not
 * show the form the compiler was told, unrecorded. */
static int fixed_form(const char *path, fortran_source_form form)
{
    int shown = form == FORTRAN_SOURCE_UNRECORDED ? form_shown(path) : -1;
    if (shown >= 0)
        return shown;
    if (form == FORTRAN_SOURCE_FIXED || form == FORTRAN_SOURCE_FREE)
        return form == FORTRAN_SOURCE_FIXED;
    const char *dot = strrchr(path, '.');
    if (!dot || strchr(dot, '/'))
        return 0;
    static const char *const suffixes[] = {"f", "for", "ftn", "fpp", "f77"};
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++)
        if (strcasecmp(dot + 1, suffixes[i]) == 0)
            return 1;
    return 0;
}

/* Reads a fixed-form line as free form's: a comment line (c, C, *, d, D or ! in column 1) blank,
 * the text past column 72 dropped, column 6 blanked. Returns whether the line continues the
 * statement before (a mark in column 6 other than 0, its columns 1-5 blank). */
static int fixed_columns(char *s)
{
    if (s[0] && strchr("cC*dD!", s[0])) {
        s[0] = '\0';
        return 0;
    }
    size_t len = strlen(s);
    if (len > FIXED_LAST_COLUMN)
        s[FIXED_LAST_COLUMN] = '\0';
    if (len < FIXED_MARK_COLUMN || memchr(s, '\t', FIXED_MARK_COLUMN))
        return 0;
    char mark = s[FIXED_MARK_COLUMN - 1];
    s[FIXED_MARK_COLUMN - 1] = ' ';
    return mark != ' ' && mark != '0' && mark != '\n';
}

static int scan_file(const char *path, int first, int end, scan *sc, int depth);

/* Scans the file an include line of `from` names, looked up beside `from`, as text of the
 * procedure or, out of it, for its macros alone; sc->unreadable when it cannot be read. */
static void scan_included(const char *from, const char *name, size_t len, int in_text, scan *sc,
                          int depth)
{
    if (len == 6 && strncasecmp(name, "mpif.h", 6) == 0)
        return;
    const char *slash = strrchr(from, '/');
    int dir = name[0] != '/' && slash ? (int)(slash - from + 1) : 0;
    char path[2 * PATH_MAX];
    snprintf(path, sizeof path, "%.*s%.*s", dir, from, (int)len, name);
    if (depth >= MAX_INCLUDE_DEPTH || len >= PATH_MAX ||
        scan_file(path, in_text ? 1 : 0, in_text ? INT_MAX : 0, sc, depth + 1) != 0)
        sc->unreadable = 1;
}

/* Counts the namings of sc->name in path's lines first .. end - 1 and in what they include, and
 * in the preprocessor lines of the file and of every file it includes; depth 0 is the procedure's
 * own file, whose statements are read too (read_statement), each naming placed on its statement's
 * first line. 0, or -1 when path cannot be read. */
static int scan_file(const char *path, int first, int end, scan *sc, int depth)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char *text = NULL;
    size_t cap = 0;
    int n = 0;
    while (getline(&text, &cap, f) >= 0) {
        int in_text = ++n >= first && n < end;
        const char *included;
        size_t len;
        if (quoted_after(text, "#include", &included, &len) ||
            quoted_after(text, "include", &included, &len)) {
            scan_included(path, included, len, in_text, sc, depth);
        } else if (*skip_blanks(text) == '#') {
            /* a macro may call the function from any line that uses it */
            sc->refs += names(text, sc);
        } else if (in_text) {
            int continuation = sc->fixed ? fixed_columns(text) : sc->continues;
            const char *word = skip_blanks(text);
            /* comment and blank lines may lie between a statement's lines, a string's too, but a
             * line marked in column 6 goes on with the string whatever it holds */
            if (blank(text) || (*word == '!' && !(sc->fixed && continuation && sc->quote)))
                continue;
            sc->quote = strip(text, continuation ? sc->quote : 0);
            sc->continues = continued(text);
            if (!continuation)
                sc->in_use = strncasecmp(word, "use", 3) == 0 && !is_word((unsigned char)word[3]);
            if (depth == 0)
                read_statement(sc, text, n, continuation);
            int k = sc->in_use ? 0 : names(text, sc);
            sc->refs += k;
            for (int i = 0; depth == 0 && i < k; i++)
                if (sc->own++ < MAX_NAMINGS)
                    sc->lines[sc->own - 1] = sc->statement;
        }
    }
    if (depth == 0)
        follow_loops(sc);
    free(text);
    fclose(f);
    return 0;
}

/* The namings of sc's function on lines first .. end - 1: how many, the last one into *line. */
static int namings_within(const scan *sc, int first, int end, int *line)
{
    int n = 0;
    for (int i = 0; i < sc->own; i++)
        if (sc->lines[i] >= first && sc->lines[i] < end) {
            n++;
            *line = sc->lines[i];
        }
    return n;
}

/* The line of sc's call from its namings, its row moved to its statement's first line; 0 when
 * the source cannot say. */
static int named_line(const scan *sc, int first, int end, int row, const fortran_source_call *call)
{
    int line = 0;
    /* a do statement naming the function (`do while (MPI_Wtime() < t)`) may be the call's own */
    if (!sc->name_len || sc->unreadable || sc->refs != sc->own || sc->own > MAX_NAMINGS ||
        (row != first && !sc->loop_first) ||
        (sc->loop_first && namings_within(sc, row, row + 1, &line)))
        return 0;
    /* where the call may lie: the procedure's text, or the body of the loop the row is a do or
     * ending statement of */
    int from = sc->loop_first ? sc->loop_first + 1 : first;
    int to = sc->loop_first ? sc->loop_last + 1 : end;
    /* at -O0 gfortran emits a procedure's statements in source order, so the k-th call of the
     * function by address is its k-th naming, where every naming has its call */
    if (call->calls == sc->own && call->k < sc->own)
        return sc->lines[call->k] >= from && sc->lines[call->k] < to ? sc->lines[call->k] : 0;
    return namings_within(sc, from, to, &line) == 1 && (sc->loop_first || sc->own == 1) ? line : 0;
}

int fortran_source_call_line(const char *path, int first, int end, const char *name,
                             const fortran_source_call *call)
{
    scan sc = {.name = name,
               .name_len = strlen(name),
               .fixed = fixed_form(path, call->form),
               .row = call->row};
    if (scan_file(path, first, end, &sc, 0) != 0)
        return 0;
    /* gfortran's line table gives a statement written over several lines its last line, the
     * namings are on any: the statement's first line, where it is read, is the one for both */
    int row = sc.row_statement ? sc.row_statement : call->row;
    int line = named_line(&sc, first, end, row, call);
    return line ? line : row != call->row ? row : 0;
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

/* The offset of the C main gfortran writes for the Fortran program cu defines (the subprogram of
 * DW_AT_main_subprogram), or 0 when cu defines none. gfortran declares it at the program's first
 * USE statement, or at its END PROGRAM where it has none: a line inside the program's text that
 * starts no text of its own. It is the CU's "main" without a linkage name; a Fortran procedure of
 * that name has one (main_, or its module's). */
static Dwarf_Off generated_main(Dwarf_Die *cu)
{
    Dwarf_Die child;
    Dwarf_Off c_main = 0;
    int program = 0;
    if (dwarf_child(cu, &child) != 0)
        return 0;
    do {
        const char *name = dwarf_diename(&child);
        program |= dwarf_hasattr(&child, DW_AT_main_subprogram);
        if (dwarf_tag(&child) == DW_TAG_subprogram && name && strcmp(name, "main") == 0 &&
            !dwarf_hasattr(&child, DW_AT_linkage_name))
            c_main = dwarf_dieoffset(&child);
    } while (dwarf_siblingof(&child, &child) == 0);
    return program ? c_main : 0;
}

/* The least declaration line above `after` of a procedure or module defined in file under die
 * (but the C main at offset c_main), or `next` when none is less: where the text of the procedure
 * declared at `after` ends. */
static int next_definition(Dwarf_Die *die, const char *file, int after, int next, Dwarf_Off c_main)
{
    Dwarf_Die child;
    if (dwarf_child(die, &child) != 0)
        return next;
    do {
        int tag = dwarf_tag(&child), line;
        const char *decl_file;
        if ((tag == DW_TAG_subprogram || tag == DW_TAG_module) &&
            !dwarf_hasattr(&child, DW_AT_declaration) && dwarf_dieoffset(&child) != c_main &&
            (decl_file = dwarf_decl_file(&child)) && strcmp(decl_file, file) == 0 &&
            dwarf_decl_line(&child, &line) == 0 && line > after && line < next)
            next = line;
        next = next_definition(&child, file, after, next, c_main);
    } while (dwarf_siblingof(&child, &child) == 0);
    return next;
}

static int is_fortran(Dwarf_Die *cu)
{
    int lang = dwarf_srclang(cu);
    return lang == DW_LANG_Fortran77 || lang == DW_LANG_Fortran90 || lang == DW_LANG_Fortran95 ||
           lang == DW_LANG_Fortran03 || lang == DW_LANG_Fortran08;
}

/* The form the compiler was told to read cu's source in: gfortran records its switches in the
 * producer (-grecord-gcc-switches, its default), the last one deciding; without them
 * (-gno-record-gcc-switches) it is not known. */
static fortran_source_form form_compiled(Dwarf_Die *cu)
{
    Dwarf_Attribute attr;
    const char *producer = dwarf_formstring(dwarf_attr(cu, DW_AT_producer, &attr));
    /* recorded, the switches include at least -g */
    fortran_source_form form = producer && strstr(producer, " -") ? FORTRAN_SOURCE_BY_SUFFIX
                                                                  : FORTRAN_SOURCE_UNRECORDED;
    for (const char *s = producer; s && (s = strstr(s, " -ff")) != NULL; s++)
        form = strncmp(s, " -ffixed-form", 13) == 0  ? FORTRAN_SOURCE_FIXED
               : strncmp(s, " -ffree-form", 12) == 0 ? FORTRAN_SOURCE_FREE
                                                     : form;
    return form;
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

/* The instruction bytes of m at ELF address addr .. addr + len - 1, or NULL. */
static const unsigned char *code_at(Elf *elf, GElf_Addr addr, size_t len)
{
    Elf_Scn *scn = NULL;
    GElf_Shdr shdr;
    while ((scn = elf_nextscn(elf, scn)) != NULL)
        if (gelf_getshdr(scn, &shdr) && shdr.sh_type == SHT_PROGBITS &&
            (shdr.sh_flags & SHF_EXECINSTR) && addr >= shdr.sh_addr &&
            addr + len <= shdr.sh_addr + shdr.sh_size) {
            Elf_Data *data = elf_getdata(scn, NULL);
            return data && data->d_buf && addr - shdr.sh_addr + len <= data->d_size
                       ? (const unsigned char *)data->d_buf + (addr - shdr.sh_addr)
                       : NULL;
        }
    return NULL;
}

/* Which of the procedure's calls of one function the call returning to ret (module address) is,
 * by address: call->k of call->calls (call_decode_order), on x86-64 and aarch64 ELF code the
 * module holds; else left unknown (calls 0). */
static void call_order(Dwfl_Module *m, Dwarf_Die *procedure, Dwarf_Addr dwarf_bias, Dwarf_Addr ret,
                       fortran_source_call *call)
{
    GElf_Addr elf_bias, low, high;
    Elf *elf = dwfl_module_getelf(m, &elf_bias);
    GElf_Ehdr ehdr;
    if (!elf || !gelf_getehdr(elf, &ehdr) || dwarf_lowpc(procedure, &low) != 0 ||
        dwarf_highpc(procedure, &high) != 0)
        return;
    low += dwarf_bias - elf_bias;
    high += dwarf_bias - elf_bias;
    ret -= elf_bias;
    const unsigned char *code = high > low ? code_at(elf, low, high - low) : NULL;
    if (code && ret > low && ret <= high)
        (void)call_decode_order(ehdr.e_machine, code, high - low, low, ret - low, &call->k,
                                &call->calls);
}

/* gfortran 12 writes no row for a call through an explicit interface whose arguments need no code
 * (docs/design/platform-notes.md, "gfortran 12's line table"), so the rows before and after the
 * call are other statements': the procedure's (its declaration line), or in a loop its do or end
 * do statement's, and only the source can say which statement it is: the one of the procedure's
 * (or the loop's) text naming `called`, when there is exactly one and nothing else could make the
 * call, or else the k-th naming for the k-th call by address. Any row on a statement written over
 * several lines, whatever it calls, becomes the statement's first line. */
int fortran_source_site_line(Dwfl_Module *m, Dwarf_Addr pc, const char *called, const char *file,
                             int *line, int column)
{
    Dwarf_Addr bias;
    Dwarf_Die *cu = dwfl_module_addrdie(m, pc, &bias), procedure;
    int first;
    if (!cu || !procedure_around(cu, pc - bias, &procedure))
        return 0;
    int at_procedure = is_procedure_line(&procedure, file, *line, column);
    const char *decl_file = dwarf_decl_file(&procedure);
    if (!is_fortran(cu) || dwarf_decl_line(&procedure, &first) != 0 || !decl_file ||
        strcmp(decl_file, file) != 0 || source_newer(m, file))
        return at_procedure;
    fortran_source_call call = {.row = at_procedure ? first : *line, .form = form_compiled(cu)};
    /* pc is inside the call instruction: its return address is the next byte */
    call_order(m, &procedure, bias, pc + 1, &call);
    int end = next_definition(cu, file, first, INT_MAX, generated_main(cu));
    int found = fortran_source_call_line(file, first, end, called ? called : "", &call);
    *line = found ? found : *line;
    return at_procedure && !found;
}
