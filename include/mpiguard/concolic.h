/* Marking the inputs of an MPI program for `mpiguard concolic` (docs/concolic.md; spec:
 * design/concolic.md "Mark inputs", dissertation §2.4.1).
 *
 * Build with mpiguard-cc (used like mpicc). Each call marks the variable *x as a symbolic input:
 * when the program runs under `mpiguard concolic`, *x is overwritten with the value the campaign
 * chose for this input (the i-th call of a run is input i, on every rank: call them in the same
 * order on all ranks, before or after MPI_Init), and the branches that depend on it are recorded.
 * Outside a campaign *x keeps its value. The _with_limit variants also bound the value from above
 * (the input cap of §2.4.1): the solver never proposes a value above `limit`, and a value above
 * it is lowered to it. mpiguard_double and mpiguard_float mark a floating-point input (no limit:
 * float inputs are neither capped nor tuned); the campaign solves the branches on it over the
 * reals, or IEEE arithmetic with `--floats fp` (docs/concolic.md "Floating-point inputs"). MPI
 * rank and size variables are marked automatically at MPI_Comm_rank and MPI_Comm_size.
 * Not thread-safe: mark from one thread. */
#ifndef MPIGUARD_CONCOLIC_H
#define MPIGUARD_CONCOLIC_H

#ifdef __cplusplus
extern "C" {
#endif

void mpiguard_char(char *x);
void mpiguard_uchar(unsigned char *x);
void mpiguard_short(short *x);
void mpiguard_ushort(unsigned short *x);
void mpiguard_int(int *x);
void mpiguard_unsigned(unsigned *x);
void mpiguard_long(long *x);
void mpiguard_ulong(unsigned long *x);
void mpiguard_float(float *x);
void mpiguard_double(double *x);

void mpiguard_char_with_limit(char *x, long long limit);
void mpiguard_uchar_with_limit(unsigned char *x, long long limit);
void mpiguard_short_with_limit(short *x, long long limit);
void mpiguard_ushort_with_limit(unsigned short *x, long long limit);
void mpiguard_int_with_limit(int *x, long long limit);
void mpiguard_unsigned_with_limit(unsigned *x, long long limit);
void mpiguard_long_with_limit(long *x, long long limit);
void mpiguard_ulong_with_limit(unsigned long *x, long long limit);

#ifdef __cplusplus
}
#endif

#endif
