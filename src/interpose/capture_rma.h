/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* The capture module's one-sided communication (capture_rma.c). */
#ifndef MG_CAPTURE_RMA_H
#define MG_CAPTURE_RMA_H

/* Points the hooks of the window calls, their epochs and the accesses at the module. Called once
 * from the module's init. */
void capture_rma_install(void);

#endif
