/* Process exits from the kernel's process events connector (proc_exits.h). */
#include "proc_exits.h"

#include "mg_error.h"

#include <errno.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>
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
};

struct proc_exits {
    int fd;
    int n;
    struct watched *procs;
};

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
    return send(fd, &request, sizeof request, 0) == (ssize_t)sizeof request ? MG_OK : MG_ESYS;
}

int proc_exits_open(int npids, proc_exits **out)
{
    if (npids <= 0 || !out)
        return MG_EINVAL;
    proc_exits *e = calloc(1, sizeof *e);
    struct watched *procs = calloc((size_t)npids, sizeof *procs);
    if (!e || !procs) {
        free(e);
        free(procs);
        return MG_ENOMEM;
    }
    int fd = socket(PF_NETLINK, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, NETLINK_CONNECTOR);
    struct sockaddr_nl address = {.nl_family = AF_NETLINK, .nl_groups = CN_IDX_PROC};
    int size = RECEIVE_BUFFER;
    int rc = fd < 0 || bind(fd, (struct sockaddr *)&address, sizeof address) ? MG_ESYS : MG_OK;
    if (rc == MG_OK && setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof size) != 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
    if (rc == MG_OK)
        rc = subscribe(fd, PROC_CN_MCAST_LISTEN);
    if (rc != MG_OK) {
        /* the refusal comes from bind or send, as EPERM; keep errno for MG_ESYS */
        int err = errno;
        if (fd >= 0)
            close(fd);
        free(e);
        free(procs);
        errno = err;
        return err == EPERM || err == EACCES ? MG_EPERM : rc;
    }
    *e = (proc_exits){.fd = fd, .n = npids, .procs = procs};
    *out = e;
    return MG_OK;
}

void proc_exits_close(proc_exits *e)
{
    if (!e)
        return;
    subscribe(e->fd, PROC_CN_MCAST_IGNORE);
    close(e->fd);
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
            if (code && !w->thread_code)
                *w = (struct watched){
                    .pid = w->pid, .thread_code = code, .thread_when_ns = event->timestamp_ns};
            return 0;
        }
        bool thread_first = w->thread_code == code && w->thread_when_ns < event->timestamp_ns;
        *w = (struct watched){.pid = w->pid,
                              .seen = true,
                              .wait_status = code,
                              .when_ns = thread_first ? w->thread_when_ns : event->timestamp_ns};
        return 1;
    }
    return 0;
}

int proc_exits_poll(proc_exits *e)
{
    if (!e)
        return MG_EINVAL;
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
    return dropped ? MG_EFULL : recorded;
}

bool proc_exits_status(const proc_exits *e, int i, int *wait_status, uint64_t *when_ns)
{
    if (!e || i < 0 || i >= e->n || !e->procs[i].seen)
        return false;
    *wait_status = e->procs[i].wait_status;
    *when_ns = e->procs[i].when_ns;
    return true;
}
