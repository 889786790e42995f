/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* The capture module's calls on requests that exist (capture_wait.c). */
#ifndef MG_CAPTURE_WAIT_H
#define MG_CAPTURE_WAIT_H

/* Points the hooks of Start/Startall, the Wait/Test family, Request_free and Cancel at the module.
 * Called once from the module's init. */
void capture_wait_install(void);

#endif
