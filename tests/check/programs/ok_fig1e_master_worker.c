/* MUST paper Fig. 1e: a master hands out 12 tasks and collects results from MPI_ANY_SOURCE,
 * then tells each worker to stop with a tag.
 * np: 4
 * checks: -message_race
 * expect: clean
 */
#include <mpi.h>

enum { TASKS = 12, WORK = 1, STOP = 2 };

int main(int argc, char **argv)
{
    int rank, size, task = 0;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        int sent = 0, done = 0, result, sum = 0;
        for (int w = 1; w < size; w++, sent++)
            MPI_Send(&sent, 1, MPI_INT, w, WORK, MPI_COMM_WORLD);
        while (done < TASKS) {
            MPI_Recv(&result, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
            sum += result;
            done++;
            int tag = sent < TASKS ? WORK : STOP;
            MPI_Send(&sent, 1, MPI_INT, st.MPI_SOURCE, tag, MPI_COMM_WORLD);
            sent += tag == WORK;
        }
        MPI_Finalize();
        return sum == TASKS * (TASKS - 1) ? 0 : 1; /* each result is 2 * task */
    }
    for (;;) {
        MPI_Recv(&task, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        if (st.MPI_TAG == STOP)
            break;
        task *= 2;
        MPI_Send(&task, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
