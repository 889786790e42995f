/* The capture module's communicator constructors (capture_ctor.c). */
#ifndef MG_CAPTURE_CTOR_H
#define MG_CAPTURE_CTOR_H

/* Points the hooks of the communicator constructors and Comm_free at the module. Called once from
 * the module's init. */
void capture_ctor_install(void);

#endif
