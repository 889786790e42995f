/* The CLI's logger: one prefix, one stream, levels checked before formatting (mg_log.h). */
#include "mg_log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int mg_log_threshold = MG_LOG_WARN;

void mg_log_set_level(int level)
{
    mg_log_threshold = level;
}

void mg_log_write(int level, const char *fmt, ...)
{
    static const char *const tags[] = {"", "error: ", "warning: ", "", ""};
    char line[4096];
    int n = snprintf(line, sizeof line, "mpiguard: %s", tags[level < 0 || level > 4 ? 0 : level]);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s\n", line);
}

void mg_log_signal_safe(const char *msg)
{
    static const char prefix[] = "mpiguard: ";
    ssize_t ignored = write(STDERR_FILENO, prefix, sizeof prefix - 1);
    ignored = write(STDERR_FILENO, msg, strlen(msg));
    ignored = write(STDERR_FILENO, "\n", 1);
    (void)ignored;
}
