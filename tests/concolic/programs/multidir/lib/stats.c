#include "grid.h"

#include <assert.h>

long grid_sum(const int *cells, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += cells[i];
    assert(n != 7); /* BLOCK7 */
    return s;
}
