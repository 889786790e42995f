#include "grid.h"

int grid_cells(int n, int np, int rank)
{
    if (np < 1 || n < 2 * np)
        return -1;
    return rank == 0 ? n - 2 * (np - 1) : 2;
}
