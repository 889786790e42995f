/* Never calls MPI_Init (nor any MPI function): the campaign still runs and covers its branches. */
#include <mpiguard/concolic.h>
#include <stdio.h>

int main(void)
{
    int x = 0;
    mpiguard_int(&x);
    if (x > 10)
        printf("big\n");
    return 0;
}
