/* Where a Fortran procedure's source names an MPI function: the call line a site resolver cannot
 * read from a line table that lost it (docs/design/platform-notes.md, "gfortran 12's line
 * table"). */
#ifndef MG_FORTRAN_SOURCE_H
#define MG_FORTRAN_SOURCE_H

/* Reads the free-form Fortran file `path` and finds the statements of lines first .. end - 1 (a
 * procedure's text) that name `name` (an MPI function, case-insensitive, as a whole word, outside
 * comments, strings and USE statements), with the files those lines include (`#include "x"` and
 * `include 'x'`, looked up beside path; mpif.h, the MPI's declarations, is skipped). Returns the
 * line when exactly one line of path's procedure text names it and nothing else does: no other
 * line, no included file, no `#define` anywhere in the file. Returns 0 when there is none, more
 * than one, or a file cannot be read: then the call's line is not known from the source. */
int fortran_source_call_line(const char *path, int first, int end, const char *name);

#endif
