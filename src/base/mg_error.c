/* Texts for the MG_E* codes of mg_error.h. */
#include "mg_error.h"

static const char *const texts[MG_ERROR_CODE_COUNT] = {
    [0] = "success",
    [-MG_ENOMEM] = "out of memory",
    [-MG_EINVAL] = "invalid argument",
    [-MG_ERANGE] = "value out of range",
    [-MG_ENOENT] = "no such file, process or entry",
    [-MG_EIO] = "input/output error",
    [-MG_EFORMAT] = "malformed input",
    [-MG_EVERSION] = "written by another version or for another target",
    [-MG_EUNSUPPORTED] = "not supported",
    [-MG_ESTATE] = "not valid in the current state",
    [-MG_EFULL] = "no room left",
    [-MG_ETIMEOUT] = "timed out",
    [-MG_ESOLVER] = "constraint solver failed",
    [-MG_ESYS] = "system call failed",
    [-MG_EPERM] = "operation not permitted",
    [-MG_ECHILD] = "process exited or vanished",
};

const char *mg_error_string(int code)
{
    if (code > 0 || code <= -MG_ERROR_CODE_COUNT)
        return "unknown error";
    return texts[-code];
}
