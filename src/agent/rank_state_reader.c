/* Read-only access to the ranks' published state (rank_state_reader.h). */
#include "rank_state_reader.h"

#include "mg_error.h"
#include "mg_shm.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int rank_state_reader_open(const char *token, int rank, const rank_state **out)
{
    *out = NULL;
    char name[128];
    snprintf(name, sizeof name, RANK_STATE_NAME_FORMAT, token, rank);
    int fd = shm_open(name, O_RDONLY, 0);
    if (fd < 0)
        return MG_ERROR_ENOENT;
    struct stat st;
    const rank_state *s = MAP_FAILED;
    if (fstat(fd, &st) == 0 && (size_t)st.st_size >= sizeof *s)
        s = mmap(NULL, sizeof *s, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (s == MAP_FAILED)
        return MG_ERROR_ENOENT; /* created but not sized yet */
    if (s->magic != RANK_STATE_MAGIC || s->version != RANK_STATE_VERSION) {
        int rc = s->magic == RANK_STATE_MAGIC ? MG_ERROR_EVERSION : MG_ERROR_ENOENT;
        munmap((void *)s, sizeof *s);
        return rc;
    }
    *out = s;
    return MG_ERROR_OK;
}

void rank_state_reader_close(const rank_state *state)
{
    if (state)
        munmap((void *)state, sizeof *state);
}

int rank_state_reader_remove_all(const char *token)
{
    char prefix[96];
    snprintf(prefix, sizeof prefix, "mpiguard-%s-", token);
    return mg_shm_remove_prefixed(prefix);
}
