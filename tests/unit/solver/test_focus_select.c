/* Unit tests of conflict resolution (§2.3.3, Figure 2.5) and the next process count and focus
 * (§2.3.4, Table 2.2) (docs/design/concolic-solver.md §6). */
#include <stdint.h>

#include "focus_select.h"
#include "mg_error.h"
#include "mg_test.h"

static sym_var var(uint32_t id, int kind, int64_t value, uint32_t comm)
{
    return (sym_var){id, (uint8_t)kind, SYM_VAR_SORT_INT, 0, 0, comm, value};
}

/* Figure 2.5: 3 processes, focus 0 with ranks (x0, y0, y1) = (0, 0, 0) in world and two local
 * communicators; negating y0 = 0 gave (0, 1, 0). y0 is the only changed value, so it wins: its
 * local rank 1 maps to global rank 2, which becomes the focus; x0 and y1 are corrected. */
static void test_figure_2_5(void)
{
    uint32_t map0[2] = {0, 2}, map1[3] = {0, 1, 2};
    sym_var_comm comms[2] = {{0, 2, map0}, {1, 3, map1}};
    sym_var vars[3] = {var(0, SYM_VAR_RANK_WORLD, 0, SYM_VAR_NO_COMM),
                       var(1, SYM_VAR_RANK_COMM, 0, 0), var(2, SYM_VAR_RANK_COMM, 0, 1)};
    int64_t values[3] = {0, 1, 0};
    focus_select_setup prev = {3, 0}, next;
    int solved = -1;
    MG_CHECK_INT(focus_select(vars, 3, comms, 2, &prev, values, &next, &solved), 0);
    MG_CHECK_INT(next.focus, 2);
    MG_CHECK_INT(solved, 1); /* a changed communicator rank named it */
    MG_CHECK_INT(next.np, 3);
    MG_CHECK_INT(values[0], 2);
    MG_CHECK_INT(values[1], 1);
    MG_CHECK_INT(values[2], 2); /* global 2 is local 2 in communicator 1 */
}

/* Table 2.2: five processes, communicator 0 holds globals (0, 4, 2), communicator 1 (0, 3):
 * mapping[0][1] = 4. Global 4 is not in communicator 1, so y1 is left as solved. */
static void test_table_2_2(void)
{
    uint32_t map0[3] = {0, 4, 2}, map1[2] = {0, 3};
    sym_var_comm comms[2] = {{0, 3, map0}, {1, 2, map1}};
    sym_var vars[3] = {var(0, SYM_VAR_RANK_COMM, 0, 0), var(1, SYM_VAR_RANK_COMM, 0, 1),
                       var(2, SYM_VAR_SIZE_WORLD, 5, SYM_VAR_NO_COMM)};
    int64_t values[3] = {1, 0, 5};
    focus_select_setup prev = {5, 0}, next;
    MG_CHECK_INT(focus_select(vars, 3, comms, 2, &prev, values, &next, NULL), 0);
    MG_CHECK_INT(next.focus, 4);
    MG_CHECK_INT(next.np, 5);
    MG_CHECK_INT(values[1], 0);
}

/* A changed world rank wins over a changed communicator rank; np follows the world size. */
static void test_world_rank_and_size(void)
{
    uint32_t map0[2] = {0, 1};
    sym_var_comm comms[1] = {{0, 2, map0}};
    sym_var vars[4] = {
        var(0, SYM_VAR_RANK_COMM, 0, 0), var(1, SYM_VAR_RANK_WORLD, 0, SYM_VAR_NO_COMM),
        var(2, SYM_VAR_SIZE_WORLD, 2, SYM_VAR_NO_COMM), var(3, SYM_VAR_INT, 7, SYM_VAR_NO_COMM)};
    int64_t values[4] = {1, 5, 6, 8};
    focus_select_setup prev = {2, 0}, next;
    int solved = -1;
    MG_CHECK_INT(focus_select(vars, 4, comms, 1, &prev, values, &next, &solved), 0);
    MG_CHECK_INT(next.focus, 5);
    MG_CHECK_INT(solved, 1);
    MG_CHECK_INT(next.np, 6);
    MG_CHECK_INT(values[0], 1); /* 5 is not in the communicator: left as solved */
    MG_CHECK_INT(values[3], 8);
    /* nothing changed: the previous setup stays */
    int64_t same[4] = {0, 0, 2, 7};
    prev = (focus_select_setup){2, 1};
    MG_CHECK_INT(focus_select(vars, 4, comms, 1, &prev, same, &next, &solved), 0);
    MG_CHECK_INT(next.focus, 1);
    MG_CHECK_INT(solved, 0); /* the solution left the focus free */
    MG_CHECK_INT(next.np, 2);
    MG_CHECK_INT(same[1], 1);
    MG_CHECK_INT(same[0], 1);
    /* the world shrinks below the old focus: rank 0 */
    int64_t shrink[4] = {0, 0, 1, 7};
    prev = (focus_select_setup){2, 1};
    MG_CHECK_INT(focus_select(vars, 4, comms, 1, &prev, shrink, &next, &solved), 0);
    MG_CHECK_INT(next.np, 1);
    MG_CHECK_INT(next.focus, 0);
    MG_CHECK_INT(solved, 0); /* a fallback, not a solved rank */
    /* a solved world rank past the new np falls back to 0: not solved either */
    int64_t past[4] = {0, 3, 2, 7};
    MG_CHECK_INT(focus_select(vars, 4, comms, 1, &prev, past, &next, &solved), 0);
    MG_CHECK_INT(next.focus, 0);
    MG_CHECK_INT(solved, 0);
}

static void test_bad_input(void)
{
    uint32_t map0[2] = {0, 1};
    sym_var_comm comms[1] = {{0, 2, map0}};
    sym_var vars[2] = {var(0, SYM_VAR_RANK_COMM, 0, 0),
                       var(1, SYM_VAR_SIZE_WORLD, 2, SYM_VAR_NO_COMM)};
    int64_t values[2] = {2, 2}; /* local rank 2 in a communicator of 2 */
    focus_select_setup prev = {2, 0}, next = {9, 9};
    MG_CHECK_INT(focus_select(vars, 2, comms, 1, &prev, values, &next, NULL), MG_ERROR_ERANGE);
    MG_CHECK_INT(next.np, 9);
    values[0] = 0;
    values[1] = 0; /* a world of 0 processes */
    MG_CHECK_INT(focus_select(vars, 2, comms, 1, &prev, values, &next, NULL), MG_ERROR_EINVAL);
    values[1] = 2;
    MG_CHECK_INT(focus_select(vars, 2, comms, 0, &prev, values, &next, NULL), MG_ERROR_EINVAL);
    MG_CHECK_INT(focus_select(vars, 2, comms, 1, NULL, values, &next, NULL), MG_ERROR_EINVAL);
    MG_CHECK_INT(focus_select(vars, 2, comms, 1, &prev, values, NULL, NULL), MG_ERROR_EINVAL);
}

int main(void)
{
    MG_RUN(test_figure_2_5);
    MG_RUN(test_table_2_2);
    MG_RUN(test_world_rank_and_size);
    MG_RUN(test_bad_input);
    MG_TEST_END();
}
