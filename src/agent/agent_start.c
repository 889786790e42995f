/* Starting a tool's per-node agents (agent_start.h). */
#include "agent_start.h"

#include "launcher.h"
#include "mg_env.h"
#include "mg_error.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

enum { MAX_LAUNCHER_WORDS = 32, MAX_AGENT_WORDS = 32 };

int agent_start_secret(uint8_t secret[AGENT_PROTO_SECRET_BYTES])
{
    char hex[2 * AGENT_PROTO_SECRET_BYTES + 1];
    int rc = agent_proto_secret_new(secret);
    if (rc != MG_ERROR_OK)
        return rc;
    agent_proto_secret_format(secret, hex);
    return setenv(MG_ENV_AGENT_SECRET, hex, 1) == 0 ? MG_ERROR_OK : MG_ERROR_ENOMEM;
}

int agent_start_self(char *out, size_t outlen)
{
    ssize_t n = readlink("/proc/self/exe", out, outlen);
    if (n <= 0)
        return MG_ERROR_ESYS;
    if ((size_t)n >= outlen)
        return MG_ERROR_ERANGE;
    out[n] = '\0';
    return MG_ERROR_OK;
}

/* Whether addr is an address of an interface of this node that is up, not the loopback. */
static int own_address(const struct ifaddrs *list, struct in_addr addr, struct in_addr *first)
{
    int own = 0;
    first->s_addr = htonl(INADDR_ANY);
    for (const struct ifaddrs *i = list; i; i = i->ifa_next) {
        if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET || !(i->ifa_flags & IFF_UP) ||
            (i->ifa_flags & IFF_LOOPBACK))
            continue;
        struct in_addr a = ((const struct sockaddr_in *)i->ifa_addr)->sin_addr;
        if (first->s_addr == htonl(INADDR_ANY))
            *first = a;
        own |= a.s_addr == addr.s_addr;
    }
    return own;
}

/* This node's address for the other nodes (agent_start_listen). */
static int node_address(char *out, size_t outlen)
{
    char host[256] = "";
    struct in_addr named = {htonl(INADDR_ANY)}, first;
    struct addrinfo hints = {.ai_family = AF_INET, .ai_socktype = SOCK_STREAM}, *res;
    if (gethostname(host, sizeof host - 1) == 0 && getaddrinfo(host, NULL, &hints, &res) == 0) {
        named = ((const struct sockaddr_in *)res->ai_addr)->sin_addr;
        freeaddrinfo(res);
    }
    struct ifaddrs *list;
    if (getifaddrs(&list) != 0)
        return MG_ERROR_ESYS;
    struct in_addr use = own_address(list, named, &first) ? named : first;
    freeifaddrs(list);
    if (use.s_addr == htonl(INADDR_ANY))
        return MG_ERROR_ENOENT;
    return inet_ntop(AF_INET, &use, out, (socklen_t)outlen) ? MG_ERROR_OK : MG_ERROR_ERANGE;
}

int agent_start_listen(int local, int nonblocking, char *address, size_t addresslen, char *err,
                       size_t errlen)
{
    char host[INET_ADDRSTRLEN] = "127.0.0.1";
    if (!local && node_address(host, sizeof host) != MG_ERROR_OK) {
        snprintf(err, errlen,
                 "this node has no address other nodes can reach (no interface up "
                 "but the loopback)");
        return -1;
    }
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | (nonblocking ? SOCK_NONBLOCK : 0), 0);
    struct sockaddr_in sa = {.sin_family = AF_INET,
                             .sin_addr.s_addr = htonl(local ? INADDR_LOOPBACK : INADDR_ANY)};
    socklen_t len = sizeof sa;
    if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(fd, 128) != 0 ||
        getsockname(fd, (struct sockaddr *)&sa, &len) != 0) {
        snprintf(err, errlen, "cannot listen for the agents: %s", strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    snprintf(address, addresslen, "%s:%d", host, ntohs(sa.sin_port));
    return fd;
}

int agent_start_launch(const char *agent_launcher, char *const *agent_argv, job_handle **out,
                       char *err, size_t errlen)
{
    char *argv[MAX_LAUNCHER_WORDS + 2 + MAX_AGENT_WORDS + 1], words[1024];
    int argc = 0;
    if (agent_launcher) {
        snprintf(words, sizeof words, "%s", agent_launcher);
        for (char *w = strtok(words, " "); w; w = strtok(NULL, " ")) {
            if (argc == MAX_LAUNCHER_WORDS) {
                snprintf(err, errlen, "the agent launcher has more than %d words",
                         MAX_LAUNCHER_WORDS);
                return MG_ERROR_ERANGE;
            }
            argv[argc++] = w;
        }
    }
    int launcher_words = argc;
    for (int i = 0; agent_argv[i] && i < MAX_AGENT_WORDS; i++)
        argv[argc++] = agent_argv[i];
    argv[argc] = NULL;
    if (launcher_words > 0) {
        launcher l;
        int rc = launcher_identify(argv, argc, &l, err, errlen);
        if (rc != MG_ERROR_OK)
            return rc;
        if (l.kind == LAUNCHER_OPENMPI) {
            memmove(argv + 3, argv + 1, (size_t)argc * sizeof *argv);
            argv[1] = "-x";
            argv[2] = MG_ENV_AGENT_SECRET;
        }
    }
    return job_start(argv, NULL, out, err, errlen);
}
