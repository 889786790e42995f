/* proc_maps: parsing maps text, MPI marking by base-name prefix, lookup, comparison, and the
 * refusals (bad arguments, malformed lines, absent process). Spec: docs/sampler.md. */
#include <unistd.h>

#include "mg_error.h"
#include "mg_test.h"
#include "proc_maps.h"

static const char *const prefixes[] = {"libmpi.", "mca_", NULL};

/* Unsorted on purpose (the parser sorts), with an anonymous line and a path holding spaces. */
static const char sample[] =
    "7f0000002000-7f0000003000 r-xp 00001000 08:01 42   /usr/lib/libmpi.so.40.30.4\n"
    "55d000000000-55d000001000 r-xp 00000000 08:01 7    /tmp/app\n"
    "7f0000004000-7f0000005000 rw-p 00000000 00:00 0 \n"
    "7f0000006000-7f0000007000 r-xp 00000000 08:01 9    /opt/x/mca_pml_ob1.so\n"
    "7f0000008000-7f0000009000 r-xp 00000000 08:01 10   /dev/shm/a libmpi.so (deleted)\n"
    "7ffc00000000-7ffc00021000 rw-p 00000000 00:00 0    [stack]\n";

static void test_parse_sorts_and_marks(void)
{
    proc_maps *m = NULL;
    MG_CHECK_INT(proc_maps_parse(sample, sizeof sample - 1, prefixes, &m), MG_ERROR_OK);
    if (!m) {
        return;
    }
    MG_CHECK_INT(m->count, 6);
    MG_CHECK(m->entries[0].start == 0x55d000000000ULL);
    MG_CHECK_STR(m->entries[0].path, "/tmp/app");
    MG_CHECK(!m->entries[0].in_mpi);
    MG_CHECK(m->entries[1].start == 0x7f0000002000ULL && m->entries[1].end == 0x7f0000003000ULL);
    MG_CHECK(m->entries[1].in_mpi);
    MG_CHECK(m->entries[2].path == NULL && !m->entries[2].in_mpi);
    MG_CHECK(m->entries[3].in_mpi); /* an Open MPI plugin */
    MG_CHECK_STR(m->entries[4].path, "/dev/shm/a libmpi.so (deleted)");
    MG_CHECK(!m->entries[4].in_mpi); /* base name is "a libmpi.so (deleted)" */
    MG_CHECK_STR(m->entries[5].path, "[stack]");
    MG_CHECK(!m->entries[5].in_mpi);
    proc_maps_free(m);
}

static void test_find_bounds(void)
{
    proc_maps *m = NULL;
    MG_CHECK_INT(proc_maps_parse(sample, sizeof sample - 1, prefixes, &m), MG_ERROR_OK);
    if (!m) {
        return;
    }
    MG_CHECK(proc_maps_find(m, 0x7f0000002000ULL) == &m->entries[1]);
    MG_CHECK(proc_maps_find(m, 0x7f0000002fffULL) == &m->entries[1]);
    MG_CHECK(proc_maps_find(m, 0x7f0000003000ULL) == NULL); /* end is exclusive; gap follows */
    MG_CHECK(proc_maps_find(m, 0x1000) == NULL);
    MG_CHECK(proc_maps_find(m, 0x7ffc00020fffULL) == &m->entries[5]);
    MG_CHECK(proc_maps_find(m, 0x7ffc00021000ULL) == NULL);
    MG_CHECK(proc_maps_find(NULL, 0x1000) == NULL);
    proc_maps_free(m);
}

static void test_no_prefixes_and_same(void)
{
    proc_maps *a = NULL, *b = NULL, *c = NULL;
    MG_CHECK_INT(proc_maps_parse(sample, sizeof sample - 1, NULL, &a), MG_ERROR_OK);
    MG_CHECK_INT(proc_maps_parse(sample, sizeof sample - 1, prefixes, &b), MG_ERROR_OK);
    MG_CHECK_INT(proc_maps_parse(sample, sizeof sample - 2, prefixes, &c), MG_ERROR_OK);
    if (a && b && c) {
        MG_CHECK(!a->entries[1].in_mpi);
        MG_CHECK(proc_maps_same(a, b));
        MG_CHECK(!proc_maps_same(a, c));
        MG_CHECK(!proc_maps_same(a, NULL));
    }
    proc_maps_free(a);
    proc_maps_free(b);
    proc_maps_free(c);
    proc_maps_free(NULL);
}

static void test_malformed_and_bad_arguments(void)
{
    proc_maps *m = NULL;
    const char *bad[] = {
        "not a maps line\n", "7f0000002000 r-xp 00001000 08:01 42 /x\n", /* no range */
        "7f0000003000-7f0000002000 r-xp 00001000 08:01 42 /x\n",         /* end before start */
        "7f0000002000-7f0000003000 r-xp 00001000 08:01\n",               /* no inode */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        MG_CHECK_INT(proc_maps_parse(bad[i], strlen(bad[i]), prefixes, &m), MG_ERROR_EFORMAT);
    }
    MG_CHECK(m == NULL);
    MG_CHECK_INT(proc_maps_parse(NULL, 0, prefixes, &m), MG_ERROR_EINVAL);
    MG_CHECK_INT(proc_maps_parse(sample, 3, prefixes, NULL), MG_ERROR_EINVAL);
    MG_CHECK_INT(proc_maps_parse("", 0, prefixes, &m), MG_ERROR_OK);
    MG_CHECK(m && m->count == 0);
    proc_maps_free(m);
}

static void test_read_own_and_absent(void)
{
    proc_maps *m = NULL;
    MG_CHECK_INT(proc_maps_read(getpid(), prefixes, &m), MG_ERROR_OK);
    /* This function's own code is mapped from this executable. */
    const proc_maps_entry *e = m ? proc_maps_find(m, (uint64_t)(uintptr_t)&test_read_own_and_absent)
                                 : NULL;
    MG_CHECK(e && e->path && strstr(e->path, "test_sampler_proc_maps"));
    proc_maps_free(m);
    MG_CHECK_INT(proc_maps_read(0, prefixes, &m), MG_ERROR_EINVAL);
    MG_CHECK_INT(proc_maps_read(getpid(), prefixes, NULL), MG_ERROR_EINVAL);
    MG_CHECK_INT(proc_maps_read(0x3fffffff, prefixes, &m), MG_ERROR_ENOENT); /* above pid_max */
}

int main(void)
{
    MG_RUN(test_parse_sorts_and_marks);
    MG_RUN(test_find_bounds);
    MG_RUN(test_no_prefixes_and_same);
    MG_RUN(test_malformed_and_bad_arguments);
    MG_RUN(test_read_own_and_absent);
    MG_TEST_END();
}
