/* Unit tests of the option parser and rank-list formatting. */
#include "mg_error.h"
#include "mg_options.h"
#include "mg_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *report, *name;
static long count, internal_count;
static double alpha;
static int flag, choice, internal_flag;
static const char *const choices[] = {"kill", "report", NULL};
static const mg_options_option table[] = {
    {"report", 'r', MG_OPTIONS_STRING, &report, "FILE", "", NULL, 0, 0},
    {"count", 'n', MG_OPTIONS_INT, &count, "N", "", NULL, 1, 100},
    {"alpha", 0, MG_OPTIONS_DOUBLE, &alpha, "A", "", NULL, 0, 1},
    {"flag", 'f', MG_OPTIONS_FLAG, &flag, NULL, "", NULL, 0, 0},
    {"on-hang", 0, MG_OPTIONS_CHOICE, &choice, "ACTION", "", choices, 0, 0},
    {"name", 0, MG_OPTIONS_STRING, &name, "NAME", "", NULL, 0, 0},
    {"internal-count", 'i', MG_OPTIONS_INT | MG_OPTIONS_HIDDEN, &internal_count, "N", "", NULL, 0, 9},
    {"internal-flag", 0, MG_OPTIONS_FLAG | MG_OPTIONS_HIDDEN, &internal_flag, NULL, "", NULL, 0, 0},
    {NULL, 0, 0, NULL, NULL, NULL, NULL, 0, 0},
};
static const mg_options_option *const tables[] = {table, NULL};

static int parse(int argc, char **argv, mg_options_parsed_args *out, char *err)
{
    static char *positional[2];
    report = name = NULL;
    count = 0;
    alpha = 0;
    flag = choice = internal_flag = 0;
    internal_count = 0;
    return mg_options_parse(tables, argc, argv, positional, 2, out, err, 256);
}

static void parses_every_form(void)
{
    char *argv[] = {"--report", "r.json", "-n", "7",      "--alpha=0.25", "-f", "--on-hang",
                    "report",   "pos",    "--", "mpirun", "-n",           "4"};
    mg_options_parsed_args a;
    char err[256];
    MG_CHECK_INT(parse(13, argv, &a, err), MG_ERROR_OK);
    MG_CHECK_STR(report, "r.json");
    MG_CHECK_INT(count, 7);
    MG_CHECK_NEAR(alpha, 0.25, 1e-12);
    MG_CHECK_INT(flag, 1);
    MG_CHECK_INT(choice, 1);
    MG_CHECK_INT(a.npositional, 1);
    MG_CHECK_STR(a.positional[0], "pos");
    MG_CHECK_INT(a.ncommand, 3);
    MG_CHECK_STR(a.command[0], "mpirun");
}

static void rejects_bad_words_with_a_message(void)
{
    mg_options_parsed_args a;
    char err[256];
    char *unknown[] = {"--nope"};
    MG_CHECK_INT(parse(1, unknown, &a, err), MG_ERROR_EINVAL);
    MG_CHECK(strstr(err, "--nope") != NULL);
    char *range[] = {"--count", "101"};
    MG_CHECK_INT(parse(2, range, &a, err), MG_ERROR_EINVAL);
    MG_CHECK(strstr(err, "1 to 100") != NULL);
    char *notnum[] = {"--alpha", "x"};
    MG_CHECK_INT(parse(2, notnum, &a, err), MG_ERROR_EINVAL);
    char *missing[] = {"--report"};
    MG_CHECK_INT(parse(1, missing, &a, err), MG_ERROR_EINVAL);
    MG_CHECK(strstr(err, "needs a value") != NULL);
    char *before_dashes[] = {"--report", "--", "x"};
    MG_CHECK_INT(parse(3, before_dashes, &a, err), MG_ERROR_EINVAL);
    char *choice_bad[] = {"--on-hang", "explode"};
    MG_CHECK_INT(parse(2, choice_bad, &a, err), MG_ERROR_EINVAL);
    MG_CHECK(strstr(err, "kill|report") != NULL);
    char *flag_value[] = {"--flag=1"};
    MG_CHECK_INT(parse(1, flag_value, &a, err), MG_ERROR_EINVAL);
    char *empty[] = {"--name="};
    MG_CHECK_INT(parse(1, empty, &a, err), MG_ERROR_EINVAL);
    char *too_many[] = {"a", "b", "c"};
    MG_CHECK_INT(parse(3, too_many, &a, err), MG_ERROR_EINVAL);
    MG_CHECK(strstr(err, "'c'") != NULL);
}

static void no_dashes_means_no_command(void)
{
    mg_options_parsed_args a;
    char err[256];
    char *argv[] = {"-f"};
    MG_CHECK_INT(parse(1, argv, &a, err), MG_ERROR_OK);
    MG_CHECK(a.command == NULL);
}

/* A hidden option parses as its type says (a flag takes no value) and is left out of the help. */
static void hidden_options_parse_but_stay_out_of_help(void)
{
    mg_options_parsed_args a;
    char err[256];
    char *argv[] = {"--internal-flag", "--internal-count", "3", "-f"};
    MG_CHECK_INT(parse(4, argv, &a, err), MG_ERROR_OK);
    MG_CHECK_INT(internal_flag, 1);
    MG_CHECK_INT(internal_count, 3);
    char *short_form[] = {"-i", "10"};
    MG_CHECK_INT(parse(2, short_form, &a, err), MG_ERROR_EINVAL);
    MG_CHECK(strstr(err, "--internal-count takes a whole number from 0 to 9") != NULL);
    char *flag_value[] = {"--internal-flag=1"};
    MG_CHECK_INT(parse(1, flag_value, &a, err), MG_ERROR_EINVAL);
    char *help = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&help, &len);
    mg_options_print_help(out, "t [options]", "A test.", tables);
    fclose(out);
    MG_CHECK(strstr(help, "--on-hang ACTION") != NULL);
    MG_CHECK(strstr(help, "internal") == NULL);
    free(help);
}

/* The lists and sizes of `mpiguard collectives` (--np 2,4 --memory-limit 80M). */
static void lists_numbers_and_bytes(void)
{
    char names[] = "Bcast,Gatherv_c,,Alltoall", *items[4];
    MG_CHECK_INT(mg_options_list(names, items, 4), 3);
    MG_CHECK_STR(items[1], "Gatherv_c");
    MG_CHECK_STR(items[2], "Alltoall");
    char three[] = "a,b,c";
    MG_CHECK_INT(mg_options_list(three, items, 2), -1);
    uint64_t v[40];
    char nps[] = "2,4,4096";
    MG_CHECK_INT(mg_options_numbers(nps, v, 40, 1, 4096), 3);
    MG_CHECK_INT(v[2], 4096);
    static const char *const bad[] = {"2,4097", "0", "2,x", "3 ", "-1"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char text[16];
        snprintf(text, sizeof text, "%s", bad[i]);
        MG_CHECK_INT(mg_options_numbers(text, v, 40, 1, 4096), -1);
    }
    /* 33 numbers: more than the 32 it reads, whatever max says */
    char many[128] = "1";
    for (int i = 1; i < 33; i++)
        strcat(many, ",1");
    MG_CHECK_INT(mg_options_numbers(many, v, 40, 1, 4096), -1);
    uint64_t bytes = 0;
    MG_CHECK_INT(mg_options_bytes("80M", &bytes), 0);
    MG_CHECK_INT(bytes, 80ULL << 20);
    MG_CHECK_INT(mg_options_bytes("3", &bytes), 0);
    MG_CHECK_INT(bytes, 3);
    MG_CHECK_INT(mg_options_bytes("2T", &bytes), 0);
    MG_CHECK_INT(bytes, 2ULL << 40);
    static const char *const bad_bytes[] = {"", "M", "80MB", "80k", "1.5G", "80 M"};
    for (size_t i = 0; i < sizeof bad_bytes / sizeof *bad_bytes; i++)
        MG_CHECK_INT(mg_options_bytes(bad_bytes[i], &bytes), -1);
}

int main(void)
{
    MG_RUN(parses_every_form);
    MG_RUN(rejects_bad_words_with_a_message);
    MG_RUN(no_dashes_means_no_command);
    MG_RUN(hidden_options_parse_but_stay_out_of_help);
    MG_RUN(lists_numbers_and_bytes);
    MG_TEST_END();
}
