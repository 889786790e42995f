/* Compact rank-list formatting (mg_ranks.h). */
#include "mg_ranks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int compare_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

void mg_ranks_format(int *ranks, size_t n, char *buf, size_t buflen)
{
    if (buflen == 0)
        return;
    buf[0] = '\0';
    if (n > 1) /* qsort of no array is undefined, even with n 0 */
        qsort(ranks, n, sizeof *ranks, compare_int);
    size_t used = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j + 1 < n && ranks[j + 1] <= ranks[j] + 1)
            j++;
        char piece[32];
        if (ranks[j] == ranks[i])
            snprintf(piece, sizeof piece, "%s%d", used ? "," : "", ranks[i]);
        else
            snprintf(piece, sizeof piece, "%s%d-%d", used ? "," : "", ranks[i], ranks[j]);
        size_t len = strlen(piece);
        if (used + len + 4 >= buflen) {
            snprintf(buf + used, buflen - used, "%s", buflen - used > 3 ? "..." : "");
            return;
        }
        memcpy(buf + used, piece, len + 1);
        used += len;
        i = j + 1;
    }
}
