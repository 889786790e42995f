/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* The protection module's safe-bounds table: read at MPI_Init from the small text file the CLI
 * writes (MG_ENV_PROTECT_BOUNDS; its format and codec: src/wire/bounds_text.h) plus the artificial
 * bound of `mpiguard protect --bound` (MG_ENV_PROTECT_ARTIFICIAL), into the scaling engine's
 * table (docs/design/collectives.md, "The files"). */
#ifndef MG_PROTECT_BOUNDS_H
#define MG_PROTECT_BOUNDS_H

#include "scaling_bounds.h"
#include "scaling_params.h"

/* Fills tables[large][in_place][nonblocking] from the file at path (NULL: no file, empty tables)
 * and from the artificial bound text (NULL: none; it goes to the int-count tables, the large-count
 * ones or both, as its third word says), and *params' costs from the file's "costs" line of the
 * process count nearest nprocs (by ratio; no such line: *params is left as it is). large: the `_c`
 * forms' entries, which bound the application's `_c` calls and W3, never the int forms. in_place:
 * the tables of calls with MPI_IN_PLACE, which hold their own entries and those of the same form
 * without it; a rooted collective's in-place entries go to its other table, since only the root
 * can see MPI_IN_PLACE. nonblocking: the I forms' ("entry Igather ..."). The entries live in
 * static storage (at most PROTECT_BOUNDS_MAX per table); the module calls this once. Returns 0, or
 * a negative MG_ERROR_E* code with a reason in err (the module then logs it and stays off). */
enum { PROTECT_BOUNDS_MAX = 512 };
int protect_bounds_load(const char *path, const char *artificial, int nprocs,
                        scaling_bounds tables[2][2][2], scaling_params *params, char *err,
                        unsigned errlen);

#endif
