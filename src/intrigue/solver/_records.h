/* The positions waiting on disk for the search by layers (_core.c), each
 * record coded against the one before it in its file.  These files are most
 * of the disk the largest searches take, and a record is much like the one
 * before: the moves of one position are written one after another, so they
 * share their parent entry, their cards dealt and up, and most of their
 * columns (Faerie Queen 4940's largest files: two columns new in 40% of the
 * records, at most four in 73%), and a new column is most often one met a
 * few records before.  So a record is a byte of flags, the fields that
 * differ from the record before, and its new columns, each a byte where it
 * is in a small table of the columns met last: 7.2 bytes on those files
 * where the packed record takes 40 and zstd -1 of the packed records 7.0,
 * with no library and no block to decode at once.  (A table of 64 columns
 * made them 7.7 bytes, in no less time.)
 *
 * A record, after its flags byte:
 *   CODED_WHOLE   no record before it (a file's first, or the first
 *                 appended to a file opened again): dealt, on, cls (2 bytes,
 *                 little-endian), parent and every column as varints;
 *   otherwise, in this order, what the flags say differs:
 *   CODED_DEALT   dealt (a byte)
 *   CODED_ON      on (a byte)
 *   CODED_CLS     cls (2 bytes, little-endian)
 *   CODED_PARENT  parent minus the one before (mod 2^32), zigzagged, a varint
 *   CODED_COLUMNS a byte marking the columns of the record before that are
 *                 gone, a byte marking this record's new columns, and each new
 *                 column (below); its other columns are those of the record
 *                 before that are not gone, in their order.
 * A column is coded as its trie id plus one (mod 2^32), so that NO_COLUMN, an
 * unused column's id, is 0.  A new column is a byte below 128, a slot of the
 * table of columns met (each new column, and each column of a whole record,
 * goes to its slot by a hash; a whole record empties the table first), or
 * else a varint of the coded column plus 128 (so a first byte of 128 or more).
 * Which columns are "new" is the coder's choice (greedily, the longest run
 * it finds in order); the reader only follows the masks, so whatever the
 * order of a key's columns (sorted or not, with the symmetry of the game),
 * each record reads back as written. */
#ifndef INTRIGUE_RECORDS_H
#define INTRIGUE_RECORDS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef MAXCOLS
#error "define MAXCOLS before including _records.h"
#endif
#if MAXCOLS > 8
#error "a record's column masks are a byte"
#endif

/* A position waiting for a layer above the one expanded, as the search
 * handles it: its columns' trie ids, its cards dealt and up, its class
 * (class_bits()) and the entry of the position it was reached from. */
typedef struct __attribute__((packed)) {
    uint32_t col[MAXCOLS];
    uint8_t dealt, on;
    uint16_t cls;
    uint32_t parent;
} Waiting;

enum {
    CODED_WHOLE = 1,
    CODED_DEALT = 2,
    CODED_ON = 4,
    CODED_CLS = 8,
    CODED_PARENT = 16,
    CODED_COLUMNS = 32,
};

/* The longest a coded record can be: flags, two masks, dealt, on, cls and
 * five bytes for each varint. */
#define CODED_MAX (1 + 2 + 1 + 1 + 2 + 5 * (MAXCOLS + 1))

#define CODED_SLOTS 128

/* A file's coding state: the record before, once there is one, and the
 * table of the columns met (coded, by slot). */
typedef struct {
    Waiting last;
    int any;
    uint32_t met[CODED_SLOTS];
} Coder;

static inline unsigned coded_slot(uint32_t coded) { return (coded * 0x9E3779B1u) >> 25; }

/* After a record: its columns to their slots, those marked in `fresh` (a
 * kept column went there when it was new, and is most often there still). */
static inline void coder_meet(Coder *coder, const Waiting *w, unsigned fresh) {
    for (int i = 0; i < MAXCOLS; i++)
        if (fresh >> i & 1) {
            uint32_t coded = w->col[i] + 1u;
            coder->met[coded_slot(coded)] = coded;
        }
    coder->last = *w;
    coder->any = 1;
}

static inline uint8_t *put_varint(uint8_t *p, uint32_t x) {
    while (x >= 0x80) {
        *p++ = (uint8_t)(x | 0x80);
        x >>= 7;
    }
    *p++ = (uint8_t)x;
    return p;
}

/* A varint from p (before end) into *x: past it, or NULL where it is cut
 * short or longer than a 32-bit value's. */
static inline const uint8_t *get_varint(const uint8_t *p, const uint8_t *end, uint32_t *x) {
    uint32_t v = 0;
    for (int shift = 0; shift < 35 && p < end; shift += 7) {
        uint8_t b = *p++;
        v |= (uint32_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *x = v;
            return p;
        }
    }
    return NULL;
}

static inline uint32_t zigzag(uint32_t d) { return (d << 1) ^ (uint32_t)-(int32_t)(d >> 31); }
static inline uint32_t unzigzag(uint32_t z) { return (z >> 1) ^ (uint32_t)-(int32_t)(z & 1); }

/* w coded into out (CODED_MAX bytes at least) after the records coder has
 * seen: its length.  The coder then holds w. */
static inline size_t record_code(Coder *coder, const Waiting *w, uint8_t *out) {
    uint8_t *p = out + 1;
    const Waiting *last = &coder->last;
    uint8_t flags = 0;
    unsigned met = 0; /* the columns to meet */
    if (!coder->any) {
        memset(coder->met, 0, sizeof coder->met);
        flags = CODED_WHOLE;
        *p++ = w->dealt;
        *p++ = w->on;
        *p++ = (uint8_t)w->cls;
        *p++ = (uint8_t)(w->cls >> 8);
        p = put_varint(p, w->parent);
        for (int i = 0; i < MAXCOLS; i++) p = put_varint(p, w->col[i] + 1u);
        met = (1u << MAXCOLS) - 1;
    } else {
        if (w->dealt != last->dealt) flags |= CODED_DEALT, *p++ = w->dealt;
        if (w->on != last->on) flags |= CODED_ON, *p++ = w->on;
        if (w->cls != last->cls) {
            flags |= CODED_CLS;
            *p++ = (uint8_t)w->cls;
            *p++ = (uint8_t)(w->cls >> 8);
        }
        if (w->parent != last->parent) flags |= CODED_PARENT, p = put_varint(p, zigzag(w->parent - last->parent));
        if (memcmp(w->col, last->col, sizeof w->col)) {
            /* each column found in order among those of the record before
             * left to match is kept; the ones skipped are gone */
            uint8_t gone = 0, fresh = 0, *masks = p;
            p += 2;
            int j = 0;
            for (int i = 0; i < MAXCOLS; i++) {
                int at = j;
                while (at < MAXCOLS && last->col[at] != w->col[i]) at++;
                if (at == MAXCOLS) {
                    uint32_t coded = w->col[i] + 1u;
                    unsigned slot = coded_slot(coded);
                    fresh |= (uint8_t)(1u << i);
                    if (coder->met[slot] == coded) *p++ = (uint8_t)slot;
                    else p = put_varint(p, coded + CODED_SLOTS);
                    continue;
                }
                while (j < at) gone |= (uint8_t)(1u << j++);
                j++;
            }
            while (j < MAXCOLS) gone |= (uint8_t)(1u << j++);
            masks[0] = gone;
            masks[1] = fresh;
            met = fresh;
            flags |= CODED_COLUMNS;
        }
    }
    out[0] = flags;
    coder_meet(coder, w, met);
    return (size_t)(p - out);
}

/* A record from p (before end) into *w, after those the coder has read: past
 * it, or NULL where it is damaged or cut short. */
static inline const uint8_t *record_read(Coder *coder, const uint8_t *p, const uint8_t *end, Waiting *w) {
    if (p >= end) return NULL;
    uint8_t flags = *p++;
    uint32_t x;
    unsigned met = 0;
    if (flags & CODED_WHOLE) {
        if (flags != CODED_WHOLE || end - p < 4) return NULL;
        memset(coder->met, 0, sizeof coder->met);
        w->dealt = p[0];
        w->on = p[1];
        w->cls = (uint16_t)(p[2] | p[3] << 8);
        p += 4;
        if (!(p = get_varint(p, end, &x))) return NULL;
        w->parent = x;
        for (int i = 0; i < MAXCOLS; i++) {
            if (!(p = get_varint(p, end, &x))) return NULL;
            w->col[i] = x - 1u;
        }
        met = (1u << MAXCOLS) - 1;
    } else {
        if (!coder->any || flags >= 2 * CODED_COLUMNS) return NULL;
        *w = coder->last;
        if (flags & CODED_DEALT) {
            if (p >= end) return NULL;
            w->dealt = *p++;
        }
        if (flags & CODED_ON) {
            if (p >= end) return NULL;
            w->on = *p++;
        }
        if (flags & CODED_CLS) {
            if (end - p < 2) return NULL;
            w->cls = (uint16_t)(p[0] | p[1] << 8);
            p += 2;
        }
        if (flags & CODED_PARENT) {
            if (!(p = get_varint(p, end, &x))) return NULL;
            w->parent = coder->last.parent + unzigzag(x);
        }
        if (flags & CODED_COLUMNS) {
            if (end - p < 2) return NULL;
            uint8_t gone = p[0], fresh = p[1];
            p += 2;
            met = fresh;
            int j = 0;
            for (int i = 0; i < MAXCOLS; i++) {
                if (fresh >> i & 1) {
                    if (p >= end) return NULL;
                    if (*p < CODED_SLOTS) {
                        x = coder->met[*p++];
                    } else {
                        if (!(p = get_varint(p, end, &x)) || x < CODED_SLOTS) return NULL;
                        x -= CODED_SLOTS;
                    }
                    w->col[i] = x - 1u;
                    continue;
                }
                while (j < MAXCOLS && gone >> j & 1) j++;
                if (j == MAXCOLS) return NULL;
                w->col[i] = coder->last.col[j++];
            }
        }
    }
    coder_meet(coder, w, met);
    return p;
}

/* Reading a file of coded records from its start, a buffer at a time. */
typedef struct {
    FILE *file;
    uint8_t *buffer;
    size_t at, end, size;
    int eof;
    Coder coder;
} RecordReader;

#define RECORD_READ_BUFFER ((size_t)1 << 20)

/* 0, or -1 where the buffer does not fit or the file cannot be rewound. */
static int reader_open(RecordReader *r, FILE *file) {
    memset(r, 0, sizeof *r);
    r->file = file;
    r->size = RECORD_READ_BUFFER;
    r->buffer = malloc(r->size);
    if (!r->buffer || fseeko(file, 0, SEEK_SET)) {
        free(r->buffer);
        r->buffer = NULL;
        return -1;
    }
    return 0;
}

static void reader_close(RecordReader *r) {
    free(r->buffer);
    r->buffer = NULL;
}

/* The next record into *w: 1, 0 at the file's end, -1 where the file cannot
 * be read or a record is damaged or cut short. */
static int reader_next(RecordReader *r, Waiting *w) {
    if (r->end - r->at < CODED_MAX && !r->eof) {
        memmove(r->buffer, r->buffer + r->at, r->end - r->at);
        r->end -= r->at;
        r->at = 0;
        size_t got = fread(r->buffer + r->end, 1, r->size - r->end, r->file);
        if (got < r->size - r->end) {
            if (ferror(r->file)) return -1;
            r->eof = 1;
        }
        r->end += got;
    }
    if (r->at == r->end) return 0;
    const uint8_t *next = record_read(&r->coder, r->buffer + r->at, r->buffer + r->end, w);
    if (!next) return -1;
    r->at = (size_t)(next - r->buffer);
    return 1;
}

/* w appended to file after the records coder has seen: 0, or -1.  (A file
 * is only ever written by the thread searching: no lock needed, and taking
 * one for each few bytes cost more than the coding.) */
static inline int record_put(FILE *file, Coder *coder, const Waiting *w) {
    uint8_t out[CODED_MAX];
    size_t n = record_code(coder, w, out);
#ifdef __GLIBC__
    return fwrite_unlocked(out, 1, n, file) == n ? 0 : -1;
#else
    return fwrite(out, 1, n, file) == n ? 0 : -1;
#endif
}

#endif
