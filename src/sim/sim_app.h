/* Internal to src/sim: no other folder includes it (docs/architecture.md). */
/* A synthetic MPI application whose OUT_MPI/IN_MPI state is a pure function of (run, rank, time),
 * so a monitor can probe any rank at any simulated time without simulating the others
 * (docs/design/hang.md "Proof": scale by simulation). Bulk-synchronous iterations: every rank
 * computes (OUT_MPI) for its share of the iteration, then waits in MPI (IN_MPI) for the slowest;
 * noise, static load imbalance, a transient slowdown of a few ranks, a phase change, and a fault in
 * one rank that spreads through the stencil neighbourhood (and at the next global collective) to a
 * global hang. */
#ifndef SIM_APP_H
#define SIM_APP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* MPI function ids reported to the diagnosis. */
enum sim_app_func { SIM_APP_FUNC_HALO, SIM_APP_FUNC_ALLREDUCE, SIM_APP_FUNC_COUNT };

enum sim_app_fault { SIM_APP_FAULT_NONE, SIM_APP_FAULT_COMPUTATION, SIM_APP_FAULT_COMMUNICATION };

struct sim_app_profile {
    double period;         /* mean iteration length, seconds */
    double compute_frac;   /* share of the iteration the slowest rank spends computing */
    double imbalance;      /* static per-rank extra compute, up to this fraction */
    double noise;          /* per-iteration extra compute, up to this fraction */
    unsigned global_every; /* a global collective every this many iterations (0: never) */
    unsigned grid_dims;    /* 1..3: the stencil neighbourhood a fault spreads through */
};

struct sim_app_run {
    uint64_t seed;
    size_t nranks;
    struct sim_app_profile phase[2]; /* phase[1] applies to iterations starting at phase_change */
    double phase_change;             /* INFINITY: one phase */
    double slow_start, slow_end;     /* iterations starting in [start, end) are slowed */
    size_t slow_first, slow_count;
    double slow_factor;
    bool slow_denies_cpu; /* the slowdown is the node denying the slowed ranks CPU (they run at
                             1 / slow_factor, which verification can see); else more work at
                             full speed (it cannot) */
    enum sim_app_fault fault;
    size_t fault_rank;
    double fault_time;
    /* Derived by sim_app_run_prepare. */
    size_t dims[3];
    uint64_t fault_iter;  /* iteration running at fault_time */
    uint64_t block_iter;  /* first iteration whose communication the faulty rank never completes */
    uint64_t global_iter; /* first global collective at or after block_iter (UINT64_MAX: none) */
    int fault_func;       /* the faulty rank's MPI function and counter at fault_time */
    uint64_t fault_counter;
};

struct sim_app_rank {
    bool out_mpi;     /* computing, and so runnable; inside MPI a rank waits (blocking) */
    int func;         /* current MPI function, or the last one when OUT_MPI */
    uint64_t counter; /* MPI calls entered */
    double cpu_rate;  /* the share of its CPU the node gives it now (1 but in a slowdown that
                         denies CPU) */
};

/* The iteration running at some time, walked forward only. */
struct sim_app_cursor {
    const struct sim_app_run *run;
    const struct sim_app_profile *prof;
    uint64_t iter;
    double start, len;
    double cbase; /* compute time of a rank with no imbalance and no noise */
    double maxw;  /* longest compute among the ranks not slowed */
    bool slow;    /* this iteration runs inside the slowdown window */
};

/* Fills the derived fields (grid, fault iteration). Call once after setting the rest. */
void sim_app_run_prepare(struct sim_app_run *run);

/* Positions c at iteration 0 (time 0). */
void sim_app_cursor_init(struct sim_app_cursor *c, const struct sim_app_run *run);
/* Moves c to the iteration running at t (t never below the last seek). */
void sim_app_cursor_seek(struct sim_app_cursor *c, double t);
/* State of rank at time t, with c positioned at t. */
void sim_app_rank_state(const struct sim_app_cursor *c, size_t rank, double t,
                        struct sim_app_rank *s);

#endif
