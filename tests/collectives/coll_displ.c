/* Detector D and the displacement recovery on a real MPI: irregular collectives whose int
 * displacements wrapped past INT_MAX (the true layout spans several GiB), and user errors that must
 * reach MPI unchanged. The receive (or send) buffers are sparse: one anonymous MAP_NORESERVE
 * mapping of the whole true extent, of which only the few segments the collective moves are ever
 * touched, so a 6 GiB layout costs a few pages. Run under `mpiguard protect` (no bounds needed).
 * Usage: coll_displ PATTERN with PATTERN one of
 *   gatherv-wrap1      Gatherv, true displacements 0, 1.5e9, 3e9, 4.5e9 (one wrap)
 *   gatherv-wrap2      Gatherv, steps of 2.1e9 (wraps at every other entry)
 *   gatherv-nogcd      Gatherv, steps of 1.2e9 and counts 63, 62, 63, ...: no common divisor, a
 *                      layout of 3.6e9 bytes at 4 ranks (the root moves its buffer: W2 with k 1)
 *   scatterv-wrap1     Scatterv, send side wrapped as gatherv-wrap1
 *   allgatherv-wrap1   Allgatherv, every rank's receive side wrapped
 *   alltoallv-wrap1    Alltoallv, every rank's receive side wrapped
 *   alltoallv-wrap-odd Alltoallv, only the odd ranks' receive sides wrapped (the even ranks
 *                      receive compactly): under the module the odd ranks alone change their side
 *   igatherv-wrap2     Igatherv as gatherv-wrap2
 *   gatherv-user-first   displacements -16, 0, 16, ... (a user error: passed to MPI unchanged)
 *   gatherv-user-desc    displacements 48, 32, -16, ... descending (a user error)
 * The wrapped patterns check every moved byte at its true place and the bytes around each
 * segment; the user-error patterns compare with the same call made through PMPI. Exits 1 on any
 * difference. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum { SEG = 64 }; /* bytes each rank moves */

static int P, me;

static unsigned char pattern(int from, int to, int k)
{
    return (unsigned char)(from * 37 + to * 11 + k * 3 + 1);
}

static unsigned char *sparse(int64_t bytes)
{
    void *p = mmap(NULL, (size_t)bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        perror("coll_displ: mmap");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return p;
}

/* True displacement of segment i on this rank (bytes = elements: MPI_CHAR). */
static int64_t true_displ(const char *pat, int i)
{
    if (strstr(pat, "odd") && me % 2 == 0)
        return (int64_t)i * 2 * SEG; /* a gap of SEG zero bytes after each segment */
    if (strstr(pat, "nogcd"))
        return (int64_t)i * 1200000000LL;
    return strstr(pat, "wrap2") ? (int64_t)i * 2100000000LL : (int64_t)i * 1500000000LL;
}

/* Bytes rank i moves: SEG, or 63, 62, 63, ... (no common divisor) in the nogcd pattern. */
static int seg_len(const char *pat, int i)
{
    return strstr(pat, "nogcd") ? SEG - 1 - i % 2 : SEG;
}

/* Segment i of buf at its true place holds len bytes of from->to data, and SEG bytes on each side
 * are zero. */
static int segment_ok(const unsigned char *buf, int64_t at, int len, int from, int to,
                      int64_t extent)
{
    for (int k = 0; k < len; k++)
        if (buf[at + k] != pattern(from, to, k))
            return 0;
    for (int k = 1; k <= SEG; k++)
        if ((at - k >= 0 && buf[at - k]) || (at + len - 1 + k < extent && buf[at + len - 1 + k]))
            return 0;
    return 1;
}

static int wrapped(const char *pat)
{
    int counts[64], displs[64];
    int64_t extent = true_displ(pat, P - 1) + SEG + 4096;
    for (int i = 0; i < P; i++) {
        counts[i] = seg_len(pat, i);
        displs[i] = (int)(uint32_t)(uint64_t)true_displ(pat, i); /* what an int overflow leaves */
    }
    unsigned char own[SEG], *big = sparse(extent);
    int ok = 1, root = 1 % P;
    for (int k = 0; k < SEG; k++)
        own[k] = pattern(me, root, k);
    if (strncmp(pat, "gatherv", 7) == 0 || strncmp(pat, "igatherv", 8) == 0) {
        if (pat[0] == 'i') {
            MPI_Request rq;
            MPI_Igatherv(own, counts[me], MPI_CHAR, big, counts, displs, MPI_CHAR, root,
                         MPI_COMM_WORLD, &rq);
            MPI_Wait(&rq, MPI_STATUS_IGNORE);
        } else {
            MPI_Gatherv(own, counts[me], MPI_CHAR, big, counts, displs, MPI_CHAR, root,
                        MPI_COMM_WORLD);
        }
        for (int i = 0; i < P && me == root; i++)
            ok &= segment_ok(big, true_displ(pat, i), counts[i], i, root, extent);
    } else if (strncmp(pat, "scatterv", 8) == 0) {
        for (int i = 0; i < P && me == root; i++)
            for (int k = 0; k < SEG; k++)
                big[true_displ(pat, i) + k] = pattern(root, i, k);
        unsigned char got[SEG];
        MPI_Scatterv(big, counts, displs, MPI_CHAR, got, SEG, MPI_CHAR, root, MPI_COMM_WORLD);
        for (int k = 0; k < SEG; k++)
            ok &= got[k] == pattern(root, me, k);
    } else if (strncmp(pat, "allgatherv", 10) == 0) {
        for (int k = 0; k < SEG; k++)
            own[k] = pattern(me, 0, k);
        MPI_Allgatherv(own, SEG, MPI_CHAR, big, counts, displs, MPI_CHAR, MPI_COMM_WORLD);
        for (int i = 0; i < P; i++)
            ok &= segment_ok(big, true_displ(pat, i), counts[i], i, 0, extent);
    } else { /* alltoallv: each rank sends SEG bytes to everyone, received at wrapped places */
        unsigned char send[64 * SEG];
        int sd[64];
        for (int j = 0; j < P; j++) {
            sd[j] = j * SEG;
            for (int k = 0; k < SEG; k++)
                send[j * SEG + k] = pattern(me, j, k);
        }
        MPI_Alltoallv(send, counts, sd, MPI_CHAR, big, counts, displs, MPI_CHAR, MPI_COMM_WORLD);
        for (int i = 0; i < P; i++)
            ok &= segment_ok(big, true_displ(pat, i), counts[i], i, me, extent);
    }
    munmap(big, (size_t)extent);
    return ok;
}

/* A user error (negative displacements no overflow explains) must reach MPI as it is: the result
 * equals the same call made through PMPI. The buffer starts 64 segments into an allocation, so the
 * negative displacements stay inside valid memory. */
static int user_error(const char *pat)
{
    int counts[64], displs[64], root = 0;
    for (int i = 0; i < P; i++) {
        counts[i] = 16;
        displs[i] = strstr(pat, "first") ? -16 + 16 * i
                                         : (i < 2 ? 48 - 16 * i : -16 + 16 * (i - 2));
    }
    size_t size = (size_t)(64 + 4 * P) * 16;
    unsigned char *ref = calloc(size, 1), *got = calloc(size, 1), own[16];
    for (int k = 0; k < 16; k++)
        own[k] = pattern(me, root, k);
    PMPI_Gatherv(own, 16, MPI_CHAR, ref + 1024, counts, displs, MPI_CHAR, root, MPI_COMM_WORLD);
    MPI_Gatherv(own, 16, MPI_CHAR, got + 1024, counts, displs, MPI_CHAR, root, MPI_COMM_WORLD);
    int ok = memcmp(ref, got, size) == 0;
    free(ref), free(got);
    return ok;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    PMPI_Comm_rank(MPI_COMM_WORLD, &me);
    PMPI_Comm_size(MPI_COMM_WORLD, &P);
    const char *pat = argc > 1 ? argv[1] : "gatherv-wrap1";
    if (P > 64) {
        fprintf(stderr, "coll_displ: at most 64 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int ok = strstr(pat, "user") ? user_error(pat) : wrapped(pat), all = 0;
    PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (me == 0)
        printf("coll_displ: %s on %d ranks: %s\n", pat, P, all ? "correct" : "WRONG");
    MPI_Finalize();
    return all ? 0 : 1;
}
