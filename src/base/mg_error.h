/* One error convention for the whole tree: functions return int, 0 for success and a negative
 * MG_ERROR_E* code for failure; results travel through out-parameters. See docs/architecture.md. */
#ifndef MG_ERROR_H
#define MG_ERROR_H

enum mg_error_code {
    MG_ERROR_OK = 0,
    MG_ERROR_ENOMEM = -1,   /* an allocation failed */
    MG_ERROR_EINVAL = -2,   /* an argument is outside what the function accepts */
    MG_ERROR_ERANGE = -3,   /* a value or size is past a limit */
    MG_ERROR_ENOENT = -4,   /* a file, process or entry does not exist */
    MG_ERROR_EIO = -5,      /* a read or write failed or came up short */
    MG_ERROR_EFORMAT = -6,  /* input is malformed (bad magic, truncated record, bad JSON) */
    MG_ERROR_EVERSION = -7, /* input was written by another version or for another target */
    MG_ERROR_EUNSUPPORTED =
        -8,               /* the request is understood but not supported (a launcher, a feature) */
    MG_ERROR_ESTATE = -9, /* the call is not valid in the object's current state */
    MG_ERROR_EFULL = -10, /* a bounded container (ring, table) has no room */
    MG_ERROR_ETIMEOUT = -11, /* a deadline passed */
    MG_ERROR_ESOLVER = -12,  /* the constraint solver failed or answered unknown */
    MG_ERROR_ESYS = -13,     /* a system call failed; errno holds the reason */
    MG_ERROR_EPERM = -14,    /* the operating system refused (ptrace, signal, open) */
    MG_ERROR_ECHILD = -15,   /* a process we own exited or vanished */
    MG_ERROR_CODE_COUNT = 16
};

/* Returns a static, human-readable text for an MG_ERROR_E* code (never NULL; unknown codes get a
 * generic text). Thread- and signal-safe. */
const char *mg_error_string(int code);

#endif
