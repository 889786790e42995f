/* Exit statuses of processes mpiguard does not own, as the kernel announces them (the process
 * events connector, NETLINK_CONNECTOR/CN_IDX_PROC): a rank's launcher reaps it, so neither waitpid
 * nor /proc can tell afterwards how it ended (docs/hang.md "A rank that dies"). Listening needs
 * CAP_NET_ADMIN in the initial namespaces. Not thread-safe; one object per watch. */
#ifndef PROC_EXITS_H
#define PROC_EXITS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct proc_exits proc_exits;

/* Starts listening for the exits of npids processes (pids may be 0 until known: set them with
 * proc_exits_set_pid). 0 ok; MG_ERROR_EPERM when the kernel refuses (no CAP_NET_ADMIN, a
 * container); MG_ERROR_ESYS on another socket error (errno set); MG_ERROR_ENOMEM. *out is set only
 * on success. */
int proc_exits_open(int npids, proc_exits **out);
void proc_exits_close(proc_exits *e);

/* The process watched at index i is pid (0: none). */
void proc_exits_set_pid(proc_exits *e, int i, int pid);

/* Takes every event announced so far without waiting, recording the first exit of each watched
 * process. Returns the number of watched exits recorded by this call; MG_ERROR_EFULL when the
 * kernel dropped events (a busy machine filled the socket): an exit may be missing then. */
int proc_exits_poll(proc_exits *e);

/* The exit of the process at index i, when seen: its wait status (WIFSIGNALED, WEXITSTATUS apply)
 * and the kernel's time of it (of the first of its threads to end with that status), in ns since
 * boot. Returns false when not seen. */
bool proc_exits_status(const proc_exits *e, int i, int *wait_status, uint64_t *when_ns);

/* The place of the exit of the process at index i among the watched processes' exits, in the
 * order the kernel began them (its per-task exit statistics, taskstats: sent as an exit begins,
 * before the process lets go of its memory, where the exit event above comes at its very end: a
 * peer that fails to reach a killed process, and aborts, can end before the killed one's event,
 * never before its start). Smaller began first. False when not known: not begun yet, a kernel
 * without taskstats, or its records dropped on a busy machine. */
bool proc_exits_order(const proc_exits *e, int i, uint64_t *order);

#endif
