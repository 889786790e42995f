/* Exit statuses of the mpiguard command (docs/cli.md lists them for users). When nothing is found
 * and mpiguard did not stop the job, mpiguard exits with the job's own status instead. */
#ifndef MG_EXIT_H
#define MG_EXIT_H

enum mg_exit_status {
    MG_EXIT_USAGE = 64,       /* the command line is wrong */
    MG_EXIT_DATAERR = 65,     /* an input file is malformed or for another MPI/version */
    MG_EXIT_NOINPUT = 66,     /* an input file, application or process does not exist */
    MG_EXIT_UNAVAILABLE = 69, /* a tool not built yet, a launcher not installed or not supported */
    MG_EXIT_SOFTWARE = 70,    /* mpiguard itself failed */
    MG_EXIT_CANTCREAT = 73,   /* the report (or another output) cannot be written */
    MG_EXIT_FINDINGS = 80,    /* the job ran to its end with status 0 but errors were found */
    MG_EXIT_HANG = 81,        /* a hang was detected and the job stopped */
    MG_EXIT_DEADLOCK = 82,    /* a deadlock was detected and the job stopped */
    MG_EXIT_UNOBSERVED = 83,  /* a rank could not be observed (not interposed or calls unseen) */
    MG_EXIT_SIGNAL_BASE = 128 /* the job was stopped by signal N: 128 + N, as shells do */
};

#endif
