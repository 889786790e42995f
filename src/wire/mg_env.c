/* Reading the variables of mg_env.h that carry more than one value. */
#include "mg_env.h"

#include <string.h>

int mg_env_module_listed(const char *list, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = list; p && *p;) {
        size_t n = strcspn(p, ":,");
        if (n == len && strncmp(p, name, len) == 0)
            return 1;
        p = p[n] ? p + n + 1 : NULL;
    }
    return 0;
}
