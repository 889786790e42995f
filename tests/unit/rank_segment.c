/* A rank's state segment written by a test (rank_segment.h). */
#include "rank_segment.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

static void rank_segment_name(const char *token, int rank, char *name, size_t size)
{
    snprintf(name, size, RANK_STATE_NAME_FORMAT, token, rank);
}

rank_state *rank_segment_publish(const char *token, int rank, int pid)
{
    char name[128];
    rank_segment_name(token, rank, name, sizeof name);
    int fd = shm_open(name, O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        return NULL;
    rank_state *s = NULL;
    if (ftruncate(fd, sizeof *s) == 0)
        s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (!s || s == MAP_FAILED) {
        shm_unlink(name);
        return NULL;
    }
    s->rank = rank;
    s->pid = pid;
    s->version = RANK_STATE_VERSION;
    s->magic = RANK_STATE_MAGIC;
    return s;
}

void rank_segment_unpublish(const char *token, int rank, rank_state *s)
{
    char name[128];
    rank_segment_name(token, rank, name, sizeof name);
    shm_unlink(name);
    if (s)
        munmap(s, sizeof *s);
}
