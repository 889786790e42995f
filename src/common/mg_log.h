/* Logging for the CLI and the agents: "mpiguard: " lines on stderr, level checked before
 * formatting. The interposition library has its own write(2)-only logger
 * (src/interpose/interpose_log.h). */
#ifndef MG_LOG_H
#define MG_LOG_H

enum mg_log_level {
    MG_LOG_QUIET = 0,
    MG_LOG_ERROR = 1,
    MG_LOG_WARN = 2,
    MG_LOG_INFO = 3,
    MG_LOG_DEBUG = 4
};

extern int mg_log_threshold;

void mg_log_set_level(int level);
/* Formats and writes one line at the given level; not signal-safe. */
void mg_log_write(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Writes a fixed message with write(2) only; safe inside a signal handler. */
void mg_log_signal_safe(const char *msg);

#define mg_log(level, ...)                                                                         \
    do {                                                                                           \
        if ((level) <= mg_log_threshold)                                                           \
            mg_log_write((level), __VA_ARGS__);                                                    \
    } while (0)
#define mg_log_error(...) mg_log(MG_LOG_ERROR, __VA_ARGS__)
#define mg_log_warn(...) mg_log(MG_LOG_WARN, __VA_ARGS__)
#define mg_log_info(...) mg_log(MG_LOG_INFO, __VA_ARGS__)
#define mg_log_debug(...) mg_log(MG_LOG_DEBUG, __VA_ARGS__)

#endif
