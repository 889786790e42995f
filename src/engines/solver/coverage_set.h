/* The set of covered branch arms, merged across every rank of every run
 * (docs/design/concolic-solver.md §2; spec: dissertation §2.3 "one focus and all recorders", §2.4.2
 * light instrumentation). */
#ifndef COVERAGE_SET_H
#define COVERAGE_SET_H

#include <stddef.h>
#include <stdint.h>

/* Branch ids run to COVERAGE_SET_MAX_BRANCH so an arm index (2 * id + taken) fits 32 bits. */
#define COVERAGE_SET_MAX_BRANCH (UINT32_MAX / 2)

/* Sorted, duplicate-free arm indices. Owns its array; a zeroed struct is an empty set. */
typedef struct coverage_set {
    uint32_t *arms;
    size_t n, cap;
} coverage_set;

/* Arm index of one side of a branch: 2 * branch_id + (taken ? 1 : 0). */
static inline uint32_t coverage_arm(uint32_t branch_id, int taken)
{
    return branch_id * 2u + (taken ? 1u : 0u);
}

void coverage_set_init(coverage_set *cs);
void coverage_set_free(coverage_set *cs);
/* Adds arms (any order, duplicates allowed). MG_ERROR_ENOMEM leaves the set unchanged. */
int coverage_set_add(coverage_set *cs, const uint32_t *arms, size_t n);
/* Adds every arm of src to dst. MG_ERROR_ENOMEM leaves dst unchanged. */
int coverage_set_merge(coverage_set *dst, const coverage_set *src);
/* 1 when the arm is in the set. */
int coverage_set_contains(const coverage_set *cs, uint32_t arm);

#endif
