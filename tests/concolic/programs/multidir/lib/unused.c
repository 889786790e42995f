#include "grid.h"

int library_nobody_links(void);

int grid_unused(void)
{
    return library_nobody_links();
}
