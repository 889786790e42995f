/* Findings of the deadlock detector, see dl_finding.h. */
#include "dl_finding.h"

#include <stdlib.h>
#include <string.h>

#include "mg_error.h"

void dl_finding_free(dl_finding *f)
{
    free(f->calls);
    wait_graph_free(&f->graph);
    memset(f, 0, sizeof *f);
}

int dl_finding_add_call(dl_finding *f, const dl_finding_call *call)
{
    dl_finding_call *p = realloc(f->calls, (f->n_calls + 1) * sizeof *p);
    if (!p) {
        return MG_ERROR_ENOMEM;
    }
    f->calls = p;
    f->calls[f->n_calls++] = *call;
    return MG_ERROR_OK;
}

const char *dl_finding_kind_name(int kind)
{
    switch (kind) {
    case DL_FINDING_DEADLOCK:
        return "DEADLOCK";
    case DL_FINDING_POTENTIAL_DEADLOCK:
        return "POTENTIAL_DEADLOCK";
    case DL_FINDING_COLLECTIVE_MISMATCH:
        return "COLLECTIVE_MISMATCH";
    case DL_FINDING_STUCK_ON_TERMINATED:
        return "STUCK_ON_TERMINATED";
    case DL_FINDING_TYPE_MISMATCH:
        return "TYPE_MISMATCH";
    case DL_FINDING_TRUNCATION:
        return "TRUNCATION";
    case DL_FINDING_INVALID_ARGUMENTS:
        return "INVALID_ARGUMENTS";
    case DL_FINDING_LIFECYCLE:
        return "LIFECYCLE";
    case DL_FINDING_MESSAGE_RACE:
        return "MESSAGE_RACE";
    case DL_FINDING_MPI_ERROR:
        return "MPI_ERROR";
    default:
        return "UNKNOWN";
    }
}

int dl_finding_rank_listed_before(const dl_finding *f, size_t i)
{
    for (size_t j = 0; j < i; j++)
        if (f->calls[j].rank == f->calls[i].rank)
            return 1;
    return 0;
}

uint64_t dl_finding_signature(const dl_finding *f)
{
    uint64_t h = 0xcbf29ce484222325ULL ^ f->kind;
    for (size_t i = 0; i < f->n_calls; i++) {
        const dl_finding_call *c = &f->calls[i];
        uint64_t v[3] = {(uint64_t)(uint32_t)c->rank, c->func, c->callsite};
        for (int k = 0; k < 3; k++)
            h = (h ^ v[k]) * 0x100000001b3ULL;
    }
    return h;
}

int dl_finding_may_change(const dl_finding *f)
{
    return f->kind == DL_FINDING_COLLECTIVE_MISMATCH || f->kind == DL_FINDING_INVALID_ARGUMENTS;
}
