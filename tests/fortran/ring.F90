! A healthy job in every family of calls the Fortran entries convert: nonblocking point-to-point
! completed by Waitall with statuses, Waitany's 1-based index, Sendrecv with MPI_STATUS_IGNORE,
! collectives in place (MPI_IN_PLACE) and not, a duplicated communicator. Rank 0 prints the
! results, which `mpiguard protect` must leave byte for byte as they are.
! np: 3
! calls: 26
! prints: ring: 3 ranks, total 3
! expect: clean
program ring
#include "mpi_style.h"
  integer, parameter :: rounds = 5
  integer :: rank, nprocs, ierr, next, prev, i, got, total, which
  integer :: values(64), gathered(64 * 4), sums(64)
  MG_REQUESTS(requests, 2)
  MG_STATUSES(statuses, 2)
  MG_STATUS(status)
#if defined(STYLE_F08)
  type(MPI_Comm) :: dup
#else
  integer :: dup
#endif
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  next = mod(rank + 1, nprocs)
  prev = mod(rank + nprocs - 1, nprocs)
  do i = 1, rounds
    call MPI_Irecv(got, 1, MPI_INTEGER, prev, i, MPI_COMM_WORLD, requests(1), ierr)
    call MPI_Isend(rank, 1, MPI_INTEGER, next, i, MPI_COMM_WORLD, requests(2), ierr)
    call MPI_Waitall(2, requests, statuses, ierr)
    if (got /= prev .or. MG_SOURCE_AT(statuses, 1) /= prev) error stop 'Waitall: wrong message'
  end do
  call MPI_Irecv(got, 1, MPI_INTEGER, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, requests(1), ierr)
  call MPI_Send(rank, 1, MPI_INTEGER, next, 9, MPI_COMM_WORLD, ierr)
  call MPI_Waitany(1, requests, which, status, ierr)
  if (MG_SOURCE_OF(status) /= prev) error stop 'Waitany: wrong source'
  ! MPICH 4.0.2's own use mpi_f08 binding gives Waitany's index from 0, where the standard (and its
  ! mpif.h binding) count from 1; under mpiguard the program must get what it gets without it.
#if defined(STYLE_F08) && defined(MG_FLAVOR_MPICH)
  if (which /= 0) error stop 'Waitany: wrong index'
#else
  if (which /= 1) error stop 'Waitany: wrong index'
#endif
  call MPI_Sendrecv(rank, 1, MPI_INTEGER, next, 8, got, 1, MPI_INTEGER, prev, 8, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  if (got /= prev) error stop 'Sendrecv: wrong message'
  call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
  values = [(rank * 1000 + i, i = 1, 64)]
  sums = values
  call MPI_Allreduce(MPI_IN_PLACE, sums, 64, MPI_INTEGER, MPI_SUM, dup, ierr)
  call MPI_Allgather(values, 16, MPI_INTEGER, gathered, 16, MPI_INTEGER, dup, ierr)
  total = rank
  call MPI_Reduce(rank, total, 1, MPI_INTEGER, MPI_SUM, 0, dup, ierr)
  call MPI_Bcast(total, 1, MPI_INTEGER, 0, dup, ierr)
  call MPI_Comm_free(dup, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    print '(a,i0,a,i0)', 'ring: ', nprocs, ' ranks, total ', total
    print '(8i8)', sums
    print '(8i8)', gathered(1:16 * nprocs)
  end if
  call MPI_Finalize(ierr)
end program
