/* One process of the tree of detectors: children's frames in, one stream out. */
#include "tbon_stage.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent_proto.h"
#include "check_event.h"
#include "mg_error.h"
#include "record_stream.h"

/* Bytes gathered before one write to the parent, at most (each round of reads writes what it
 * passed up). */
#define STAGE_OUT_BATCH (256u << 10)

typedef struct stage {
    int output;
    agent_proto_buf out;  /* frames not written yet */
    agent_proto_buf ends; /* END frames, held until the stage ends */
    tbon_leaf *leaf;
    const tbon_stage_params *params;
    const int32_t *share; /* the share, once known (tbon_stage_params) */
    int32_t count;
    int32_t *block;     /* with shares > 0: the share, made at the WORLD frame */
    uint8_t *ended;     /* per place in the share: an END frame came */
    uint8_t *done;      /* per input: its DONE frame came */
    uint8_t *finished;  /* per input: its DONE frame came, or it closed */
    uint64_t *answered; /* per input: the COMPLETED frames written to it */
    /* per input: 1 + the COMPLETED frames it had read when it last said ENDED (0: not said). It
     * ended after its last answer only when that is every answer written: an ENDED it wrote before
     * reading an answer may arrive after the answer left */
    uint64_t *ended_after;
    uint64_t answers_heard; /* COMPLETED frames read from the parent */
    int sent_ended;         /* this stage said ENDED to its parent */
    int no_more;            /* no further answer comes from above (NO_MORE, or none can) */
    int *answers_out; /* per input: tbon_stage_params.answers_out, -1 once that child went away */
} stage;

static int append_frame(agent_proto_buf *b, agent_proto_msg_type type, const uint8_t *payload,
                        size_t len)
{
    uint8_t header[AGENT_PROTO_FRAME_HEADER];
    agent_proto_frame_header_put(header, type, (uint32_t)len);
    int rc = agent_proto_put_bytes(b, header, sizeof header);
    return rc ? rc : agent_proto_put_bytes(b, payload, len);
}

static int write_out(stage *s)
{
    int rc = agent_proto_send(s->output, &s->out);
    s->out.len = 0;
    return rc;
}

static int pass_up(void *ctx, const uint8_t *record, size_t len, const int32_t *summary,
                   int32_t n_summary)
{
    stage *s = ctx;
    int rc;
    (void)summary; /* the parent knows the share a summary of this stream stands for */
    if (n_summary) {
        uint8_t frame[AGENT_PROTO_FRAME_HEADER + 4 + CHECK_EVENT_HEADER_SIZE];
        size_t n = record_stream_summary(frame, sizeof frame, n_summary, record, len);
        rc = n ? agent_proto_put_bytes(&s->out, frame, n) : MG_ERROR_EINVAL;
    } else {
        rc = append_frame(&s->out, AGENT_PROTO_MSG_RECORD, record, len);
    }
    return rc || s->out.len < STAGE_OUT_BATCH ? rc : write_out(s);
}

/* A frame of input i. */
static int on_frame(stage *s, int i, const agent_proto_frame *f, char *err, size_t errlen)
{
    if (f->type == AGENT_PROTO_MSG_WORLD) {
        int32_t rank, world;
        uint64_t wide;
        int rc = record_stream_parse_pair(f, &rank, &world, &wide);
        if (rc || s->leaf) {
            return rc;
        }
        if (s->params->shares && !s->share) {
            int first, end;
            check_agent_share_range(world, s->params->share, s->params->shares, &first, &end);
            s->count = end - first;
            s->block = malloc(s->count > 0 ? (size_t)s->count * sizeof *s->block : 1);
            s->ended = calloc(s->count > 0 ? (size_t)s->count : 1, 1);
            for (int32_t k = 0; s->block && k < s->count; k++) {
                s->block[k] = first + k;
            }
            s->share = s->block;
        }
        rc = s->ended && s->share
                 ? tbon_leaf_create(world, s->share, s->count, pass_up, s, &s->leaf)
                 : MG_ERROR_ENOMEM;
        if (rc) {
            snprintf(err, errlen, "a share of %d ranks (%d-%d) does not fit a job of %d ranks",
                     s->count, s->count > 0 ? s->share[0] : 0,
                     s->count > 0 ? s->share[s->count - 1] : 0, world);
            return rc;
        }
        return append_frame(&s->out, f->type, f->payload, f->length);
    }
    if (f->type == AGENT_PROTO_MSG_RECORD || f->type == AGENT_PROTO_MSG_SUMMARY) {
        size_t used, len;
        int32_t ranks;
        const uint8_t *record;
        int rc = s->leaf ? MG_ERROR_OK : MG_ERROR_EFORMAT;
        if (!rc && f->type == AGENT_PROTO_MSG_RECORD) {
            rc = tbon_leaf_feed_bytes(s->leaf, f->payload, f->length, &used);
        } else if (!rc) {
            /* with a share of the world, the one input streams the share */
            const int32_t *child = s->params->shares ? s->share : s->params->input_ranks[i];
            int32_t n = s->params->shares ? s->count : s->params->input_count[i];
            rc = record_stream_parse_summary(f, &ranks, &record, &len);
            rc = rc ? rc : ranks != n ? MG_ERROR_EFORMAT : MG_ERROR_OK;
            rc = rc ? rc : tbon_leaf_feed_summary(s->leaf, record, len, child, n, &used);
        }
        if (rc && rc != MG_ERROR_EIO) {
            snprintf(err, errlen, "a record the stage refused (%s)%s", mg_error_string(rc),
                     s->leaf ? "" : ": it came before the world size");
        }
        return rc;
    }
    int32_t rank, end;
    uint64_t lost;
    int32_t place = -1;
    if (f->type == AGENT_PROTO_MSG_END && !record_stream_parse_pair(f, &rank, &end, &lost) &&
        (place = tbon_leaf_share_place(s->share, s->count, rank)) >= 0) {
        s->ended[place] = 1;
    }
    agent_proto_buf *to = f->type == AGENT_PROTO_MSG_END ? &s->ends : &s->out;
    return append_frame(to, f->type, f->payload, f->length);
}

void tbon_stage_tell_children(const tbon_leaf_call *calls, size_t n, int n_children,
                              const int32_t *const *ranks, const int32_t *count, int *outputs,
                              uint64_t *answered)
{
    for (size_t k = 0; k < n; k++) {
        int i = 0;
        while (i < n_children && tbon_leaf_share_place(ranks[i], count[i], calls[k].rank) < 0) {
            i++;
        }
        uint8_t frame[AGENT_PROTO_FRAME_HEADER + 16];
        size_t len = record_stream_pair(frame, sizeof frame, AGENT_PROTO_MSG_COMPLETED,
                                        calls[k].rank, 0, calls[k].exit_seq);
        if (i < n_children && outputs[i] >= 0 && agent_proto_send_bytes(outputs[i], frame, len)) {
            outputs[i] = -1;
        }
        if (answered && i < n_children && outputs[i] >= 0) {
            answered[i]++;
        }
    }
}

/* Tells each child that waits for answers an empty frame of type: NO_MORE (no further answer
 * comes) or RELEASE. */
static void tell_each_child(stage *s, agent_proto_msg_type type)
{
    uint8_t frame[AGENT_PROTO_FRAME_HEADER];
    agent_proto_frame_header_put(frame, type, 0);
    for (int i = 0; i < s->params->n_inputs; i++) {
        if (s->answers_out[i] >= 0 &&
            agent_proto_send_bytes(s->answers_out[i], frame, sizeof frame)) {
            s->answers_out[i] = -1;
        }
    }
}

/* Sends every held call up, then the END frames held behind them. */
static int release_held(stage *s)
{
    int rc = s->leaf ? tbon_leaf_flush(s->leaf) : MG_ERROR_OK;
    if (!rc && s->ends.len) {
        rc = agent_proto_put_bytes(&s->out, s->ends.data, s->ends.len);
        s->ends.len = 0;
    }
    return rc;
}

/* Reads the parent's answers; *open becomes 0 at their end. */
static int read_answers(stage *s, agent_proto_reader *reader, int *open)
{
    uint8_t chunk[4096];
    ssize_t n = read(s->params->answers_in, chunk, sizeof chunk);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) {
        return MG_ERROR_OK;
    }
    if (n <= 0) {
        *open = 0;
        s->no_more = 1; /* the parent went away: no answer can come */
        return MG_ERROR_OK;
    }
    int rc = agent_proto_reader_push(reader, chunk, (size_t)n);
    agent_proto_frame f;
    char why[200];
    int got;
    while (!rc && (got = agent_proto_reader_next(reader, &f, why, sizeof why)) > 0) {
        int32_t rank, reserved;
        uint64_t exit_seq;
        if (f.type == AGENT_PROTO_MSG_COMPLETED && s->leaf &&
            !record_stream_parse_pair(&f, &rank, &reserved, &exit_seq)) {
            rc = tbon_leaf_completed(s->leaf, rank, exit_seq);
        }
        if (!rc && f.type == AGENT_PROTO_MSG_RELEASE) {
            /* the root waits on a call held below: the quiet time is not waited for */
            rc = release_held(s);
            tell_each_child(s, AGENT_PROTO_MSG_RELEASE);
        }
        s->no_more |= f.type == AGENT_PROTO_MSG_NO_MORE;
        s->answers_heard += f.type == AGENT_PROTO_MSG_COMPLETED;
        /* what the answer let go goes up first: ENDED is said again after it */
        s->sent_ended &= f.type != AGENT_PROTO_MSG_COMPLETED;
    }
    return rc;
}

/* Input i broke off: its ranks without an END frame are lost. */
static int lose_input(stage *s, int i, tbon_stage_result *res)
{
    const tbon_stage_params *p = s->params;
    res->broken_inputs++;
    int rc = MG_ERROR_OK;
    /* with a share of the world, the one input streams the share */
    const int32_t *child = p->shares ? s->share : p->input_ranks[i];
    int32_t count = p->shares ? s->count : p->input_count[i];
    for (int32_t k = 0; !rc && k < count; k++) {
        int32_t r = child[k], place = tbon_leaf_share_place(s->share, s->count, r);
        if (place >= 0 && !s->ended[place]) {
            uint8_t frame[AGENT_PROTO_FRAME_HEADER + 16];
            size_t len = record_stream_pair(frame, sizeof frame, AGENT_PROTO_MSG_END, r,
                                            CHECK_AGENT_LOST, 0);
            rc = agent_proto_put_bytes(&s->ends, frame, len);
        }
    }
    return rc;
}

/* Input i broke off (killed, or malformed): its ranks are lost, or, from a node's agent, the stage
 * (tbon_stage_params.agent_bound). */
static int broken_input(stage *s, int i, tbon_stage_result *res, char *err, size_t errlen)
{
    if (!s->params->agent_bound)
        return lose_input(s, i, res);
    res->broken_inputs++;
    snprintf(err, errlen, "its node's agent was lost");
    return MG_ERROR_ECHILD;
}

/* Reads what input i has; *open becomes 0 at its end. A stream that breaks, or closes without
 * its DONE frame, loses its ranks (broken_input). */
static int read_input(stage *s, int i, agent_proto_reader *reader, int *open,
                      tbon_stage_result *res, char *err, size_t errlen)
{
    int fd = s->params->inputs[i];
    uint8_t chunk[64u << 10];
    ssize_t n = read(fd, chunk, sizeof chunk);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) {
        return MG_ERROR_OK;
    }
    if (n <= 0) {
        *open = 0;
        s->finished[i] = 1; /* a child that died is an end too, its ranks lost */
        s->answers_out[i] = -1;
        return n < 0 || !s->done[i] || agent_proto_reader_partial(reader)
                   ? broken_input(s, i, res, err, errlen)
                   : MG_ERROR_OK;
    }
    int rc = agent_proto_reader_push(reader, chunk, (size_t)n);
    agent_proto_frame f;
    char why[200];
    int got;
    while (!rc && (got = agent_proto_reader_next(reader, &f, why, sizeof why)) != 0) {
        if (got < 0) {
            *open = 0;
            s->finished[i] = 1;
            s->answers_out[i] = -1;
            return broken_input(s, i, res, err, errlen);
        }
        int32_t reserved, unused;
        uint64_t heard;
        if (f.type == AGENT_PROTO_MSG_DONE) {
            s->done[i] = s->finished[i] = 1;
        } else if (f.type == AGENT_PROTO_MSG_ENDED) {
            if (!record_stream_parse_pair(&f, &reserved, &unused, &heard)) {
                s->ended_after[i] = heard + 1;
            }
        } else {
            rc = on_frame(s, i, &f, err, errlen);
        }
    }
    return rc;
}

/* Tells the children what they wait on and writes what went up. Once every child said ENDED after
 * its last answer (or died), the stage says ENDED up, after all it passed; once no answer can come
 * any more (its parent said NO_MORE, went away, or never answers), its children hear NO_MORE after
 * their last answers. */
static int end_round(stage *s, int answers_open)
{
    if (s->leaf) {
        size_t n;
        const tbon_leaf_call *calls = tbon_leaf_take_completed(s->leaf, &n);
        tbon_stage_tell_children(calls, n, s->params->n_inputs, s->params->input_ranks,
                                 s->params->input_count, s->answers_out, s->answered);
    }
    int all_ended = 1;
    for (int i = 0; i < s->params->n_inputs; i++) {
        all_ended &= s->finished[i] || s->ended_after[i] == s->answered[i] + 1;
    }
    int rc = MG_ERROR_OK;
    if (all_ended && !s->sent_ended) {
        uint8_t frame[AGENT_PROTO_FRAME_HEADER + 16];
        size_t len = record_stream_pair(frame, sizeof frame, AGENT_PROTO_MSG_ENDED, -1, 0,
                                        s->answers_heard);
        s->sent_ended = 1;
        rc = agent_proto_put_bytes(&s->out, frame, len);
    }
    s->no_more |= s->sent_ended && !answers_open;
    rc = rc || !s->out.len ? rc : write_out(s);
    if (!rc && s->no_more && s->sent_ended) {
        tell_each_child(s, AGENT_PROTO_MSG_NO_MORE);
        for (int i = 0; i < s->params->n_inputs; i++) {
            s->answers_out[i] = -1; /* said once */
        }
    }
    return rc;
}

static int finish(stage *s)
{
    int rc = release_held(s);
    static const uint8_t no_payload[1];
    rc = rc ? rc : append_frame(&s->out, AGENT_PROTO_MSG_DONE, no_payload, 0);
    return rc ? rc : write_out(s);
}

int tbon_stage_run(const tbon_stage_params *p, tbon_stage_result *out, char *err, size_t errlen)
{
    stage s = {.output = p->output,
               .params = p,
               .share = p->ranks,
               .count = p->count,
               .ended = p->ranks ? calloc(p->count > 0 ? (size_t)p->count : 1, 1) : NULL,
               .done = calloc((size_t)p->n_inputs, 1),
               .finished = calloc((size_t)p->n_inputs, 1),
               .answered = calloc((size_t)p->n_inputs, sizeof *s.answered),
               .ended_after = calloc((size_t)p->n_inputs, sizeof *s.ended_after),
               .answers_out = malloc((size_t)p->n_inputs * sizeof *s.answers_out)};
    /* the inputs, then the parent's answers */
    struct pollfd *fds = calloc((size_t)p->n_inputs + 1, sizeof *fds);
    agent_proto_reader *readers = calloc((size_t)p->n_inputs + 1, sizeof *readers);
    memset(out, 0, sizeof *out);
    int rc = fds && readers && (s.ended || !p->ranks) && s.done && s.finished && s.answered &&
                     s.ended_after && s.answers_out
                 ? MG_ERROR_OK
                 : MG_ERROR_ENOMEM;
    int open = p->n_inputs;
    for (int i = 0; !rc && i <= p->n_inputs; i++) {
        fds[i] = (struct pollfd){.fd = i < p->n_inputs ? p->inputs[i] : p->answers_in,
                                 .events = POLLIN};
        agent_proto_reader_init(&readers[i]);
    }
    for (int i = 0; !rc && i < p->n_inputs; i++) {
        s.answers_out[i] = p->answers_out ? p->answers_out[i] : -1;
    }
    /* until the children's streams closed and no answer can come any more */
    while (!rc && (open > 0 || !(s.no_more && s.sent_ended))) {
        int ready = poll(fds, (nfds_t)p->n_inputs + 1, s.leaf && p->quiet_ms ? p->quiet_ms : -1);
        if (ready < 0 && errno != EINTR) {
            rc = MG_ERROR_EIO;
        }
        if (ready == 0) {
            /* the parent takes a silent stream for a lost one (agent_proto.h) */
            static const uint8_t no_payload[1];
            rc = release_held(&s);
            rc = rc ? rc : append_frame(&s.out, AGENT_PROTO_MSG_ALIVE, no_payload, 0);
        }
        if (!rc && fds[p->n_inputs].fd >= 0 &&
            (fds[p->n_inputs].revents & (POLLIN | POLLHUP | POLLERR))) {
            int still = 1;
            rc = read_answers(&s, &readers[p->n_inputs], &still);
            fds[p->n_inputs].fd = still ? fds[p->n_inputs].fd : -1;
        }
        for (int i = 0; !rc && i < p->n_inputs; i++) {
            int still = 1;
            if (fds[i].fd >= 0 && (fds[i].revents & (POLLIN | POLLHUP | POLLERR))) {
                rc = read_input(&s, i, &readers[i], &still, out, err, errlen);
            }
            if (!still) {
                fds[i].fd = -1;
                open--;
            }
        }
        /* what went up leaves with each round, not only when a batch filled: summaries are small,
         * and the parent's verdict waits for them */
        rc = rc ? rc : end_round(&s, fds[p->n_inputs].fd >= 0);
    }
    rc = rc ? rc : finish(&s);
    if (rc == MG_ERROR_EIO || rc == MG_ERROR_ENOMEM) {
        snprintf(err, errlen, "%s",
                 rc == MG_ERROR_EIO ? "the stage's parent went away" : "no memory");
    }
    if (s.leaf) {
        tbon_leaf_counts_get(s.leaf, &out->counts);
    }
    out->count = s.count;
    out->first = s.count > 0 && s.share ? s.share[0] : 0;
    out->last = s.count > 0 && s.share ? s.share[s.count - 1] : -1;
    for (int i = 0; readers && i <= p->n_inputs; i++) {
        agent_proto_reader_free(&readers[i]);
    }
    free(s.answers_out);
    free(readers);
    free(fds);
    free(s.ended);
    free(s.block);
    free(s.done);
    free(s.finished);
    free(s.answered);
    free(s.ended_after);
    tbon_leaf_destroy(s.leaf);
    agent_proto_buf_free(&s.out);
    agent_proto_buf_free(&s.ends);
    close(p->output);
    return rc;
}
