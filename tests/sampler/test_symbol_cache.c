/* symbol_cache: hits, misses, known-unknown entries, replacement, clearing when full, and bad
 * arguments. Spec: docs/sampler.md "Caches". */
#include "mg_error.h"
#include "mg_test.h"
#include "symbol_cache.h"

static void test_insert_find(void)
{
    symbol_cache *c = NULL;
    MG_CHECK_INT(symbol_cache_create(4, &c), MG_OK);
    if (!c) {
        return;
    }
    const char *name = "x";
    uint64_t off = 99;
    MG_CHECK(!symbol_cache_find(c, 0x1000, &name, &off));
    symbol_cache_insert(c, 0x1000, "main", 0x10);
    symbol_cache_insert(c, 0x2000, NULL, 0); /* known to have no symbol */
    MG_CHECK(symbol_cache_find(c, 0x1000, &name, &off));
    MG_CHECK_STR(name, "main");
    MG_CHECK_INT(off, 0x10);
    MG_CHECK(symbol_cache_find(c, 0x2000, &name, &off));
    MG_CHECK(name == NULL && off == 0);
    symbol_cache_insert(c, 0x1000, "other", 3); /* replaces, does not grow */
    MG_CHECK_INT(symbol_cache_count(c), 2);
    MG_CHECK(symbol_cache_find(c, 0x1000, &name, &off));
    MG_CHECK_STR(name, "other");
    symbol_cache_destroy(c);
    symbol_cache_destroy(NULL);
}

static void test_full_cache_clears(void)
{
    symbol_cache *c = NULL;
    MG_CHECK_INT(symbol_cache_create(3, &c), MG_OK);
    if (!c) {
        return;
    }
    const char *name;
    uint64_t off;
    for (uint64_t pc = 1; pc <= 3; pc++) {
        symbol_cache_insert(c, pc * 0x100, "f", pc);
    }
    MG_CHECK_INT(symbol_cache_count(c), 3);
    symbol_cache_insert(c, 0x400, "g", 4); /* the fourth forgets the first three */
    MG_CHECK_INT(symbol_cache_count(c), 1);
    MG_CHECK(!symbol_cache_find(c, 0x100, &name, &off));
    MG_CHECK(symbol_cache_find(c, 0x400, &name, &off) && off == 4);
    symbol_cache_clear(c);
    MG_CHECK_INT(symbol_cache_count(c), 0);
    MG_CHECK(!symbol_cache_find(c, 0x400, &name, &off));
    symbol_cache_destroy(c);
}

/* Many addresses sharing high bits (as code addresses do) all stay findable. */
static void test_many_colliding_addresses(void)
{
    symbol_cache *c = NULL;
    MG_CHECK_INT(symbol_cache_create(1000, &c), MG_OK);
    if (!c) {
        return;
    }
    for (uint64_t i = 0; i < 1000; i++) {
        symbol_cache_insert(c, 0x7f0000000000ULL + i * 64, NULL, i);
    }
    int found = 0;
    for (uint64_t i = 0; i < 1000; i++) {
        const char *name;
        uint64_t off;
        found += symbol_cache_find(c, 0x7f0000000000ULL + i * 64, &name, &off) && off == i;
    }
    MG_CHECK_INT(found, 1000);
    symbol_cache_destroy(c);
}

static void test_bad_arguments(void)
{
    symbol_cache *c = NULL;
    MG_CHECK_INT(symbol_cache_create(0, &c), MG_EINVAL);
    MG_CHECK_INT(symbol_cache_create(SIZE_MAX, &c), MG_EINVAL);
    MG_CHECK_INT(symbol_cache_create(4, NULL), MG_EINVAL);
    MG_CHECK(c == NULL);
}

int main(void)
{
    MG_RUN(test_insert_find);
    MG_RUN(test_full_cache_clears);
    MG_RUN(test_many_colliding_addresses);
    MG_RUN(test_bad_arguments);
    MG_TEST_END();
}
