/* Internal to src/concolic: no other folder includes it (docs/architecture.md). */
/* Whole-file reads for `mpiguard concolic`: the ranks' path logs, the program's control-flow
 * graph and the campaign's saved search state (docs/concolic.md). */
#ifndef CONCOLIC_FILE_H
#define CONCOLIC_FILE_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

/* The bytes of path, malloc'd with a NUL after them (so text can be parsed in place; *len
 * excludes it), owned by the caller. NULL when the file cannot be opened or memory runs out. */
uint8_t *concolic_file_read(const char *path, size_t *len);
/* The same for what is left of an open stream (not closed). */
uint8_t *concolic_file_read_rest(FILE *f, size_t *len);

#endif
