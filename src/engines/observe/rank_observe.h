/* Whether mpiguard observes a rank, and if not, the likely cause: a pure decision over what /proc
 * showed of the rank (rank_observe_sight, read by src/agent/rank_sight.c) and what the rank
 * published (its state segment or event ring), so tests drive every case without processes
 * (docs/architecture.md, "Never blind in silence"). */
#ifndef MG_RANK_OBSERVE_H
#define MG_RANK_OBSERVE_H

#include <stddef.h>
#include <stdint.h>

#include "mg_mpi_flavor.h"

/* What /proc showed of a rank's process. */
typedef struct rank_observe_sight {
    int read;                  /* the process was read (the fields below are valid) */
    int preload_set;           /* LD_PRELOAD is in its environment */
    int preload_names_library; /* ... and names mpiguard's interposition library */
    int library_mapped;        /* mpiguard's interposition library is mapped */
    int static_binary;         /* its executable has no ELF interpreter */
    int binary_defines_mpi;    /* its executable defines MPI_Init or PMPI_Init itself */
    mg_mpi_flavor mapped_mpi;  /* the flavour of the libmpi it maps; UNKNOWN: none */
    char binding[64];  /* a mapped MPI language-binding library (libmpi_mpifh.so.40), or "" */
    char preload[256]; /* its LD_PRELOAD, cut to fit */
    int other_node;    /* it has a hostname of its own (another UTS namespace): another node, or
                          a container, whose shared memory this process does not see */
    /* it interprets a script (a #! file its command line names), or a process of its rank above
     * it does: a wrapper between the launcher and the program, which all of the above describes,
     * not the program it may exec */
    int script;
    char exe[256]; /* its executable's path: another than at the last reading is an exec */
} rank_observe_sight;

typedef enum rank_observe_cause {
    RANK_OBSERVE_PENDING = 0,        /* too early to tell */
    RANK_OBSERVE_OK,                 /* its MPI_Init reached mpiguard (by stacks: MPI is in it) */
    RANK_OBSERVE_PRELOAD_REPLACED,   /* LD_PRELOAD without mpiguard's library */
    RANK_OBSERVE_LIBRARY_NOT_LOADED, /* named in LD_PRELOAD but not mapped */
    RANK_OBSERVE_STATIC_BINARY,      /* no dynamic loader: LD_PRELOAD is ignored */
    RANK_OBSERVE_NOT_MPI,            /* no MPI library mapped and none linked in */
    RANK_OBSERVE_OTHER_MPI,          /* a libmpi of another flavour than the library's */
    RANK_OBSERVE_UNWRAPPED_BINDING,  /* a language binding that calls PMPI_* past the wrappers */
    RANK_OBSERVE_UNKNOWN_INTERFACE,  /* interposed and linked to MPI, yet no call reached a wrapper
                                      */
    RANK_OBSERVE_VANISHED,           /* ended before it could be read (or before its loader was
                                      done) or publish anything */
    RANK_OBSERVE_OTHER_NODE,         /* on another node: what it published is out of sight */
    RANK_OBSERVE_AGENT_LOST,         /* on another node, whose agent was lost while it ran (never
                                      decided here: the tool that lost the agent says it) */
    RANK_OBSERVE_NOT_FOUND,          /* on another node, and no agent found it while the job ran
                                      (decided by rank_observe_unfound) */
    RANK_OBSERVE_STOPPED_BEFORE_INIT /* the tool stopped the job (for another rank) before this one
                                      published: nothing of it was checked, and nothing shows it
                                      could not have been (rank_observe_stopped) */
} rank_observe_cause;

/* A rank found but with nothing published is given this long for its loader to finish and its
 * /proc readings to settle (a wrapper script execs the program) before a cause read from /proc
 * counts. */
#define RANK_OBSERVE_SETTLE_S 2.0
/* ... and this long to publish after a sibling did: MPI_Init ends at about the same time in every
 * rank, but a loaded node spreads it by seconds. */
#define RANK_OBSERVE_INIT_GRACE_S 8.0
/* ... and this long after it was found, when no sibling published but a language binding is
 * mapped: every rank may be in a slow MPI_Init (an oversubscribed launch takes 6-10 s here). */
#define RANK_OBSERVE_BINDING_GRACE_S 15.0
/* A rank still interpreting a script (a wrapper that sleeps, loads modules, stages files before it
 * execs the program) is named by what /proc shows only this long after it was found, or
 * RANK_OBSERVE_INIT_GRACE_S after a sibling published, whichever comes first: a wrapper that
 * never execs an MPI program is named then, or at its end. */
#define RANK_OBSERVE_SCRIPT_S 15.0

/* Across nodes, a rank that no agent found (its node has none, or its process lost mpiguard's
 * marks to a wrapper) is given this long, counted from when the job's size is known (a rank
 * published) and from when the last agent expected joined: by then the launchers started every
 * rank and agent, and an agent finds its node's ranks at its first scans of /proc (a rank a slow
 * wrapper starts 1 s late is found well within it). */
#define RANK_OBSERVE_UNFOUND_S 15.0
/* ... and this long while the agents' HELLOs say ranks are still to come (rank_observe_to_come):
 * an agent its launcher started late (a node slow to start it, a step queued behind the job's),
 * which cannot be told apart from a node without an agent until then. */
#define RANK_OBSERVE_ANNOUNCED_S 60.0

/* Whether a rank no agent found is not observed now (RANK_OBSERVE_NOT_FOUND), from the seconds
 * since the job's size became known and since the last agent expected joined, each < 0 while not so
 * yet (an agent still expected), and the ranks still to come by the agents' counts
 * (rank_observe_to_come): with any, the bound is RANK_OBSERVE_ANNOUNCED_S. */
int rank_observe_unfound(double world_known_for, double agents_joined_for, int32_t to_come);

/* One agent that joined, as the detector knows it: the ranks its launcher started on its node, as
 * its HELLO said (0: not said, or no HELLO yet), the ranks it named (sent a verdict on), and
 * whether its stream closed (it names no more). */
typedef struct rank_observe_agent {
    int32_t announced, named;
    int gone;
} rank_observe_agent;

/* How many of a job of `world` ranks are still to come from the n agents that joined: those an
 * agent still streaming announced and has not named, and, when every agent that named ranks
 * announced its count, those no joined agent accounts for (an agent not joined yet brings them). */
int32_t rank_observe_to_come(int32_t world, const rank_observe_agent *agents, int n);

/* The verdict on a rank the tool's own stop of the job ended before it published, given cause,
 * the verdict its process would get had it ended by itself: a cause only elimination gives
 * (UNKNOWN_INTERFACE, UNWRAPPED_BINDING: no call reached mpiguard in time) is not founded when the
 * rank's time was cut short, most often in MPI_Init while another rank was named, nor is VANISHED
 * (never read, or read only before its loader was done); a cause /proc shows for certain stays. */
rank_observe_cause rank_observe_stopped(rank_observe_cause cause);

typedef struct rank_observe_input {
    const rank_observe_sight *sight; /* the latest reading of its process */
    mg_mpi_flavor expected;          /* the MPI of the interposition library the job got */
    int published; /* its interposition library started (state segment, event ring): only
                      mpiguard's own MPI_Init wrappers (C or Fortran) start it, once the MPI's
                      MPI_Init returned, so the rank is observed from then on, computing or not */
    double sibling_published_for; /* seconds since another rank first published; < 0: none has */
    double age;                   /* seconds since found running its current executable */
    int ended;                    /* its process is gone: decide on what was seen */
    int stopped;                  /* ... because the tool stopped the job (rank_observe_stopped) */
    int by_stack;                 /* read by its stacks alone (ptrace, no interposition library):
                                     observed when it maps an MPI library or defines MPI itself */
    int node_agents;              /* across nodes: a rank on another node is its node's agent's to
                                     judge, NOT_FOUND if none did by the job's end */
} rank_observe_input;

/* The verdict on one rank now. PENDING until the evidence is enough; a blind verdict once given
 * stays the caller's to keep. */
rank_observe_cause rank_observe_decide(const rank_observe_input *in);

/* The cause's name in reports ("observed", "preload_replaced", ...). */
const char *rank_observe_cause_name(rank_observe_cause cause);

/* One sentence naming the problem and its likely origin, for a person, into buf. */
void rank_observe_explain(const rank_observe_input *in, rank_observe_cause cause, char *buf,
                          size_t len);

#endif
