/* The watch loop of `mpiguard hang` as a step object (docs/design/hang.md "What the user gets";
 * ParaStack §3.3-4; docs/hang.md "How a hang is decided"): a detector (the model, or the timeout
 * baseline) fed with samples, the suspended-job rule, the rule for hangs from the first call, and
 * the verification scans that turn a suspicion into a verdict or set it aside. No I/O, no clock, no
 * MPI: the caller reads the ranks the last step asks for, at the time it asks, and feeds the
 * readings and its own time back; the CLI and the simulator drive this same code. An object is not
 * thread-safe; distinct objects are independent. */
#ifndef HANG_WATCH_H
#define HANG_WATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hang_diag.h"
#include "hang_verdict.h"

/* What the watch asks of a detector; hang_model and hang_timeout both fit (the adapters below). */
struct hang_watch_detector {
    void *self;
    int (*sampled)(const void *self, const int **ranks, size_t *count);
    int (*next_delay)(void *self, double *delay);
    int (*observe)(void *self, size_t out_mpi, double now, struct hang_verdict *v);
    int (*resume)(void *self);
};

struct hang_model;
struct hang_timeout;
/* A detector over a model or a timeout the caller owns and destroys after the watch. */
struct hang_watch_detector hang_watch_detector_model(struct hang_model *m);
struct hang_watch_detector hang_watch_detector_timeout(struct hang_timeout *t);

struct hang_watch_params {
    bool verify;        /* a HANG verdict is verified by scans of every rank; false: it is final
                           (the timeout baseline, as the paper runs it) */
    size_t nscans;      /* verification scans, >= 2 */
    double scan_gap;    /* seconds between them, in every live rank's own time (hang_diag) */
    double max_stretch; /* a gap lasts at most this many scan_gaps (hang_diag_retake_after) */
    double gap_slices;  /* a rank polling through a gap (MPI_Test*, MPI_Iprobe, no other call)
                           and giving the CPU away at each poll has had a scan_gap of its own time
                           once it came on a CPU this many times (docs/design/hang.md "A rank
                           polling in a loop owes its polls"; 0: its CPU time decides, as any
                           rank's) */
    double
        stretch_said; /* a gap longer than this many scan_gaps is an event (HANG_WATCH_STRETCHED) */
    double still_after;  /* hangs from the first call: every rank blocked (or one stopped from
                            outside while the others wait or start; or one polling while the
                            others block), no two of them a send and the receive that matches it,
                            this long is verified without the model (0: the rule is off) */
    double stuck_after;  /* the same, with every rank's wait known to be one that nothing can
                            complete (no send with its receive, no collective that every rank is
                            in), one rank at most polling on its published requests with no other
                            call, this long; taken after the detector is built too (docs/design/
                            hang.md "Hangs from the first call") */
    double still_every;  /* seconds between the scans of every rank that rule takes */
    double halted_after; /* a job halted before the detector is built: after a rank's calls
                            moved in two successive gaps between its readings (samples or
                            scans), every counter still, every rank
                            blocked but one outside MPI, this long, is verified without the
                            detector, which would learn the halt as the job's normal (0: off;
                            it takes the first-call rule's scans) */
    bool start_unseen;   /* the job ran before the watch began (attached to): a rank never read
                            inside MPI since, outside it while every other rank is blocked, every
                            counter still, still_after is verified as the halt rule would, past
                            start or not, and the scans go on after the build while no counter
                            has moved since (docs/hang.md "A halt before the model") */
    double held_after;   /* a rank held inside a polling call (in MPI, in a function that returns
                            at once, its counter still) this long while another rank's counter
                            moves is verified without the detector (docs/hang.md "Held in a
                            polling call"; 0: the rule is off) */
    const bool *polling; /* polling[f]: function id f busy-waits (hang_diag_input); may be NULL */
    size_t npolling;
};

/* Verification on, 3 scans 1 s apart stretched up to 10x (said past 1.5x); the first-call rule on:
 * a scan every 3 s while the detector has not seen the job do anything, a verification after 15 s
 * with every rank blocked, after 3 s when nothing can complete (docs/hang.md "Hangs from the first
 * call"); the halt rule on after 3 s; the held-in-poll rule on after 5 s. */
void hang_watch_params_default(struct hang_watch_params *p);

/* What a rank's blocking call waits on, as the rank published it (rank_state.h). */
enum hang_watch_wait_kind {
    HANG_WATCH_WAIT_UNKNOWN = 0, /* a call that publishes none, a collective not published (ptrace,
                                    a rank on another node), or a communicator not known to be the
                                    world's */
    HANG_WATCH_WAIT_SEND,        /* a blocking send to peer */
    HANG_WATCH_WAIT_RECV,        /* a blocking receive (or probe) from peer, -1: any source */
    HANG_WATCH_WAIT_COLLECTIVE,  /* a blocking collective on comm, which has every rank */
    HANG_WATCH_WAIT_REQUESTS     /* a polling call's requests (MPI_Test*): the latest nonblocking
                                    operations the rank posted, folded: peer -1 when they name more
                                    than one rank or any source, tag -1 when more than one tag; each
                                    may be a send or a receive (rank_state.h keeps no direction) */
};

struct hang_watch_wait {
    enum hang_watch_wait_kind kind;
    int peer, tag;       /* SEND, RECV: a world rank; tag -1: any tag */
    uint64_t comm;       /* the communicator, by an id the same on every rank (hang_facts.h
                            hang_facts_world_index) */
    bool direction_only; /* SEND, RECV: the kind alone is known, from the function (ptrace, a rank
                            on another node), not its peer, tag or communicator */
};

/* One rank as the caller read it. */
struct hang_watch_reading {
    bool known;         /* its MPI state was read (shm: it has published it; ptrace: sampled) */
    bool exited;        /* its process is gone: never evidence of a hang */
    bool unreadable;    /* its process lives but could not be read: never evidence of a hang
                           either, and never taken for exited (hang_diag_rank.unreadable) */
    bool in_mpi;        /* a thread is inside MPI (or it polls: rank_probe.h) */
    bool progressed;    /* made a non-polling MPI call since its previous reading */
    bool counter_known; /* counter is valid */
    bool stopped;       /* stopped from outside (state T or t) */
    bool runnable;      /* running or waiting for a CPU */
    int func;           /* the MPI function it is in or last called, -1 when unknown */
    uint64_t counter;   /* MPI calls so far: only its moves matter */
    double cpu_s;       /* its CPU time so far, negative when unknown (scans with_cpu only) */
    double slices;      /* the slices that CPU time came in, negative when unknown */
    double cpu_share;   /* its share of a CPU on its node (hang_diag_own_time), 0 when unknown */
    struct hang_watch_wait wait; /* while in_mpi; unknown when not published (ptrace, or a rank
                                    on another node) */
    uint64_t exit_order;         /* exited: the kernel's order of the start of its exit
                                    (hang_diag_rank); 0: unknown */
};

enum hang_watch_action {
    HANG_WATCH_SAMPLE, /* at `at`, read the `count` ranks of `ranks` (in that order) */
    HANG_WATCH_SCAN,   /* at `at`, read every rank, with its CPU time when with_cpu */
    HANG_WATCH_VERDICT /* a hang: result, hang_watch_faulty, hang_watch_last_scan; watching ends */
};

/* What the input just fed led to, besides the next action, for the caller to say (bits). */
enum hang_watch_event {
    HANG_WATCH_OBSERVED = 1 << 0,    /* the detector took an observation: out_mpi of sampled */
    HANG_WATCH_BUILT = 1 << 1,       /* the detector's first verdict past BUILDING */
    HANG_WATCH_JOB_STOPPED = 1 << 2, /* every rank is stopped from outside: nothing is observed
                                        until they run again (said once per stop) */
    HANG_WATCH_JOB_RUNS = 1 << 3,    /* they run again, after at most stopped_for seconds */
    HANG_WATCH_SUSPECTED = 1 << 4,   /* the detector says HANG: verification begins */
    HANG_WATCH_STILL = 1 << 5,       /* every rank blocked since still_since: verification begins,
                                        the still period its first gap */
    HANG_WATCH_STRETCHED = 1 << 6,   /* scan scan_number came gap_took s after the one before, as
                                        rank short_rank was kept from running */
    HANG_WATCH_SET_ASIDE = 1 << 7,   /* verification found no hang: result says why (PROGRESS,
                                        ALL_EXITED, SUSPENDED, STARVED), starved_rank; watching on */
    HANG_WATCH_HELD = 1 << 8,        /* rank held_rank has stood inside a polling call since
                                        held_since while another rank's counter moved:
                                        verification begins */
    HANG_WATCH_HALTED = 1 << 9       /* the job, whose calls had moved, has stood halted since
                                        still_since, rank halted_rank outside MPI, while the
                                        detector was building: verification begins */
};

struct hang_watch_step {
    enum hang_watch_action action;
    double at;               /* SAMPLE, SCAN: the time to take it (the caller's clock, as fed) */
    const int *ranks;        /* SAMPLE: owned by the detector, valid until the next feed */
    size_t count;            /* SAMPLE: ranks to read; SCAN: every rank */
    bool with_cpu;           /* SCAN: cpu_s, slices and cpu_share are needed */
    bool gap_only;           /* SCAN with_cpu: the scan only tells whether the gap was long enough:
                                the CPU times and counters are needed, where each rank is may be
                                where it was last seen (a ptrace probe need not stop it) */
    unsigned events;         /* enum hang_watch_event bits */
    size_t out_mpi, sampled; /* OBSERVED */
    double stopped_for;      /* JOB_RUNS */
    double still_since;      /* STILL, HALTED */
    int halted_rank;         /* HALTED, VERDICT, SET_ASIDE: the rank outside MPI whose halt
                                rule's verification this is; -1 when another rule began it */
    size_t scan_number;      /* STRETCHED: 2..nscans */
    double gap_took;         /* STRETCHED */
    size_t short_rank;       /* STRETCHED */
    int starved_rank;        /* SET_ASIDE as STARVED, VERDICT: -1 when none */
    bool from_start;   /* VERDICT, SET_ASIDE: the verification came from the first-call rule */
    int held_rank;     /* HELD, VERDICT, SET_ASIDE: the rank held in a polling call whose
                          verification this is; -1 when another rule began it */
    double held_since; /* HELD */
    struct hang_diag_result result; /* SET_ASIDE, VERDICT */
};

struct hang_watch;

/* A watch over ranks 0..nranks-1 with detector det (borrowed: it must outlive the watch). 0 ok;
 * MG_ERROR_EINVAL on NULL, nranks == 0, nscans < 2, a gap or stretch not above 0, a negative still
 * or halt time, or still_after > 0 with still_every not above 0; MG_ERROR_ENOMEM. *out is set only
 * on success. */
int hang_watch_create(const struct hang_watch_params *p, const struct hang_watch_detector *det,
                      size_t nranks, struct hang_watch **out);
void hang_watch_destroy(struct hang_watch *w);

/* The first step, with watching starting at now: a SAMPLE. 0 ok; MG_ERROR_EINVAL on NULL; the
 * detector's error. */
int hang_watch_begin(struct hang_watch *w, double now, struct hang_watch_step *step);

/* Feeds the readings the last step asked for (its count, in its order), taken at now (never
 * before the time fed last), and sets the next step. 0 ok; MG_ERROR_EINVAL on NULL; MG_ERROR_ESTATE
 * after a VERDICT; the detector's error (the watch cannot go on then). */
int hang_watch_feed(struct hang_watch *w, const struct hang_watch_reading *readings, double now,
                    struct hang_watch_step *step);

/* After a VERDICT: the faulty ranks (result.nfaulty of them, at most nranks) and the last
 * verification scan (nranks), which the verdict rests on. Owned by the watch. */
const int *hang_watch_faulty(const struct hang_watch *w);
const struct hang_diag_rank *hang_watch_last_scan(const struct hang_watch *w);

/* Why the verification of step (SET_ASIDE) set its suspicion aside, a phrase written to why (len
 * bytes, cut to fit). Returns the mark a trace gives it ("vanished", "starved", "resume"), NULL for
 * none. */
const char *hang_watch_set_aside_reason(const struct hang_watch_step *step, char *why, size_t len);

/* The rule that decided step's VERDICT: "held-in-poll rule", "halt rule", "first-call rule" or
 * "model" (the report's "decided_by"). */
const char *hang_watch_decided_by(const struct hang_watch_step *step);

#endif
