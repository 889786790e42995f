/* Internal to src/cli: no other folder includes it (docs/architecture.md). */
/* After the hang watch engine's verdict, the finding from the ranks as the probes read them
 * (hang_probes.h): roll-call, per-rank states and stacks, the merged stack prefix tree
 * (docs/design/hang.md). */
#ifndef MG_HANG_DIAGNOSIS_H
#define MG_HANG_DIAGNOSIS_H

#include "cli.h"
#include "hang_diag.h"
#include "hang_probes.h"
#include "proc_exits.h"

/* Adds the hang finding to s's report and prints its banner and the roll-call. Each
 * rank's state and function are those of the last verification scan (last), which the verdict
 * rests on, so that the report cannot contradict it; its stack is sampled now. detection_time is
 * seconds since the job started; model describes the model (the finding owns it). */
void hang_diagnosis_report(cli_session *s, hang_probes *p, const struct hang_diag_result *result,
                           const int *faulty, const struct hang_diag_rank *last,
                           double detection_time, json_object *model);

/* Adds the finding for dead_rank and prints its banner: its signal or exit status (from exits,
 * NULL when not listening), its last MPI call and what the others were doing; job_ended says the
 * launcher ended the job after it (else the others were left waiting). */
void hang_diagnosis_report_dead_rank(cli_session *s, int dead_rank, const proc_exits *exits,
                                     bool job_ended, double detection_time);

#endif
