/* A job's shared-memory segments by name prefix (mg_shm.h). */
#include "mg_shm.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

int mg_shm_each_prefixed(const char *prefix, int (*fn)(const char *suffix, void *ctx), void *ctx)
{
    DIR *dir = opendir("/dev/shm");
    if (!dir)
        return 0;
    size_t len = strlen(prefix);
    int rc = 0;
    struct dirent *de;
    while (rc == 0 && (de = readdir(dir)) != NULL)
        if (strncmp(de->d_name, prefix, len) == 0)
            rc = fn(de->d_name + len, ctx);
    closedir(dir);
    return rc;
}

struct removal {
    const char *prefix;
    int removed;
};

static int remove_one(const char *suffix, void *ctx)
{
    struct removal *r = ctx;
    char name[300];
    snprintf(name, sizeof name, "/%s%s", r->prefix, suffix);
    r->removed += shm_unlink(name) == 0;
    return 0;
}

int mg_shm_remove_prefixed(const char *prefix)
{
    struct removal r = {prefix, 0};
    (void)mg_shm_each_prefixed(prefix, remove_one, &r);
    return r.removed;
}
