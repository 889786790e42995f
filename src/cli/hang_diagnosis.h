/* After the hang model's HANG verdict: the verification scans, the diagnosis (hang_diag engine), and
 * the finding: roll-call, per-rank states and stacks, the merged stack prefix tree (design/hang.md). */
#ifndef MG_HANG_DIAGNOSIS_H
#define MG_HANG_DIAGNOSIS_H

#include "cli.h"
#include "hang_diag.h"
#include "rank_probe.h"

typedef struct hang_probes {
    cli_session *session;
    mg_probe_kind kind;
    mg_rank_probe **probe; /* one per rank, opened on first use */
} hang_probes;

/* Reads rank r now. A rank whose probe cannot be opened yet (it has not published its state, still
 * in MPI_Init) reads as inside MPI; a vanished one as exited. */
void hang_probes_read(hang_probes *p, int r, mg_probe_reading *out);
void hang_probes_close(hang_probes *p);

/* Takes nscans scans of every rank, gap seconds apart (waiting on the job meanwhile) and classifies
 * them. Returns 1 if the job ended during the scans. faulty gets up to nranks ranks. */
int hang_verify(hang_probes *p, int nscans, double gap, struct hang_diag_result *result, int *faulty);

/* Adds the hang finding to the session's report and prints its banner and the roll-call.
 * detection_time is seconds since the job started; model_state and alpha describe the model. */
void hang_report(hang_probes *p, const struct hang_diag_result *result, const int *faulty,
                 double detection_time, json_object *model);

#endif
