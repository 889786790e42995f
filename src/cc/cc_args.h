/* Internal to src/cc: no other folder includes it (docs/architecture.md). */
/* A growable NULL-terminated argument vector for the commands mpiguard-cc builds. */
#ifndef CC_ARGS_H
#define CC_ARGS_H

#include <stddef.h>

typedef struct cc_args {
    char **v; /* NULL-terminated; the strings are owned copies */
    size_t n, cap;
} cc_args;

/* Appends a copy of s. Exits the driver on allocation failure (a compiler driver cannot go on). */
void cc_args_push(cc_args *a, const char *s);
/* Appends every word of a whitespace-separated string (pkg-config output). */
void cc_args_push_words(cc_args *a, const char *s);
/* Appends every entry of src. */
void cc_args_append(cc_args *a, const cc_args *src);
void cc_args_free(cc_args *a);

#endif
