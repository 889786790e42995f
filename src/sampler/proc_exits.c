/* Process exits from the kernel's process events connector (proc_exits.h). */
#include "proc_exits.h"

#include "mg_error.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* Room for the events of a busy machine between two polls (root may exceed rmem_max). */
enum { RECEIVE_BUFFER = 8 << 20 };

struct watched {
    int pid;
    bool seen;
    int wait_status;
    uint64_t when_ns;
    /* The first other thread of the process that ended with a nonzero code, before its leader:
     * a process that dies takes all its threads, each with the leader's code, and whichever
     * goes first marks the death. */
    int thread_code;
    uint64_t thread_when_ns;
    /* Its exit's place in the kernel's order of the starts of the watched exits (taskstats). */
    bool began;
    uint64_t began_order;
};

struct proc_exits {
    int fd;
    int n;
    struct watched *procs;
    int stats_fd;   /* the taskstats listener; -1 without it (the order is then not known) */
    uint64_t began; /* starts of watched exits taken so far */
};

/* Room for RECEIVE_BUFFER bytes of events on fd. */
static void enlarge(int fd)
{
    int size = RECEIVE_BUFFER;
    if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof size) != 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
}

static int subscribe(int fd, enum proc_cn_mcast_op op)
{
    struct __attribute__((packed)) {
        struct nlmsghdr header;
        struct cn_msg message;
        enum proc_cn_mcast_op op;
    } request;
    memset(&request, 0, sizeof request);
    request.header.nlmsg_len = sizeof request;
    request.header.nlmsg_pid = (uint32_t)getpid();
    request.header.nlmsg_type = NLMSG_DONE;
    request.message.id.idx = CN_IDX_PROC;
    request.message.id.val = CN_VAL_PROC;
    request.message.len = sizeof request.op;
    request.op = op;
    return send(fd, &request, sizeof request, 0) == (ssize_t)sizeof request ? MG_ERROR_OK
                                                                            : MG_ERROR_ESYS;
}

/* One generic netlink request: cmd of family with one attribute. */
static int stats_request(int fd, uint16_t family, uint8_t cmd, uint16_t type, const char *value)
{
    struct {
        struct nlmsghdr header;
        struct genlmsghdr genl;
        struct nlattr attr;
        char value[64];
    } request;
    size_t len = strlen(value) + 1;
    memset(&request, 0, sizeof request);
    request.header.nlmsg_len = (uint32_t)NLMSG_LENGTH(GENL_HDRLEN + NLA_HDRLEN + NLA_ALIGN(len));
    request.header.nlmsg_type = family;
    request.header.nlmsg_flags = NLM_F_REQUEST;
    request.genl.cmd = cmd;
    request.genl.version = 1;
    request.attr.nla_type = type;
    request.attr.nla_len = (uint16_t)(NLA_HDRLEN + len);
    memcpy(request.value, value, len);
    return send(fd, &request, request.header.nlmsg_len, 0) == (ssize_t)request.header.nlmsg_len
               ? MG_ERROR_OK
               : MG_ERROR_ESYS;
}

/* The payload of the first attribute of type among the len bytes of attributes at start, and its
 * length in *size; NULL when none. */
static const void *find_attribute(const void *start, int len, uint16_t type, int *size)
{
    for (const struct nlattr *a = start;
         len >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && a->nla_len <= len;
         len -= NLA_ALIGN(a->nla_len), a = (const void *)((const char *)a + NLA_ALIGN(a->nla_len)))
        if (a->nla_type == type) {
            *size = a->nla_len - NLA_HDRLEN;
            return (const char *)a + NLA_HDRLEN;
        }
    return NULL;
}

/* The attribute of type in a generic netlink message; NULL when none. */
static const void *message_attribute(const struct nlmsghdr *h, uint16_t type, int *size)
{
    return find_attribute((const char *)NLMSG_DATA(h) + GENL_HDRLEN,
                          (int)h->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN), type, size);
}

/* The taskstats family's id, from the generic netlink controller's answer; 0 when none. */
static uint16_t stats_family(int fd)
{
    char buffer[4096] __attribute__((aligned(NLMSG_ALIGNTO)));
    if (stats_request(fd, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, CTRL_ATTR_FAMILY_NAME,
                      TASKSTATS_GENL_NAME) != MG_ERROR_OK)
        return 0;
    ssize_t got = recv(fd, buffer, sizeof buffer, 0);
    const struct nlmsghdr *h = (const struct nlmsghdr *)buffer;
    int size = 0;
    const uint16_t *id = got > 0 && NLMSG_OK(h, (int)got) && h->nlmsg_type == GENL_ID_CTRL
                             ? message_attribute(h, CTRL_ATTR_FAMILY_ID, &size)
                             : NULL;
    return id && size >= (int)sizeof *id ? *id : 0;
}

/* Listens for the kernel's per-task exit statistics on every CPU: sent at the start of an exit,
 * before the process lets go of its memory, where the connector's event comes at its very end.
 * -1 where the kernel has none or refuses (the order of the exits is then not known). */
static int open_stats(void)
{
    int fd = socket(PF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
    struct sockaddr_nl address = {.nl_family = AF_NETLINK};
    if (fd < 0)
        return -1;
    char cpus[32];
    snprintf(cpus, sizeof cpus, "0-%ld", sysconf(_SC_NPROCESSORS_CONF) - 1);
    /* the controller's answer is awaited; the exits are then taken without waiting */
    uint16_t family = bind(fd, (struct sockaddr *)&address, sizeof address) ? 0 : stats_family(fd);
    int flags = fcntl(fd, F_GETFL);
    if (family && flags >= 0 && fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0) {
        enlarge(fd);
        if (stats_request(fd, family, TASKSTATS_CMD_GET, TASKSTATS_CMD_ATTR_REGISTER_CPUMASK,
                          cpus) == MG_ERROR_OK)
            return fd;
    }
    close(fd);
    return -1;
}

int proc_exits_open(int npids, proc_exits **out)
{
    if (npids <= 0 || !out)
        return MG_ERROR_EINVAL;
    proc_exits *e = calloc(1, sizeof *e);
    struct watched *procs = calloc((size_t)npids, sizeof *procs);
    if (!e || !procs) {
        free(e);
        free(procs);
        return MG_ERROR_ENOMEM;
    }
    int fd = socket(PF_NETLINK, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, NETLINK_CONNECTOR);
    struct sockaddr_nl address = {.nl_family = AF_NETLINK, .nl_groups = CN_IDX_PROC};
    int rc = fd < 0 || bind(fd, (struct sockaddr *)&address, sizeof address) ? MG_ERROR_ESYS
                                                                             : MG_ERROR_OK;
    if (rc == MG_ERROR_OK)
        enlarge(fd);
    if (rc == MG_ERROR_OK)
        rc = subscribe(fd, PROC_CN_MCAST_LISTEN);
    if (rc != MG_ERROR_OK) {
        /* the refusal comes from bind or send, as EPERM; keep errno for MG_ERROR_ESYS */
        int err = errno;
        if (fd >= 0)
            close(fd);
        free(e);
        free(procs);
        errno = err;
        return err == EPERM || err == EACCES ? MG_ERROR_EPERM : rc;
    }
    *e = (proc_exits){.fd = fd, .n = npids, .procs = procs, .stats_fd = open_stats()};
    *out = e;
    return MG_ERROR_OK;
}

void proc_exits_close(proc_exits *e)
{
    if (!e)
        return;
    subscribe(e->fd, PROC_CN_MCAST_IGNORE);
    close(e->fd);
    if (e->stats_fd >= 0)
        close(e->stats_fd);
    free(e->procs);
    free(e);
}

void proc_exits_set_pid(proc_exits *e, int i, int pid)
{
    if (e && i >= 0 && i < e->n && e->procs[i].pid != pid)
        e->procs[i] = (struct watched){.pid = pid};
}

/* Records the exit of a watched process: the thread group's leader ends the process, with the
 * process's status. Its time is the first of its threads' to end that way: a loaded machine may
 * run the leader's last steps after a launcher has seen the death and killed the other ranks, whose
 * exits then come first (the rank that died first would not be named). */
static int record(proc_exits *e, const struct proc_event *event)
{
    if (event->what != PROC_EVENT_EXIT)
        return 0;
    int tid = event->event_data.exit.process_pid, code = (int)event->event_data.exit.exit_code;
    for (int i = 0; i < e->n; i++) {
        struct watched *w = &e->procs[i];
        if (!w->pid || w->seen || w->pid != event->event_data.exit.process_tgid)
            continue;
        if (tid != w->pid) {
            if (code && !w->thread_code) {
                w->thread_code = code;
                w->thread_when_ns = event->timestamp_ns;
            }
            return 0;
        }
        bool thread_first = w->thread_code == code && w->thread_when_ns < event->timestamp_ns;
        w->seen = true;
        w->wait_status = code;
        w->when_ns = thread_first ? w->thread_when_ns : event->timestamp_ns;
        return 1;
    }
    return 0;
}

/* Takes a task's exit statistics: the first of a watched process's threads to start its exit
 * with a nonzero code (a death takes every thread with the process's code), else its leader,
 * gives the place of the process's exit. */
static void record_start(proc_exits *e, const struct taskstats *stats)
{
    for (int i = 0; i < e->n; i++) {
        struct watched *w = &e->procs[i];
        if (w->pid && !w->began && w->pid == (int)stats->ac_tgid &&
            (stats->ac_exitcode || (int)stats->ac_pid == w->pid)) {
            w->began = true;
            w->began_order = ++e->began;
        }
    }
}

/* Takes the exit statistics announced so far: each message holds a task's pid and stats
 * (TASKSTATS_TYPE_AGGR_PID), and its process's too when it was the last of its threads. */
static void poll_stats(proc_exits *e)
{
    char buffer[16384] __attribute__((aligned(NLMSG_ALIGNTO)));
    ssize_t got;
    while ((got = recv(e->stats_fd, buffer, sizeof buffer, 0)) > 0 ||
           (got < 0 && errno == ENOBUFS)) {
        int len = (int)got, size = 0;
        for (struct nlmsghdr *h = (struct nlmsghdr *)buffer; got > 0 && NLMSG_OK(h, len);
             h = NLMSG_NEXT(h, len)) {
            const void *task = h->nlmsg_type >= NLMSG_MIN_TYPE
                                   ? message_attribute(h, TASKSTATS_TYPE_AGGR_PID, &size)
                                   : NULL;
            const struct taskstats *stats = task ? find_attribute(task, size, TASKSTATS_TYPE_STATS,
                                                                  &size)
                                                 : NULL;
            if (stats && size >= (int)(offsetof(struct taskstats, ac_tgid) + sizeof stats->ac_tgid))
                record_start(e, stats);
        }
    }
}

int proc_exits_poll(proc_exits *e)
{
    if (!e)
        return MG_ERROR_EINVAL;
    if (e->stats_fd >= 0)
        poll_stats(e);
    char buffer[8192] __attribute__((aligned(NLMSG_ALIGNTO)));
    int recorded = 0, dropped = 0;
    for (;;) {
        ssize_t got = recv(e->fd, buffer, sizeof buffer, 0);
        if (got < 0 && errno == ENOBUFS) {
            dropped = 1;
            continue;
        }
        if (got <= 0)
            break;
        int len = (int)got;
        for (struct nlmsghdr *h = (struct nlmsghdr *)buffer; NLMSG_OK(h, len);
             h = NLMSG_NEXT(h, len)) {
            const struct cn_msg *message = NLMSG_DATA(h);
            if (message->id.idx == CN_IDX_PROC && message->len >= sizeof(struct proc_event))
                recorded += record(e, (const struct proc_event *)message->data);
        }
    }
    return dropped ? MG_ERROR_EFULL : recorded;
}

bool proc_exits_status(const proc_exits *e, int i, int *wait_status, uint64_t *when_ns)
{
    if (!e || i < 0 || i >= e->n || !e->procs[i].seen)
        return false;
    *wait_status = e->procs[i].wait_status;
    *when_ns = e->procs[i].when_ns;
    return true;
}

bool proc_exits_order(const proc_exits *e, int i, uint64_t *order)
{
    if (!e || i < 0 || i >= e->n || !e->procs[i].began)
        return false;
    *order = e->procs[i].began_order;
    return true;
}
