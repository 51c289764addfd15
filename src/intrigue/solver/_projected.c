/* The rank projection's game, compiled: projection.py's ProjectedGame.clears,
 * state for state.
 *
 * Why C: CPython visits some 35 000 projected states a second, and a
 * projection worth proving runs to millions.  The rules are projection.py's;
 * nothing here is a rule of its own, and tests/test_projected_core.py checks
 * that both give the same answer after the same number of states, for every
 * kept set and opening rule, on random positions at random budgets.
 *
 * The search is the Python one, step for step: the same safe moves played on
 * entering a state (passes over the columns, left to right, until one sends
 * nothing up), the same moves in the same order (cards up by column; then, where
 * a card may wait on a vacant column, each column's top onto each vacant
 * column; then the next event), each frame's `tried` keys, and the same
 * canonical key (events dealt, and the columns other than the newest as a
 * multiset; all of them once every event is dealt).
 *
 * A column's stack is a node of a trie of stacks (_trie.h), so a key is the
 * events dealt and one id per column, the ids sorted where the columns are
 * alike.  Any sorted order gives the same key equality as Python's sorted
 * tuples (a multiset has one sorted form either way), and the keys are only
 * compared, never ordered.  The seen keys are stored whole ("cannot clear"
 * stays exhaustive), packed with ids of 1 to 4 bytes: the narrowest that
 * holds every stack met so far, widened when the trie outgrows it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RANKS 14
#define TYPES 22 /* ranks, and Glencoe's suited Fives and Sixes (rules.py) */
#define MAXCOLS 32
#define MAXEVENTS 254 /* a key's first byte is the events dealt plus one */
#define MAXCARDS 4096 /* cards in the columns and among the events */
#define MAXCOUNT 100000 /* bound on pile slots, counts and totals read */
#define MAXKEPT 64
#define BASE (-1)
#define DEADLINE_EVERY 4096

enum { OPEN_ANY, OPEN_PER_BASE, OPEN_PER_BASE_SUIT };

#include "_memory.h"
#include "_pyread.h"
#include "_trie.h"

/* ------------------------------------------------------------------ the game */

typedef struct {
    int nevents, ncols0, maxcols;
    int events[MAXEVENTS];
    int ncols[MAXEVENTS + 1];     /* columns once i events are dealt */
    int bases[MAXEVENTS + 1];     /* ProjectedGame.bases */
    int suit_bases[MAXEVENTS + 1][4];
    int open_rule, vacant_any_time;
    /* per type: its rank, the rank below it, its suit (Python indexing: -1 is
       the last), whether the rank below is kept */
    int rank[TYPES], below[TYPES], suit[TYPES], below_kept[TYPES];
    int slots[RANKS], total[TYPES];
} Game;

/* ProjectedGame._take */
static inline void take(const Game *g, int *on, int t, int sign) {
    on[t] += sign;
    if (g->rank[t] != t) on[g->rank[t]] += sign;
}

/* ProjectedGame._can_go_up */
static inline int can_go_up(const Game *g, const int *on, int t, int i) {
    int rank = g->rank[t];
    if (g->below[t] == 0) {
        if (g->open_rule == OPEN_ANY) return on[rank] < g->slots[rank];
        if (g->open_rule == OPEN_PER_BASE) return on[rank] < g->bases[i];
        return on[t] < g->suit_bases[i][g->suit[t]];
    }
    return !g->below_kept[t] || on[rank] < on[g->below[t]];
}

/* ProjectedGame._is_safe */
static inline int is_safe(const Game *g, const int *on, int t, int i) {
    int rank = g->rank[t];
    if (g->below[t] == 0) {
        if (g->open_rule == OPEN_ANY) return g->slots[rank] >= g->total[rank];
        if (g->open_rule == OPEN_PER_BASE) return g->bases[i] >= g->total[rank];
        return g->suit_bases[i][g->suit[t]] >= g->total[t];
    }
    return !g->below_kept[t] || on[g->below[t]] >= g->total[rank];
}

/* ------------------------------------------------------------------ keys */

/* A key as words: events dealt, then one stack id per column (sorted where
 * the columns are alike), zeros after the last column. */
#define WORDS (1 + MAXCOLS)

/* A random odd multiplier per word of a key (filled when the module loads). */
static uint64_t hash_factor[WORDS];

static inline uint64_t hash_words(const uint32_t *w, int n) {
    /* independent products (no chain through the words), then mixed */
    uint64_t h = 0;
    for (int j = 0; j < n; j++) h += w[j] * hash_factor[j];
    return mix64(h);
}

static inline void sort_ids(uint32_t *a, int n) {
    for (int j = 1; j < n; j++) {
        uint32_t x = a[j];
        int k = j;
        while (k > 0 && a[k - 1] > x) {
            a[k] = a[k - 1];
            k--;
        }
        a[k] = x;
    }
}

static inline void exchange(uint32_t *a, int i, int j) {
    uint32_t lo = a[i] < a[j] ? a[i] : a[j], hi = a[i] < a[j] ? a[j] : a[i];
    a[i] = lo;
    a[j] = hi;
}

/* Eight ids sorted by a network (19 exchanges, no branches to mispredict). */
static inline void sort_eight(uint32_t *a) {
    static const uint8_t network[19][2] = {{0, 2}, {1, 3}, {4, 6}, {5, 7}, {0, 4}, {1, 5}, {2, 6},
                                           {3, 7}, {0, 1}, {2, 3}, {4, 5}, {6, 7}, {2, 4}, {3, 5},
                                           {1, 4}, {3, 6}, {1, 2}, {3, 4}, {5, 6}};
    for (int k = 0; k < 19; k++) exchange(a, network[k][0], network[k][1]);
}

/* ProjectedGame._key, into w[0 .. 1 + maxcols): the events dealt, the stacks
 * of the columns sorted (all but the newest while events remain), zeros for
 * the columns not yet opened; its hash. */
static inline uint64_t make_key(const Game *g, int i, const uint32_t *stacks, uint32_t *w) {
    int n = g->ncols[i], alike = i == g->nevents ? n : n - 1;
    w[0] = (uint32_t)i;
    if (g->maxcols <= 8) {
        uint32_t a[8];
        for (int c = 0; c < 8; c++) a[c] = c < alike ? stacks[c] : UINT32_MAX;
        sort_eight(a);
        for (int c = 0; c < g->maxcols; c++) w[1 + c] = c < alike ? a[c] : c < n ? stacks[c] : 0;
    } else {
        memcpy(w + 1, stacks, (size_t)n * sizeof(uint32_t));
        memset(w + 1 + n, 0, (size_t)(g->maxcols - n) * sizeof(uint32_t));
        sort_ids(w + 1, alike);
    }
    return hash_words(w, 1 + g->maxcols);
}

/* ------------------------------------------------------------------ seen keys */

/* The seen keys, whole, in an open-addressed table: a slot is a key packed
 * (its events dealt plus one, 0 for an empty slot, then its ids), so that a
 * probe reads one place. */
typedef struct {
    uint8_t *slots;
    size_t cap, count;
    int width, nids;
    size_t stride;
} Seen;

/* The key's ids, `width` bytes each, little endian. */
static void pack(int width, int nids, const uint32_t *w, uint8_t *out) {
    out[0] = (uint8_t)(w[0] + 1);
    uint8_t *p = out + 1;
    const uint32_t *ids = w + 1;
    switch (width) {
    case 1:
        for (int j = 0; j < nids; j++) p[j] = (uint8_t)ids[j];
        break;
    case 2:
        for (int j = 0; j < nids; j++, p += 2) p[0] = (uint8_t)ids[j], p[1] = (uint8_t)(ids[j] >> 8);
        break;
    case 3:
        for (int j = 0; j < nids; j++, p += 3)
            p[0] = (uint8_t)ids[j], p[1] = (uint8_t)(ids[j] >> 8), p[2] = (uint8_t)(ids[j] >> 16);
        break;
    default:
        for (int j = 0; j < nids; j++, p += 4)
            p[0] = (uint8_t)ids[j], p[1] = (uint8_t)(ids[j] >> 8), p[2] = (uint8_t)(ids[j] >> 16),
            p[3] = (uint8_t)(ids[j] >> 24);
    }
}

static void unpack(int width, int nids, const uint8_t *in, uint32_t *w) {
    w[0] = (uint32_t)in[0] - 1;
    const uint8_t *p = in + 1;
    for (int j = 0; j < nids; j++, p += width) {
        uint32_t x = 0;
        for (int b = width - 1; b >= 0; b--) x = x << 8 | p[b];
        w[1 + j] = x;
    }
}

static int seen_init(Seen *s, int nids) {
    memset(s, 0, sizeof *s);
    s->nids = nids;
    s->width = 1;
    s->stride = 1 + (size_t)nids;
    s->cap = 1 << 12;
    s->slots = calloc(s->cap, s->stride);
    return s->slots ? 0 : -1;
}

static void seen_free(Seen *s) { free(s->slots); }

/* The table again, `cap` slots of ids `width` bytes wide. */
static int seen_rebuild(Seen *s, size_t cap, int width) {
    size_t stride = 1 + (size_t)s->nids * (size_t)width;
    if (!memory_allows(cap * stride)) return -1;
    uint8_t *slots = calloc(cap, stride);
    if (!slots) return -1;
    uint32_t w[WORDS];
    for (size_t k = 0; k < s->cap; k++) {
        const uint8_t *old = s->slots + k * s->stride;
        if (!old[0]) continue;
        unpack(s->width, s->nids, old, w);
        size_t idx = (size_t)hash_words(w, 1 + s->nids) & (cap - 1);
        while (slots[idx * stride]) idx = (idx + 1) & (cap - 1);
        pack(width, s->nids, w, slots + idx * stride);
    }
    free(s->slots);
    s->slots = slots;
    s->cap = cap;
    s->width = width;
    s->stride = stride;
    return 0;
}

/* Ids up to `most` fit: widen the table if they do not yet. */
static int seen_fit(Seen *s, uint32_t most) {
    int width = s->width;
    while (width < 4 && most >> (8 * width)) width++;
    return width == s->width ? 0 : seen_rebuild(s, s->cap, width);
}

/* 1 if the key is new (now added), 0 if seen, -1 out of memory. */
static int seen_add(Seen *s, const uint32_t *w, uint64_t h) {
    uint8_t packed[1 + 4 * MAXCOLS];
    pack(s->width, s->nids, w, packed);
    size_t mask = s->cap - 1, idx = (size_t)h & mask, stride = s->stride;
    uint8_t *slot;
    while ((slot = s->slots + idx * stride)[0]) {
        if (!memcmp(slot, packed, stride)) return 0;
        idx = (idx + 1) & mask;
    }
    memcpy(slot, packed, stride);
    s->count++;
    if (s->count * 4 >= s->cap * 3 && seen_rebuild(s, s->cap * 2, s->width)) return -1;
    return 1;
}

/* ------------------------------------------------------------------ the search */

enum { UPS, VACANT, DEAL, DONE };

/* An entry of the path: a state, where its moves have got to, and where its
 * undo list and its tried keys start. */
typedef struct {
    uint32_t stacks[MAXCOLS];
    int i, n;
    int phase, c, v;
    size_t undo_start, tried_start;
} Frame;

typedef struct {
    Trie trie;
    Seen seen;
    Frame *frames;
    size_t depth, frames_cap;
    int *undo; /* types sent up, to take back down */
    size_t nundo;
    int words;       /* of a key: 1 + the most columns */
    uint32_t *tried; /* `words` per key */
    uint64_t *tried_hash;
    size_t ntried, tried_cap;
} Search;

static int search_init(Search *s, const Game *g) {
    memset(s, 0, sizeof *s);
    int err = trie_init(&s->trie);
    err |= seen_init(&s->seen, g->maxcols);
    s->frames_cap = 64;
    s->frames = malloc(s->frames_cap * sizeof(Frame));
    s->undo = malloc(MAXCARDS * sizeof(int));
    s->words = 1 + g->maxcols;
    s->tried_cap = 256;
    s->tried = malloc(s->tried_cap * (size_t)s->words * sizeof(uint32_t));
    s->tried_hash = malloc(s->tried_cap * sizeof(uint64_t));
    return err || !s->frames || !s->undo || !s->tried || !s->tried_hash ? -1 : 0;
}

static void search_free(Search *s) {
    trie_free(&s->trie);
    seen_free(&s->seen);
    free(s->frames);
    free(s->undo);
    free(s->tried);
    free(s->tried_hash);
}

/* The stack `id` with `type` on top; TRIE_FULL when out of memory. */
static uint32_t push_card(Search *s, uint32_t id, int type) {
    uint32_t node = trie_child(&s->trie, id, type);
    if (node == TRIE_FULL || seen_fit(&s->seen, s->trie.count - 1)) return TRIE_FULL;
    return node;
}

/* 1 if the key is among those tried from `start` on (else adds it), -1 out of memory. */
static int tried_add(Search *s, size_t start, const uint32_t *w, uint64_t h) {
    size_t words = (size_t)s->words;
    for (size_t k = start; k < s->ntried; k++)
        if (s->tried_hash[k] == h && !memcmp(s->tried + k * words, w, words * sizeof(uint32_t))) return 1;
    if (s->ntried == s->tried_cap) {
        size_t cap = s->tried_cap * 2;
        uint32_t *tried = realloc(s->tried, cap * words * sizeof(uint32_t));
        if (!tried) return -1;
        s->tried = tried;
        uint64_t *hashes = realloc(s->tried_hash, cap * sizeof(uint64_t));
        if (!hashes) return -1;
        s->tried_hash = hashes;
        s->tried_cap = cap;
    }
    memcpy(s->tried + s->ntried * words, w, words * sizeof(uint32_t));
    s->tried_hash[s->ntried++] = h;
    return 0;
}

static void undo_to(Search *s, const Game *g, int *on, size_t mark) {
    while (s->nundo > mark) take(g, on, s->undo[--s->nundo], -1);
}

/* ProjectedGame._enter, in place: 1 if the safe moves clear the game (then
 * taken back), else 0, the types sent up pushed on the undo list. */
static int enter(Search *s, const Game *g, int *on, int i, uint32_t *stacks, int n) {
    size_t mark = s->nundo;
    int changed = 1;
    while (changed) {
        changed = 0;
        /* Python loops over the tuple the pass began with; column c of it is
           still the current one when the pass reaches c */
        for (int c = 0; c < n; c++) {
            uint32_t id = stacks[c];
            if (!id) continue;
            int t = s->trie.last[id];
            if (is_safe(g, on, t, i) && can_go_up(g, on, t, i)) {
                take(g, on, t, 1);
                s->undo[s->nundo++] = t;
                stacks[c] = s->trie.parent[id];
                changed = 1;
            }
        }
    }
    if (i == g->nevents) {
        for (int c = 0; c < n; c++)
            if (stacks[c]) return 0;
        undo_to(s, g, on, mark);
        return 1;
    }
    return 0;
}

/* The next move of the frame (ProjectedGame._moves, resumed): 1 and the state
 * after it in child, *ci, *cn (events dealt, columns), *up (the type sent up,
 * or -1); 0 when there is none left; -1 out of memory.
 *
 * The keys `tried` holds are compared without being made where they cannot
 * meet: a card up leaves one card fewer in the columns than a card onto a
 * vacant column or none, so an up's key can only be another up's; and two
 * ups' keys are equal only if they take the top of the same stack from two
 * alike columns (the stacks as multisets lose one stack each and gain its
 * parent, and a stack is never its parent's parent).  So an up is tried
 * already if an alike column before it holds the same stack (that column's
 * top could go up too: same card, same piles); only the moves onto a vacant
 * column need keys, from `here` on. */
static int next_move(Search *s, const Game *g, const int *on, Frame *f, uint32_t *child, int *ci, int *cn,
                     int *up) {
    *ci = f->i;
    *cn = f->n;
    *up = -1;
    if (f->phase == UPS) {
        int alike = f->i == g->nevents ? f->n : f->n - 1;
        while (f->c < f->n) {
            int c = f->c++;
            uint32_t id = f->stacks[c];
            if (!id) continue;
            int t = s->trie.last[id];
            if (!can_go_up(g, on, t, f->i)) continue;
            int tried = 0;
            for (int d = 0; d < c && c < alike && !tried; d++) tried = f->stacks[d] == id;
            if (tried) continue;
            memcpy(child, f->stacks, (size_t)f->n * sizeof(uint32_t));
            child[c] = s->trie.parent[id];
            *up = t;
            return 1;
        }
        f->phase = DEAL;
        if (f->i == g->nevents || g->vacant_any_time) {
            int vacant = 0, full = 0;
            for (int c = 0; c < f->n; c++) {
                vacant |= !f->stacks[c];
                full |= f->stacks[c] != 0;
            }
            if (vacant && full) {
                uint32_t w[WORDS];
                uint64_t h = make_key(g, f->i, f->stacks, w);
                if (tried_add(s, f->tried_start, w, h) < 0) return -1; /* here */
                f->phase = VACANT;
                f->c = f->v = 0;
            }
        }
    }
    if (f->phase == VACANT) {
        while (f->c < f->n) {
            uint32_t id = f->stacks[f->c];
            if (!id || f->v >= f->n) {
                f->c++;
                f->v = 0;
                continue;
            }
            int v = f->v++;
            if (f->stacks[v]) continue;
            memcpy(child, f->stacks, (size_t)f->n * sizeof(uint32_t));
            if ((child[v] = push_card(s, 0, s->trie.last[id])) == TRIE_FULL) return -1;
            child[f->c] = s->trie.parent[id];
            uint32_t w[WORDS];
            uint64_t h = make_key(g, f->i, child, w);
            int tried = tried_add(s, f->tried_start, w, h);
            if (tried < 0) return -1;
            if (!tried) return 1;
        }
        f->phase = DEAL;
    }
    if (f->phase == DEAL) {
        f->phase = DONE;
        if (f->i < g->nevents) {
            int event = g->events[f->i];
            memcpy(child, f->stacks, (size_t)f->n * sizeof(uint32_t));
            if (event == BASE) {
                child[(*cn)++] = 0;
            } else if ((child[*cn - 1] = push_card(s, child[*cn - 1], event)) == TRIE_FULL) {
                return -1;
            }
            (*ci)++;
            return 1;
        }
    }
    return 0;
}

enum { CLEARED, BLOCKED, CUT_SHORT, FAILED };

/* ProjectedGame.clears, state for state: FAILED with an exception set;
 * CUT_SHORT at max_states, the deadline, or out of memory. */
static int clears(const Game *g, const int *start_on, const int *lengths, const int (*cards)[MAXCARDS],
                  long long max_states, int has_deadline, double deadline, long long *visited) {
    Search s;
    int result = FAILED;
    long long states = 0;
    int on[TYPES];
    memcpy(on, start_on, sizeof on);
    if (search_init(&s, g)) goto done;
    uint32_t root[MAXCOLS] = {0};
    for (int c = 0; c < g->ncols0; c++)
        for (int k = 0; k < lengths[c]; k++)
            if ((root[c] = push_card(&s, root[c], cards[c][k])) == TRIE_FULL) goto done;
    if (enter(&s, g, on, 0, root, g->ncols0)) {
        result = CLEARED;
        goto done;
    }
    uint32_t w[WORDS];
    uint64_t h = make_key(g, 0, root, w);
    if (seen_add(&s.seen, w, h) < 0) goto done;
    states = 1;
    Frame *f = &s.frames[0];
    memcpy(f->stacks, root, sizeof root);
    f->i = 0;
    f->n = g->ncols0;
    f->phase = UPS;
    f->c = f->v = 0;
    f->undo_start = 0;
    f->tried_start = 0;
    s.depth = 1;
    while (s.depth) {
        f = &s.frames[s.depth - 1];
        uint32_t child[MAXCOLS];
        int ci, cn, up;
        int got = next_move(&s, g, on, f, child, &ci, &cn, &up);
        if (got < 0) goto done;
        if (!got) {
            undo_to(&s, g, on, f->undo_start);
            s.ntried = f->tried_start;
            s.depth--;
            continue;
        }
        size_t mark = s.nundo;
        if (up >= 0) {
            take(g, on, up, 1);
            s.undo[s.nundo++] = up;
        }
        if (enter(&s, g, on, ci, child, cn)) {
            result = CLEARED;
            goto done;
        }
        h = make_key(g, ci, child, w);
        int added = seen_add(&s.seen, w, h);
        if (added < 0) goto done;
        if (!added) {
            undo_to(&s, g, on, mark);
            continue;
        }
        states++;
        if (states >= max_states) {
            result = CUT_SHORT;
            goto done;
        }
        if (!(states % DEADLINE_EVERY)) {
            if (PyErr_CheckSignals()) goto done;
            if (has_deadline && monotonic() > deadline) {
                result = CUT_SHORT;
                goto done;
            }
        }
        if (s.depth == s.frames_cap) {
            size_t cap = s.frames_cap * 2;
            Frame *frames = realloc(s.frames, cap * sizeof(Frame));
            if (!frames) goto done;
            s.frames = frames;
            s.frames_cap = cap;
        }
        f = &s.frames[s.depth++];
        memcpy(f->stacks, child, (size_t)cn * sizeof(uint32_t));
        f->i = ci;
        f->n = cn;
        f->phase = UPS;
        f->c = f->v = 0;
        f->undo_start = mark;
        f->tried_start = s.ntried;
    }
    result = BLOCKED;
done:
    /* Out of memory (or a table that would leave the machine short:
     * _memory.h) is a limit, as max_states is: undecided, no proof. */
    if (result == FAILED && !PyErr_Occurred()) result = CUT_SHORT;
    *visited = states;
    search_free(&s);
    return result;
}

/* ------------------------------------------------------------------ Python */

static int read_game(PyObject *game, Game *g, int *start_on, int *lengths, int (*cards)[MAXCARDS]) {
    PyObject *tables = PyObject_GetAttrString(game, "tables");
    if (!tables) return -1;
    int prev[RANKS], rank_of[TYPES], suit_of[TYPES], kept[MAXKEPT], kept_set[RANKS] = {0}, vacant;
    Py_ssize_t nkept, nevents, nrows, nb, nbases;
    PyObject *flag = NULL;
    int err = read_attr(tables, "prev", prev, RANKS, -1, RANKS - 1, NULL) ||
              read_attr(tables, "rank_of_type", rank_of, TYPES, 0, RANKS - 1, NULL) ||
              read_attr(tables, "suit_of_type", suit_of, TYPES, -1, 3, NULL) ||
              read_attr(tables, "slots", g->slots, RANKS, 0, MAXCOUNT, NULL) ||
              !(flag = PyObject_GetAttrString(tables, "vacant_any_time")) || (vacant = PyObject_IsTrue(flag)) < 0;
    Py_XDECREF(flag);
    Py_DECREF(tables);
    if (err) return -1;
    g->vacant_any_time = vacant;
    if (read_attr(game, "kept", kept, MAXKEPT, 0, RANKS - 1, &nkept) ||
        read_int(game, "open_rule", &g->open_rule, OPEN_ANY, OPEN_PER_BASE_SUIT) ||
        read_attr(game, "start_on", start_on, TYPES, 0, MAXCOUNT, NULL) ||
        read_attr(game, "total", g->total, TYPES, 0, MAXCOUNT, NULL) ||
        read_attr(game, "events", g->events, MAXEVENTS, BASE, TYPES - 1, &nevents) ||
        read_rows(game, "stacks", &cards[0][0], MAXCARDS, MAXCOLS, 1, TYPES - 1, &nrows, lengths) ||
        read_attr(game, "bases", g->bases, MAXEVENTS + 1, 0, MAXCOUNT, &nb) ||
        read_rows(game, "suit_bases", &g->suit_bases[0][0], 4, MAXEVENTS + 1, 0, MAXCOUNT, &nbases, NULL))
        return -1;
    for (Py_ssize_t k = 0; k < nkept; k++) kept_set[kept[k]] = 1;
    g->nevents = (int)nevents;
    g->ncols0 = (int)nrows;
    long cards_in_all = 0;
    for (int c = 0; c < g->ncols0; c++) cards_in_all += lengths[c];
    g->ncols[0] = g->ncols0;
    for (int i = 0; i < g->nevents; i++) {
        if (g->events[i] == 0) {
            PyErr_SetString(PyExc_ValueError, "events: 0 is neither a card type nor a base (-1)");
            return -1;
        }
        cards_in_all += g->events[i] != BASE;
        g->ncols[i + 1] = g->ncols[i] + (g->events[i] == BASE);
    }
    g->maxcols = g->ncols[g->nevents];
    if (g->maxcols > MAXCOLS) {
        PyErr_Format(PyExc_ValueError, "the game has %d columns, at most %d", g->maxcols, MAXCOLS);
        return -1;
    }
    if (g->ncols0 == 0 && g->nevents > 0) {
        PyErr_SetString(PyExc_ValueError, "stacks is empty: events must come onto a column");
        return -1;
    }
    if (cards_in_all > MAXCARDS) {
        PyErr_Format(PyExc_ValueError, "the game has %ld cards, at most %d", cards_in_all, MAXCARDS);
        return -1;
    }
    if (nb != nevents + 1 || nbases != nevents + 1) {
        PyErr_Format(PyExc_ValueError, "bases has %zd entries and suit_bases %zd, expected %zd (events + 1)", nb,
                     nbases, nevents + 1);
        return -1;
    }
    for (int t = 0; t < TYPES; t++) {
        int rank = rank_of[t];
        g->rank[t] = rank;
        g->below[t] = prev[rank];
        g->below_kept[t] = prev[rank] >= 0 && kept_set[prev[rank]];
        g->suit[t] = suit_of[t] < 0 ? suit_of[t] + 4 : suit_of[t]; /* Python's index -1 */
    }
    return 0;
}

static PyObject *projected_clears(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *game, *budget, *deadline_obj;
    if (!PyArg_ParseTuple(args, "OOO:clears", &game, &budget, &deadline_obj)) return NULL;
    if (!PyLong_Check(budget)) {
        PyErr_Format(PyExc_TypeError, "max_states: expected an int, got %.100s", Py_TYPE(budget)->tp_name);
        return NULL;
    }
    int overflow;
    long long max_states = PyLong_AsLongLongAndOverflow(budget, &overflow);
    if (max_states == -1 && PyErr_Occurred()) return NULL;
    if (overflow) max_states = overflow > 0 ? LLONG_MAX : LLONG_MIN;
    double deadline = 0;
    int has_deadline = deadline_obj != Py_None;
    if (has_deadline) {
        deadline = PyFloat_AsDouble(deadline_obj);
        if (deadline == -1 && PyErr_Occurred()) return NULL;
    }
    Game *g = calloc(1, sizeof(Game));
    int(*cards)[MAXCARDS] = malloc(MAXCOLS * sizeof *cards);
    if (!g || !cards) {
        free(g);
        free(cards);
        return PyErr_NoMemory();
    }
    int start_on[TYPES], lengths[MAXCOLS];
    long long visited = 0;
    int result = FAILED;
    if (!read_game(game, g, start_on, lengths, cards))
        result = clears(g, start_on, lengths, (const int(*)[MAXCARDS])cards, max_states, has_deadline, deadline, &visited);
    free(g);
    free(cards);
    if (result == FAILED) return NULL; /* a Python exception (memory is CUT_SHORT) */
    PyObject *verdict = result == CLEARED ? Py_True : result == BLOCKED ? Py_False : Py_None;
    return Py_BuildValue("(OL)", verdict, visited);
}

static PyMethodDef methods[] = {
    {"clears", projected_clears, METH_VARARGS,
     "clears(game, max_states, deadline, /) -> (cleared, states): projection.ProjectedGame.clears, compiled."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_projected", "The rank projection's game, compiled.", -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__projected(void) {
    for (int j = 0; j < WORDS; j++) hash_factor[j] = mix64(0x9E3779B97F4A7C15ULL * (uint64_t)(j + 1)) | 1;
    return PyModule_Create(&module);
}
