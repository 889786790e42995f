/* What a detector finding says, as text: its class in the report (report_class.c), the calls it
 * names and its one-line summary. A decision of the engine's, so that every reader of findings
 * (the check CLI, a test, a bench) words them alike. Spec: docs/check.md, "What it finds". */
#ifndef FINDING_TEXT_H
#define FINDING_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "dl_finding.h"

/* The report kind of a detector finding kind ("deadlock", ...). */
const char *finding_text_kind(int kind);
/* The class of f in the report: its kind, or for invalid arguments and lifecycles the problem's own
 * class ("negative_count"). */
const char *finding_text_class(const dl_finding *f);
/* The standard's spelling of function id fn ("MPI_Comm_dup"; the engine says "MPI_COMM_DUP"), in
 * one of four rotating static buffers, enough for one finding: not thread-safe. */
const char *finding_text_function(uint16_t fn);
/* The function a finding names for call c: for handles that leaked, the call that made them. */
const char *finding_text_call_name(const dl_finding_call *c);
/* "MPI_Recv(from 1)", "MPI_Send(to 0)", "MPI_Bcast(root 1)", "MPI_Waitall" into buf (always
 * NUL-terminated). */
void finding_text_call(uint16_t fn, int32_t peer, int32_t root, char *buf, size_t len);
/* f's one-line summary ("ranks 0-1 wait for each other (rank 0 in MPI_Recv(from 1))") into buf
 * (always NUL-terminated, cut to len). */
void finding_text_summary(const dl_finding *f, char *buf, size_t len);

#endif
