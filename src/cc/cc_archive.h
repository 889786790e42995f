/* Internal to src/cc: no other folder includes it (docs/architecture.md). */
/* Static libraries in a mpiguard-cc link: `ar` archives whose members are the bitcode units
 * mpiguard-cc compiled, possibly beside native objects (docs/design/concolic.md "Real builds"). The
 * bitcode members join the linked module the way a linker takes archive members (only those that
 * define a symbol still undefined); the native members go to the final link in an archive of
 * their own, where the original stood. */
#ifndef CC_ARCHIVE_H
#define CC_ARCHIVE_H

#include <stddef.h>

typedef struct cc_archive_member {
    char *name;
    size_t offset, size; /* the member's bytes within the archive's data */
    int bitcode;         /* 1: starts with the LLVM bitcode magic */
} cc_archive_member;

typedef struct cc_archive {
    char *path;
    unsigned char *data; /* the whole file */
    size_t size;
    cc_archive_member *members; /* the object members, symbol and name tables left out */
    size_t nmembers, nbitcode;
} cc_archive;

/* 1 when path is an `ar` archive ("!<arch>\n"), else 0. */
int cc_archive_is_archive(const char *path);

/* Reads an archive (GNU or System V member names). MG_ERROR_EFORMAT with the reason in err when the
 * file is not a well-formed archive (a thin archive is refused: its members live elsewhere),
 * MG_ERROR_EIO, MG_ERROR_ENOMEM. */
int cc_archive_read(const char *path, cc_archive *a, char *err, size_t errlen);

/* Writes the native members into dir (created) as files and their paths into names (a
 * NULL-terminated vector the caller frees with cc_archive_free_names). MG_ERROR_EIO,
 * MG_ERROR_ENOMEM. */
int cc_archive_extract_native(const cc_archive *a, const char *dir, char ***names, size_t *n);
void cc_archive_free_names(char **names, size_t n);

void cc_archive_free(cc_archive *a);

#endif
