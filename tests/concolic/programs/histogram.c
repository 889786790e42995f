/* A target for `mpiguard concolic` shaped like a real MPI code: a parallel histogram. The
 * parameters come from the command line (else the defaults), are marked as inputs and
 * sanity-checked; every rank draws its keys from a generator seeded by the seed and its rank,
 * bins them and keeps a reservoir sample, estimates how many keys it would send to the other
 * ranks if the buckets were split by rank; the counts are summed on every rank (MPI_Allreduce),
 * every rank finds the bucket of a percentile, and a root rank reports. Planted bugs (marked
 * by a comment on their line; tests/concolic/suite.sh checks each one):
 *   S1 input: percentile 100: the search compares with <= and runs past the last bucket
 *             (assertion)
 *   S2 rank:  a root other than rank 0: the root fills in a report only rank 0 allocated
 *             (SIGSEGV on the root)
 *   S3 np:    one process: the estimate divides the remote keys by the np - 1 other ranks
 *             (SIGFPE)
 *   S4 loop:  the reservoir sample's replacement draws modulo the keys past the reservoir, zero
 *             at a rank's 9th key (SIGFPE)
 *   S5 combo: a key range narrower than the bucket count: the guard that shrinks the bucket
 *             count counts key values (max - min + 1) while the bucket width divides max - min,
 *             so the width is 0 (SIGFPE; needs key_max - key_min < buckets) */
#include <assert.h>
#include <mpi.h>
#include <mpiguard/concolic.h>
#include <stdio.h>
#include <stdlib.h>

enum { MAX_KEYS = 1 << 24, MAX_BUCKETS = 256, MAX_KEY = 1000000, RESERVOIR = 8, BAR = 40 };
enum { REPORT_SUMMARY, REPORT_BARS, REPORT_CUMULATIVE };

typedef struct params {
    int nkeys; /* keys drawn by each rank */
    int nbuckets;
    int seed;
    int key_min; /* keys are in key_min..key_max */
    int key_max;
    int pct;    /* the percentile reported */
    int root;   /* the rank that reports */
    int report; /* REPORT_* */
} params;

typedef struct report {
    long total, largest;
    int largest_bucket, pct_bucket;
} report;

static void read_params(params *p, int argc, char **argv)
{
    int *field[] = {&p->nkeys,   &p->nbuckets, &p->seed, &p->key_min,
                    &p->key_max, &p->pct,      &p->root, &p->report};
    for (int i = 1; i < argc && i <= (int)(sizeof field / sizeof *field); i++)
        *field[i - 1] = atoi(argv[i]);
    mpiguard_int_with_limit(&p->nkeys, 64);
    mpiguard_int(&p->nbuckets);
    mpiguard_int(&p->seed);
    mpiguard_int(&p->key_min);
    mpiguard_int(&p->key_max);
    mpiguard_int(&p->pct);
    mpiguard_int(&p->root);
    mpiguard_int(&p->report);
}

static const char *check_params(const params *p, int np)
{
    if (p->nkeys < 1 || p->nkeys > MAX_KEYS)
        return "keys per process must be in 1..2^24";
    if (p->nbuckets < 1 || p->nbuckets > MAX_BUCKETS)
        return "buckets must be in 1..256";
    if (p->seed < 0)
        return "the seed must not be negative";
    if (p->key_min < 0 || p->key_max > MAX_KEY)
        return "keys must be in 0..1000000";
    if (p->key_min >= p->key_max)
        return "key_min must be below key_max";
    if (p->pct < 1 || p->pct > 100)
        return "percentile must be in 1..100";
    if (p->root < 0 || p->root >= np)
        return "root must be a rank";
    if (p->report < REPORT_SUMMARY || p->report > REPORT_CUMULATIVE)
        return "report must be 0 (summary), 1 (bars) or 2 (cumulative)";
    return NULL;
}

static unsigned next_key(unsigned *state) /* xorshift32 */
{
    unsigned x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *state = x;
}

/* The first bucket at which the cumulative count reaches pct percent of the keys. */
static int percentile_bucket(const long *counts, int nbuckets, long total, int pct)
{
    long cum = 0;
    int b = 0;
    while (100 * (cum + counts[b]) <= pct * total) {
        cum += counts[b++];
        assert(b < nbuckets); /* S1 */
    }
    return b;
}

static void print_report(const report *r, const long *counts, const params *p, int width)
{
    printf("%ld keys, %d buckets of %d, largest %d (%ld keys), %d%% below bucket %d\n", r->total,
           p->nbuckets, width, r->largest_bucket, r->largest, p->pct, r->pct_bucket);
    long cum = 0;
    switch (p->report) {
    case REPORT_BARS:
        for (int b = 0; b < p->nbuckets; b++) {
            int len = (int)(counts[b] * BAR / r->largest);
            printf("%8d %.*s\n", p->key_min + b * width, len,
                   "########################################");
        }
        break;
    case REPORT_CUMULATIVE:
        for (int b = 0; b < p->nbuckets; b++) {
            cum += counts[b];
            if (cum == r->total && b + 1 < p->nbuckets) {
                printf("%8d 100%% (the %d buckets above are empty)\n", p->key_min + b * width,
                       p->nbuckets - b - 1);
                break;
            }
            printf("%8d %3ld%%\n", p->key_min + b * width, 100 * cum / r->total);
        }
        break;
    default:
        break;
    }
}

/* A bad parameter: rank 0 says which; every rank finalises, and main returns 1. */
static int reject(const char *why, int rank)
{
    if (rank == 0)
        fprintf(stderr, "histogram: %s\n", why);
    MPI_Finalize();
    return 1;
}

int main(int argc, char **argv)
{
    int rank, np;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    params p = {.nkeys = 8,
                .nbuckets = 16,
                .seed = 12345,
                .key_min = 0,
                .key_max = 999,
                .pct = 50,
                .root = 0,
                .report = REPORT_SUMMARY};
    read_params(&p, argc, argv);
    const char *bad = check_params(&p, np);
    if (bad)
        return reject(bad, rank);
    report *rep = rank == 0 ? calloc(1, sizeof *rep) : NULL; /* rank 0 prints the report */

    /* Fewer key values than buckets: one bucket per value. */
    int range = p.key_max - p.key_min;
    if (range + 1 < p.nbuckets)
        p.nbuckets = range + 1;
    int width = range / p.nbuckets;
    long *counts = calloc(p.nbuckets, sizeof *counts);
    int sample[RESERVOIR];
    unsigned state = (unsigned)p.seed * 2654435761u ^ (unsigned)(rank + 1);
    for (int i = 0; i < p.nkeys; i++) {
        int key = p.key_min + (int)(next_key(&state) % (unsigned)(range + 1));
        int b = (key - p.key_min) / width; /* S5 */
        if (b >= p.nbuckets)
            b = p.nbuckets - 1; /* the last bucket takes the keys above the last full width */
        counts[b]++;
        if (i < RESERVOIR) {
            sample[i] = key;
        } else {
            /* Algorithm R: keep the key with probability RESERVOIR / (i + 1). */
            unsigned j = next_key(&state) % (unsigned)(i - RESERVOIR); /* S4 */
            if (j < RESERVOIR)
                sample[j] = key;
        }
    }

    /* If the buckets were split in blocks by rank, the keys this rank would send away. */
    int per = p.nbuckets / np;
    int first = rank * per, last = rank == np - 1 ? p.nbuckets : first + per;
    long remote = 0;
    for (int b = 0; b < p.nbuckets; b++)
        if (b < first || b >= last)
            remote += counts[b];
    long per_peer = remote / (np - 1), most = 0; /* S3 */
    MPI_Reduce(&per_peer, &most, 1, MPI_LONG, MPI_MAX, p.root, MPI_COMM_WORLD);

    /* Every rank gets the global counts (MPI_Allreduce) and finds the percentile's bucket; the
     * ranks count their own keys up to it, and the root reports. */
    long *total = calloc(p.nbuckets, sizeof *total), keys = 0, largest = 0;
    MPI_Allreduce(counts, total, p.nbuckets, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    int largest_bucket = 0;
    for (int b = 0; b < p.nbuckets; b++) {
        keys += total[b];
        if (total[b] > largest) {
            largest = total[b];
            largest_bucket = b;
        }
    }
    int pct_bucket = percentile_bucket(total, p.nbuckets, keys, p.pct);
    long mine = 0, upto = 0;
    for (int b = 0; b <= pct_bucket; b++)
        mine += counts[b];
    MPI_Reduce(&mine, &upto, 1, MPI_LONG, MPI_SUM, p.root, MPI_COMM_WORLD);
    int *samples = rank == p.root ? malloc(np * RESERVOIR * sizeof *samples) : NULL;
    int nsample = p.nkeys < RESERVOIR ? p.nkeys : RESERVOIR;
    MPI_Gather(sample, RESERVOIR, MPI_INT, samples, RESERVOIR, MPI_INT, p.root, MPI_COMM_WORLD);
    if (rank == p.root) {
        rep->total = keys; /* S2 */
        rep->largest = largest;
        rep->largest_bucket = largest_bucket;
        rep->pct_bucket = pct_bucket;
        print_report(rep, total, &p, width);
        long below = 0;
        for (int r = 0; r < np; r++)
            for (int k = 0; k < nsample; k++)
                below += samples[r * RESERVOIR + k] < p.key_min + (pct_bucket + 1) * width;
        printf("%ld keys up to bucket %d; sampled: %ld of %d; at most %ld keys per peer\n", upto,
               pct_bucket, below, np * nsample, most);
    }
    free(total);
    free(samples);
    free(counts);
    free(rep);
    MPI_Finalize();
    return 0;
}
