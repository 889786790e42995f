# The two MPI ABIs mpiguard supports. For each flavour FLAVOR in MPIGUARD_MPI_FLAVORS this defines
# the imported target mpiguard::mpi_<FLAVOR> (headers and library of that MPI) and the variables
# MPIGUARD_MPICC_<FLAVOR>, MPIGUARD_MPIEXEC_<FLAVOR>. The interposition library and the examples
# are built once per flavour (mg_add_per_mpi in each directory); everything else once.
set(MPIGUARD_MPI_FLAVORS openmpi mpich)
pkg_check_modules(OMPI REQUIRED IMPORTED_TARGET ompi-c)
pkg_check_modules(MPICH REQUIRED IMPORTED_TARGET mpich)
add_library(mpiguard::mpi_openmpi ALIAS PkgConfig::OMPI)
add_library(mpiguard::mpi_mpich ALIAS PkgConfig::MPICH)
find_program(MPIGUARD_MPIEXEC_openmpi NAMES mpirun.openmpi REQUIRED)
find_program(MPIGUARD_MPIEXEC_mpich NAMES mpiexec.mpich REQUIRED)
