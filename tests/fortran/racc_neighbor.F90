! On a periodic 1-D Cartesian ring, each rank sends its number to its two neighbours with
! MPI_Neighbor_alltoallw (a datatype per neighbour, which the Fortran entry converts by the rank's
! degrees) and checks what it got; then, under MPI_Win_lock_all, it adds into its right
! neighbour's window with MPI_Raccumulate and never completes the request: one
! request_not_completed per rank at the Fortran line of MPI_Raccumulate. Issue 28.
! np: 3
! expect: request_not_completed ranks 0 line 44
! expect: request_not_completed ranks 1 line 44
! expect: request_not_completed ranks 2 line 44
program racc_neighbor
#include "mpi_style.h"
  integer :: ierr, rank, nranks, right, counts(2), sent(2), got(2), cells(4), dims(1)
  integer(kind=MPI_ADDRESS_KIND) :: displs(2), winsize, disp
  logical :: periods(1)
#if defined(STYLE_F08)
  type(MPI_Comm) :: ring
  type(MPI_Datatype) :: types(2)
  type(MPI_Win) :: win
  type(MPI_Request) :: request
#else
  integer :: ring, types(2), win, request
#endif
  call MPI_Init(ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  dims(1) = nranks
  periods(1) = .true.
  call MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, .false., ring, ierr)
  call MPI_Comm_rank(ring, rank, ierr)
  counts = 1
  types = MPI_INTEGER
  displs(1) = 0
  displs(2) = 4
  sent = rank
  got = -1
  call MPI_Neighbor_alltoallw(sent, counts, displs, types, got, counts, displs, types, ring, ierr)
  if (got(1) /= mod(rank + nranks - 1, nranks) .or. got(2) /= mod(rank + 1, nranks)) &
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  cells = 0
  winsize = 16
  call MPI_Win_create(cells, winsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call MPI_Win_lock_all(0, win, ierr)
  right = mod(rank + 1, nranks)
  disp = 0
  call MPI_Raccumulate(rank, 1, MPI_INTEGER, right, disp, 1, MPI_INTEGER, MPI_SUM, win, request, ierr) ! <- reported
  call MPI_Win_unlock_all(win, ierr)
  call MPI_Win_free(win, ierr)
  call MPI_Comm_free(ring, ierr)
  call MPI_Finalize(ierr)
end program racc_neighbor
