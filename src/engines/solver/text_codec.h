/* Line-oriented text for the engine's saved forms (the control-flow graph file, the search
 * snapshot): a growing output buffer and a bounds-checked input cursor over words separated by
 * one space or newline (docs/design/concolic-solver.md §7). Memory only: the caller does the I/O.
 */
#ifndef TEXT_CODEC_H
#define TEXT_CODEC_H

#include <stddef.h>
#include <stdint.h>

/* Zeroed: empty. After an allocation failure every later append is dropped and
 * text_codec_buf_finish reports it, so writers need not check each call. */
typedef struct text_codec_buf {
    char *p;
    size_t len, cap;
    int failed;
} text_codec_buf;

void text_codec_buf_printf(text_codec_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Appends n bytes as lowercase hexadecimal. */
void text_codec_buf_hex(text_codec_buf *b, const uint8_t *bytes, size_t n);
/* Hands the NUL-terminated text to the caller (*len excludes the NUL). MG_ERROR_ENOMEM (the buffer
 * is freed) when an append failed. */
int text_codec_buf_finish(text_codec_buf *b, char **out, size_t *len);

typedef struct text_codec_cursor {
    const char *p, *end;
    int bad; /* set by the first thing that does not fit; every later call then fails */
} text_codec_cursor;

/* A first line "MAGIC VERSION": 0 when it is version, MG_ERROR_EVERSION for another number,
 * MG_ERROR_EFORMAT when it is not that line. */
int text_codec_cursor_version(text_codec_cursor *c, const char *magic, uint64_t version);
/* Consumes the literal word w and one separator (or the end of the text). */
void text_codec_cursor_word(text_codec_cursor *c, const char *w);
/* Any word of 1 to cap - 1 bytes, copied NUL-terminated into out, then one separator. */
void text_codec_cursor_token(text_codec_cursor *c, char *out, size_t cap);
/* A number in base 10 or 16 (lowercase) no larger than max, then one separator. */
uint64_t text_codec_cursor_number(text_codec_cursor *c, int base, uint64_t max);
/* A signed decimal number in [min, max], then one separator. */
int64_t text_codec_cursor_signed(text_codec_cursor *c, int64_t min, int64_t max);
/* A word of 2 * n hexadecimal digits decoded into out[0..n), then one separator. */
void text_codec_cursor_hex(text_codec_cursor *c, uint8_t *out, size_t n);
/* 1 when the whole text was consumed without a mismatch. */
int text_codec_cursor_done(const text_codec_cursor *c);

#endif
