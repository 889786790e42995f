/* Buffers in flight (issue 28 item 4): the checksum the capture module takes of a nonblocking
 * send's buffer when the send is posted and again when it completes; the two differ when the
 * program wrote the buffer in between (MPI 3.1 §3.7.2: erroneous, the message may carry either
 * content). Design: docs/design/check-classes.md "Buffers in flight". */
#ifndef BUFFER_WATCH_H
#define BUFFER_WATCH_H

#include <stddef.h>
#include <stdint.h>

/* A 64-bit checksum of p[0..n): 8 bytes per step, any alignment; n 0 gives a constant. Pure,
 * thread-safe, allocation-free; about 1 ns per 8 bytes. */
uint64_t buffer_watch_sum(const void *p, size_t n);

#endif
