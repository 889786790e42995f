/* Where a Fortran procedure's source names an MPI function: the call line a site resolver (check's
 * and protect's, src/agent/site_resolver.c) or a stack's frame (hang's, stack_unwind.c) cannot read
 * from a line table that lost it (docs/design/platform-notes.md, "gfortran 12's line table"). */
#ifndef MG_FORTRAN_SOURCE_H
#define MG_FORTRAN_SOURCE_H

#include <elfutils/libdwfl.h>

/* The form a source file was compiled in: its suffix's unless the compiler was told otherwise. */
typedef enum fortran_source_form {
    FORTRAN_SOURCE_BY_SUFFIX,
    FORTRAN_SOURCE_FIXED,      /* -ffixed-form */
    FORTRAN_SOURCE_FREE,       /* -ffree-form */
    FORTRAN_SOURCE_UNRECORDED, /* no switch recorded: as the text shows, else the suffix */
} fortran_source_form;

/* A call as the line table, the code and the compiler place it: `row` is the line the table gives
 * it, and it is call number k (from 0) of the procedure's `calls` calls of its function, by address
 * (calls 0: not known); its file was compiled in `form`. */
typedef struct fortran_source_call {
    int row, k, calls;
    fortran_source_form form;
} fortran_source_call;

/* Reads the Fortran file `path` in call->form (by the suffix: fixed form for .f, .for, .ftn, .fpp
 * or .f77 in any case, as gfortran picks it; else free form; unrecorded, as its text shows where it
 * shows one form only, else by the suffix) and finds the statements of lines
 * first .. end - 1 (a procedure's text) that name `name` (an MPI function, case-insensitive, as a
 * whole word, outside comments, strings and USE statements), with the files those lines include
 * (`#include "x"` and `include 'x'`, looked up beside path; mpif.h, the MPI's declarations, is
 * skipped). Nothing else may name it: no included file, no `#define` anywhere in the file. The
 * call's row is the procedure's line (first) or the do statement or the ending statement of a do
 * loop (`end do`, or for `do 10 ...` the statement labelled 10, which nested loops may share); the
 * call lies in the procedure's text or that loop's body (with a labelled loop's ending statement).
 * Statements are read whole, over their continuation lines (a string too: an & ending a free-form
 * line inside it, or fixed form's mark in column 6), and each is placed on its first line:
 * a row on another line of one is moved there first. Returns the first line of the statement of
 * the call->k-th naming when the procedure has as many namings as call->calls and that one lies
 * where the call may; else of the one naming where the call may lie (for the procedure's line, the
 * procedure's only one); else the row's statement's first line where that is not the row. Returns
 * 0 when none of these is known (no naming, more than one, a file that cannot be read, a row that
 * is its statement's first line): then the call's line is not known from the source. `name` ""
 * names nothing: only the row is moved. */
int fortran_source_call_line(const char *path, int first, int end, const char *name,
                             const fortran_source_call *call);

/* The one rule for a site's line: pc (in m) is an address inside a call instruction of the MPI
 * function `called` ("MPI_Send"; NULL when unknown) whose line table row is file:*line, at `column`
 * (0 when the row has none). When that row is the declaration line of the procedure around pc, or
 * the do or ending statement of a loop, or a line of a statement written over several, *line
 * becomes the call's line (its statement's first) where the procedure is Fortran, its source is
 * not newer than m's file, and fortran_source_call_line finds it, told the call's place among the
 * procedure's calls of the function (x86-64 and aarch64 code: call_decode.h); else it stays.
 * Returns 1 when *line is left the procedure's line (the call's own line is unknown), 0
 * otherwise. */
int fortran_source_site_line(Dwfl_Module *m, Dwarf_Addr pc, const char *called, const char *file,
                             int *line, int column);

#endif
