/* symbol_cache: hits, misses, known-unknown entries, replacement, clearing when full, and bad
 * arguments. Spec: docs/sampler.md "Caches". */
#include "mg_error.h"
#include "mg_test.h"
#include "symbol_cache.h"

static void test_insert_find(void)
{
    symbol_cache *c = NULL;
    MG_CHECK_INT(symbol_cache_create(4, &c), MG_ERROR_OK);
    if (!c) {
        return;
    }
    symbol_cache_info got = {.name = "x", .offset = 99, .file = "y", .line = 7};
    MG_CHECK(!symbol_cache_find(c, 0x1000, &got));
    symbol_cache_insert(c, 0x1000, &(symbol_cache_info){"main", 0x10, true, "main.c", 12, "MPI_Send"});
    symbol_cache_insert(c, 0x2000,
                        &(symbol_cache_info){NULL, 0, true, NULL, 0, NULL}); /* no symbol, no line */
    MG_CHECK(symbol_cache_find(c, 0x1000, &got));
    MG_CHECK_STR(got.name, "main");
    MG_CHECK_INT(got.offset, 0x10);
    MG_CHECK_STR(got.file, "main.c");
    MG_CHECK_INT(got.line, 12);
    MG_CHECK_STR(got.called, "MPI_Send");
    MG_CHECK(symbol_cache_find(c, 0x2000, &got));
    MG_CHECK(got.name == NULL && got.offset == 0 && got.sourced && !got.file && got.line == 0);
    symbol_cache_insert(c, 0x1000,
                        &(symbol_cache_info){.name = "other", .offset = 3}); /* replaces, no growth */
    MG_CHECK_INT(symbol_cache_count(c), 2);
    MG_CHECK(symbol_cache_find(c, 0x1000, &got));
    MG_CHECK_STR(got.name, "other");
    MG_CHECK(!got.sourced && got.file == NULL);
    symbol_cache_destroy(c);
    symbol_cache_destroy(NULL);
}

static void test_full_cache_clears(void)
{
    symbol_cache *c = NULL;
    MG_CHECK_INT(symbol_cache_create(3, &c), MG_ERROR_OK);
    if (!c) {
        return;
    }
    symbol_cache_info got;
    for (uint64_t pc = 1; pc <= 3; pc++) {
        symbol_cache_insert(c, pc * 0x100, &(symbol_cache_info){.name = "f", .offset = pc});
    }
    MG_CHECK_INT(symbol_cache_count(c), 3);
    /* the fourth forgets the first three */
    symbol_cache_insert(c, 0x400, &(symbol_cache_info){.name = "g", .offset = 4});
    MG_CHECK_INT(symbol_cache_count(c), 1);
    MG_CHECK(!symbol_cache_find(c, 0x100, &got));
    MG_CHECK(symbol_cache_find(c, 0x400, &got) && got.offset == 4);
    symbol_cache_clear(c);
    MG_CHECK_INT(symbol_cache_count(c), 0);
    MG_CHECK(!symbol_cache_find(c, 0x400, &got));
    symbol_cache_destroy(c);
}

/* Many addresses sharing high bits (as code addresses do) all stay findable. */
static void test_many_colliding_addresses(void)
{
    symbol_cache *c = NULL;
    MG_CHECK_INT(symbol_cache_create(1000, &c), MG_ERROR_OK);
    if (!c) {
        return;
    }
    for (uint64_t i = 0; i < 1000; i++) {
        symbol_cache_insert(c, 0x7f0000000000ULL + i * 64, &(symbol_cache_info){.offset = i});
    }
    int found = 0;
    for (uint64_t i = 0; i < 1000; i++) {
        symbol_cache_info got;
        found += symbol_cache_find(c, 0x7f0000000000ULL + i * 64, &got) && got.offset == i;
    }
    MG_CHECK_INT(found, 1000);
    symbol_cache_destroy(c);
}

static void test_bad_arguments(void)
{
    symbol_cache *c = NULL;
    MG_CHECK_INT(symbol_cache_create(0, &c), MG_ERROR_EINVAL);
    MG_CHECK_INT(symbol_cache_create(SIZE_MAX, &c), MG_ERROR_EINVAL);
    MG_CHECK_INT(symbol_cache_create(4, NULL), MG_ERROR_EINVAL);
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
