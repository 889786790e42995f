/* A growable argument vector (cc_args.h). */
#include "cc_args.h"

#include "mg_array.h"
#include "mg_error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A compiler driver cannot go on without memory. */
static _Noreturn void out_of_memory(void)
{
    fprintf(stderr, "mpiguard-cc: out of memory\n");
    exit(70);
}

static void *need(void *p)
{
    if (!p)
        out_of_memory();
    return p;
}

void cc_args_push(cc_args *a, const char *s)
{
    if (mg_array_reserve((void **)&a->v, &a->cap, a->n + 2, sizeof *a->v) != MG_ERROR_OK)
        out_of_memory();
    a->v[a->n++] = need(strdup(s));
    a->v[a->n] = NULL;
}

void cc_args_push_words(cc_args *a, const char *s)
{
    while (*s) {
        while (*s == ' ' || *s == '\t' || *s == '\n')
            s++;
        size_t len = strcspn(s, " \t\n");
        if (!len)
            break;
        char *w = need(strndup(s, len));
        cc_args_push(a, w);
        free(w);
        s += len;
    }
}

void cc_args_append(cc_args *a, const cc_args *src)
{
    for (size_t i = 0; i < src->n; i++)
        cc_args_push(a, src->v[i]);
}

void cc_args_free(cc_args *a)
{
    for (size_t i = 0; i < a->n; i++)
        free(a->v[i]);
    free(a->v);
    *a = (cc_args){0};
}
