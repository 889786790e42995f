/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* The capture module's collectives (capture_coll.c). */
#ifndef MG_CAPTURE_COLL_H
#define MG_CAPTURE_COLL_H

/* Points the hooks of the collectives and Op_create at the module. Called once from the module's
 * init. */
void capture_coll_install(void);

#endif
