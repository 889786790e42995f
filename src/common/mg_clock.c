/* The monotonic clock (mg_clock.h). */
#include "mg_clock.h"

#include <time.h>

double mg_clock_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
