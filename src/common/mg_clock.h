/* The monotonic clock the CLI and the agents time things with (never the engines: they take the
 * caller's time, so simulation and replay can drive them). */
#ifndef MG_CLOCK_H
#define MG_CLOCK_H

/* Seconds on CLOCK_MONOTONIC: only differences mean something. */
double mg_clock_seconds(void);

#endif
