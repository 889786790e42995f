/* Texts for the MG_ERROR_E* codes of mg_error.h. */
#include "mg_error.h"

static const char *const texts[MG_ERROR_CODE_COUNT] = {
    [0] = "success",
    [-MG_ERROR_ENOMEM] = "out of memory",
    [-MG_ERROR_EINVAL] = "invalid argument",
    [-MG_ERROR_ERANGE] = "value out of range",
    [-MG_ERROR_ENOENT] = "no such file, process or entry",
    [-MG_ERROR_EIO] = "input/output error",
    [-MG_ERROR_EFORMAT] = "malformed input",
    [-MG_ERROR_EVERSION] = "written by another version or for another target",
    [-MG_ERROR_EUNSUPPORTED] = "not supported",
    [-MG_ERROR_ESTATE] = "not valid in the current state",
    [-MG_ERROR_EFULL] = "no room left",
    [-MG_ERROR_ETIMEOUT] = "timed out",
    [-MG_ERROR_ESOLVER] = "constraint solver failed",
    [-MG_ERROR_ESYS] = "system call failed",
    [-MG_ERROR_EPERM] = "operation not permitted",
    [-MG_ERROR_ECHILD] = "process exited or vanished",
};

const char *mg_error_string(int code)
{
    if (code > 0 || code <= -MG_ERROR_CODE_COUNT)
        return "unknown error";
    return texts[-code];
}
