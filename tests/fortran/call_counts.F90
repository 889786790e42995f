! A known sequence of calls, each function called a known number of times, so that a binding of
! the MPI's that calls another interposed binding (one call counted twice, or under another
! function's name) shows: `mpiguard run` counts each rank's wrapped calls (calls), and the capture
! module's records count the calls of each function it records (records, fortran_records.sh).
! Issue 26. Rank 0 prints what arrived. `run` counts the wrapped calls that completed: not
! MPI_Init, MPI_Finalize, nor MPI_Comm_rank, MPI_Comm_size, MPI_File_open and MPI_File_close,
! which mpiguard does not wrap; the records are of the calls check models.
! np: 3
! calls: 23
! records: MPI_INIT 1, MPI_SENDRECV_REPLACE 2, MPI_ALLREDUCE 3, MPI_IRECV 4, MPI_ISEND 4, MPI_WAITALL 4, MPI_COMM_SPLIT 1, MPI_BARRIER 1, MPI_COMM_FREE 1, MPI_FINALIZE 1
! prints: call_counts: 3 ranks, value 1, sums 54, got 2
program call_counts
#include "mpi_style.h"
  integer :: rank, nprocs, ierr, i, value, got, next, prev
  integer :: values(4)
  MG_REQUESTS(requests, 2)
  MG_STATUSES(statuses, 2)
#if defined(STYLE_F08)
  type(MPI_Comm) :: half
  type(MPI_Datatype) :: pair
  type(MPI_File) :: file
#else
  integer :: half, pair, file
#endif
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  next = mod(rank + 1, nprocs)
  prev = mod(rank + nprocs - 1, nprocs)
  value = rank
  do i = 1, 2
    call MPI_Sendrecv_replace(value, 1, MPI_INTEGER, next, i, prev, i, MPI_COMM_WORLD, &
                              MPI_STATUS_IGNORE, ierr)
  end do
  values = rank + 1
  do i = 1, 3
    call MPI_Allreduce(MPI_IN_PLACE, values, 4, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  end do
  do i = 1, 4
    call MPI_Irecv(got, 1, MPI_INTEGER, prev, i, MPI_COMM_WORLD, requests(1), ierr)
    call MPI_Isend(rank, 1, MPI_INTEGER, next, i, MPI_COMM_WORLD, requests(2), ierr)
    call MPI_Waitall(2, requests, statuses, ierr)
  end do
  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), rank, half, ierr)
  call MPI_Barrier(half, ierr)
  call MPI_Comm_free(half, ierr)
  call MPI_Type_contiguous(2, MPI_INTEGER, pair, ierr)
  call MPI_Type_commit(pair, ierr)
  call MPI_Type_free(pair, ierr)
  call open_own_file(file)
  call MPI_File_close(file, ierr)
  if (rank == 0) print '(a,i0,a,i0,a,i0,a,i0)', 'call_counts: ', nprocs, ' ranks, value ', value, &
      ', sums ', values(1), ', got ', got
  call MPI_Finalize(ierr)
end program call_counts

#include "own_file.h"
