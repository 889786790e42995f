/* Drives one detector (the ParaStack model or the timeout baseline) over one simulated run, the
 * way the monitor drives it over a real job: sleep the detector's delay, probe its sampled ranks,
 * observe; on HANG optionally scan every rank a few times and run the diagnosis, resuming on a
 * transient slowdown (docs/design/hang.md "How it samples", ParaStack §3.3-4). */
#ifndef SIM_WATCH_H
#define SIM_WATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "hang_diag.h"
#include "hang_verdict.h"
#include "sim_app.h"

/* The detector interface both hang_model and hang_timeout satisfy. */
struct sim_detector {
    void *self;
    int (*sampled)(const void *self, const int **ranks, size_t *count);
    int (*next_delay)(void *self, double *delay);
    int (*observe)(void *self, size_t out_mpi, double now, struct hang_verdict *v);
    int (*resume)(void *self);
};

/* Adapters: a detector over an existing hang_model / hang_timeout. */
struct hang_model;
struct hang_timeout;
struct sim_detector sim_detector_model(struct hang_model *m);
struct sim_detector sim_detector_timeout(struct hang_timeout *t);

struct sim_watch_config {
    double end_time; /* stop watching here (the job's end, or the deadline after a fault) */
    bool diagnose;   /* scan and classify on HANG (the model); off: a HANG is final (timeout) */
    size_t nscans;   /* scans of every rank per diagnosis */
    double scan_gap; /* seconds between scans, in every live rank's own time */
    bool counters;   /* the shm backend's call counters are available */
    double max_stretch; /* a gap lasts at most this many scan_gaps (1: the paper's fixed gaps) */
};

/* Caller-owned buffers for the diagnosis: nscans * nranks scan records and nranks faulty ranks and
 * CPU records. */
struct sim_scan_buf {
    struct hang_diag_rank *scans;
    int *faulty;
    struct hang_diag_cpu *cpu;
};

struct sim_outcome {
    bool alarm;               /* the watch ended with a (confirmed) hang report */
    double alarm_time;        /* time of the HANG verdict that was reported */
    unsigned raw_hangs;       /* HANG verdicts, including those the diagnosis dismissed */
    unsigned dismissed;       /* HANG verdicts found to be transient slowdowns */
    enum hang_diag_kind kind; /* diagnosis of the reported hang (when diagnosing) */
    size_t nfaulty;           /* ranks named faulty */
    bool faulty_named;        /* the run's faulty rank is among them */
    size_t observations;
};

/* 0 ok; a negative MG_E* from the detector otherwise. */
int sim_watch(const struct sim_run *run, const struct sim_detector *det,
              const struct sim_watch_config *cfg, struct sim_scan_buf *buf,
              struct sim_outcome *out);

#endif
