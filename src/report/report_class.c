/* The table of finding classes (report_class.h). */
#include "report_class.h"

#include "mg_error.h"

#include <stdio.h>
#include <string.h>
#include <threads.h>

/* One line per class; the order is the order of docs and of the schema's list of kinds. */
static const report_class classes[] = {
    {"hang", "hang", "hang", "error", "the job stopped making progress",
     "look at the named rank's loop or its missing call"},
    {"deadlock", "check", "deadlock", "error", "ranks wait for each other: none can go on",
     "make the calls match: reorder the sends and receives, or use MPI_Sendrecv"},
    {"potential_deadlock", "check", "deadlock", "warning",
     "ranks would wait for each other if MPI did not buffer standard-mode sends",
     "use MPI_Sendrecv or nonblocking calls instead of relying on buffering"},
    {"stuck_on_terminated", "check", "deadlock", "error",
     "ranks wait for a rank that finalized, aborted or vanished",
     "make the rank that ended post the matching call before it finalizes"},
    {"collective_mismatch", "check", "collective", "error",
     "members of a communicator call disagreeing collectives (kind, root, op or type signature)",
     "call the same collectives in the same order with the same root, op and message on every "
     "member"},
    {"type_mismatch", "check", "type", "error",
     "a matched send and receive describe the message with different basic types",
     "describe the message with the same basic types on both sides (MPI 3.1 §3.3.1)"},
    {"truncation", "check", "type", "error", "a matched receive is shorter than the message",
     "post a receive at least as long as the message"},
    {"comm_null", "check", "args", "error", "MPI_COMM_NULL passed as the communicator",
     "pass a valid communicator (check the call that created it)"},
    {"comm_freed", "check", "args", "error",
     "a communicator used after MPI_Comm_free (a copy of its handle)",
     "free the communicator after its last use, on every copy of its handle"},
    {"negative_count", "check", "args", "error", "a negative count", "pass a count of 0 or more"},
    {"null_buffer", "check", "args", "error", "a NULL buffer with a positive count",
     "allocate the buffer before the call, or pass count 0"},
    {"rank_out_of_range", "check", "args", "error",
     "a destination or source outside the communicator",
     "pass a rank from 0 to the communicator's size - 1, MPI_PROC_NULL or MPI_ANY_SOURCE"},
    {"root_out_of_range", "check", "args", "error", "a root outside the communicator",
     "pass the same valid root on every member"},
    {"tag_out_of_range", "check", "args", "error", "a tag below 0 or above MPI_TAG_UB",
     "use tags from 0 to MPI_TAG_UB (at least 32767 everywhere)"},
    {"datatype_null", "check", "args", "error", "MPI_DATATYPE_NULL passed as the datatype",
     "pass a predefined or committed datatype"},
    {"datatype_freed", "check", "args", "error", "a datatype used after MPI_Type_free",
     "free the datatype after its last use"},
    {"datatype_uncommitted", "check", "args", "error",
     "a derived datatype used in communication before MPI_Type_commit",
     "call MPI_Type_commit on the datatype before using it"},
    {"op_freed", "check", "args", "error",
     "a reduction op used after MPI_Op_free (a copy of its handle)",
     "free the op after its last reduction"},
    {"request_freed", "check", "args", "error",
     "a request used after it was freed: by MPI_Request_free, or by the Wait or Test that "
     "completed it (a copy of its handle)",
     "use the handle the completing call set to MPI_REQUEST_NULL, not a copy of it"},
    {"group_freed", "check", "args", "error",
     "a group used after MPI_Group_free (a copy of its handle)",
     "free the group after its last use, on every copy of its handle"},
    {"win_freed", "check", "args", "error",
     "a window used after MPI_Win_free (a copy of its handle)",
     "free the window after its last use, on every copy of its handle"},
    {"message_null", "check", "args", "error",
     "MPI_MESSAGE_NULL passed to MPI_Mrecv or MPI_Imrecv (no probe, or its message received)",
     "receive each message MPI_Mprobe or MPI_Improbe matched once, with the handle it set"},
    {"topology_missing", "check", "args", "error",
     "a neighbourhood collective on a communicator without a process topology "
     "(MPI_ERR_TOPOLOGY)",
     "call it on a communicator made by MPI_Cart_create, MPI_Graph_create or "
     "MPI_Dist_graph_create(_adjacent)"},
    {"op_type_mismatch", "check", "args", "error",
     "a reduction op not defined for its datatype (MPI 3.1 §5.9.2)",
     "use an op defined for the datatype, or a user-defined op"},
    {"rma_access_outside_epoch", "check", "rma", "error",
     "a one-sided access (Put, Get, Accumulate...) outside any epoch on its window, or a flush "
     "outside a passive-target epoch of its target",
     "open an epoch first: MPI_Win_fence, MPI_Win_start, MPI_Win_lock or MPI_Win_lock_all (a "
     "flush needs a lock of its target or MPI_Win_lock_all)"},
    {"rma_epoch_twice", "check", "rma", "error", "an epoch opened while the same one is open",
     "close the epoch (MPI_Win_complete, MPI_Win_wait, MPI_Win_unlock) before opening it again"},
    {"rma_epoch_unclosed", "check", "rma", "error",
     "an epoch still open when its window is freed or the rank finalizes",
     "close every epoch before MPI_Win_free"},
    {"rma_close_without_open", "check", "rma", "error",
     "an epoch closed that was never opened (unlock without lock, complete without start, wait "
     "without post)",
     "pair each closing call with its opening one on the same window and target"},
    {"rma_conflicting_access", "check", "rma", "error",
     "two one-sided accesses to the same bytes of a target's window in one epoch, or in two "
     "origins' lock epochs nothing orders, one of them a Put or an atomic update with another op",
     "separate the accesses by a synchronization call (fence, unlock, complete; between two "
     "origins' lock epochs a flush, then a message or collective), or use one accumulate op for "
     "both"},
    {"send_buffer_modified", "check", "buffers", "error",
     "a nonblocking send's buffer written before the send completed",
     "leave the buffer alone until MPI_Wait or MPI_Test says the send is complete"},
    {"pending_buffers_overlap", "check", "buffers", "error",
     "a request's buffer shares bytes with a pending receive's",
     "give each pending receive bytes of its own until MPI_Wait or MPI_Test completes it"},
    {"request_not_completed", "check", "lifecycle", "error",
     "requests still active when the rank reached MPI_Finalize",
     "complete every request (MPI_Wait, MPI_Test) or free it before MPI_Finalize"},
    {"request_not_freed", "check", "lifecycle", "note", "persistent requests never freed",
     "free persistent requests with MPI_Request_free when done"},
    {"request_started_twice", "check", "lifecycle", "error",
     "a persistent request started while still active",
     "complete a persistent request before starting it again (MPI 3.1 §3.9)"},
    {"communicator_leak", "check", "lifecycle", "note", "communicators never freed",
     "free every communicator made (MPI_Comm_free) when done with it"},
    {"lost_message", "check", "lifecycle", "error",
     "messages sent to a rank that finalized without receiving them",
     "post a matching receive for every message, or do not send it"},
    {"no_finalize", "check", "lifecycle", "error", "a rank exited without calling MPI_Finalize",
     "call MPI_Finalize on every rank before it exits"},
    {"call_after_finalize", "check", "lifecycle", "error",
     "an MPI call after the rank's MPI_Finalize, which only MPI_Initialized, MPI_Finalized, "
     "MPI_Get_version, MPI_Get_library_version and the info and error-string calls may follow",
     "make every MPI call before MPI_Finalize (MPI-4.0 §11.4.1, Table 11.1)"},
    {"mpi_error", "check", "args", "error",
     "the MPI library raised an error under MPI_ERRORS_ARE_FATAL and aborted the job",
     "fix the call's arguments as the MPI error class says, or handle errors with "
     "MPI_ERRORS_RETURN"},
    {"message_race", "check", "races", "warning",
     "a wildcard receive that more than one send could match: the result depends on timing",
     "receive from a named source, or use distinct tags, unless every order is correct"},
    {"window_leak", "check", "lifecycle", "note", "windows never freed",
     "free every window made (MPI_Win_free) when done with it"},
    {"group_leak", "check", "lifecycle", "note", "groups never freed",
     "free every group made (MPI_Group_free), including those of MPI_Comm_group"},
    {"datatype_leak", "check", "lifecycle", "note", "derived datatypes never freed",
     "free every datatype made (MPI_Type_free), including those other types were built from"},
    {"op_leak", "check", "lifecycle", "note", "reduction ops never freed",
     "free every op made (MPI_Op_free) when done with it"},
    {"info_leak", "check", "lifecycle", "note", "info objects never freed",
     "free every info made (MPI_Info_free) once the calls it was passed to have returned"},
    {"errhandler_leak", "check", "lifecycle", "note", "error handlers never freed",
     "free every error handler made (MPI_Errhandler_free) once it is set where it is needed"},
    {"workaround", "protect", "protect", "note", "a call site mpiguard protects at run time",
     "fix the call site so the workaround is not needed"},
    {"scaling_trigger", "protect", "protect", "warning",
     "a call whose arguments break past a process count",
     "run with `mpiguard protect` or fix the argument's arithmetic"},
    {"concolic_bug", "concolic", "concolic", "error",
     "an input and process count that make the program fail",
     "rerun the saved test case and fix the failing path"},
    {"collective_failure", "collectives", "collectives", "warning",
     "a collective algorithm of the MPI library fails at this size",
     "select another algorithm for this collective, as the report names"},
};

enum { NCLASSES = sizeof classes / sizeof *classes };

const report_class *report_class_find(const char *name)
{
    for (size_t i = 0; i < NCLASSES; i++)
        if (strcmp(classes[i].name, name) == 0)
            return &classes[i];
    return NULL;
}

const report_class *report_class_at(size_t i)
{
    return i < NCLASSES ? &classes[i] : NULL;
}

size_t report_class_count(void)
{
    return NCLASSES;
}

static const char *names[NCLASSES + 1];

static void fill_names(void)
{
    for (size_t i = 0; i < NCLASSES; i++)
        names[i] = classes[i].name;
}

const char *const *report_class_names(void)
{
    static once_flag filled = ONCE_FLAG_INIT;
    call_once(&filled, fill_names);
    return names;
}

/* Sets selected[i] to `value` for each of check's classes that `word` names (a group, a class or
 * "all"); returns how many it named. */
static int mark(const char *word, size_t len, unsigned char value, unsigned char *selected)
{
    int named = 0;
    for (size_t i = 0; i < NCLASSES; i++) {
        const report_class *c = &classes[i];
        if (strcmp(c->tool, "check") != 0)
            continue;
        if ((len == 3 && strncmp(word, "all", 3) == 0) ||
            (strlen(c->group) == len && strncmp(c->group, word, len) == 0) ||
            (strlen(c->name) == len && strncmp(c->name, word, len) == 0)) {
            selected[i] = value;
            named++;
        }
    }
    return named;
}

/* "deadlock, collective, ...": check's groups, each once, in the table's order. */
static void list_groups(char *out, size_t outlen)
{
    size_t n = 0;
    out[0] = '\0';
    for (size_t i = 0; i < NCLASSES && n < outlen; i++) {
        if (strcmp(classes[i].tool, "check") != 0)
            continue;
        size_t first = 0;
        while (strcmp(classes[first].group, classes[i].group) != 0)
            first++;
        if (first == i)
            n += (size_t)snprintf(out + n, outlen - n, "%s, ", classes[i].group);
    }
}

int report_class_select(const char *spec, unsigned char *selected, size_t nselected, char *err,
                        size_t errlen)
{
    if (nselected < NCLASSES) {
        snprintf(err, errlen, "room for %zu classes, not %d", nselected, NCLASSES);
        return MG_ERROR_EINVAL;
    }
    memset(selected, 0, nselected);
    if (spec[0] == '-')
        mark("all", 3, 1, selected);
    for (const char *word = spec; *word;) {
        size_t len = strcspn(word, ",");
        int leave_out = word[0] == '-';
        if (!mark(word + leave_out, len - (size_t)leave_out, !leave_out, selected)) {
            char groups[256];
            list_groups(groups, sizeof groups);
            snprintf(err, errlen,
                     "--checks: '%.*s' is neither a group of checks (%sall) nor a class of check "
                     "(docs/check.md lists them)",
                     (int)(len - (size_t)leave_out), word + leave_out, groups);
            return MG_ERROR_EINVAL;
        }
        word += len + (word[len] == ',');
    }
    return MG_ERROR_OK;
}

int report_class_selected(const unsigned char *selected, const char *name)
{
    const report_class *c = report_class_find(name);
    return c ? selected[c - classes] : 1;
}

void report_class_list(const unsigned char *selected, int want, char *out, size_t outlen)
{
    size_t n = 0;
    out[0] = '\0';
    for (size_t i = 0; i < NCLASSES && n < outlen; i++)
        if (strcmp(classes[i].tool, "check") == 0 && !selected[i] == !want)
            n += (size_t)snprintf(out + n, outlen - n, "%s%s", n ? ", " : "", classes[i].name);
}
