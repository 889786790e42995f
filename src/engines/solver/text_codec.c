/* Line-oriented text buffers and cursors (text_codec.h). */
#include "text_codec.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mg_array.h"
#include "mg_error.h"

static int reserve(text_codec_buf *b, size_t more)
{
    if (b->failed)
        return -1;
    if (mg_array_reserve((void **)&b->p, &b->cap, b->len + more + 1, 1) != MG_ERROR_OK) {
        b->failed = 1;
        return -1;
    }
    return 0;
}

void text_codec_buf_printf(text_codec_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || reserve(b, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void text_codec_buf_hex(text_codec_buf *b, const uint8_t *bytes, size_t n)
{
    if (n > SIZE_MAX / 2 - 1 || reserve(b, 2 * n))
        return;
    for (size_t i = 0; i < n; i++) {
        b->p[b->len++] = "0123456789abcdef"[bytes[i] >> 4];
        b->p[b->len++] = "0123456789abcdef"[bytes[i] & 15];
    }
    b->p[b->len] = 0;
}

int text_codec_buf_finish(text_codec_buf *b, char **out, size_t *len)
{
    if (b->failed || reserve(b, 0)) {
        free(b->p);
        memset(b, 0, sizeof *b);
        return MG_ERROR_ENOMEM;
    }
    b->p[b->len] = 0;
    *out = b->p;
    *len = b->len;
    memset(b, 0, sizeof *b);
    return 0;
}

static int is_sep(char ch)
{
    return ch == ' ' || ch == '\n';
}

/* Ends a token: one separator, unless the text ends right there. */
static void separator(text_codec_cursor *c)
{
    if (c->p < c->end)
        c->p++;
}

void text_codec_cursor_word(text_codec_cursor *c, const char *w)
{
    size_t n = strlen(w);
    if (c->bad || (size_t)(c->end - c->p) < n || memcmp(c->p, w, n) ||
        (c->p + n < c->end && !is_sep(c->p[n]))) {
        c->bad = 1;
        return;
    }
    c->p += n;
    separator(c);
}

void text_codec_cursor_token(text_codec_cursor *c, char *out, size_t cap)
{
    size_t n = 0;
    while (!c->bad && c->p + n < c->end && !is_sep(c->p[n]))
        n++;
    if (c->bad || n == 0 || n >= cap) {
        c->bad = 1;
        if (cap)
            out[0] = 0;
        return;
    }
    memcpy(out, c->p, n);
    out[n] = 0;
    c->p += n;
    separator(c);
}

static int digit(char ch, int base)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    return base == 16 && ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
}

uint64_t text_codec_cursor_number(text_codec_cursor *c, int base, uint64_t max)
{
    uint64_t v = 0;
    const char *start = c->p;
    while (!c->bad && c->p < c->end && !is_sep(*c->p)) {
        int d = digit(*c->p++, base);
        if (d < 0 || v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
            c->bad = 1;
        else
            v = v * (uint64_t)base + (uint64_t)d;
    }
    if (c->bad || c->p == start || v > max) {
        c->bad = 1;
        return 0;
    }
    separator(c);
    return v;
}

int64_t text_codec_cursor_signed(text_codec_cursor *c, int64_t min, int64_t max)
{
    int neg = !c->bad && c->p < c->end && *c->p == '-';
    c->p += neg;
    uint64_t mag = text_codec_cursor_number(c, 10,
                                            neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX);
    int64_t v = neg ? (mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag) : (int64_t)mag;
    if (c->bad || v < min || v > max) {
        c->bad = 1;
        return 0;
    }
    return v;
}

void text_codec_cursor_hex(text_codec_cursor *c, uint8_t *out, size_t n)
{
    if (c->bad || (size_t)(c->end - c->p) / 2 < n) {
        c->bad = 1;
        return;
    }
    for (size_t i = 0; i < n; i++) {
        int hi = digit(c->p[2 * i], 16), lo = digit(c->p[2 * i + 1], 16);
        if (hi < 0 || lo < 0) {
            c->bad = 1;
            return;
        }
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    c->p += 2 * n;
    if (c->p < c->end && !is_sep(*c->p))
        c->bad = 1;
    separator(c);
}

int text_codec_cursor_version(text_codec_cursor *c, const char *magic, uint64_t version)
{
    text_codec_cursor_word(c, magic);
    uint64_t v = text_codec_cursor_number(c, 10, UINT32_MAX);
    if (c->bad)
        return MG_ERROR_EFORMAT;
    return v == version ? 0 : MG_ERROR_EVERSION;
}

int text_codec_cursor_done(const text_codec_cursor *c)
{
    return !c->bad && c->p == c->end;
}
