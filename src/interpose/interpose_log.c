/* write(2)-only logging for the interposition library (interpose_log.h). */
#include "interpose_log.h"

#include <string.h>
#include <unistd.h>

static int log_rank = -1;

void interpose_log_set_rank(int rank)
{
    log_rank = rank;
}

void interpose_log(const char *a, const char *b)
{
    char line[512], digits[16];
    size_t n = 0;
    int r = log_rank < 0 ? 0 : log_rank, nd = 0;
    do
        digits[nd++] = (char)('0' + r % 10);
    while ((r /= 10) > 0 && nd < 15);
    const char *parts[] = {"mpiguard[", NULL, "]: ", a, b, "\n"};
    for (size_t p = 0; p < sizeof parts / sizeof *parts; p++) {
        if (p == 1) {
            if (log_rank < 0)
                line[n++] = '?';
            else
                while (nd > 0 && n < sizeof line)
                    line[n++] = digits[--nd];
            continue;
        }
        if (!parts[p])
            continue;
        size_t len = strlen(parts[p]);
        if (len > sizeof line - n - 1)
            len = sizeof line - n - 1;
        memcpy(line + n, parts[p], len);
        n += len;
    }
    ssize_t ignored = write(STDERR_FILENO, line, n);
    (void)ignored;
}
