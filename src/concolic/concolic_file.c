/* Whole-file reads of `mpiguard concolic` (concolic_file.h). */
#include "concolic_file.h"

#include "mg_array.h"
#include "mg_error.h"

#include <stdio.h>
#include <stdlib.h>

uint8_t *concolic_file_read(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *buf = concolic_file_read_rest(f, len);
    fclose(f);
    return buf;
}

uint8_t *concolic_file_read_rest(FILE *f, size_t *len)
{
    size_t cap = 65536, n = 0;
    uint8_t *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - 1 - n, f);
        if (n < cap - 1)
            break;
        if (mg_array_reserve((void **)&buf, &cap, cap + 1, 1) != MG_ERROR_OK) {
            free(buf);
            buf = NULL;
        }
    }
    if (buf) {
        buf[n] = 0;
        *len = n;
    }
    return buf;
}
