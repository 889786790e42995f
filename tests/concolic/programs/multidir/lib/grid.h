/* The library of the multi-directory test project (tests/concolic/programs/multidir). */
#ifndef GRID_H
#define GRID_H
/* Cells of rank `rank` when n cells are split over np ranks: two on each rank but the first,
 * which takes the rest; -1 when n is below two per rank. */
int grid_cells(int n, int np, int rank);
/* The sum of cells[0..n); asserts on a block of exactly 7 cells (the library's planted bug). */
long grid_sum(const int *cells, int n);
/* Seconds since an arbitrary start (the native part). */
double grid_clock(void);
/* Never called by the programs: a member that needs a symbol no one links (not pulled in). */
int grid_unused(void);
#endif
