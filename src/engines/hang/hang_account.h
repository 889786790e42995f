/* What the report of a hang says, in words (docs/hang.md "What the report says", "The culprit"):
 * the roll-call of the ranks by what they do, the culprit's chain of evidence and the suggested
 * next step. A decision of the engine's, so that every reader of a verdict words it alike; the
 * caller gathers the ranks' states and puts the words in the report. No I/O. */
#ifndef HANG_ACCOUNT_H
#define HANG_ACCOUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hang_culprit.h"
#include "hang_diag.h"
#include "hang_facts.h"

/* What a rank does, as the report tells it. */
enum hang_account_state {
    HANG_ACCOUNT_IN_MPI,    /* waits in the MPI call `what` */
    HANG_ACCOUNT_COMPUTING, /* computes in `what` (the culprit of a communication hang: inside MPI)
                             */
    HANG_ACCOUNT_EXITED,    /* has exited */
    HANG_ACCOUNT_SLEEPING,  /* outside MPI, sleeping */
    HANG_ACCOUNT_STOPPED,   /* stopped (state T) */
    HANG_ACCOUNT_LOST,      /* not observed: its node's agent stopped answering */
    HANG_ACCOUNT_UNREADABLE /* alive, but its last reading was refused or timed out */
};

struct hang_account_view {
    enum hang_account_state state;
    const char *what; /* the function it is in: MPI's or the application's */
};

/* How the report tells a rank as the last verification scan saw it. */
struct hang_account_rank {
    enum hang_account_state state;
    bool in_mpi;       /* it waits inside MPI: named by its MPI function, else by its own */
    bool culprit;      /* the faulty rank of a communication hang: stopped or spinning in MPI */
    bool ask_process;  /* outside MPI on this node: its process state (running, sleeping,
                          stopped, gone) tells state, which is COMPUTING until the caller reads it */
    const char *label; /* its "state" in the report's "per_rank": IN_MPI, OUT_MPI, EXITED,
                          UNKNOWN (lost) or UNREADABLE */
    struct hang_facts_seen watch; /* what the culprit search takes from the watch */
};

/* Judges rank seen: faulty (the watch named it), polls (its function busy-waits, as MPI_Test),
 * lost (its agent stopped answering), before_init (its stack shows it before MPI_Init, though read
 * as starting), elsewhere (on another node: known by what its agent said alone). */
struct hang_account_rank hang_account_judge(const struct hang_diag_rank *seen, bool faulty,
                                            bool polls, bool lost, bool before_init,
                                            bool elsewhere);

/* The next line of the roll-call of n views, "ranks 0-2,4 wait in MPI_Allreduce": the ranks not
 * yet in done (n bytes, zeroed before the first call) that share the first one's state and
 * function, marked done. Writes it to line (cut to len; group, n of room, is scratch) and returns
 * true, or false when every rank has been told. */
bool hang_account_roll_call(const struct hang_account_view *views, size_t n, char *done, int *group,
                            char *line, size_t len);

/* What a rank's call waits for as it published it (rank_state.h: wait_on, wait_tag). */
struct hang_account_wait {
    uint32_t on; /* RANK_STATE_WAIT_* */
    int tag;
};

/* The culprit search (hang_culprit_find) over n ranks, put in words. */
struct hang_account_chain {
    enum hang_culprit_reason reason;
    int *culprits; /* caller's room for n each: the culprits, */
    size_t nculprits;
    int *direct; /* the ranks whose call waits on one, */
    size_t ndirect;
    int *through; /* and those that wait on these in turn */
    size_t nthrough;
    char text[1024]; /* "ranks 5,7 wait on rank 6 (MPI_Waitall, requests with 6-7); rank 6 is
                        stopped (state T) inside MPI_Waitall"; "" without a culprit */
};

/* Runs the culprit search over facts (n ranks) and words its result with each rank's function as
 * the roll-call names it and its published wait. 0 with a culprit; 1 without one (nculprits 0,
 * text ""); MG_ERROR_ENOMEM. */
int hang_account_chain(const struct hang_culprit_rank *facts, const char *const *functions,
                       const struct hang_account_wait *waits, size_t n,
                       struct hang_account_chain *out);

/* Whether the hang is one of computation (else of communication): the watch said so, or its first
 * faulty rank (faulty[0], nfaulty may be 0) is outside MPI by its facts (n of them), as a rank read
 * as starting whose stack shows it before MPI_Init. */
bool hang_account_computation(const struct hang_diag_result *result, const int *faulty,
                              size_t nfaulty, const struct hang_culprit_rank *facts);

/* How a rank is told when dead_rank died while the job ran: the dead one exited, the others as
 * they were then (a launcher that ends them leaves that in place), in MPI or computing. */
enum hang_account_state hang_account_at_death(int r, int dead_rank, bool in_mpi);

/* Whether rank r is one of the n of ranks. */
bool hang_account_named(const int *ranks, size_t n, int r);

/* In a communication hang with culprits named by the search (named, nnamed > 0, for reason), the
 * search's rules rank the watch's evidence (a stopped rank before one that spins: the master of a
 * master/worker job polls, and spins, while it waits): a faulty rank of the watch told computing
 * that the search does not name, or names as one that waits (behind, waited on: its spin was
 * its wait's busy-polling), is told waiting in MPI; the named ones are told computing when they
 * spin or compute in a handler. The faulty ranks are then the named ones. */
void hang_account_rerank(struct hang_account_view *views, enum hang_culprit_reason reason,
                         const int *faulty, size_t nfaulty, const int *named, size_t nnamed);

/* The report's name of a culprit reason ("stopped", "spinning", ...). */
const char *hang_account_reason_name(enum hang_culprit_reason reason);

/* The suggestion of a hang finding: what the first faulty rank (faulty[0], nfaulty may be 0) does
 * as its view tells it (stopped, computing, waiting), by the hang's type, into text (cut to len).
 */
void hang_account_suggestion(bool computation, const int *faulty, size_t nfaulty,
                             const struct hang_account_view *views, char *text, size_t len);

#endif
