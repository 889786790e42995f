! MPI_Alltoallw and MPI_Ialltoallw over an intercommunicator of unequal groups (the even world
! ranks and the odd ones: 2 and 1 of 3): each datatype array is as long as the remote group, which
! the Fortran entry must ask MPI for (a local size would read past the odd rank's one type or drop
! the evens' second). Each rank checks what arrived; rank 0 prints it.
! np: 3
! calls: 8
! prints: intercomm: 3 ranks, rank 0 got 10
! expect: clean
program intercomm
#include "mpi_style.h"
  integer :: rank, nprocs, ierr, j, color, remote
  integer :: sendbuf(8), recvbuf(8), counts(8), displs(8), again(8)
#if defined(STYLE_F08)
  type(MPI_Comm) :: half, inter
  type(MPI_Datatype) :: types(8)
  type(MPI_Request) :: request
#else
  integer :: half, inter, types(8), request
#endif
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  if (nprocs < 2 .or. nprocs > 8) error stop 'intercomm: 2 to 8 ranks'
  color = mod(rank, 2)
  call MPI_Comm_split(MPI_COMM_WORLD, color, rank, half, ierr)
  ! The other group's leader is world rank 1 for the evens, 0 for the odds.
  call MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - color, 7, inter, ierr)
  call MPI_Comm_remote_size(inter, remote, ierr)
  ! To the j-th rank of the other group goes rank * 10 + j.
  sendbuf = [(rank * 10 + j, j = 0, 7)]
  counts = 1
  displs = [(4 * j, j = 0, 7)]
  types = MPI_INTEGER
  recvbuf = -1
  call MPI_Alltoallw(sendbuf, counts, displs, types, recvbuf, counts, displs, types, inter, ierr)
  ! The j-th remote rank is world rank 2j + 1 - color; this rank is rank / 2 in its own group.
  do j = 0, remote - 1
    if (recvbuf(j + 1) /= (2 * j + 1 - color) * 10 + rank / 2) error stop 'Alltoallw: wrong element'
  end do
  again = -1
  call MPI_Ialltoallw(sendbuf, counts, displs, types, again, counts, displs, types, inter, &
                      request, ierr)
  call MPI_Wait(request, MPI_STATUS_IGNORE, ierr)
  if (any(again(1:remote) /= recvbuf(1:remote))) error stop 'Ialltoallw: differs from Alltoallw'
  call MPI_Comm_free(inter, ierr)
  call MPI_Comm_free(half, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(a,i0,a,*(1x,i0))', 'intercomm: ', nprocs, ' ranks, rank 0 got', &
                       recvbuf(1:remote)
  call MPI_Finalize(ierr)
end program intercomm
