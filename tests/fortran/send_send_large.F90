! MUST's Fig. 1c with MPI-4 large counts: under `use mpi_f08`, a count of KIND=MPI_COUNT_KIND makes
! MPICH's binding enter mpi_ssend_f08ts_large_, which reaches MPI_Ssend_c. mpiguard's own entry of
! that name reports the Fortran line; without it the site would be inside libmpichfort.
! Built as f08 for MPICH only (Open MPI 4.1 has no large-count binding).
! np: 2
! expect: deadlock ranks 0,1 knot 0,1 line 17
program send_send_large
#include "mpi_style.h"
  integer :: rank, ierr, peer, out, in
  integer(kind=MPI_COUNT_KIND) :: one
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  peer = 1 - rank
  out = rank
  one = 1
  ! <- reported: the next line
  call MPI_Ssend(out, one, MPI_INTEGER, peer, 0, MPI_COMM_WORLD, ierr)
  call MPI_Recv(in, one, MPI_INTEGER, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call MPI_Finalize(ierr)
end program
