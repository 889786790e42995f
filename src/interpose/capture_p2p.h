/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* The capture module's point-to-point calls (capture_p2p.c). */
#ifndef MG_CAPTURE_P2P_H
#define MG_CAPTURE_P2P_H

/* Points the hooks of the sends, receives, probes and their nonblocking and persistent forms at
 * the module. Called once from the module's init. */
void capture_p2p_install(void);

#endif
