/* Where a Fortran procedure's source names an MPI function: the call line a site resolver (check's
 * and protect's, src/agent/site_resolver.c) or a stack's frame (hang's, stack_unwind.c) cannot read
 * from a line table that lost it (docs/design/platform-notes.md, "gfortran 12's line table"). */
#ifndef MG_FORTRAN_SOURCE_H
#define MG_FORTRAN_SOURCE_H

#include <elfutils/libdwfl.h>

/* Reads the free-form Fortran file `path` and finds the statements of lines first .. end - 1 (a
 * procedure's text) that name `name` (an MPI function, case-insensitive, as a whole word, outside
 * comments, strings and USE statements), with the files those lines include (`#include "x"` and
 * `include 'x'`, looked up beside path; mpif.h, the MPI's declarations, is skipped). Returns the
 * line when exactly one line of path's procedure text names it and nothing else does: no other
 * line, no included file, no `#define` anywhere in the file. Returns 0 when there is none, more
 * than one, or a file cannot be read: then the call's line is not known from the source. */
int fortran_source_call_line(const char *path, int first, int end, const char *name);

/* The one rule for a site's line: pc (in m) is an address of a call of the MPI function `called`
 * ("MPI_Send"; NULL when unknown) whose line table row is file:*line, at `column` (0 when the row
 * has none). When that row is the declaration line of the procedure around pc, *line becomes the
 * call's line where the procedure is Fortran, its source is not newer than m's file, and
 * fortran_source_call_line finds the call; else it stays. Returns 1 when *line is left the
 * procedure's line (the call's own line is unknown), 0 otherwise. */
int fortran_source_site_line(Dwfl_Module *m, Dwarf_Addr pc, const char *called, const char *file,
                             int *line, int column);

#endif
