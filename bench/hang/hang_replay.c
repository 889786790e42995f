/* Replays the observation trace of a real `mpiguard hang --trace` run through the fixed-timeout
 * baseline of ParaStack's Table 1, so both detectors are judged on the same runs
 * (docs/hang-measurements.md). The timeout samples every I seconds: it takes the first traced
 * observation at least I after its previous one. Prints one line per (I, K): "timeout I K <first
 * hang time | none>". */
#include "hang_timeout.h"

#include <stdio.h>
#include <stdlib.h>

static const struct {
    double interval;
    unsigned k;
} table1[] = {{0.4, 5}, {0.4, 10}, {0.8, 5}, {0.8, 10}};

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: hang_replay TRACE NRANKS\n");
        return 64;
    }
    size_t nranks = (size_t)atol(argv[2]);
    for (size_t s = 0; s < sizeof table1 / sizeof *table1; s++) {
        FILE *in = fopen(argv[1], "r");
        if (!in) {
            perror(argv[1]);
            return 66;
        }
        struct hang_timeout_params p;
        hang_timeout_params_default(&p);
        p.interval = table1[s].interval;
        p.k = table1[s].k;
        struct hang_timeout *t;
        if (hang_timeout_create(&p, nranks, 1, &t) != 0) {
            fprintf(stderr, "hang_replay: bad parameters\n");
            return 64;
        }
        char line[256];
        double last = -1e9, fired = -1;
        while (fired < 0 && fgets(line, sizeof line, in)) {
            double now;
            size_t out, sampled;
            if (line[0] == '#' || sscanf(line, "%lf %zu %zu", &now, &out, &sampled) != 3)
                continue;
            if (now - last < p.interval)
                continue;
            last = now;
            /* The trace's sets may be smaller than C (few ranks): scale to the baseline's set. */
            size_t scaled = sampled ? (out * p.set_size + sampled - 1) / sampled : 0;
            struct hang_verdict v;
            if (hang_timeout_observe(t, scaled > p.set_size ? p.set_size : scaled, now, &v) == 0 &&
                v.kind == HANG_VERDICT_HANG)
                fired = now;
        }
        fclose(in);
        hang_timeout_destroy(t);
        if (fired >= 0)
            printf("timeout %.1f %u %.3f\n", table1[s].interval, table1[s].k, fired);
        else
            printf("timeout %.1f %u none\n", table1[s].interval, table1[s].k);
    }
    return 0;
}
