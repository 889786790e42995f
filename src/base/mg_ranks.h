/* Rank lists in the compact form people read: "0-2,4,7-63". */
#ifndef MG_RANKS_H
#define MG_RANKS_H

#include <stddef.h>

/* Writes the sorted, de-duplicated form of ranks[0..n) into buf (always NUL-terminated; cut with
 * "..." when buf is too small). Sorts ranks in place. */
void mg_ranks_format(int *ranks, size_t n, char *buf, size_t buflen);

#endif
