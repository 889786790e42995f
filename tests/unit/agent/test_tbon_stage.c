/* A stage process's loop (tbon_stage.h) over streams written beforehand into pipes: a child that
 * breaks off inside a malformed frame loses exactly its ranks without an END (each goes up as END
 * CHECK_AGENT_LOST), the other child's records go up, and the stream ends with DONE; the parent's
 * answer lets a held rank's pair be matched, and the stage answers its child in turn; a stage
 * says ENDED once every child ended (a broken one too) and ends its stream only after its parent's
 * NO_MORE (the end-of-stream protocol), and counts a child's ENDED only when the child had read
 * every answer written to it; a node's leaf whose agent breaks off ends, losing its ranks. */
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent_proto.h"
#include "check_event.h"
#include "mg_error.h"
#include "mg_test.h"
#include "record_stream.h"
#include "tbon_stage.h"

/* Appends a frame of a record of rank's call (entry or exit) to buf. */
static size_t put_record(uint8_t *buf, int kind, int32_t rank, uint64_t seq, uint16_t func,
                         int32_t peer)
{
    check_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = (uint8_t)kind;
    ev.rank = rank;
    ev.seq = seq;
    ev.func = func;
    ev.comm = CHECK_EVENT_COMM_WORLD;
    ev.peer = peer;
    ev.root = CHECK_EVENT_NO_ROOT;
    size_t len = 0;
    MG_CHECK_INT(check_event_encode(&ev, buf + AGENT_PROTO_FRAME_HEADER, 512, &len), MG_ERROR_OK);
    agent_proto_frame_header_put(buf, AGENT_PROTO_MSG_RECORD, (uint32_t)len);
    return AGENT_PROTO_FRAME_HEADER + len;
}

/* Reads fd to its end into reader (initialised here) and closes it. */
static void read_all(int fd, agent_proto_reader *reader)
{
    uint8_t buf[4096];
    ssize_t got;
    agent_proto_reader_init(reader);
    while ((got = read(fd, buf, sizeof buf)) > 0) {
        MG_CHECK_INT(agent_proto_reader_push(reader, buf, (size_t)got), MG_ERROR_OK);
    }
    close(fd);
}

static void test_broken_child(void)
{
    int a[2], b[2], up[2];
    MG_CHECK(pipe(a) == 0 && pipe(b) == 0 && pipe(up) == 0);
    uint8_t buf[4096];
    /* child A, ranks 0-1: rank 0 sends to rank 1 (matched in the stage, dropped once both
     * exits came), rank 1 then receives from rank 2, rank 0 finalizes, and the stream ends
     * cleanly */
    size_t n = record_stream_pair(buf, sizeof buf, AGENT_PROTO_MSG_WORLD, -1, 4, 0);
    n += put_record(buf + n, CHECK_EVENT_EV_ENTER, 0, 1, CHECK_EVENT_FN_SEND, 1);
    n += put_record(buf + n, CHECK_EVENT_EV_ENTER, 1, 1, CHECK_EVENT_FN_RECV, 0);
    n += put_record(buf + n, CHECK_EVENT_EV_EXIT, 1, 2, CHECK_EVENT_FN_RECV, CHECK_EVENT_PROC_NULL);
    n += put_record(buf + n, CHECK_EVENT_EV_EXIT, 0, 2, CHECK_EVENT_FN_SEND, CHECK_EVENT_PROC_NULL);
    n += put_record(buf + n, CHECK_EVENT_EV_ENTER, 1, 3, CHECK_EVENT_FN_RECV, 2);
    n += record_stream_pair(buf + n, sizeof buf - n, AGENT_PROTO_MSG_END, 0, CHECK_AGENT_FINALIZED, 0);
    agent_proto_frame_header_put(buf + n, AGENT_PROTO_MSG_DONE, 0);
    n += AGENT_PROTO_FRAME_HEADER;
    MG_CHECK(write(a[1], buf, n) == (ssize_t)n);
    /* child B, ranks 2-3: rank 2 receives from rank 1, then a frame with a bad magic */
    n = record_stream_pair(buf, sizeof buf, AGENT_PROTO_MSG_WORLD, -1, 4, 0);
    n += put_record(buf + n, CHECK_EVENT_EV_ENTER, 2, 1, CHECK_EVENT_FN_RECV, 1);
    memset(buf + n, 0x5A, AGENT_PROTO_FRAME_HEADER);
    n += AGENT_PROTO_FRAME_HEADER;
    MG_CHECK(write(b[1], buf, n) == (ssize_t)n);
    close(a[1]);
    close(b[1]);

    int inputs[] = {a[0], b[0]};
    static const int32_t low[] = {0, 1}, high[] = {2, 3}, share[] = {0, 1, 2, 3};
    const int32_t *ranks[] = {low, high}, count[] = {2, 2};
    tbon_stage_params p = {.inputs = inputs,
                           .input_ranks = ranks,
                           .input_count = count,
                           .n_inputs = 2,
                           .output = up[1],
                           .answers_in = -1,
                           .ranks = share,
                           .count = 4};
    tbon_stage_result res;
    char err[200] = "";
    MG_CHECK_INT(tbon_stage_run(&p, &res, err, sizeof err), MG_ERROR_OK);
    MG_CHECK_INT(res.broken_inputs, 1);
    MG_CHECK_INT(res.counts.records, 6);
    MG_CHECK_INT(res.counts.resolved, 4); /* the send's and the receive's entries and exits */
    close(a[0]);
    close(b[0]);

    agent_proto_reader reader;
    read_all(up[0], &reader);
    agent_proto_frame f;
    int records = 0, worlds = 0, done = 0, lost[4] = {0}, finalized = 0, after_done = 0;
    int ended = 0, records_after_ended = 0;
    while (agent_proto_reader_next(&reader, &f, err, sizeof err) == 1) {
        int32_t rank, value;
        uint64_t wide;
        after_done += done;
        if (f.type == AGENT_PROTO_MSG_ENDED) {
            ended++;
        } else if (f.type == AGENT_PROTO_MSG_RECORD) {
            records++;
            records_after_ended += ended;
        } else if (f.type == AGENT_PROTO_MSG_WORLD) {
            worlds++;
        } else if (f.type == AGENT_PROTO_MSG_DONE) {
            done++;
        } else if (f.type == AGENT_PROTO_MSG_END &&
                   record_stream_parse_pair(&f, &rank, &value, &wide) == MG_ERROR_OK && rank >= 0 &&
                   rank < 4) {
            lost[rank] += value == CHECK_AGENT_LOST;
            finalized += value == CHECK_AGENT_FINALIZED;
        }
    }
    agent_proto_reader_free(&reader);
    MG_CHECK_INT(worlds, 1);
    MG_CHECK_INT(records, 2); /* ranks 1 and 2 receiving from each other, let go at the end */
    MG_CHECK_INT(finalized, 1);
    MG_CHECK(!lost[0] && !lost[1] && lost[2] == 1 && lost[3] == 1);
    MG_CHECK_INT(done, 1);
    MG_CHECK_INT(after_done, 0);
    /* the broken child's end is an end: ENDED once both children ended, and with no parent that
     * answers, the held pair goes up after it and the stream ends */
    MG_CHECK_INT(ended, 1);
    MG_CHECK_INT(records_after_ended, 2);
}

/* Reads frames from fd until one of type comes (*f borrows the reader's bytes). */
static void read_until(int fd, agent_proto_reader *reader, agent_proto_msg_type type, agent_proto_frame *f,
                       int *records)
{
    char err[200];
    for (;;) {
        int got = agent_proto_reader_next(reader, f, err, sizeof err);
        MG_CHECK(got >= 0);
        if (got == 1) {
            *records += f->type == AGENT_PROTO_MSG_RECORD;
            if (f->type == type) {
                return;
            }
            continue;
        }
        uint8_t buf[4096];
        ssize_t n = read(fd, buf, sizeof buf);
        MG_CHECK(n > 0);
        if (n <= 0) {
            return;
        }
        MG_CHECK_INT(agent_proto_reader_push(reader, buf, (size_t)n), MG_ERROR_OK);
    }
}

/* Forks a stage for ranks 0-1 of 4 with one child input and a parent that answers: the test writes
 * the child's stream to in[1], reads what goes up from up[0], answers through from_parent[1] and
 * reads what the stage tells its child from to_child[0]. Returns the stage's pid. */
static pid_t fork_answering_stage(int in[2], int up[2], int from_parent[2], int to_child[2])
{
    MG_CHECK(pipe(in) == 0 && pipe(up) == 0 && pipe(from_parent) == 0 && pipe(to_child) == 0);
    pid_t pid = fork();
    if (pid == 0) {
        static const int32_t share[] = {0, 1};
        const int32_t *ranks[] = {share}, count = 2;
        tbon_stage_params p = {.inputs = &in[0],
                               .input_ranks = ranks,
                               .input_count = &count,
                               .n_inputs = 1,
                               .output = up[1],
                               .answers_in = from_parent[0],
                               .answers_out = &to_child[1],
                               .ranks = share,
                               .count = 2};
        tbon_stage_result res;
        char err[200];
        close(in[1]);
        close(up[0]);
        _exit(tbon_stage_run(&p, &res, err, sizeof err) == MG_ERROR_OK ? 0 : 1);
    }
    close(in[0]);
    close(up[1]);
    close(from_parent[0]);
    close(to_child[1]);
    return pid;
}

/* A stage for ranks 0-1 of 4, fed by a child that waits for answers: rank 0 sends to rank 3 (up,
 * and MPI let it return), rank 1 sends to rank 0, rank 0 receives it. The pair waits behind rank
 * 0's send until the parent answers that it left it; then it is matched in the stage, and the
 * stage tells its child that rank 0's send was left (the parent's answer) and rank 1's (matched
 * here). Only rank 0's send goes up. */
/* The stage of fork_answering_stage exited 0; its readers and pipe ends are let go. */
static void stage_ended(pid_t pid, agent_proto_reader *reader, agent_proto_reader *answers, int up,
                        int from_parent, int to_child)
{
    int status;
    MG_CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    agent_proto_reader_free(reader);
    agent_proto_reader_free(answers);
    close(up);
    close(from_parent);
    close(to_child);
}

static void test_answers(void)
{
    int in[2], up[2], from_parent[2], to_child[2];
    pid_t pid = fork_answering_stage(in, up, from_parent, to_child);
    uint8_t buf[4096];
    size_t n = record_stream_pair(buf, sizeof buf, AGENT_PROTO_MSG_WORLD, -1, 4, 0);
    n += put_record(buf + n, CHECK_EVENT_EV_ENTER, 0, 1, CHECK_EVENT_FN_SEND, 3);
    n += put_record(buf + n, CHECK_EVENT_EV_EXIT, 0, 2, CHECK_EVENT_FN_SEND, CHECK_EVENT_PROC_NULL);
    n += put_record(buf + n, CHECK_EVENT_EV_ENTER, 1, 1, CHECK_EVENT_FN_SEND, 0);
    n += put_record(buf + n, CHECK_EVENT_EV_EXIT, 1, 2, CHECK_EVENT_FN_SEND, CHECK_EVENT_PROC_NULL);
    n += put_record(buf + n, CHECK_EVENT_EV_ENTER, 0, 3, CHECK_EVENT_FN_RECV, 1);
    n += put_record(buf + n, CHECK_EVENT_EV_EXIT, 0, 4, CHECK_EVENT_FN_RECV, CHECK_EVENT_PROC_NULL);
    MG_CHECK(write(in[1], buf, n) == (ssize_t)n);

    agent_proto_reader reader, answers;
    agent_proto_reader_init(&reader);
    agent_proto_reader_init(&answers);
    agent_proto_frame f;
    int records = 0, answer_records = 0;
    while (records < 2) {
        read_until(up[0], &reader, AGENT_PROTO_MSG_RECORD, &f, &records);
    }
    n = record_stream_pair(buf, sizeof buf, AGENT_PROTO_MSG_COMPLETED, 0, 0, 2);
    MG_CHECK(write(from_parent[1], buf, n) == (ssize_t)n);
    for (int32_t want = 0; want < 2; want++) {
        read_until(to_child[0], &answers, AGENT_PROTO_MSG_COMPLETED, &f, &answer_records);
        int32_t rank, reserved;
        uint64_t exit_seq;
        MG_CHECK_INT(record_stream_parse_pair(&f, &rank, &reserved, &exit_seq), MG_ERROR_OK);
        MG_CHECK_INT(rank, want);
        MG_CHECK_INT(exit_seq, 2);
    }

    agent_proto_frame_header_put(buf, AGENT_PROTO_MSG_DONE, 0);
    MG_CHECK(write(in[1], buf, AGENT_PROTO_FRAME_HEADER) == (ssize_t)AGENT_PROTO_FRAME_HEADER);
    close(in[1]);
    /* its child ended: ENDED goes up, and the stage waits for no timer but for NO_MORE */
    read_until(up[0], &reader, AGENT_PROTO_MSG_ENDED, &f, &records);
    struct pollfd quiet = {.fd = up[0], .events = POLLIN};
    MG_CHECK_INT(poll(&quiet, 1, 300), 0); /* no DONE before the parent's NO_MORE */
    agent_proto_frame_header_put(buf, AGENT_PROTO_MSG_NO_MORE, 0);
    MG_CHECK(write(from_parent[1], buf, AGENT_PROTO_FRAME_HEADER) == (ssize_t)AGENT_PROTO_FRAME_HEADER);
    read_until(up[0], &reader, AGENT_PROTO_MSG_DONE, &f, &records);
    MG_CHECK_INT(records, 2);
    stage_ended(pid, &reader, &answers, up[0], from_parent[1], to_child[0]);
}

/* Whether a frame of type comes on fd within ms; the frames before it are read. */
static int comes_within(int fd, agent_proto_reader *reader, agent_proto_msg_type type, int ms)
{
    char err[200];
    for (;;) {
        agent_proto_frame f;
        int got = agent_proto_reader_next(reader, &f, err, sizeof err);
        MG_CHECK(got >= 0);
        if (got == 1) {
            if (f.type == type) {
                return 1;
            }
            continue;
        }
        struct pollfd wait = {.fd = fd, .events = POLLIN};
        uint8_t buf[4096];
        ssize_t n = poll(&wait, 1, ms) == 1 ? read(fd, buf, sizeof buf) : 0;
        if (n <= 0) {
            return 0;
        }
        MG_CHECK_INT(agent_proto_reader_push(reader, buf, (size_t)n), MG_ERROR_OK);
    }
}

/* The interleaving that let most of a leaf's records reach the root on an idle machine: a child
 * says ENDED before it read the answer its parent just wrote, and the parent reads that ENDED
 * after writing the answer. Counted, it made the parent end the tree (NO_MORE) while the answer
 * was still letting the child's records go, so every record held behind a later answer went up
 * unmatched. Here the stage (ranks 0-1) matches rank 0's send to rank 1 and answers its child;
 * the child's ENDED saying it read no answer must not count, its ENDED saying it read one must. */
static void test_ended_before_the_answer(void)
{
    int in[2], up[2], from_parent[2], to_child[2];
    pid_t pid = fork_answering_stage(in, up, from_parent, to_child);
    uint8_t buf[4096];
    size_t n = record_stream_pair(buf, sizeof buf, AGENT_PROTO_MSG_WORLD, -1, 4, 0);
    n += put_record(buf + n, CHECK_EVENT_EV_ENTER, 1, 1, CHECK_EVENT_FN_RECV, 0);
    n += put_record(buf + n, CHECK_EVENT_EV_ENTER, 0, 1, CHECK_EVENT_FN_SEND, 1);
    n += put_record(buf + n, CHECK_EVENT_EV_EXIT, 0, 2, CHECK_EVENT_FN_SEND, CHECK_EVENT_PROC_NULL);
    n += put_record(buf + n, CHECK_EVENT_EV_EXIT, 1, 2, CHECK_EVENT_FN_RECV, CHECK_EVENT_PROC_NULL);
    MG_CHECK(write(in[1], buf, n) == (ssize_t)n);
    agent_proto_reader reader, answers;
    agent_proto_reader_init(&reader);
    agent_proto_reader_init(&answers);
    MG_CHECK(comes_within(to_child[0], &answers, AGENT_PROTO_MSG_COMPLETED, 5000));

    n = record_stream_pair(buf, sizeof buf, AGENT_PROTO_MSG_ENDED, -1, 0, 0);
    MG_CHECK(write(in[1], buf, n) == (ssize_t)n);
    MG_CHECK(!comes_within(up[0], &reader, AGENT_PROTO_MSG_ENDED, 300));
    n = record_stream_pair(buf, sizeof buf, AGENT_PROTO_MSG_ENDED, -1, 0, 1);
    MG_CHECK(write(in[1], buf, n) == (ssize_t)n);
    MG_CHECK(comes_within(up[0], &reader, AGENT_PROTO_MSG_ENDED, 5000));

    agent_proto_frame_header_put(buf, AGENT_PROTO_MSG_NO_MORE, 0);
    MG_CHECK(write(from_parent[1], buf, AGENT_PROTO_FRAME_HEADER) == (ssize_t)AGENT_PROTO_FRAME_HEADER);
    MG_CHECK(comes_within(to_child[0], &answers, AGENT_PROTO_MSG_NO_MORE, 5000));
    agent_proto_frame_header_put(buf, AGENT_PROTO_MSG_DONE, 0);
    MG_CHECK(write(in[1], buf, AGENT_PROTO_FRAME_HEADER) == (ssize_t)AGENT_PROTO_FRAME_HEADER);
    close(in[1]);
    MG_CHECK(comes_within(up[0], &reader, AGENT_PROTO_MSG_DONE, 5000));
    stage_ended(pid, &reader, &answers, up[0], from_parent[1], to_child[0]);
}

/* The root waits for a call a rank published (check_policy_view): rank 1's receive from rank 0,
 * held in the stage (its partner has not come), goes up only when the parent says RELEASE, with no
 * quiet time (this stage has none), and the stage tells its own child RELEASE too. */
static void test_release(void)
{
    int in[2], up[2], from_parent[2], to_child[2];
    pid_t pid = fork_answering_stage(in, up, from_parent, to_child);
    uint8_t buf[4096];
    size_t n = record_stream_pair(buf, sizeof buf, AGENT_PROTO_MSG_WORLD, -1, 4, 0);
    n += put_record(buf + n, CHECK_EVENT_EV_ENTER, 1, 1, CHECK_EVENT_FN_RECV, 0);
    MG_CHECK(write(in[1], buf, n) == (ssize_t)n);
    agent_proto_reader reader, answers;
    agent_proto_reader_init(&reader);
    agent_proto_reader_init(&answers);
    MG_CHECK(!comes_within(up[0], &reader, AGENT_PROTO_MSG_RECORD, 300));
    agent_proto_frame_header_put(buf, AGENT_PROTO_MSG_RELEASE, 0);
    MG_CHECK(write(from_parent[1], buf, AGENT_PROTO_FRAME_HEADER) == (ssize_t)AGENT_PROTO_FRAME_HEADER);
    MG_CHECK(comes_within(up[0], &reader, AGENT_PROTO_MSG_RECORD, 5000));
    MG_CHECK(comes_within(to_child[0], &answers, AGENT_PROTO_MSG_RELEASE, 5000));

    agent_proto_frame_header_put(buf, AGENT_PROTO_MSG_DONE, 0);
    MG_CHECK(write(in[1], buf, AGENT_PROTO_FRAME_HEADER) == (ssize_t)AGENT_PROTO_FRAME_HEADER);
    close(in[1]);
    agent_proto_frame_header_put(buf, AGENT_PROTO_MSG_NO_MORE, 0);
    MG_CHECK(write(from_parent[1], buf, AGENT_PROTO_FRAME_HEADER) == (ssize_t)AGENT_PROTO_FRAME_HEADER);
    MG_CHECK(comes_within(up[0], &reader, AGENT_PROTO_MSG_DONE, 5000));
    stage_ended(pid, &reader, &answers, up[0], from_parent[1], to_child[0]);
}

/* A node's leaf (agent_bound) whose agent breaks off: the stage ends with MG_ERROR_ECHILD, its stream
 * without DONE and without END frames, so its parent loses the leaf's ranks, not ends them. */
static void test_agent_bound(void)
{
    int in[2], up[2];
    MG_CHECK(pipe(in) == 0 && pipe(up) == 0);
    uint8_t buf[4096];
    size_t n = record_stream_pair(buf, sizeof buf, AGENT_PROTO_MSG_WORLD, -1, 4, 0);
    n += put_record(buf + n, CHECK_EVENT_EV_ENTER, 0, 1, CHECK_EVENT_FN_SEND, 1);
    MG_CHECK(write(in[1], buf, n) == (ssize_t)n);
    close(in[1]);
    int inputs[] = {in[0]};
    tbon_stage_params p = {.inputs = inputs,
                           .n_inputs = 1,
                           .output = up[1],
                           .answers_in = -1,
                           .share = 0,
                           .shares = 2,
                           .agent_bound = 1};
    tbon_stage_result res;
    char err[200] = "";
    MG_CHECK_INT(tbon_stage_run(&p, &res, err, sizeof err), MG_ERROR_ECHILD);
    MG_CHECK(strstr(err, "agent was lost") != NULL);
    MG_CHECK_INT(res.broken_inputs, 1);
    close(in[0]);
    agent_proto_reader reader;
    read_all(up[0], &reader);
    agent_proto_frame f;
    int ends = 0, done = 0;
    while (agent_proto_reader_next(&reader, &f, err, sizeof err) == 1) {
        ends += f.type == AGENT_PROTO_MSG_END;
        done += f.type == AGENT_PROTO_MSG_DONE;
    }
    agent_proto_reader_free(&reader);
    MG_CHECK_INT(ends, 0);
    MG_CHECK_INT(done, 0);
}

int main(void)
{
    MG_RUN(test_broken_child);
    MG_RUN(test_agent_bound);
    MG_RUN(test_answers);
    MG_RUN(test_ended_before_the_answer);
    MG_RUN(test_release);
    MG_TEST_END();
}
