/* MPIGUARD_MODULES lists read by mg_env_module_listed: a module is named whole, in any place of the
 * list and with either separator, so that the library starts it and the CLI preloads check's _exit
 * object for the capture module whatever else the list holds. */
#include "mg_env.h"
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

int main(void)
{
    MG_RUN(test_module_listed);
    MG_TEST_END();
}
