/* An arm on a double input that the reals reach and no double does: the open interval between
 * 0.1 and the next double holds real numbers only, so the solver's real solution, rounded to a
 * double, lands outside it. The run made from it is the check (docs/concolic.md "Floating-point
 * inputs"): the arm stays uncovered and the run counts as one that missed its arm. */
#include <mpi.h>
#include <mpiguard/concolic.h>
#include <stdio.h>

#define FLOAT_GAP_LOW 0.1
#define FLOAT_GAP_HIGH 0x1.999999999999bp-4 /* the double after 0.1 (0x1.999999999999ap-4) */

int main(int argc, char **argv)
{
    double x = 0.5;
    MPI_Init(&argc, &argv);
    mpiguard_double(&x);
    if (x > FLOAT_GAP_LOW && x < FLOAT_GAP_HIGH) /* GAP */
        printf("float_gap: %.17g lies between two adjacent doubles\n", x);
    MPI_Finalize();
    return 0;
}
