/* In the place of an inline function of Open MPI's C++ bindings (ompi/mpi/cxx/comm_inln.h), whose
 * directory the resolver recognises by name: test_site_resolver.c includes it after defining
 * return_address, and the call below is inlined into the test at every optimisation level. */
static inline __attribute__((always_inline)) void *binding_call(void)
{
    return return_address();
}
