/* Call sites resolved from an object's file after the process is gone (the protection module's
 * events, docs/design/collectives.md "The protection module"): a return address in this test's own
 * executable, given as its offset from dladdr's base, resolves to this file and the line of the
 * call; a second lookup is answered from the cache; a call made in an inlined function of a
 * header under ompi/mpi/cxx/ (as the MPI's C++ bindings are) resolves to this file's line that
 * called the inlined function; a file that is missing or not ELF, and offset 0, leave every field
 * unknown without an error. */
#include "mg_test.h"
#include "site_resolver.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static __attribute__((noinline)) void *return_address(void)
{
    void *ra = __builtin_return_address(0);
    __asm__ volatile("" : : "r"(ra) : "memory"); /* not a tail call: ra stays in the caller */
    return ra;
}

#include "ompi/mpi/cxx/binding_inln.h"

static char self[PATH_MAX];

static void test_own_call_site(void)
{
    void *ra = return_address();
    int call_line = __LINE__ - 1;
    Dl_info info;
    MG_CHECK(dladdr(ra, &info) != 0);
    uint64_t offset = (uint64_t)((uintptr_t)ra - (uintptr_t)info.dli_fbase);
    site_resolver *r;
    MG_CHECK_INT(site_resolver_create(&r), 0);
    site_resolver_info site;
    MG_CHECK_INT(site_resolver_lookup_object(r, self, offset, NULL, &site), 1);
    MG_CHECK(site.file != NULL && strstr(site.file, "test_site_resolver.c") != NULL);
    MG_CHECK_INT(site.line, call_line);
    MG_CHECK(site.function != NULL); /* the symbol: main, where the test is inlined */
    site_resolver_info again;
    MG_CHECK_INT(site_resolver_lookup_object(r, self, offset, NULL, &again), 0);
    MG_CHECK(again.file == site.file && again.line == call_line);
    site_resolver_destroy(r);
}

static void test_call_through_inlined_binding(void)
{
    void *ra = binding_call();
    int call_line = __LINE__ - 1;
    Dl_info info;
    MG_CHECK(dladdr(ra, &info) != 0);
    site_resolver *r;
    MG_CHECK_INT(site_resolver_create(&r), 0);
    site_resolver_info site;
    uint64_t offset = (uint64_t)((uintptr_t)ra - (uintptr_t)info.dli_fbase);
    MG_CHECK_INT(site_resolver_lookup_object(r, self, offset, NULL, &site), 1);
    MG_CHECK(site.file != NULL && strstr(site.file, "test_site_resolver.c") != NULL);
    MG_CHECK_INT(site.line, call_line);
    site_resolver_destroy(r);
}

static void test_unreadable_objects(void)
{
    site_resolver *r;
    MG_CHECK_INT(site_resolver_create(&r), 0);
    site_resolver_info site;
    MG_CHECK_INT(site_resolver_lookup_object(r, "/nonexistent/app", 0x1234, NULL, &site), 1);
    MG_CHECK(site.file == NULL && site.function == NULL && site.line == 0);
    char not_elf[] = "/tmp/mg-site-XXXXXX";
    int fd = mkstemp(not_elf);
    MG_CHECK(fd >= 0);
    MG_CHECK(write(fd, "#!/bin/sh\n", 10) == 10);
    close(fd);
    MG_CHECK_INT(site_resolver_lookup_object(r, not_elf, 0x10, NULL, &site), 1);
    MG_CHECK(site.file == NULL && site.line == 0);
    unlink(not_elf);
    MG_CHECK_INT(site_resolver_lookup_object(r, self, 0, NULL, &site), 0);
    MG_CHECK(site.file == NULL && site.line == 0);
    site_resolver_destroy(r);
}

int main(void)
{
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    MG_CHECK(n > 0);
    self[n > 0 ? n : 0] = '\0';
    MG_RUN(test_own_call_site);
    MG_RUN(test_call_through_inlined_binding);
    MG_RUN(test_unreadable_objects);
    MG_TEST_END();
}
