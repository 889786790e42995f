/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* Memory a nonblocking workaround call must keep until the call completes: MPI forbids changing
 * (so freeing) the count and displacement arrays of a nonblocking collective before it completes,
 * and W2's and W3's arrays are the module's own. Each block is kept with the request handed to the
 * application and freed once the module sees that request complete in one of the application's
 * MPI_Wait/Test calls (their observer hooks, which no other module uses), or at MPI_Finalize, by
 * which MPI requires every request to be complete (docs/design/collectives.md, "Nonblocking
 * calls"). Needs mpi.h. */
#ifndef MG_PROTECT_PENDING_H
#define MG_PROTECT_PENDING_H

#include <mpi.h>
#include "mpi_handles_weak.h"

/* Installs the completion observers (only where no other module has one). Called once at init. */
void protect_pending_setup(void);

/* Keeps block (from malloc) until request completes. Thread-safe; not for the untriggered path
 * (it takes a lock). */
void protect_pending_keep(MPI_Request request, void *block);

/* Frees every block still kept and removes the observers: at MPI_Finalize, when no request of the
 * application can still be active. */
void protect_pending_finalize(void);

#endif
