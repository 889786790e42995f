! The MPI binding a test program uses, chosen at compile time so that each program is written once
! and built in the three styles (tests/fortran/CMakeLists.txt): -DSTYLE_MPIF (include 'mpif.h'),
! -DSTYLE_MPI (use mpi) or -DSTYLE_F08 (use mpi_f08). Included right after the program statement;
! the MG_* macros declare what the styles spell differently. Its statements start in column 7, so
! that fixed-form programs (.f) include it too.
#if defined(STYLE_F08)
      use mpi_f08
#elif defined(STYLE_MPI)
      use mpi
#endif
      implicit none
#if defined(STYLE_MPIF)
      include 'mpif.h'
#endif
#if defined(STYLE_F08)
#define MG_STATUS(name) type(MPI_Status) :: name
#define MG_STATUSES(name, n) type(MPI_Status) :: name(n)
#define MG_REQUESTS(name, n) type(MPI_Request) :: name(n)
#define MG_SOURCE_OF(status) status%MPI_SOURCE
#define MG_SOURCE_AT(statuses, i) statuses(i)%MPI_SOURCE
#define MG_COMM(name) type(MPI_Comm) :: name
#define MG_DATATYPE(name) type(MPI_Datatype) :: name
#else
#define MG_STATUS(name) integer :: name(MPI_STATUS_SIZE)
#define MG_STATUSES(name, n) integer :: name(MPI_STATUS_SIZE, n)
#define MG_REQUESTS(name, n) integer :: name(n)
#define MG_SOURCE_OF(status) status(MPI_SOURCE)
#define MG_SOURCE_AT(statuses, i) statuses(MPI_SOURCE, i)
#define MG_COMM(name) integer :: name
#define MG_DATATYPE(name) integer :: name
#endif
! A communicator's, window's or file's handle as an INTEGER, to compare one an error handler gets.
#if defined(STYLE_F08)
#define MG_HANDLE(h) h%MPI_VAL
#else
#define MG_HANDLE(h) h
#endif
