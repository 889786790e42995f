/* The verdict every hang detector returns for one observation (ParaStack §3.1;
 * docs/design/hang.md), shared by the model (hang_model.h) and the timeout baseline
 * (hang_timeout.h). */
#ifndef HANG_VERDICT_H
#define HANG_VERDICT_H

enum hang_verdict_kind {
    HANG_VERDICT_BUILDING,   /* too few samples to justify any suspicion threshold yet */
    HANG_VERDICT_NORMAL,     /* the observation is not a suspicion */
    HANG_VERDICT_SUSPICIOUS, /* suspicions of needed so far, in a row */
    HANG_VERDICT_HANG        /* needed suspicions in a row: a hang at the detector's confidence */
};

struct hang_verdict {
    enum hang_verdict_kind kind;
    unsigned suspicions; /* consecutive suspicions including this observation */
    unsigned needed;     /* K: suspicions in a row that make a hang (0 while building or when
                            the model cannot reach its confidence) */
};

#endif
