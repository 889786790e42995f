/* A decoded path log encoded back into bytes (path_log.h, path_log_encode): what the driver saves
 * of the logs its search stack still needs, so a resumed campaign can solve them again. */
#include "path_log.h"

#include <stdlib.h>

#include "mg_array.h"
#include "mg_error.h"

typedef struct growing {
    uint8_t *p;
    size_t len, cap;
} growing;

/* Makes room for `need` more bytes. */
static int room(growing *g, size_t need)
{
    return mg_array_reserve((void **)&g->p, &g->cap, g->len + need, 1);
}

/* Appends one record through put (each path_log_put_* reports the size it needs). */
#define APPEND(g, put, ...)                                                                        \
    do {                                                                                           \
        size_t need_ = 0;                                                                          \
        rc = put(NULL, 0, &need_, __VA_ARGS__);                                                    \
        if (rc == MG_ERROR_EFULL)                                                                  \
            rc = room((g), need_);                                                                 \
        if (rc == 0)                                                                               \
            rc = put((g)->p + (g)->len, need_, &need_, __VA_ARGS__);                               \
        if (rc == 0)                                                                               \
            (g)->len += need_;                                                                     \
    } while (0)

int path_log_encode(const path_log *log, uint8_t **out, size_t *len)
{
    if (!log || !out || !len)
        return MG_ERROR_EINVAL;
    growing g = {0};
    int rc;
    APPEND(&g, path_log_put_header, &log->header);
    for (uint32_t i = 0; i < log->ncomms && !rc; i++)
        APPEND(&g, path_log_put_comm, &log->comms[i]);
    for (uint32_t i = 0; i < log->nvars && !rc; i++)
        APPEND(&g, path_log_put_var, &log->vars[i]);
    for (uint32_t i = 0; i < log->nbranches && !rc; i++)
        APPEND(&g, path_log_put_branch, &log->branches[i]);
    if (!rc && log->cover.n)
        APPEND(&g, path_log_put_cover, log->cover.arms, (uint32_t)log->cover.n);
    if (!rc && log->started_ns)
        APPEND(&g, path_log_put_time, PATH_LOG_STARTED, log->started_ns);
    if (!rc && log->ended_ns)
        APPEND(&g, path_log_put_time, PATH_LOG_ENDED, log->ended_ns);
    if (rc) {
        free(g.p);
        return rc == MG_ERROR_ENOMEM ? rc : MG_ERROR_EINVAL;
    }
    *out = g.p;
    *len = g.len;
    return 0;
}
