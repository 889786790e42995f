/* One branch per rule of docs/design/concolic.md "The float rules": each branch on a value the
 * rule keeps symbolic is solved both ways; each on a value a rule makes concrete keeps one arm.
 * tests/concolic/float_rules.sh reads the arms by the tags in the comments. All inputs start at
 * 1; each branch has its own input v[k], so that no branch's constraint limits another's. */
#include <math.h>
#include <mpi.h>
#include <mpiguard/concolic.h>
#include <stdio.h>

static double twice(double v)
{
    return v + v;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    double v[12], w = 1, stored;
    float f = 1;
    int n = 1;
    unsigned u = 1;
    for (int k = 0; k < 12; k++) {
        v[k] = 1;
        mpiguard_double(&v[k]);
    }
    mpiguard_double(&w);
    mpiguard_float(&f);
    mpiguard_int(&n);
    mpiguard_unsigned(&u);
    int hits = 0;
    volatile double through_memory = v[0];
    stored = through_memory;
    if (stored + 2.5 > 40) /* rule: load/store, fadd by a constant */
        hits++;
    if (v[1] - w > 30) /* rule: fsub of two inputs */
        hits++;
    if (-v[2] > 20) /* rule: fneg */
        hits++;
    if (v[3] * 4 < -12) /* rule: fmul by a constant */
        hits++;
    if (v[4] / 8 > 3) /* rule: fdiv by a constant */
        hits++;
    if ((double)n * 0.5 > 10) /* rule: sitofp */
        hits++;
    if ((double)u * 0.25 > 50) /* rule: uitofp */
        hits++;
    if ((double)f > 60) /* rule: fpext */
        hits++;
    if ((float)(v[5] * 2) < -70) /* rule: fptrunc */
        hits++;
    if (twice(v[6]) > 90) /* rule: call argument and return */
        hits++;
    if (v[7] != 3.5) /* rule: unordered predicate (une) */
        hits++;
    if (v[8] * w > 200) /* rule: product of two inputs (w concrete) */
        hits++;
    if ((int)(v[9] * 1000) == 7777) /* rule: fptosi is concrete */
        hits++;
    if (sqrt(v[10]) > 1e6) /* rule: library call is concrete */
        hits++;
    if (2 / v[11] > 1e6) /* rule: symbolic divisor is concrete */
        hits++;
    printf("float_rules: %d\n", hits);
    MPI_Finalize();
    return 0;
}
