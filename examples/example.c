/* Shared command line, stop decision and fault injection of the bundled examples (example.h). */
#include "example.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *const fault_names[] = {"none", "compute-loop", "sleep",
                                          "stop", "deadlock",     NULL};

static void usage_error(const example *ex, const char *what, const char *word)
{
    if (ex->rank == 0)
        fprintf(
            stderr,
            "%s: %s '%s'\nusage: %s [--seconds S | --iterations N] [--size N] [--announce] "
            "[--tick S] [--fault compute-loop|sleep|stop|deadlock --fault-rank R --fault-at T]\n",
            ex->name, what, word, ex->name);
    MPI_Finalize();
    exit(2);
}

static double parse_number(const example *ex, const char *opt, const char *value)
{
    char *end;
    double v = value ? strtod(value, &end) : 0;
    if (!value || end == value || *end || v < 0)
        usage_error(ex, opt[2] ? "bad value for" : "bad option", value ? value : opt);
    return v;
}

void example_init(example *ex, const char *name, long default_size, int *argc, char ***argv)
{
    memset(ex, 0, sizeof *ex);
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &ex->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ex->size);
    ex->name = name;
    ex->seconds = 10;
    ex->problem_size = default_size;
    ex->fault_rank = -1;
    int announce = 0;
    for (int i = 1; i < *argc; i++) {
        const char *opt = (*argv)[i], *value = i + 1 < *argc ? (*argv)[i + 1] : NULL;
        if (strcmp(opt, "--announce") == 0) {
            announce = 1;
            continue;
        }
        if (strcmp(opt, "--seconds") == 0)
            ex->seconds = parse_number(ex, opt, value);
        else if (strcmp(opt, "--iterations") == 0)
            ex->max_iterations = (long)parse_number(ex, opt, value);
        else if (strcmp(opt, "--tick") == 0)
            ex->tick = parse_number(ex, opt, value);
        else if (strcmp(opt, "--size") == 0)
            ex->problem_size = (long)parse_number(ex, opt, value);
        else if (strcmp(opt, "--fault-rank") == 0)
            ex->fault_rank = (int)parse_number(ex, opt, value);
        else if (strcmp(opt, "--fault-at") == 0)
            ex->fault_at = parse_number(ex, opt, value);
        else if (strcmp(opt, "--fault") == 0) {
            int k = 0;
            while (fault_names[k] && (!value || strcmp(fault_names[k], value) != 0))
                k++;
            if (!fault_names[k])
                usage_error(ex, "unknown fault kind", value ? value : "(none)");
            ex->fault = (example_fault)k;
        } else
            usage_error(ex, "unknown option", opt);
        i++;
    }
    if (ex->fault != FAULT_NONE && (ex->fault_rank < 0 || ex->fault_rank >= ex->size))
        usage_error(ex, "--fault needs a --fault-rank inside the job; the job has ranks 0 to",
                    ex->size > 1 ? "size-1" : "0");
    if (ex->problem_size < 1)
        usage_error(ex, "--size must be at least 1, got", "0");
    if (announce)
        fprintf(stderr, "%s: rank %d of %d pid %d\n", name, ex->rank, ex->size, (int)getpid());
    MPI_Barrier(MPI_COMM_WORLD);
    ex->start = MPI_Wtime();
    ex->next_tick = ex->tick;
}

/* Rank 0's progress line: its iterations so far at a wall-clock moment, so that a benchmark can
 * read the job's speed over any stretch of time (bench/hang/overhead_windows.sh). */
static void print_tick(example *ex, double elapsed)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    printf("%s: tick %.3f %ld\n", ex->name, (double)now.tv_sec + 1e-9 * (double)now.tv_nsec,
           ex->iterations);
    fflush(stdout);
    while (ex->next_tick <= elapsed)
        ex->next_tick += ex->tick;
}

/* Kept out of line and named, so stack samples of a compute-loop fault show where it spins. */
__attribute__((noinline)) static void fault_compute_loop(void)
{
    volatile double x = 1.0;
    for (;;)
        x = x * 1.0000001 + 1e-9;
}

static void fire_fault(example_fault fault)
{
    switch (fault) {
    case FAULT_COMPUTE_LOOP:
        fault_compute_loop();
        break;
    case FAULT_SLEEP:
        for (;;)
            sleep(3600);
        break;
    case FAULT_STOP:
        raise(SIGSTOP);
        break;
    case FAULT_DEADLOCK: {
        int never;
        /* A tag nobody sends: the receive never matches and the rank waits inside MPI for good. */
        MPI_Recv(&never, 1, MPI_INT, MPI_ANY_SOURCE, 0x7ead, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        break;
    }
    case FAULT_NONE:
        break;
    }
}

int example_should_stop(example *ex, int check_every)
{
    double elapsed = MPI_Wtime() - ex->start;
    if (ex->fault != FAULT_NONE && ex->rank == ex->fault_rank && elapsed >= ex->fault_at) {
        example_fault f = ex->fault;
        ex->fault = FAULT_NONE; /* fire once: a stopped rank that is continued goes on normally */
        /* The wall-clock moment, so a benchmark can measure a detection delay from the fault itself
         * rather than from its own start, which would count the launch in. */
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        fprintf(stderr, "%s: fault %s fires in rank %d at %.3f\n", ex->name, fault_names[f],
                ex->rank, (double)now.tv_sec + 1e-9 * (double)now.tv_nsec);
        fire_fault(f);
    }
    ex->iterations++;
    if (ex->tick > 0 && ex->rank == 0 && elapsed >= ex->next_tick)
        print_tick(ex, elapsed);
    /* Every rank counts the same iterations, so a count-based stop needs no collective. */
    if (ex->max_iterations > 0 && check_every > 0)
        return ex->iterations >= ex->max_iterations;
    if (check_every <= 0 || (check_every > 1 && ex->iterations % check_every != 0))
        return 0;
    int mine = elapsed >= ex->seconds, any;
    MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return any;
}

int example_finish(example *ex, double checksum)
{
    double total;
    MPI_Reduce(&checksum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (ex->rank == 0)
        printf("%s: %d ranks, %ld iterations in %.1f s, checksum %.6e\n", ex->name, ex->size,
               ex->iterations, MPI_Wtime() - ex->start, total);
    MPI_Finalize();
    return 0;
}

double example_compute(double *data, long n, int sweeps)
{
    double sum = 0;
    for (int s = 0; s < sweeps; s++)
        for (long i = 0; i < n; i++) {
            data[i] = data[i] * 0.999 + 0.001 * (double)(i % 7);
            sum += data[i];
        }
    return sum;
}
