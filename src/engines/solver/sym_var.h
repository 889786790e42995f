/* Symbolic variables and the communicators their ranks refer to (docs/design/concolic-solver.md §1;
 * spec: docs/design/concolic.md, dissertation §2.3.1-§2.3.3, §2.4.1). */
#ifndef SYM_VAR_H
#define SYM_VAR_H

#include <stdint.h>

/* What a marked variable is. The C input kinds fix the value domain (and the bit width under
 * bit-vector semantics); the MPI kinds are marked automatically at MPI_Comm_rank/MPI_Comm_size. */
enum sym_var_kind {
    SYM_VAR_CHAR = 1,
    SYM_VAR_UCHAR,
    SYM_VAR_SHORT,
    SYM_VAR_USHORT,
    SYM_VAR_INT,
    SYM_VAR_UINT,
    SYM_VAR_LONG,
    SYM_VAR_ULONG,
    SYM_VAR_RANK_WORLD, /* r_w: the focus's rank in MPI_COMM_WORLD */
    SYM_VAR_RANK_COMM,  /* r_c: the focus's rank in another communicator (needs comm) */
    SYM_VAR_SIZE_WORLD, /* s_w: the size of MPI_COMM_WORLD, i.e. the process count */
    SYM_VAR_SIZE_COMM,  /* the size of another communicator (needs comm) */
    SYM_VAR_FLOAT,      /* a C float (mpiguard_float), sort Real */
    SYM_VAR_DOUBLE,     /* a C double (mpiguard_double), sort Real */
    SYM_VAR_KIND_END
};

/* The solver sort of a variable: SYM_VAR_SORT_REAL for the float kinds, SYM_VAR_SORT_INT for the
 * others. A Real variable's value (sym_var.value, and every int64 that carries an input) is the
 * IEEE-754 binary64 bit pattern of the double it holds (sym_var_real_value, sym_var_real_bits). */
enum sym_var_sort { SYM_VAR_SORT_INT = 0, SYM_VAR_SORT_REAL = 1 };

#define SYM_VAR_NO_COMM UINT32_MAX

/* One marked variable. Ids are dense: the i-th declared variable of a run has id i. */
typedef struct sym_var {
    uint32_t id;
    uint8_t kind;    /* enum sym_var_kind */
    uint8_t sort;    /* enum sym_var_sort */
    uint8_t has_cap; /* 1 when marked _with_limit: the solver adds value <= cap (§2.4.1) */
    int64_t cap;
    uint32_t comm; /* index of the sym_var_comm for RANK_COMM/SIZE_COMM, else SYM_VAR_NO_COMM */
    int64_t value; /* the concrete value this run used */
} sym_var;

/* A communicator other than MPI_COMM_WORLD as the focus saw it: its local-to-global rank map
 * (Table 2.2: global[local] = global rank), so a solved local rank maps to a focus (§2.3.4).
 * Indices are dense like variable ids. The array is owned by whoever filled the struct. */
typedef struct sym_var_comm {
    uint32_t index;
    uint32_t size;
    uint32_t *global;
} sym_var_comm;

/* The value domain of a kind under Int semantics, and its bit width and signedness under
 * bit-vector semantics. ULONG is limited to [0, INT64_MAX] because values travel as int64. The
 * float kinds have no integer domain ([INT64_MIN, INT64_MAX]: the bit patterns) and the width of
 * their C type. Returns MG_ERROR_EINVAL for an unknown kind (outputs untouched). */
int sym_var_kind_domain(int kind, int64_t *lo, int64_t *hi, unsigned *bits, int *is_signed);

/* Checks a declaration: known kind and sort, comm set exactly for the per-communicator kinds,
 * and (when has_cap) a cap not below the domain's low end. Returns 0 or MG_ERROR_EINVAL. */
int sym_var_check(const sym_var *v);

/* 1 for the MPI kinds (rank/size of world or a communicator), else 0. */
int sym_var_is_mpi(int kind);
/* 1 for SYM_VAR_FLOAT and SYM_VAR_DOUBLE, else 0. */
int sym_var_is_float(int kind);
/* The sort a kind must have: SYM_VAR_SORT_REAL for the float kinds, else SYM_VAR_SORT_INT. */
int sym_var_kind_sort(int kind);

/* A Real variable's value as the double its int64 carries, and back (bit copies). */
double sym_var_real_value(int64_t bits);
int64_t sym_var_real_bits(double d);

#endif
