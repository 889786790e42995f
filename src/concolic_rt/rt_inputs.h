/* The campaign's inputs file of this run (MPIGUARD_CONCOLIC_INPUTS: the same file for every rank),
 * read the first time anything asks, whichever part of the runtime asks first: integers can turn
 * symbolic through an MPI call (rt_mpi.c) before any input is marked (rt_mark.c). */
#ifndef RT_INPUTS_H
#define RT_INPUTS_H

#include <stddef.h>
#include <stdint.h>

/* 1 and *value set when the file holds input i (counted from 0), else 0. */
int rt_inputs_at(size_t i, int64_t *value);
/* 1 when the campaign tunes its inputs instead of capping them (`uncapped`): the marks' limits
 * are then not applied. */
int rt_inputs_uncapped(void);
/* 1 unless the campaign keeps floats concrete (`--floats off`: the file says `floats_off`, and
 * the float probes then leave every float value concrete, as before floats were tracked). */
int rt_inputs_floats_tracked(void);

#endif
