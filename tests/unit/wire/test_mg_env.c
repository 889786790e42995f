/* MPIGUARD_MODULES lists read by mg_env_module_listed: a module is named whole, in any place of the
 * list and with either separator, so that the library starts it and the CLI preloads check's _exit
 * object for the capture module whatever else the list holds. Slurm's compressed tasks per node
 * read by mg_env_slurm_node_tasks, and a node's place in a step's hostlist by
 * mg_env_slurm_node_index. */
#include "mg_env.h"
#include "mg_error.h"
#include "mg_test.h"

static void test_module_listed(void)
{
    MG_CHECK(mg_env_module_listed("capture", "capture"));
    MG_CHECK(mg_env_module_listed("state:capture", "capture"));
    MG_CHECK(mg_env_module_listed("capture:state", "capture"));
    MG_CHECK(mg_env_module_listed("protect,capture,state", "capture"));
    MG_CHECK(!mg_env_module_listed("captured:state", "capture"));
    MG_CHECK(!mg_env_module_listed("state:capt", "capture"));
    MG_CHECK(!mg_env_module_listed("state::", "capture"));
    MG_CHECK(!mg_env_module_listed("", "capture"));
    MG_CHECK(!mg_env_module_listed(NULL, "capture"));
}

/* srun's compressed tasks per node: each node of a group counted, every malformed value refused
 * whole (a node agent would otherwise wait for a wrong number of ranks). */
static void test_slurm_node_tasks(void)
{
    int t = -1;
    MG_CHECK(mg_env_slurm_node_tasks("4", 0, &t) == MG_ERROR_OK && t == 4);
    MG_CHECK(mg_env_slurm_node_tasks("4", 1, &t) == MG_ERROR_ERANGE);
    const int want[] = {2, 2, 2, 1};
    for (int node = 0; node < 4; node++) {
        t = -1;
        MG_CHECK(mg_env_slurm_node_tasks("2(x3),1", node, &t) == MG_ERROR_OK && t == want[node]);
    }
    MG_CHECK(mg_env_slurm_node_tasks("2(x3),1", 4, &t) == MG_ERROR_ERANGE);
    MG_CHECK(mg_env_slurm_node_tasks("1,3(x2),16(x1)", 2, &t) == MG_ERROR_OK && t == 3);
    MG_CHECK(mg_env_slurm_node_tasks("1,3(x2),16(x1)", 3, &t) == MG_ERROR_OK && t == 16);
    const char *const bad[] = {"",       ",",      "4,",    ",4",   "0",          "-1",  "+2",
                               " 2",     "2 ",     "2(x0)", "2(x)", "2(x3",       "2x3", "2(3)",
                               "2(x3),", "2(x3)1", "a",     "2,b",  "99999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        t = -1;
        MG_CHECK(mg_env_slurm_node_tasks(bad[i], 0, &t) == MG_ERROR_EFORMAT && t == -1);
    }
    /* the node's group is well formed, a later one is not */
    MG_CHECK(mg_env_slurm_node_tasks("2(x3),1(y2)", 0, &t) == MG_ERROR_EFORMAT);
    MG_CHECK(mg_env_slurm_node_tasks(NULL, 0, &t) == MG_ERROR_EINVAL);
    MG_CHECK(mg_env_slurm_node_tasks("4", -1, &t) == MG_ERROR_EINVAL);
}

/* A node's place in srun's SLURM_STEP_NODELIST, which orders SLURM_STEP_TASKS_PER_NODE: each host
 * of a range and of a plain name counted, a range's zeros kept, every malformed list refused whole
 * (a node agent would otherwise wait for another node's number of ranks). */
static void test_slurm_node_index(void)
{
    const char *list = "node[1-3,5],login2,n[08-10]x,gpu7";
    const char *const order[] = {"node1", "node2", "node3", "node5", "login2",
                                 "n08x",  "n09x",  "n10x",  "gpu7"};
    for (int k = 0; k < (int)(sizeof order / sizeof order[0]); k++) {
        int at = -1;
        MG_CHECK(mg_env_slurm_node_index(list, order[k], &at) == MG_ERROR_OK && at == k);
    }
    int at = -1;
    MG_CHECK(mg_env_slurm_node_index("mg1e765n[2-3]", "mg1e765n3", &at) == MG_ERROR_OK && at == 1);
    MG_CHECK(mg_env_slurm_node_index("n7", "n7", &at) == MG_ERROR_OK && at == 0);
    MG_CHECK(mg_env_slurm_node_index("n[0-99]", "n0", &at) == MG_ERROR_OK && at == 0);
    MG_CHECK(mg_env_slurm_node_index("n[0-99]", "n42", &at) == MG_ERROR_OK && at == 42);
    /* not listed: between ranges, outside them, padded otherwise, a prefix or suffix apart */
    const char *const absent[] = {"node4", "node0", "node6", "node01", "n8x",   "n008x", "n11x",
                                  "n09",   "node",  "gpu",   "gpu77",  "login", "xnode1"};
    for (size_t i = 0; i < sizeof absent / sizeof absent[0]; i++) {
        at = -1;
        MG_CHECK(mg_env_slurm_node_index(list, absent[i], &at) == MG_ERROR_ENOENT && at == -1);
    }
    const char *const bad[] = {
        "",        ",",          "a,",           ",a",     "n[",    "n[]",  "n[1-]",
        "n[-2]",   "n[3-1]",     "n[1,]",        "n[1;2]", "n[1-2", "n[a]", "r[1-2]n[1-2]",
        "n[1-2],", "n[1-2]x,,a", "n[1234567890]"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        at = -1;
        MG_CHECK(mg_env_slurm_node_index(bad[i], "n1", &at) == MG_ERROR_EFORMAT && at == -1);
    }
    /* the node is listed first, a later entry is malformed */
    MG_CHECK(mg_env_slurm_node_index("n1,n[2-", "n1", &at) == MG_ERROR_EFORMAT);
    MG_CHECK(mg_env_slurm_node_index(NULL, "n1", &at) == MG_ERROR_EINVAL);
    MG_CHECK(mg_env_slurm_node_index("n1", "", &at) == MG_ERROR_EINVAL);
}

int main(void)
{
    MG_RUN(test_module_listed);
    MG_RUN(test_slurm_node_tasks);
    MG_RUN(test_slurm_node_index);
    MG_TEST_END();
}
