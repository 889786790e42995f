/* master_worker: rank 0 hands out tasks and collects results with MPI_ANY_SOURCE receives, polling
 * with MPI_Test between bookkeeping; workers compute tasks of varying length. --size N: work per
 * task unit (default 20000). An irregular period with busy-wait polling inside MPI. */
#include "example.h"

#include <stdio.h>
#include <stdlib.h>

enum { TAG_TASK = 1, TAG_RESULT = 2, TAG_STOP = 3 };

static double master(example *ex)
{
    double total = 0;
    long next_task = 0;
    int active = ex->size - 1;
    for (int w = 1; w < ex->size; w++, next_task++)
        MPI_Send(&next_task, 1, MPI_LONG, w, TAG_TASK, MPI_COMM_WORLD);
    int stopping = 0;
    while (active > 0) {
        double result;
        MPI_Request req;
        MPI_Status status;
        MPI_Irecv(&result, 1, MPI_DOUBLE, MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &req);
        int done = 0;
        while (!done)
            MPI_Test(&req, &done, &status);
        total += result;
        example_should_stop(ex, 0);
        if (!stopping)
            stopping = ex->max_iterations > 0 ? next_task >= ex->max_iterations
                                              : MPI_Wtime() - ex->start >= ex->seconds;
        if (stopping) {
            MPI_Send(&next_task, 1, MPI_LONG, status.MPI_SOURCE, TAG_STOP, MPI_COMM_WORLD);
            active--;
        } else {
            MPI_Send(&next_task, 1, MPI_LONG, status.MPI_SOURCE, TAG_TASK, MPI_COMM_WORLD);
            next_task++;
        }
    }
    return total;
}

static double worker(example *ex)
{
    double *data = calloc((size_t)ex->problem_size, sizeof *data), sum = 0;
    for (;;) {
        long task;
        MPI_Status status;
        MPI_Recv(&task, 1, MPI_LONG, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
        if (status.MPI_TAG == TAG_STOP)
            break;
        example_should_stop(ex, 0);
        double result = example_compute(data, ex->problem_size, 1 + (int)(task % 4));
        sum += result;
        MPI_Send(&result, 1, MPI_DOUBLE, 0, TAG_RESULT, MPI_COMM_WORLD);
    }
    free(data);
    return sum;
}

int main(int argc, char **argv)
{
    example ex;
    example_init(&ex, "master_worker", 20000, &argc, &argv);
    if (ex.size < 2) {
        if (ex.rank == 0)
            fprintf(stderr, "master_worker: needs at least 2 ranks\n");
        MPI_Finalize();
        return 2;
    }
    double checksum = ex.rank == 0 ? master(&ex) : worker(&ex);
    return example_finish(&ex, ex.rank == 0 ? checksum : 0);
}
