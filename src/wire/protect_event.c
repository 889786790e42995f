/* The protection module's event lines (protect_event.h). */
#include "protect_event.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FIELDS = 7 };

static const char *or_dash(const char *s)
{
    return s ? s : "-";
}

int protect_event_file_name(char *out, size_t len, int rank, int size, int pid)
{
    return snprintf(out, len, "rank-%d-of-%d-pid-%d.txt", rank, size, pid);
}

int protect_event_file_take(const char *name, int *rank, int *size, int *pid)
{
    int end = 0;
    if (sscanf(name, "rank-%d-of-%d-pid-%d.txt%n", rank, size, pid, &end) != 3 ||
        name[end] != '\0' || *rank < 0 || *size <= *rank || *pid <= 0)
        return -1;
    return 0;
}

int protect_event_put(char *out, size_t len, const protect_event *ev)
{
    return snprintf(out, len, "%s\t%s\t%s\t%s\t%s\t%d\t%s\n", ev->kind, ev->function, ev->site,
                    or_dash(ev->detectors), or_dash(ev->workaround), ev->eager,
                    or_dash(ev->detail));
}

int protect_event_take(char *line, protect_event *ev)
{
    char *f[FIELDS], *save = NULL;
    int n = 0;
    for (char *w = strtok_r(line, "\t\n", &save); w && n < FIELDS;
         w = strtok_r(NULL, "\t\n", &save))
        f[n++] = w;
    if (n != FIELDS)
        return -1;
    *ev = (protect_event){f[0], f[1], f[2], f[3], f[4], atoi(f[5]), f[6]};
    return 0;
}

int protect_event_used(const protect_event *ev)
{
    return strcmp(ev->kind, "workaround") == 0;
}

void protect_event_summary(const protect_event *ev, const char *label, char *out, size_t len)
{
    if (protect_event_used(ev))
        snprintf(out, len, "%s at %.256s: detector %s fired, workaround %s%s", ev->function, label,
                 or_dash(ev->detectors), or_dash(ev->workaround),
                 ev->eager ? " (nonblocking call completed eagerly)" : "");
    else
        snprintf(out, len, "%s at %.256s: %s", ev->function, label, or_dash(ev->detail));
}

/* Where the offset of a site "object+0xoffset" starts, or NULL. */
static const char *offset_of_site(const char *site)
{
    const char *plus = NULL;
    for (const char *p = strstr(site, "+0x"); p; p = strstr(p + 1, "+0x"))
        plus = p;
    return plus;
}

int protect_event_site_object(const char *site, char *object, size_t len, uint64_t *offset)
{
    const char *plus = offset_of_site(site);
    if (!plus || site[0] != '/' || (size_t)(plus - site) >= len)
        return -1;
    snprintf(object, len, "%.*s", (int)(plus - site), site);
    *offset = strtoull(plus + 3, NULL, 16);
    return 0;
}

const char *protect_event_site_short(const char *site)
{
    const char *plus = offset_of_site(site), *name = site;
    for (const char *p = site; plus && p < plus; p++)
        if (*p == '/')
            name = p + 1;
    return name;
}
