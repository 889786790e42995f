! MUST's Fig. 1c in Fortran: both ranks send first with MPI_Ssend, which waits for its receive.
! np: 2
! expect: deadlock ranks 0,1 knot 0,1 line 12
program send_send
#include "mpi_style.h"
  integer :: rank, ierr, peer, out, in
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  peer = 1 - rank
  out = rank
  ! <- reported: the next line
  call MPI_Ssend(out, 1, MPI_INTEGER, peer, 0, MPI_COMM_WORLD, ierr)
  call MPI_Recv(in, 1, MPI_INTEGER, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call MPI_Finalize(ierr)
end program
