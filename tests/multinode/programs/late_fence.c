/* Preloaded into an Open MPI job under srun (multinode.sh, srun-late-fence): rank 2's first PMIx
 * fence, MPI_Init's modex, is released to it 500 ms after the fence ended, as when its node learns
 * the end of Slurm's ring last, under load (issue 31). Its main thread keeps progressing MPI
 * meanwhile, and the PMIx thread stays free (a get of a peer's data needs it): another thread
 * hands the release on. */
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* PMIx's pmix_op_cbfunc_t and PMIx_Fence_nb, without its header: only pointers pass through. */
typedef void op_cbfunc(int status, void *cbdata);
typedef int fence_nb_fn(const void *procs, size_t nprocs, const void *info, size_t ninfo,
                        op_cbfunc *cbfunc, void *cbdata);

static op_cbfunc *held_cbfunc;
static void *held_cbdata;
static int held_status;

static void *release_late(void *unused)
{
    (void)unused;
    usleep(500000);
    held_cbfunc(held_status, held_cbdata);
    return NULL;
}

static void hold_release(int status, void *cbdata)
{
    held_status = status;
    held_cbdata = cbdata;
    pthread_t t;
    if (pthread_create(&t, NULL, release_late, NULL) == 0)
        pthread_detach(t);
    else
        held_cbfunc(status, cbdata);
}

int PMIx_Fence_nb(const void *procs, size_t nprocs, const void *info, size_t ninfo,
                  op_cbfunc *cbfunc, void *cbdata)
{
    static fence_nb_fn *next;
    static int fences;
    if (!next)
        next = (fence_nb_fn *)dlsym(RTLD_NEXT, "PMIx_Fence_nb");
    const char *rank = getenv("PMIX_RANK");
    if (fences++ == 0 && cbfunc && rank && strcmp(rank, "2") == 0) {
        held_cbfunc = cbfunc;
        cbfunc = hold_release;
    }
    return next(procs, nprocs, info, ninfo, cbfunc, cbdata);
}
