/* What clang -O0 + mem2reg emits for ordinary C, each guarding a branch the campaign can only
 * cover if the instrumenter tracks the value through it: a switch, a comparison used as a value,
 * a _Bool, a ternary (select/phi), values swapped in a loop (phis reading phis), a struct copied
 * with memcpy, a call and its return value, a cast between widths, an unsigned comparison. */
#include <mpi.h>
#include <mpiguard/concolic.h>
#include <stdio.h>
#include <string.h>

struct params {
    int a;
    long b;
};

static int twice_plus(int v, int k)
{
    return 2 * v + k;
}

int main(int argc, char **argv)
{
    int x = 0, y = 0, hits = 0;
    unsigned u = 1;
    short s = 0;
    MPI_Init(&argc, &argv);
    mpiguard_int(&x);
    mpiguard_int(&y);
    mpiguard_unsigned(&u);
    mpiguard_short(&s);
    switch (x) {
    case 3:
        hits++;
        break;
    case 11:
        hits += 2;
        break;
    default:
        break;
    }
    int lt = x < y; /* a comparison used as a value */
    _Bool big = y > 100;
    if (lt)
        hits++;
    if (big)
        hits++;
    int m = x > 5 ? x : y; /* select or phi */
    if (m == 77)
        hits++;
    int p = x, q = y;
    for (int i = 0; i < 3; i++) { /* p and q swap: phis reading phis */
        int t = p;
        p = q;
        q = t;
    }
    if (p == 1234) /* p is y after three swaps */
        hits++;
    struct params in = {x, 0}, copy;
    memcpy(&copy, &in, sizeof in);
    if (copy.a == -9)
        hits++;
    if (twice_plus(y, 3) == 45) /* y == 21 */
        hits++;
    long wide = (long)s * 4;
    if (wide == 400) /* s == 100 */
        hits++;
    if (u > 4000000000u)
        hits++;
    printf("hits %d\n", hits);
    MPI_Finalize();
    return 0;
}
