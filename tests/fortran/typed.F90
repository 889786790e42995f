! The four calls whose Fortran form is not the C one with an INTEGER per handle: a struct datatype
! (MPI_ADDRESS_KIND displacements) sent through MPI_Alltoallw with byte displacements, an in-place
! MPI_Ialltoallw (its send types not given: a one-element array stands for them), and an
! MPI_Allreduce with a Fortran reduction function of MPI_Op_create, which must be called with its
! Fortran arguments (a length and a Fortran datatype by reference). Each rank checks what arrived;
! rank 0 prints it, which `mpiguard run` must leave byte for byte as it is.
! np: 3
! calls: 10
! prints: typed: 3 ranks, sums 35 38 41 44 47
! expect: clean
module typed_op
#include "mpi_style.h"
contains
  ! inoutvec = invec + inoutvec + 1: associative and commutative, and unlike MPI_SUM.
#if defined(STYLE_F08)
  subroutine plus_one(invec, inoutvec, len, datatype)
    use, intrinsic :: iso_c_binding, only : c_ptr, c_f_pointer
    type(c_ptr), value :: invec, inoutvec
    integer :: len
    type(MPI_Datatype) :: datatype
    integer, pointer :: a(:), b(:)
    if (datatype /= MPI_INTEGER) error stop 'plus_one: not called with MPI_INTEGER'
    call c_f_pointer(invec, a, [len])
    call c_f_pointer(inoutvec, b, [len])
    b = a + b + 1
  end subroutine plus_one
#else
  subroutine plus_one(invec, inoutvec, len, datatype)
    integer :: len, datatype
    integer :: invec(len), inoutvec(len)
    if (datatype /= MPI_INTEGER) error stop 'plus_one: not called with MPI_INTEGER'
    inoutvec = invec + inoutvec + 1
  end subroutine plus_one
#endif
end module typed_op

program typed
  use typed_op
  implicit none
  integer, parameter :: n = 5
  integer :: rank, nprocs, ierr, j
  integer :: source(4 * 8), pairs(2 * 8), swapped(8), one(8), counts(8), zeros(8)
  integer :: sdispls(8), rdispls(8), sums(n), values(n)
  integer :: blocklengths(2)
  integer(kind=MPI_ADDRESS_KIND) :: displacements(2)
#if defined(STYLE_F08)
  type(MPI_Datatype) :: pick, types(2), sendtypes(8), recvtypes(8), ignored(1)
  type(MPI_Op) :: op
  type(MPI_Request) :: request
#else
  integer :: pick, types(2), sendtypes(8), recvtypes(8), ignored(1)
  integer :: op, request
#endif
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  if (nprocs > 8) error stop 'typed: at most 8 ranks'
  ! pick: the first and third INTEGER of four.
  blocklengths = 1
  displacements = [0_MPI_ADDRESS_KIND, 8_MPI_ADDRESS_KIND]
  types = MPI_INTEGER
  call MPI_Type_create_struct(2, blocklengths, displacements, types, pick, ierr)
  call MPI_Type_commit(pick, ierr)
  ! To rank j: one pick from source(4j+1:4j+4); from rank j: two INTEGERs at pairs(2j+1).
  source = [(rank * 100 + j, j = 0, 4 * 8 - 1)]
  one = 1
  counts = 2
  zeros = 0
  sdispls = [(16 * j, j = 0, 7)]
  rdispls = [(8 * j, j = 0, 7)]
  sendtypes = pick
  recvtypes = MPI_INTEGER
  call MPI_Alltoallw(source, one, sdispls, sendtypes, pairs, counts, rdispls, recvtypes, &
                     MPI_COMM_WORLD, ierr)
  do j = 0, nprocs - 1
    if (pairs(2 * j + 1) /= j * 100 + 4 * rank .or. pairs(2 * j + 2) /= j * 100 + 4 * rank + 2) &
      error stop 'Alltoallw: wrong pair'
  end do
  ! In place: element j goes to rank j and comes back from it.
  swapped = [(rank * 10 + j, j = 0, 7)]
  rdispls = [(4 * j, j = 0, 7)]
  ignored = MPI_DATATYPE_NULL
  call MPI_Ialltoallw(MPI_IN_PLACE, zeros, zeros, ignored, swapped, one, rdispls, recvtypes, &
                      MPI_COMM_WORLD, request, ierr)
  call MPI_Wait(request, MPI_STATUS_IGNORE, ierr)
  do j = 0, nprocs - 1
    if (swapped(j + 1) /= j * 10 + rank) error stop 'Ialltoallw: wrong element'
  end do
  call MPI_Op_create(plus_one, .true., op, ierr)
  values = [(rank * 10 + j, j = 1, n)]
  call MPI_Allreduce(values, sums, n, MPI_INTEGER, op, MPI_COMM_WORLD, ierr)
  do j = 1, n
    if (sums(j) /= 10 * nprocs * (nprocs - 1) / 2 + nprocs * j + nprocs - 1) &
      error stop 'Allreduce: wrong sum'
  end do
  call MPI_Op_free(op, ierr)
  call MPI_Type_free(pick, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(a,i0,a,*(1x,i0))', 'typed: ', nprocs, ' ranks, sums', sums
  call MPI_Finalize(ierr)
end program typed
