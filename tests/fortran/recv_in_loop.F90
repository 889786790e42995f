! Both ranks receive first, in a loop whose `if ... exit` precedes the call: a deadlock. Its
! arguments are variables, so through Open MPI's `use mpi` and `use mpi_f08` gfortran 12 gives the
! call the `do` statement's row (docs/design/check.md, "Fortran call lines"), and its line must
! come from the loop's body, which names the function once. Elsewhere the call has its own row.
! np: 2
! expect: deadlock ranks 0,1 knot 0,1 line 24
program recv_in_loop
#include "mpi_style.h"
  integer :: rank, ierr, peer, in, count, tag, rounds
  MG_STATUS(status)
  MG_COMM(comm)
  MG_DATATYPE(datatype)
  call MPI_Init(ierr)
  comm = MPI_COMM_WORLD
  datatype = MPI_INTEGER
  call MPI_Comm_rank(comm, rank, ierr)
  peer = 1 - rank
  count = 1
  tag = 0
  rounds = 0
  do
    rounds = rounds + 1
    if (rounds > 3) exit
    call MPI_Recv(in, count, datatype, peer, tag, comm, status, ierr) ! <- reported
  end do
  call MPI_Finalize(ierr)
end program
