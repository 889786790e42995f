/* What the bundled example programs share: their command line (--seconds, --fault, --fault-rank,
 * --fault-at, --announce, --tick, --size), the collective decision to stop, and the injected
 * faults used by the tests, demos and benchmarks of every mpiguard tool (docs/examples.md). */
#ifndef EXAMPLE_H
#define EXAMPLE_H

#include <mpi.h>

typedef enum example_fault {
    FAULT_NONE,
    FAULT_COMPUTE_LOOP, /* an infinite loop outside MPI */
    FAULT_SLEEP,        /* a very long sleep outside MPI */
    FAULT_STOP,         /* the rank SIGSTOPs itself: a frozen node */
    FAULT_DEADLOCK      /* a receive that never matches */
} example_fault;

typedef struct example {
    const char *name;
    int rank, size;
    double seconds;      /* run for this long (decided collectively) */
    long max_iterations; /* --iterations: stop after this many instead (0: by time) */
    example_fault fault;
    int fault_rank;
    double fault_at;   /* seconds after start */
    long problem_size; /* --size: the per-rank work unit, each program documents its meaning */
    double start;
    long iterations;
    double tick;      /* --tick S: rank 0 prints its iterations every S seconds (0: never) */
    double next_tick; /* elapsed time of the next such line */
} example;

/* Initialises MPI and parses the command line; on a bad option rank 0 prints why and every rank
 * exits with status 2. default_size is the program's --size default. */
void example_init(example *ex, const char *name, long default_size, int *argc, char ***argv);

/* Called once per iteration by every rank: fires the fault when its time has come on the faulty
 * rank, and returns 1 (on every rank alike) once the run time is over. check_every > 1 does the
 * collective stop decision only every that many iterations (it costs an Allreduce);
 * check_every <= 0 only fires the fault and returns 0, for programs that decide without a
 * collective. */
int example_should_stop(example *ex, int check_every);

/* Prints the closing line on rank 0 (with the checksum the program computed), finalises MPI and
 * returns the process exit status. */
int example_finish(example *ex, double checksum);

/* Floating-point work on a buffer for the compute phases. */
double example_compute(double *data, long n, int sweeps);

#endif
