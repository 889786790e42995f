/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* The protection module's entry points for the collectives (docs/design/collectives.md). */
#ifndef MG_PROTECT_ENTRY_H
#define MG_PROTECT_ENTRY_H

#include "interpose_hooks.h"

/* Points the mg_impl_<Name> hooks of the 24 collective entry points (and of their 24 `_c` forms
 * where mpi.h declares them) at the module, or back to NULL. Called from the module's init and
 * finalize. */
void protect_entry_install(void);
void protect_entry_remove(void);

#endif
