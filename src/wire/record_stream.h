/* The stream a check agent sends the detector (agent_proto.h frames): the same check event
 * records the rings hold, plus the facts only the agent's node knows (resolved call sites, how
 * streams ended, which ranks are still inside their call, whether each of its ranks is observed).
 * A HELLO {AGENT_PROTO_TOOL_CHECK, share u32, shares u32, node name char[RECORD_STREAM_NODE_NAME],
 * node ranks u32 (how many ranks the job's launcher started on the agent's node; 0: it did not
 * say), and from a node's leaf its share: n u32 then n ranks i32, ascending} first, then
 * AGENT_PROTO_MSG_WORLD,
 * _RECORD, _SITE, _END, _STATE and _OBSERVE frames; their payloads are written and read here.
 * docs/design/check.md "How it is built". */
#ifndef MG_RECORD_STREAM_H
#define MG_RECORD_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "agent_proto.h"

/* A node's name in a HELLO: NUL-padded, cut to fit. */
#define RECORD_STREAM_NODE_NAME 64u
/* A HELLO without ranks; one naming n ranks takes 4 + 4n bytes more. */
#define RECORD_STREAM_HELLO_SIZE (AGENT_PROTO_FRAME_HEADER + 16u + RECORD_STREAM_NODE_NAME)
/* The longest detail of an OBSERVE frame. */
#define RECORD_STREAM_DETAIL_MAX 1024u

/* A node agent's verdict on one rank of its node (rank_observe.h's cause, as a number). */
typedef struct record_stream_verdict {
    int32_t rank, pid, world;
    uint32_t cause;
    char detail[RECORD_STREAM_DETAIL_MAX];
} record_stream_verdict;

/* Writing: the helpers append to buf[0..cap) and return the bytes written, 0 when it does not fit.
 */
/* The fields of a HELLO: share `share` of `shares` (a block of the world:
 * check_agent_share_range), or, with n > 0, the n world ranks ranks[] (ascending: any set, a
 * node's ranks) and share a label; node_ranks, the ranks the launcher started on the node (0: not
 * known), which tells the detector how many of the job's ranks are still to come from agents that
 * have not joined (docs/check.md, "Across nodes"). */
typedef struct record_stream_hello_fields {
    uint32_t share, shares, node_ranks;
    char node[RECORD_STREAM_NODE_NAME];
    int32_t *ranks; /* read: malloc'd, NULL for none */
    uint32_t n;
} record_stream_hello_fields;

size_t record_stream_hello(uint8_t *buf, size_t cap, const record_stream_hello_fields *h);
size_t record_stream_frame(uint8_t *buf, size_t cap, agent_proto_msg_type type, const void *payload,
                           uint32_t length);
/* flags of a SITE frame: the line is its procedure's declaration line, not a call's
 * (site_resolver_info.line_is_procedure) */
enum { RECORD_STREAM_SITE_PROCEDURE_LINE = 1 };
size_t record_stream_site(uint8_t *buf, size_t cap, int32_t rank, uint64_t addr,
                          const char *function, const char *file, int32_t line, uint8_t flags);
size_t record_stream_pair(uint8_t *buf, size_t cap, agent_proto_msg_type type, int32_t rank,
                          int32_t value, uint64_t wide);
size_t record_stream_observe(uint8_t *buf, size_t cap, const record_stream_verdict *v);
/* A SUMMARY frame: the sending stage's whole share, `ranks` world ranks (any set: the receiver
 * knows which, from the stream it came on), each entered and left the collective whose encoded
 * entry record is record[0..len) (tbon_leaf.h). */
size_t record_stream_summary(uint8_t *buf, size_t cap, int32_t ranks, const uint8_t *record,
                             size_t len);

/* Reads the fields of HELLO / SITE / END, STATE, WORLD, COMPLETED and ENDED / OBSERVE payloads;
 * a HELLO's ranks (ascending, checked) into h->ranks, the caller's to free (with_ranks 0: not
 * read, h->ranks NULL). Errors: MG_ERROR_EFORMAT (also a HELLO of another tool than check),
 * MG_ERROR_ENOMEM.
 */
int record_stream_parse_hello(const agent_proto_frame *f, record_stream_hello_fields *h,
                              int with_ranks);
int record_stream_parse_site(const agent_proto_frame *f, int32_t *rank, uint64_t *addr,
                             char *function, size_t function_cap, char *file, size_t file_cap,
                             int32_t *line, uint8_t *flags);
int record_stream_parse_pair(const agent_proto_frame *f, int32_t *rank, int32_t *value,
                             uint64_t *wide);
int record_stream_parse_observe(const agent_proto_frame *f, record_stream_verdict *v);
/* Reads a SUMMARY payload: *ranks (> 0), and the record it carries (borrowed from the frame). */
int record_stream_parse_summary(const agent_proto_frame *f, int32_t *ranks, const uint8_t **record,
                                size_t *len);

#endif
