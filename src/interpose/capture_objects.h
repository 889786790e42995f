/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* The capture module's observers of group, op, info and error-handler constructors and frees,
 * which fill the handle table (capture_handles.h). One MPI thread at a time. */
#ifndef MG_CAPTURE_OBJECTS_H
#define MG_CAPTURE_OBJECTS_H

/* Points the library's group, op and info hooks at the module's observers (datatypes are
 * observed by capture_types, which calls capture_handles_made and _freed). */
void capture_objects_install(void);

#endif
