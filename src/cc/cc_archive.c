/* `ar` archives for mpiguard-cc (cc_archive.h). Format: "!<arch>\n", then per member a 60-byte
 * header (name[16] mtime[12] uid[6] gid[6] mode[8] size[10] "`\n") and the data, padded to an
 * even offset. GNU names end in '/', "/N" points into the "//" long-name table, "/" alone is
 * the symbol table. */
#include "cc_archive.h"

#include "mg_error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define AR_MAGIC "!<arch>\n"
#define AR_THIN_MAGIC "!<thin>\n"
enum { AR_MAGIC_LEN = 8, AR_HEADER_LEN = 60, AR_NAME_LEN = 16, AR_SIZE_AT = 48, AR_SIZE_LEN = 10 };

static int starts_with_magic(const char *path, const char *magic)
{
    char m[AR_MAGIC_LEN];
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = fread(m, 1, sizeof m, f);
    fclose(f);
    return n == sizeof m && !memcmp(m, magic, sizeof m);
}

int cc_archive_is_archive(const char *path)
{
    return starts_with_magic(path, AR_MAGIC) || starts_with_magic(path, AR_THIN_MAGIC);
}

static int read_file(const char *path, cc_archive *a, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    struct stat st;
    if (!f || fstat(fileno(f), &st)) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        if (f)
            fclose(f);
        return MG_ERROR_EIO;
    }
    a->size = (size_t)st.st_size;
    a->data = malloc(a->size + 1);
    int rc = !a->data                                   ? MG_ERROR_ENOMEM
             : fread(a->data, 1, a->size, f) != a->size ? MG_ERROR_EIO
                                                        : 0;
    fclose(f);
    if (rc)
        snprintf(err, errlen, "%s: cannot read the archive", path);
    return rc;
}

/* The member's name from its header field and the long-name table (NULL: none yet). */
static char *member_name(const unsigned char *field, const char *longnames, size_t nlong)
{
    char raw[AR_NAME_LEN + 1];
    memcpy(raw, field, AR_NAME_LEN);
    raw[AR_NAME_LEN] = 0;
    size_t len = strcspn(raw, "/ ");
    if (raw[0] == '/' && raw[1] >= '0' && raw[1] <= '9' && longnames) {
        size_t at = strtoul(raw + 1, NULL, 10);
        if (at >= nlong)
            return NULL;
        const char *s = longnames + at;
        len = 0;
        while (at + len < nlong && s[len] != '/' && s[len] != '\n')
            len++;
        return strndup(s, len);
    }
    return strndup(raw, len);
}

static int parse_size(const unsigned char *h, size_t *out)
{
    char field[AR_SIZE_LEN + 1], *end;
    memcpy(field, h + AR_SIZE_AT, AR_SIZE_LEN);
    field[AR_SIZE_LEN] = 0;
    unsigned long long v = strtoull(field, &end, 10);
    if (end == field)
        return -1;
    *out = (size_t)v;
    return 0;
}

static int is_bitcode(const unsigned char *p, size_t n)
{
    return n >= 4 && p[0] == 'B' && p[1] == 'C' && p[2] == 0xC0 && p[3] == 0xDE;
}

int cc_archive_read(const char *path, cc_archive *a, char *err, size_t errlen)
{
    memset(a, 0, sizeof *a);
    if (starts_with_magic(path, AR_THIN_MAGIC)) {
        snprintf(err, errlen, "%s: a thin archive (ar T) is not supported; build it with ar rcs",
                 path);
        return MG_ERROR_EFORMAT;
    }
    int rc = read_file(path, a, err, errlen);
    if (!rc && (a->size < AR_MAGIC_LEN || memcmp(a->data, AR_MAGIC, AR_MAGIC_LEN))) {
        snprintf(err, errlen, "%s: not an ar archive", path);
        rc = MG_ERROR_EFORMAT;
    }
    if (!rc && !(a->path = strdup(path)))
        rc = MG_ERROR_ENOMEM;
    const char *longnames = NULL;
    size_t nlong = 0, at = AR_MAGIC_LEN;
    while (!rc && at + AR_HEADER_LEN <= a->size) {
        const unsigned char *h = a->data + at;
        size_t size;
        if (parse_size(h, &size) || h[58] != '`' || h[59] != '\n' ||
            size > a->size - at - AR_HEADER_LEN) {
            snprintf(err, errlen, "%s: damaged member header at byte %zu", path, at);
            rc = MG_ERROR_EFORMAT;
            break;
        }
        size_t data_at = at + AR_HEADER_LEN;
        at = data_at + size + (size & 1);
        if (!memcmp(h, "// ", 3)) {
            longnames = (const char *)a->data + data_at;
            nlong = size;
            continue;
        }
        if (h[0] == '/' && (h[1] == ' ' || !memcmp(h, "/SYM64/", 7)))
            continue; /* the symbol table */
        cc_archive_member *m = realloc(a->members, (a->nmembers + 1) * sizeof *m);
        char *name = member_name(h, longnames, nlong);
        if (!m || !name) {
            free(name);
            if (m)
                a->members = m;
            rc = MG_ERROR_ENOMEM;
            break;
        }
        a->members = m;
        int bc = is_bitcode(a->data + data_at, size);
        a->members[a->nmembers++] = (cc_archive_member){name, data_at, size, bc};
        a->nbitcode += (size_t)bc;
    }
    if (rc)
        cc_archive_free(a);
    return rc;
}

int cc_archive_extract_native(const cc_archive *a, const char *dir, char ***names, size_t *n)
{
    *names = calloc(a->nmembers + 1, sizeof **names);
    *n = 0;
    if (!*names)
        return MG_ERROR_ENOMEM;
    if (mkdir(dir, 0700) && errno != EEXIST)
        return MG_ERROR_EIO;
    for (size_t k = 0; k < a->nmembers; k++) {
        const cc_archive_member *m = &a->members[k];
        if (m->bitcode)
            continue;
        /* Members of one archive may share a name (objects of two directories): the index
         * keeps them apart, the archive built from them keeps the order. */
        size_t len = strlen(dir) + strlen(m->name) + 32;
        char *p = malloc(len);
        if (!p)
            return MG_ERROR_ENOMEM;
        snprintf(p, len, "%s/%zu-%s", dir, k, m->name);
        (*names)[(*n)++] = p;
        FILE *f = fopen(p, "wb");
        int bad = !f || fwrite(a->data + m->offset, 1, m->size, f) != m->size;
        if (f && fclose(f))
            bad = 1;
        if (bad)
            return MG_ERROR_EIO;
    }
    return 0;
}

void cc_archive_free_names(char **names, size_t n)
{
    for (size_t k = 0; names && k < n; k++)
        free(names[k]);
    free(names);
}

void cc_archive_free(cc_archive *a)
{
    for (size_t k = 0; k < a->nmembers; k++)
        free(a->members[k].name);
    free(a->members);
    free(a->data);
    free(a->path);
    memset(a, 0, sizeof *a);
}
