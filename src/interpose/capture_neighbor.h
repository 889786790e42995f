/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* The capture module's neighbourhood collectives (capture_neighbor.c). */
#ifndef MG_CAPTURE_NEIGHBOR_H
#define MG_CAPTURE_NEIGHBOR_H

/* Points the hooks of the neighbourhood collectives at the module. Called once from the module's
 * init. */
void capture_neighbor_install(void);

#endif
