! MPI_BOTTOM with absolute addresses: a struct datatype over two INTEGER arrays (their
! MPI_Get_address addresses as its displacements; two types would be one procedure called with two
! argument types through mpif.h, which gfortran refuses) sent from MPI_BOTTOM by MPI_Send and
! MPI_Bcast and received into MPI_BOTTOM. Fortran's MPI_BOTTOM is a common block of libmpi, not C's
! address 0: a binding that passed it on as a buffer would send from and receive into the block's
! address plus the displacements (fortran_entry.c turns it into C's MPI_BOTTOM). Rank 1 checks what
! arrived and prints it. `run` counts Type_create_struct, Type_commit, Send or Recv, Bcast and
! Type_free (MPI_Get_address is not wrapped).
! np: 2
! calls: 5
! prints: bottom: 11 12 13 and 14 15 by MPI_Send, 21 22 23 and 24 25 by MPI_Bcast
! expect: clean
program bottom
#include "mpi_style.h"
  integer :: rank, nprocs, ierr
  integer :: head(3), tail(2), sent_head(3), sent_tail(2), blocklengths(2)
  integer(kind=MPI_ADDRESS_KIND) :: displacements(2)
  MG_DATATYPE(pair)
  MG_DATATYPE(types(2))
  MG_STATUS(status)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  if (nprocs /= 2) error stop 'bottom: 2 ranks'
  head = -1
  tail = -1
  if (rank == 0) then
    head = [11, 12, 13]
    tail = [14, 15]
  end if
  call MPI_Get_address(head, displacements(1), ierr)
  call MPI_Get_address(tail, displacements(2), ierr)
  blocklengths = [3, 2]
  types = MPI_INTEGER
  call MPI_Type_create_struct(2, blocklengths, displacements, types, pair, ierr)
  call MPI_Type_commit(pair, ierr)
  if (rank == 0) then
    call MPI_Send(MPI_BOTTOM, 1, pair, 1, 7, MPI_COMM_WORLD, ierr)
  else
    call MPI_Recv(MPI_BOTTOM, 1, pair, 0, 7, MPI_COMM_WORLD, status, ierr)
  end if
  sent_head = head
  sent_tail = tail
  if (rank == 0) then
    head = head + 10
    tail = tail + 10
  end if
  call MPI_Bcast(MPI_BOTTOM, 1, pair, 0, MPI_COMM_WORLD, ierr)
  call MPI_Type_free(pair, ierr)
  if (rank == 1) then
    if (any(sent_head /= [11, 12, 13]) .or. any(sent_tail /= [14, 15])) &
      error stop 'MPI_Recv: wrong data'
    if (any(head /= [21, 22, 23]) .or. any(tail /= [24, 25])) error stop 'MPI_Bcast: wrong data'
    print '(a,3(1x,i0),a,2(1x,i0),a,3(1x,i0),a,2(1x,i0),a)', 'bottom:', sent_head, ' and', &
      sent_tail, ' by MPI_Send,', head, ' and', tail, ' by MPI_Bcast'
  end if
  call MPI_Finalize(ierr)
end program bottom
