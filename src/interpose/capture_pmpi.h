/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* The capture module's PMPI references, weak: every function mpi_functions.def wraps (the `_c`
 * ones where mpi.h declares them). The interposition library does not link
 * libmpi (interpose.c), so a process that is not a rank loads it without one. Include in every
 * capture_*.c that calls PMPI. */
#ifndef MG_CAPTURE_PMPI_H
#define MG_CAPTURE_PMPI_H

#include <mpi.h>
#include "mpi_handles_weak.h"

#include "mpi_large_count.h"

#define PRAGMA(x) _Pragma(#x)
#define MG_FN(name, params, args, cls) PRAGMA(weak PMPI_##name)
#include "mpi_wrapped_functions.def"
#undef PRAGMA

#endif
