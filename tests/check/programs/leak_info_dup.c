/* A copy of an info (MPI_Info_dup) given a hint of its own: the program frees the original and
 * forgets the copy: one info_leak per rank at MPI_Info_dup. Issue 28 item 3.
 * np: 2
 * slice: mpich
 * expect: info_leak ranks 0 line 17
 * expect: info_leak ranks 1 line 17
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int nkeys = 0;
    MPI_Info base, tuned;
    MPI_Init(&argc, &argv);
    MPI_Info_create(&base);
    MPI_Info_set(base, "cb_nodes", "1");
    MPI_Info_dup(base, &tuned); /* <- reported */
    MPI_Info_set(tuned, "striping_unit", "65536");
    MPI_Info_free(&base);
    MPI_Info_get_nkeys(tuned, &nkeys);
    MPI_Finalize();
    return nkeys == 2 ? 0 : 1;
}
