/* Internal to src/sim: no other folder includes it (docs/architecture.md). */
/* Drives the hang watch engine (hang_watch.h) over one simulated run, the way `mpiguard hang`
 * drives it over a real job: the engine says when to read which ranks, the simulated application
 * answers for that time, and the shm or ptrace probe is simulated (call counters or states only).
 * Detectors: the ParaStack model, verified, or a timeout baseline, final (docs/design/hang.md
 * "Proof"). */
#ifndef SIM_WATCH_H
#define SIM_WATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hang_diag.h"
#include "hang_watch.h"
#include "sim_agents.h"
#include "sim_app.h"

struct sim_watch_config {
    double end_time; /* stop watching here (the job's end, or the deadline after a fault) */
    bool counters;   /* the shm backend's call counters are available */
    struct hang_watch_params watch;
    struct sim_agents *agents; /* NULL: the probe reads the ranks directly; else through these
                                  agents, over the agent protocol */
};

/* Caller-owned buffers sized for the run's ranks: readings, and the simulated probe's memory of
 * each rank's counter at its previous reading (stamped with the watch it belongs to). Zeroed once;
 * sim_watch bumps stamp. */
struct sim_watch_probe_buf {
    struct hang_watch_reading *readings;
    uint64_t *last_counter;
    uint32_t *read_in;         /* the stamp of the watch that read the rank last */
    double *cpu_s;             /* each rank's CPU time at its last scan */
    agent_proto_reading *wire; /* with agents: the readings as they came */
    uint32_t stamp;
};

/* What reading the ranks through agents cost: sample rounds and scan rounds apart. */
struct sim_watch_wire_cost {
    uint64_t rounds, frames, bytes;
    double seconds; /* wall time */
};

struct sim_watch_outcome {
    bool alarm;         /* the watch ended with a (confirmed) hang report */
    double alarm_time;  /* time of the verdict that started the reported verification */
    unsigned raw_hangs; /* verifications begun (HANG verdicts, the first-call and halt rules) */
    unsigned dismissed; /* of those, set aside (transient slowdowns, starved ranks) */
    enum hang_diag_kind kind; /* diagnosis of the reported hang (when verified) */
    size_t nfaulty;           /* ranks named faulty */
    bool faulty_named;        /* the run's faulty rank is among them */
    bool from_start;          /* the report came from the first-call rule */
    size_t observations;
    struct sim_watch_wire_cost samples, scans; /* with agents */
};

/* 0 ok; a negative MG_ERROR_E* from the engine or the detector otherwise. */
int sim_watch(const struct sim_app_run *run, const struct hang_watch_detector *det,
              const struct sim_watch_config *cfg, struct sim_watch_probe_buf *buf,
              struct sim_watch_outcome *out);

#endif
