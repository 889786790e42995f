/* The protection module's safe-bounds table: read at MPI_Init from the small text file the CLI
 * writes (MPIGUARD_PROTECT_BOUNDS) plus the artificial bound of `mpiguard protect --bound`
 * (MPIGUARD_PROTECT_ARTIFICIAL), into the scaling engine's table (docs/design/collectives.md,
 * "The files"). No json-c, no stdio: the library stays light. */
#ifndef MG_PROTECT_BOUNDS_H
#define MG_PROTECT_BOUNDS_H

#include "scaling_bounds.h"
#include "scaling_params.h"

/* The text format, one record per line, fields separated by one space:
 *   mpiguard-protect-bounds/4
 *   mpi <flavor> <version>
 *   entry <Collective> <type_size> <nprocs> <n_safe> <G|X> <form>
 *   costs <nprocs> <call> <byte> <copy> <type> <comm> <0|1>
 * <Collective> is "Gatherv", "Igatherv", a large-count form "Gatherv_c", "Igatherv_c", and either
 * with "_inplace" for the call with MPI_IN_PLACE (version 3; the CLI writes this file for the
 * library of the same build). A "costs" line (version 4) is the cost model measured at nprocs
 * processes (scaling_params.h), its five costs in whole picoseconds (no strtod: the application
 * may have set a locale), then allgather_block_stride. <form> is a name of scaling_form_name:
 * snP, nP, sn, n, and sn(P-1), n(P-1), which a library older than these forms refuses as a
 * malformed entry line (the module then stays off). The artificial bound is
 * "<form> <limit> [int|large|all]": the calls it bounds, the int-count collectives (the default),
 * the large-count `_c` ones, or both. */
#define PROTECT_BOUNDS_MAGIC "mpiguard-protect-bounds/4"

/* Fills tables[large][in_place][nonblocking] from the file at path (NULL: no file, empty tables)
 * and from the artificial bound text (NULL: none; it goes to the int-count tables, the large-count
 * ones or both, as its third word says), and *params' costs from the file's "costs" line of the
 * process count nearest nprocs (by ratio; no such line: *params is left as it is). large: the `_c`
 * forms' entries, which bound the application's `_c` calls and W3, never the int forms. in_place:
 * the tables of calls with MPI_IN_PLACE, which hold their own entries and those of the same form
 * without it; a rooted collective's in-place entries go to its other table, since only the root
 * can see MPI_IN_PLACE. nonblocking: the I forms' ("entry Igather ..."). The entries live in
 * static storage (at most PROTECT_BOUNDS_MAX per table); the module calls this once. Returns 0, or
 * a negative MG_E* code with a reason in err (the module then logs it and stays off). */
enum { PROTECT_BOUNDS_MAX = 512 };
int protect_bounds_load(const char *path, const char *artificial, int nprocs,
                        scaling_bounds tables[2][2][2], scaling_params *params, char *err,
                        unsigned errlen);

#endif
