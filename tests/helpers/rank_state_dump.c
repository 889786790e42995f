/* Test helper: prints what each rank of a job publishes in shared memory, one line per rank:
 * "rank R in_mpi N fn MPI_X calls C finalized F", or "rank R absent". Usage: TOKEN NRANKS. */
#include "mpi_function_ids.h"
#include "rank_state_reader.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: rank_state_dump TOKEN NRANKS\n");
        return 2;
    }
    int n = atoi(argv[2]);
    for (int r = 0; r < n; r++) {
        const rank_state *s;
        if (rank_state_reader_open(argv[1], r, &s) != 0) {
            printf("rank %d absent\n", r);
            continue;
        }
        printf("rank %d in_mpi %u fn %s calls %llu finalized %u\n", r,
               (unsigned)atomic_load(&s->threads_in_mpi), mpi_function_ids_name(atomic_load(&s->current_fn)),
               (unsigned long long)atomic_load(&s->calls), (unsigned)atomic_load(&s->finalized));
        rank_state_reader_close(s);
    }
    return 0;
}
