/* The memory this machine has free now, for the CLI to size its work by (the collectives tester
 * skips a test that would not fit instead of meeting the OOM killer). */
#ifndef MG_MEMORY_H
#define MG_MEMORY_H

#include <stdint.h>

/* MemAvailable of /proc/meminfo in bytes, or 0 when unknown. */
uint64_t mg_memory_available(void);

#endif
