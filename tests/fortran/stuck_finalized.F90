! Rank 0 finalizes while rank 1 waits for its message: each rank is named at its own line, rank 0
! at its MPI_Finalize (issue 28: every finding carries file:line).
! np: 2
! expect: stuck_on_terminated ranks 1,0 knot 0 line 11,12
program stuck_finalized
#include "mpi_style.h"
  integer :: rank, ierr, in
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  in = 0
  if (rank == 1) call MPI_Recv(in, 1, MPI_INTEGER, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call MPI_Finalize(ierr)
end program
