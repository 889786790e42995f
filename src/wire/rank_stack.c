/* A rank's call stack (rank_stack.h). */
#include "rank_stack.h"

#include "mg_error.h"
#include "mpi_function_ids.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

const char *rank_stack_public_name(const char *function)
{
    mpi_function_ids_fn fn = mpi_function_ids_lookup(function);
    if (fn != MG_FN_NONE)
        return mpi_function_ids_name(fn);
    return tolower((unsigned char)function[0]) == 'p' ? function + 1 : function;
}

size_t rank_stack_mpi_entry(const rank_stack *st)
{
    size_t entry = st->nframes;
    for (size_t i = 0; st->mpi_function[0] && i < st->nframes; i++)
        if (st->frames[i].function[0] &&
            strcmp(rank_stack_public_name(st->frames[i].function), st->mpi_function) == 0)
            entry = i;
    return entry;
}

const char *rank_stack_user_function(const rank_stack *st, const char *app_path, char *buf,
                                     size_t len)
{
    const char *app = strrchr(app_path, '/');
    app = app ? app + 1 : app_path;
    const char *named = NULL;
    for (size_t i = 0; i < st->nframes; i++) {
        const rank_stack_frame *f = &st->frames[i];
        if (strcmp(f->module, app) == 0) {
            if (f->function[0])
                return f->function;
            snprintf(buf, len, "%s+0x%llx", f->module, (unsigned long long)f->offset);
            return buf;
        }
        if (!named && f->function[0])
            named = f->function;
    }
    return named;
}

int rank_stack_put(agent_proto_buf *b, const rank_stack *st)
{
    int rc = agent_proto_put_str(b, st->mpi_function) ||
             agent_proto_put_u32(b, (uint32_t)st->nframes);
    for (size_t i = 0; !rc && i < st->nframes; i++)
        rc = agent_proto_put_u64(b, st->frames[i].offset) ||
             agent_proto_put_str(b, st->frames[i].function) ||
             agent_proto_put_str(b, st->frames[i].module) ||
             agent_proto_put_str(b, st->frames[i].file) ||
             agent_proto_put_u32(b, (uint32_t)st->frames[i].line);
    return rc ? MG_ERROR_ENOMEM : MG_ERROR_OK;
}

int rank_stack_take(agent_proto_cursor *c, rank_stack *out)
{
    memset(out, 0, sizeof *out);
    uint32_t nframes;
    if (agent_proto_get_str(c, out->mpi_function, sizeof out->mpi_function) ||
        agent_proto_get_u32(c, &nframes))
        return MG_ERROR_EFORMAT;
    rank_stack_frame extra;
    for (uint32_t i = 0; i < nframes; i++) {
        rank_stack_frame *f = out->nframes < RANK_STACK_MAX_FRAMES ? &out->frames[out->nframes]
                                                                   : &extra;
        uint32_t line;
        if (agent_proto_get_u64(c, &f->offset) ||
            agent_proto_get_str(c, f->function, sizeof f->function) ||
            agent_proto_get_str(c, f->module, sizeof f->module) ||
            agent_proto_get_str(c, f->file, sizeof f->file) || agent_proto_get_u32(c, &line))
            return MG_ERROR_EFORMAT;
        f->line = (int)line;
        out->nframes += f != &extra;
    }
    return MG_ERROR_OK;
}
