/* The solver's depth-first search, compiled: the same search as the pure-Python
 * loop in search.py (_python_search) over the same compact state as state.py
 * (SearchState), move for move.
 *
 * Why C: the search is a tight loop over small ints and byte strings, where
 * CPython spends ~20 us a position; here it is well under 1 us.  Nothing here
 * is a rule of its own: the state, the move order, the safe-move closure, the
 * deal-first test and the canonical key are a line-by-line port of state.py,
 * and tests/test_solver_core.py checks that both searches expand exactly the
 * same positions (same verdict, node count, best and line) on random positions
 * of every game and mode, with every shortcut on and off.  Every "won" line is
 * still replayed through the engine by search.py.
 *
 * hold_back() is one try of the manual-mode probes: search.py's
 * deal_holding_back (the rest of the stock dealt as auto mode does, some
 * cards held back) and then this search from its end, checked against the
 * Python pair by tests/test_solver.py (test_compiled_hold_back_*).
 *
 * Keys: every column content met is interned as a node of a trie (a column
 * is its parent content plus one card), so a column is one int, kept up to
 * date as cards are pushed and popped, and a position's key is its dealt
 * count and its column ids in key order: 36 bytes, stored in full in the
 * transposition table, so "lost" stays an exhaustive verdict (no hash
 * compaction).  The GIL is released while searching and taken back every
 * PROGRESS_EVERY positions for the deadline, the progress callback and Ctrl-C.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAXCOLS 8
#define MAXCARDS 112
#define N_TYPES 22
#define CNT_SIZE 29
#define BASES_OF_SUIT 22
#define BASES 26
#define DEAL_CODE 8
#define COLUMN_MOVE 16
#define DIG_CODE 128 /* + 8 * (cards parked - 1) + column: state.py DIG_CODE */
#define OP_COLUMN 1000
#define OP_DEAL 2000
#define PROGRESS_EVERY 4096
#define MAXMOVES 96
#define NO_COLUMN 0xFFFFFFFFu

/* ------------------------------------------------------------------ columns */

/* Column contents are nodes of a trie (_trie.h): a column is one int. */
#include "_memory.h"
#include "_pyread.h"
#include "_records.h"
#include "_trie.h"

/* ------------------------------------------------------------------ state */

typedef struct {
    int ncols;
    int len[MAXCOLS];
    uint8_t col[MAXCOLS][MAXCARDS];
    int cnt[CNT_SIZE];
    int need[N_TYPES];
    int safe_at[N_TYPES];
    int tot[N_TYPES];
    int rank_of_type[N_TYPES];
    int deal_effect[MAXCARDS];
    int dealt, n_order, on, goal;
    int manual, symmetry, deal_first, natural_spots, lone_cards, first_in_line, digs, build_down, vacant_any_time;
    Trie *trie;
    uint32_t cid[MAXCOLS]; /* each column's node in the trie */
    int *log;
    size_t nlog, caplog;
} State;

static int log_push(State *s, int op) {
    if (s->nlog == s->caplog) {
        size_t cap = s->caplog ? 2 * s->caplog : 1024;
        int *p = realloc(s->log, cap * sizeof(int));
        if (!p) return -1;
        s->log = p;
        s->caplog = cap;
    }
    s->log[s->nlog++] = op;
    return 0;
}

static inline int top(const State *s, int i) { return s->col[i][s->len[i] - 1]; }

static inline int can_up(const State *s, int t) { return s->cnt[s->need[t]] > s->cnt[t]; }

static inline int safe_up(const State *s, int t) { return s->cnt[s->need[t]] >= s->safe_at[t]; }

/* state.py SearchState.safe_top: the top card of column i (non-empty) may go up
 * as the only move considered: safe_up; or the piles can take every card of its
 * type off them but those under it (first in line; in Salic Law once the pack
 * is dealt); or, once the pack is dealt, it can go up and either (Faerie Queen)
 * lies on a card one rank higher or alone on its base, with the rank below it
 * safe, or (no building) lies alone on its base (docs/solver.md, "Natural
 * spots", "Lone cards" and "First in line"). */
static inline int safe_top(const State *s, int i) {
    int t = top(s, i), n = s->need[t];
    if (safe_up(s, t)) return 1;
    if (!can_up(s, t)) return 0;
    if (s->first_in_line && (s->dealt == s->n_order || !s->vacant_any_time)) {
        /* the piles can take every card of its type off them but those under it */
        int short_by = s->tot[t] - s->cnt[n];
        const uint8_t *c = s->col[i];
        for (int k = s->len[i] - 2; k >= 0 && short_by > 0; k--) short_by -= c[k] == t;
        if (short_by <= 0) return 1;
    }
    if (s->dealt < s->n_order) return 0;
    if (s->lone_cards) return s->len[i] == 1;
    if (!s->natural_spots) return 0;
    if (s->len[i] > 1 && s->col[i][s->len[i] - 2] != t + 1) return 0;
    return safe_up(s, n);
}

static void undo_to(State *s, size_t mark);

/* state.py SearchState.play; the log is grown before the move, so a failed
 * allocation leaves the state as it was. */
static int play(State *s, int code) {
    if (code < DEAL_CODE) {
        int t = top(s, code);
        if (log_push(s, code | t << 4)) return -1;
        s->cid[code] = s->trie->parent[s->cid[code]];
        s->len[code]--;
        s->cnt[t]++;
        if (t > 13) s->cnt[s->rank_of_type[t]]++;
        s->on++;
    } else if (code == DEAL_CODE) {
        int effect = s->deal_effect[s->dealt];
        if (effect >= 0) {
            int last = s->ncols - 1;
            uint32_t id = trie_child(s->trie, s->cid[last], effect);
            if (id == TRIE_FULL || log_push(s, OP_DEAL)) return -1;
            s->cid[last] = id;
            s->col[last][s->len[last]++] = (uint8_t)effect;
        } else {
            if (log_push(s, OP_DEAL)) return -1;
        }
        if (effect <= -10) {
            s->cid[s->ncols] = 0;
            s->len[s->ncols++] = 0;
            s->cnt[BASES]++;
            s->cnt[BASES_OF_SUIT - 10 - effect]++;
        }
        s->dealt++;
    } else if (code >= DIG_CODE) {
        /* state.py SearchState.play: park the cards above, each on the first
         * vacant column, then send the card under them up. */
        int i = (code - DIG_CODE) & 7, parked = ((code - DIG_CODE) >> 3) + 1;
        size_t mark = s->nlog;
        for (int k = 0; k < parked; k++) {
            int j = 0;
            while (s->len[j] || j == i) j++;
            if (play(s, COLUMN_MOVE + 8 * i + j)) {
                undo_to(s, mark);
                return -1;
            }
        }
        if (play(s, i)) {
            undo_to(s, mark);
            return -1;
        }
    } else {
        int i = (code - COLUMN_MOVE) >> 3, j = (code - COLUMN_MOVE) & 7;
        uint32_t id = trie_child(s->trie, s->cid[j], top(s, i));
        if (id == TRIE_FULL || log_push(s, OP_COLUMN + 16 * i + j)) return -1;
        s->cid[j] = id;
        s->cid[i] = s->trie->parent[s->cid[i]];
        s->col[j][s->len[j]++] = s->col[i][--s->len[i]];
    }
    return 0;
}

/* Taking a move back only returns to column contents met before, so the trie
 * lookups here never allocate. */
static void undo_to(State *s, size_t mark) {
    Trie *trie = s->trie;
    while (s->nlog > mark) {
        int op = s->log[--s->nlog];
        if (op < OP_COLUMN) {
            int t = op >> 4, i = op & 15;
            s->cid[i] = trie_child(trie, s->cid[i], t);
            s->col[i][s->len[i]++] = (uint8_t)t;
            s->cnt[t]--;
            if (t > 13) s->cnt[s->rank_of_type[t]]--;
            s->on--;
        } else if (op == OP_DEAL) {
            int effect = s->deal_effect[--s->dealt];
            if (effect >= 0) {
                s->cid[s->ncols - 1] = trie->parent[s->cid[s->ncols - 1]];
                s->len[s->ncols - 1]--;
            } else if (effect <= -10) {
                s->ncols--;
                s->cnt[BASES]--;
                s->cnt[BASES_OF_SUIT - 10 - effect]--;
            }
        } else {
            int i = (op - OP_COLUMN) >> 4, j = (op - OP_COLUMN) & 15;
            s->cid[i] = trie_child(trie, s->cid[i], top(s, j));
            s->cid[j] = trie->parent[s->cid[j]];
            s->col[i][s->len[i]++] = s->col[j][--s->len[j]];
        }
    }
}

/* state.py SearchState.play_safe */
static int play_safe(State *s) {
    int changed = 1;
    while (changed) {
        changed = 0;
        for (int i = 0; i < s->ncols; i++) {
            while (s->len[i] && safe_top(s, i)) {
                if (play(s, i)) return -1;
                changed = 1;
            }
        }
    }
    return 0;
}

/* state.py SearchState.play_safe_after */
static int play_safe_after(State *s, int code) {
    if (code >= COLUMN_MOVE && code < DIG_CODE) {
        int i = (code - COLUMN_MOVE) >> 3, j = (code - COLUMN_MOVE) & 7;
        if (!(s->len[i] && safe_top(s, i)) && !safe_top(s, j)) return 0;
    }
    return play_safe(s);
}

/* state.py SearchState.newest_is_stuck */
static int newest_is_stuck(const State *s) {
    int last = s->ncols - 1;
    if (!s->len[last]) return 1;
    const int *cnt = s->cnt;
    const int *need = s->need;
    int x = top(s, last);
    if (cnt[need[x]] > cnt[x]) return 0;
    int reach[CNT_SIZE];
    int heights[MAXCOLS];
    memcpy(reach, cnt, sizeof reach);
    memcpy(heights, s->len, sizeof heights);
    int changed = 1;
    while (changed) {
        changed = 0;
        for (int k = 0; k < last; k++) {
            int h = heights[k];
            const uint8_t *col = s->col[k];
            while (h && reach[need[col[h - 1]]] > cnt[col[h - 1]]) {
                int y = col[h - 1];
                reach[s->rank_of_type[y]]++;
                if (y > 13) reach[y]++;
                h--;
                changed = 1;
            }
            heights[k] = h;
        }
        if (reach[need[x]] > cnt[x]) return 0;
    }
    return 1;
}

static void sort_pairs(int *a, int n) {
    for (int i = 1; i < n; i++) {
        int v = a[i], j = i - 1;
        while (j >= 0 && a[j] > v) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = v;
    }
}

/* state.py SearchState.moves: the same codes in the same order. */
static int gen_moves(const State *s, uint8_t *out) {
    int n = s->ncols, m = 0;
    const int *cnt = s->cnt;
    const int *need = s->need;
    int piles[MAXCOLS], np = 0;
    for (int i = 0; i < n; i++)
        if (s->len[i] && can_up(s, top(s, i))) piles[np++] = i;
    int pack_dealt = s->dealt >= s->n_order;
    int manual_dealing = s->manual && !pack_dealt;
    if (manual_dealing) {
        if (np && piles[np - 1] == n - 1) {
            out[m++] = (uint8_t)(n - 1);
            if (!s->vacant_any_time) out[m++] = DEAL_CODE;
            for (int k = 0; k < np - 1; k++) out[m++] = (uint8_t)piles[k];
        } else {
            if (!s->vacant_any_time) out[m++] = DEAL_CODE;
            for (int k = 0; k < np; k++) out[m++] = (uint8_t)piles[k];
        }
    } else {
        for (int k = 0; k < np; k++) out[m++] = (uint8_t)piles[k];
    }
    if (!(pack_dealt || s->vacant_any_time)) {
        if (s->deal_first && newest_is_stuck(s)) {
            out[0] = DEAL_CODE;
            return 1;
        }
        return m;
    }
    int vacant[MAXCOLS], nv = 0;
    for (int j = 0; j < n; j++)
        if (!s->len[j]) vacant[nv++] = j;
    /* Digs (docs/solver.md): once the pack is dealt, a card is parked only on the
     * way to the card under it that goes up, in one move. */
    int digs = s->digs && pack_dealt && !s->build_down ? nv : 0;
    if (digs) nv = 0;
    if (nv && s->symmetry) {
        if (pack_dealt) {
            nv = 1;
        } else {
            /* Salic Law, manual, stock not empty: the newest column is special. */
            int keep[2], nk = 0, first_other = -1, has_last = 0;
            for (int k = 0; k < nv; k++) {
                if (vacant[k] != n - 1) {
                    if (first_other < 0) first_other = vacant[k];
                } else {
                    has_last = 1;
                }
            }
            if (first_other >= 0) keep[nk++] = first_other;
            if (has_last) keep[nk++] = n - 1;
            nv = nk;
            for (int k = 0; k < nk; k++) vacant[k] = keep[k];
        }
    }
    /* Build targets by the rank of their top card (Faerie Queen). */
    int targets[16][MAXCOLS], ntargets[16];
    int any_targets = 0;
    memset(ntargets, 0, sizeof ntargets);
    if (s->build_down && pack_dealt) {
        for (int j = 0; j < n; j++) {
            if (s->len[j]) {
                int r = s->rank_of_type[top(s, j)];
                targets[r][ntargets[r]++] = j;
                any_targets = 1;
            }
        }
    }
    int empties[MAXMOVES], ne = 0;
    int uncovers[MAXMOVES], nu = 0;
    int builds[MAXMOVES], nb = 0;
    int to_vacant[MAXMOVES], ntv = 0;
    for (int i = 0; i < n; i++) {
        int size = s->len[i];
        if (!size) continue;
        int base = COLUMN_MOVE + 8 * i;
        int *first;
        int *nfirst;
        int uncovering;
        if (size == 1) {
            first = empties;
            nfirst = &ne;
            uncovering = 0;
        } else {
            int under = s->col[i][size - 2];
            uncovering = cnt[need[under]] > cnt[under];
            first = uncovering ? uncovers : builds;
            nfirst = uncovering ? &nu : &nb;
        }
        /* (size, move) pairs sort as size * 256 + move; empties keep their order. */
        int tag = first == empties ? 0 : size * 256;
        for (int k = 1; k <= digs && k < size; k++)
            if (can_up(s, s->col[i][size - 1 - k])) uncovers[nu++] = size * 256 + DIG_CODE + 8 * (k - 1) + i;
        if (nv) {
            int skip = size == 1 && s->symmetry && (pack_dealt || i != n - 1);
            for (int k = 0; k < nv; k++) {
                int j = vacant[k];
                if (skip && (pack_dealt || j != n - 1)) continue;
                if (uncovering)
                    uncovers[nu++] = size * 256 + base + j;
                else
                    to_vacant[ntv++] = base + j;
            }
        }
        if (any_targets) {
            int r = s->rank_of_type[top(s, i)] + 1;
            if (r < 16) {
                for (int k = 0; k < ntargets[r]; k++) {
                    int j = targets[r][k];
                    if (j != i) first[(*nfirst)++] = tag + base + j;
                }
            }
        }
    }
    for (int k = 0; k < ne; k++) out[m++] = (uint8_t)empties[k];
    sort_pairs(uncovers, nu);
    for (int k = 0; k < nu; k++) out[m++] = (uint8_t)(uncovers[k] & 255);
    sort_pairs(builds, nb);
    for (int k = 0; k < nb; k++) out[m++] = (uint8_t)(builds[k] & 255);
    for (int k = 0; k < ntv; k++) out[m++] = (uint8_t)to_vacant[k];
    if (manual_dealing) out[m++] = DEAL_CODE; /* Salic Law: dealing comes last */
    return m;
}

/* ------------------------------------------------------------------ keys */

typedef struct {
    uint32_t col[MAXCOLS];
    uint32_t dealt;
    uint32_t tag; /* a part of the hash, never 0: 0 marks an empty slot */
} Key;

/* An optimal sorting network for 8 (Knuth, TAOCP 5.3.4): branch-free, where an
 * insertion sort of column ids spends its time in mispredicted branches. */
static inline void cmpx(uint32_t *c, int a, int b) {
    uint32_t lo = c[a] < c[b] ? c[a] : c[b];
    uint32_t hi = c[a] < c[b] ? c[b] : c[a];
    c[a] = lo;
    c[b] = hi;
}

static inline void sort8(uint32_t *c) {
    static const uint8_t net[19][2] = {{0, 2}, {1, 3}, {4, 6}, {5, 7}, {0, 4}, {1, 5}, {2, 6},
                                       {3, 7}, {0, 1}, {2, 3}, {4, 5}, {6, 7}, {2, 4}, {3, 5},
                                       {1, 4}, {3, 6}, {1, 2}, {3, 4}, {5, 6}};
    for (int k = 0; k < 19; k++) cmpx(c, net[k][0], net[k][1]);
}

/* The canonical key of state.py SearchState.key, with the same equivalence
 * classes: the number dealt (manual mode), then the column ids in key order
 * (the newest column first while dealing, the others sorted; with symmetry
 * off, in place); NO_COLUMN pads the columns not opened yet.  Any total order
 * of the contents serves for sorting, so the ids' own order does. */
static void make_key(const State *s, const uint32_t *cid, Key *key) {
    int n = s->ncols, first = 0;
    uint32_t *c = key->col;
    for (int i = 0; i < n; i++) c[i] = cid[i];
    for (int i = n; i < MAXCOLS; i++) c[i] = NO_COLUMN;
    if (!s->symmetry) {
        first = n;
    } else if (s->dealt < s->n_order && n) {
        uint32_t newest = c[n - 1];
        memmove(c + 1, c, (size_t)(n - 1) * sizeof(uint32_t));
        c[0] = newest;
        first = 1;
    }
    if (first == 0) {
        sort8(c); /* the columns not opened yet (NO_COLUMN) sort last */
    } else {
        for (int i = first + 1; i < n; i++) {
            uint32_t v = c[i];
            int j = i - 1;
            while (j >= first && c[j] > v) {
                c[j + 1] = c[j];
                j--;
            }
            c[j + 1] = v;
        }
    }
    key->dealt = s->manual ? (uint32_t)s->dealt : 0;
    key->tag = 0;
}

static uint64_t hash_key(const Key *key) {
    /* a multiply-add per column and one final mix: the ids are small ints */
    static const uint64_t odd[MAXCOLS] = {
        0x9E3779B97F4A7C15ULL, 0xC2B2AE3D27D4EB4FULL, 0x165667B19E3779F9ULL, 0xD6E8FEB86659FD93ULL,
        0xFF51AFD7ED558CCDULL, 0xC4CEB9FE1A85EC53ULL, 0x94D049BB133111EBULL, 0xBF58476D1CE4E5B9ULL,
    };
    uint64_t h = key->dealt;
    for (int i = 0; i < MAXCOLS; i++) h += (uint64_t)key->col[i] * odd[i];
    return mix64(h);
}

/* state.py SearchState.key_after; 0 when a safe move would follow, -1 out of memory. */
static int key_after(State *s, int code, int safe_moves, Key *key) {
    int i = (code - COLUMN_MOVE) >> 3, j = (code - COLUMN_MOVE) & 7;
    if (safe_moves) {
        /* the card uncovered, or the card moved on its new spot, would be safe */
        int t = top(s, i), stop = 0;
        s->len[i]--;
        s->col[j][s->len[j]++] = (uint8_t)t;
        if ((s->len[i] && safe_top(s, i)) || ((s->natural_spots || s->lone_cards) && safe_top(s, j))) stop = 1;
        s->len[j]--;
        s->len[i]++;
        if (stop) return 0;
    }
    uint32_t cid[MAXCOLS];
    memcpy(cid, s->cid, sizeof cid);
    cid[j] = trie_child(s->trie, cid[j], top(s, i));
    if (cid[j] == TRIE_FULL) return -1;
    cid[i] = s->trie->parent[cid[i]];
    make_key(s, cid, key);
    return 1;
}

/* ------------------------------------------------------------------ the table */

/* The positions expanded: open addressing over whole keys.  Most moves tried
 * lead back to a position met a moment ago, so a small direct-mapped cache of
 * recent keys (every one of them also in the table) answers most lookups
 * without a trip to main memory.  A key's slot is the high bits of its hash
 * scaled to the capacity, which need not be a power of two: where doubling
 * would not fit in memory (_memory.h, or the allocation fails) the table grows
 * by less, down to a quarter, before the search gives up on memory. */
#define RECENT 4096
typedef struct {
    Key *slots;
    size_t cap, count;
    Key recent[RECENT];
} Table;

static inline size_t slot_of(uint64_t h, size_t cap) { return (size_t)(((unsigned __int128)h * cap) >> 64); }

static int table_init(Table *t) {
    memset(t->recent, 0, sizeof t->recent);
    t->cap = 1 << 10;
    t->count = 0;
    t->slots = calloc(t->cap, sizeof(Key));
    return t->slots ? 0 : -1;
}

static void table_free(Table *t) { free(t->slots); }

static int table_grow(Table *t) {
    /* Double; where that does not fit, grow by three quarters, a half, a quarter. */
    size_t cap = t->cap * 2;
    Key *slots = NULL;
    for (; cap >= t->cap + t->cap / 4; cap -= t->cap / 4)
        if (memory_allows(cap * sizeof(Key)) && (slots = calloc(cap, sizeof(Key)))) break;
    if (!slots) return -1;
    for (size_t k = 0; k < t->cap; k++) {
        Key *e = &t->slots[k];
        if (!e->tag) continue;
        size_t idx = slot_of(hash_key(e), cap);
        while (slots[idx].tag)
            if (++idx == cap) idx = 0;
        slots[idx] = *e;
    }
    free(t->slots);
    t->slots = slots;
    t->cap = cap;
    return 0;
}

/* 1 if the key was new (and is now in), 0 if it was there, -1 out of memory. */
static int table_add(Table *t, Key *key) {
    uint64_t h = hash_key(key);
    key->tag = (uint32_t)h | 1; /* the low bits: the slot is the high ones */
    Key *recent = &t->recent[(h >> 40) & (RECENT - 1)];
    if (recent->tag == key->tag && !memcmp(recent, key, sizeof(Key))) return 0;
    size_t cap = t->cap;
    size_t idx = slot_of(h, cap);
    for (;;) {
        Key *e = &t->slots[idx];
        if (!e->tag) break;
        if (e->tag == key->tag && !memcmp(e, key, sizeof(Key))) {
            *recent = *key;
            return 0;
        }
        if (++idx == cap) idx = 0;
    }
    t->slots[idx] = *key;
    *recent = *key;
    t->count++;
    if (t->count * 5 >= t->cap * 4 && table_grow(t)) return -1;
    return 1;
}

/* ------------------------------------------------------------------ the search */

typedef struct {
    uint8_t moves[MAXMOVES];
    uint8_t n, k;
    size_t mark;
} Frame;

/* A frame for s's moves on top of the stack (grown as needed); NULL out of memory. */
static Frame *push_frame(Frame **stack, size_t *room, size_t *depth, const State *s, size_t mark) {
    if (*depth == *room) {
        Frame *p = realloc(*stack, 2 * *room * sizeof(Frame));
        if (!p) return NULL;
        *stack = p;
        *room *= 2;
    }
    Frame *c = &(*stack)[(*depth)++];
    c->n = (uint8_t)gen_moves(s, c->moves);
    c->k = 0;
    c->mark = mark;
    return c;
}

/* MEMORY: stopped because its tables would not fit (_memory.h), a limit like
 * UNKNOWN's; FAILED: a Python exception is set. */
enum { WON, LOST, UNKNOWN, MEMORY, FAILED };

typedef struct {
    long long limit;
    double deadline; /* < 0: none */
    PyObject *on_progress;
    int safe_moves;
    long long nodes;
    int best;
    int trace;    /* layered(): keep the way back to a win (its entries file) */
    size_t max_entries; /* layered(): entries kept at most, as where the disk runs short */
    int untraced; /* layered(): TRACED, or won with the way back kept PART_TRACED or UNTRACED */
    size_t part_records; /* layered(): a layer waiting more than this is split by class */
    double save_every;   /* layered(), kept: seconds between saves as it goes (< 0: only where it stops) */
} Limits;

enum { TRACED, PART_TRACED, UNTRACED }; /* Limits.untraced */

/* Take the GIL back for the deadline, progress and Ctrl-C; 1 to stop
 * ("unknown"), -1 on a Python exception. */
static int checkpoint(Limits *lim, PyThreadState **ts) {
    PyEval_RestoreThread(*ts);
    int stop = 0;
    if (PyErr_CheckSignals()) {
        stop = -1;
    } else if (lim->deadline >= 0 && monotonic() >= lim->deadline) {
        stop = 1;
    } else if (lim->on_progress) {
        PyObject *r = PyObject_CallFunction(lim->on_progress, "L", lim->nodes);
        if (!r) stop = -1;
        Py_XDECREF(r);
    }
    *ts = PyEval_SaveThread();
    return stop;
}

enum { GOING = -1 }; /* not decided yet */

/* A position new to the search (its cards up `on`), counted: GOING, or
 * UNKNOWN at a limit, or FAILED (a Python exception is set). */
static int count_position(Limits *lim, int on, PyThreadState **ts) {
    lim->nodes++;
    if (on > lim->best) lim->best = on;
    if (lim->nodes >= lim->limit) return UNKNOWN;
    if (!(lim->nodes & (PROGRESS_EVERY - 1))) {
        int stop = checkpoint(lim, ts);
        if (stop) return stop > 0 ? UNKNOWN : FAILED;
    }
    return GOING;
}

/* search.py _python_search, step for step; MEMORY where dfs.python_search
 * raises OutOfMemory. */
static int search(State *s, Limits *lim) {
    int safe = lim->safe_moves;
    Key key;
    Table *table = malloc(sizeof(Table)); /* the recent-keys cache is too big for the stack */
    Frame *stack = NULL;
    size_t depth = 0, room = 0;
    int result = FAILED;
    lim->nodes = 0;
    lim->best = s->on;
    if (!table || table_init(table)) goto memory;
    if (safe && play_safe(s)) goto memory;
    lim->best = s->on;
    lim->nodes = 1;
    if (s->on == s->goal) {
        table_free(table);
        free(table);
        return WON;
    }
    make_key(s, s->cid, &key);
    if (table_add(table, &key) < 0) goto memory;
    room = 256;
    stack = malloc(room * sizeof(Frame));
    if (!stack || !push_frame(&stack, &room, &depth, s, 0)) goto memory;
    PyThreadState *ts = PyEval_SaveThread();
    while (depth) {
        Frame *f = &stack[depth - 1];
        if (f->k == f->n) {
            undo_to(s, f->mark);
            depth--;
            continue;
        }
        int move = f->moves[f->k++];
        size_t mark = s->nlog;
        int fast = move >= COLUMN_MOVE && move < DIG_CODE ? key_after(s, move, safe, &key) : 0;
        if (fast < 0) goto memory_threaded;
        if (fast) {
            int added = table_add(table, &key);
            if (added < 0) goto memory_threaded;
            if (!added) continue;
            if (play(s, move)) goto memory_threaded;
        } else {
            if (play(s, move)) goto memory_threaded;
            if (safe && play_safe_after(s, move)) goto memory_threaded;
            if (s->on == s->goal) {
                result = WON;
                break;
            }
            make_key(s, s->cid, &key);
            int added = table_add(table, &key);
            if (added < 0) goto memory_threaded;
            if (!added) {
                undo_to(s, mark);
                continue;
            }
        }
        int counted = count_position(lim, s->on, &ts);
        if (counted != GOING) {
            result = counted;
            break;
        }
        Frame *c = push_frame(&stack, &room, &depth, s, mark);
        if (!c) goto memory_threaded;
        if (move >= COLUMN_MOVE && move < DIG_CODE && s->nlog == mark + 1) {
            /* Moving the card straight back gives the parent position again. */
            int back = COLUMN_MOVE + 8 * ((move - COLUMN_MOVE) & 7) + ((move - COLUMN_MOVE) >> 3);
            for (int k = 0; k < c->n; k++) {
                if (c->moves[k] == back) {
                    memmove(c->moves + k, c->moves + k + 1, (size_t)(c->n - k - 1));
                    c->n--;
                    break;
                }
            }
        }
    }
    if (!depth && result == FAILED) result = LOST;
    PyEval_RestoreThread(ts);
    if (result == WON) lim->best = s->on;
    free(stack);
    table_free(table);
    free(table);
    return result;
memory_threaded:
    PyEval_RestoreThread(ts);
memory:
    /* Out of memory, or a table that would leave the machine short: a limit,
     * as the node limit is (lim->nodes and lim->best say how far it got). */
    free(stack);
    if (table) table_free(table);
    free(table);
    return MEMORY;
}

/* ------------------------------------------------------------------ the search by layers */

/* layered(): the same exhaustive search as search() -- the same moves, the
 * same safe moves, the same keys, so on a lost position the same positions
 * -- in another order, which needs far less memory.  Every move keeps a
 * position's progress, the cards dealt plus the cards on the piles (a move
 * between columns), or raises it (a deal or a card going up, and the safe
 * moves after it).  So no position is met again once every position of
 * lower progress has been expanded: the search expands the positions layer
 * by layer in order of progress and frees each layer when it is done.  It
 * holds in memory the layer it expands, never the layers below, where the
 * depth-first search holds every position it has met.  A position is kept
 * as its key alone, and rebuilt from it to be expanded (rebuild()).
 *
 * What has been reached above that layer waits on disk, a temporary file
 * a layer (Pending), as often as it was reached; it becomes one position
 * when its layer is read into memory, and is counted then.  That halves the
 * memory again (the positions waiting are about as many as the layer's own,
 * Faerie Queen 9844: 3.2 million against 3.1 million at the peak) for a
 * file of some 7 bytes (coded, _records.h) a move that raises the progress (3.4 such moves a
 * position there), read back soon after it is written, mostly from the page
 * cache.  The layer's order is unchanged: the positions from below first,
 * in the order they were reached, then those reached within the layer.
 *
 * The line of a win: each position of a layer remembers its entry, the
 * first position of that layer on its way from the root (reached by a move
 * that raised the progress).  The entries go to a temporary file, each as
 * its key's hash and the entry it came from.  Back from the won position's
 * entry to the root they give a chain of hashes, and a small depth-first
 * search within each layer (reach()) finds the way from one to the next on
 * the real position, so the line's column numbers are the searched
 * position's.  A hash stands for its key: were two keys of a layer's moves
 * to share one, the line could go astray, and the replay through the engine
 * that every won line gets would say so; nothing that is not a win could be
 * called one.  The file takes 12 bytes an entry, and nearly every position
 * is an entry: it stops growing where the disk would be left short
 * (disk_allows).  After that a position read into its layer keeps the entry
 * it came from, so a win found then comes back with the line to its last
 * position with an entry (lim->untraced), from which a win is sure, a
 * smaller search (dfs.layered_search searches again from there). */

#define LAYERS 256 /* progress is at most 104 dealt + 104 up */
#define NO_ENTRY 0xFFFFFFFFu

/* A position of the layer: its key without the tag (the index slot has it),
 * the dealt count in a byte, packed: 37 bytes where a Key and an entry take
 * 44, and most of the memory is these. */
typedef struct __attribute__((packed)) {
    uint32_t col[MAXCOLS];
    uint32_t entry;
    uint8_t dealt;
} Rec;

static inline int same_position(const Key *a, const Key *b) {
    return !memcmp(a->col, b->col, sizeof a->col) && a->dealt == b->dealt;
}

static inline int rec_is(const Rec *rec, const Key *key) {
    return rec->dealt == key->dealt && !memcmp(rec->col, key->col, sizeof rec->col);
}

static inline void rec_key(const Rec *rec, Key *key) {
    memcpy(key->col, rec->col, sizeof key->col);
    key->dealt = rec->dealt;
    key->tag = 0;
}

typedef struct __attribute__((packed)) {
    uint64_t hash;   /* hash_key() of its key */
    uint32_t parent; /* the entry this one was reached from; NO_ENTRY at the root */
} Entry;

_Static_assert(sizeof(Waiting) == 40, "a waiting record is packed");

static inline void waiting_pack(Waiting *wait, const Key *key, int on, uint32_t cls, uint32_t parent) {
    memcpy(wait->col, key->col, sizeof wait->col);
    wait->dealt = (uint8_t)key->dealt;
    wait->on = (uint8_t)on;
    wait->cls = (uint16_t)cls;
    wait->parent = parent;
}

static inline void waiting_key(const Waiting *wait, Key *key) {
    memcpy(key->col, wait->col, sizeof key->col);
    key->dealt = wait->dealt;
    key->tag = 0;
}

static inline int same_waiting(const Waiting *a, const Waiting *b) {
    return !memcmp(a->col, b->col, sizeof a->col) && a->dealt == b->dealt;
}

typedef struct Pending {
    FILE *file; /* NULL until the first position waits here */
    char *buffer;
    const char *dir; /* where the search is kept (save_dir), or NULL: a temporary file */
    char name[24];   /* its file's name there */
    Key *recent; /* by hash: the last key written there, which need not be again */
    Coder coder;      /* its file's records are coded against the one before */
    size_t n;
    /* A large layer's file is split by class as it is written (split_pending),
     * its records then going to these parts; a part's repeats are weeded out
     * whenever it has grown to compact_at records (compact_part). */
    struct Pending *parts;
    size_t nparts, compact_at;
} Pending;

#define PENDING_BUFFER ((size_t)1 << 18)
/* Moves that commute reach the same position close together: a cache of
 * 4 096 recent keys a layer keeps 43% of the records out of the files
 * (Faerie Queen 9844: 60 of 140 million), which the layer's index would
 * have merged when read.  The first of each stays, so nothing changes.  It
 * stays that small, in the caches of the processor: grown to 2^20 keys for
 * the largest layers (40 MB, to save disk before the files were weeded and
 * coded), every lookup was a trip to memory, and Intrigue 9879's first 400
 * million positions took 566 s of CPU where this takes 383 s, for 0.7% more
 * disk at the most (the weeding bounds the files either way). */
#define PENDING_RECENT 4096

#define PATH_SIZE 4096

/* The file `name` in `dir` into path: 0, or -1 where it does not fit. */
static int path_in(char path[PATH_SIZE], const char *dir, const char *name) {
    return snprintf(path, PATH_SIZE, "%s/%s", dir, name) < PATH_SIZE ? 0 : -1;
}

/* A file of the search: a temporary one, or where the search is kept the
 * file `name` in `dir`, new or (existing: on resuming) as it was left, at its
 * end.  A new one is a new file, never one emptied in place: a save made as
 * the search went may hold the one of that name.  NULL where it cannot be
 * opened. */
static FILE *open_file(const char *dir, const char *name, char *buffer, size_t size, int existing) {
    FILE *file;
    char path[PATH_SIZE];
    if (!dir) {
        file = tmpfile(); /* closing deletes it */
    } else {
        if (path_in(path, dir, name)) return NULL;
        if (!existing) unlink(path);
        file = fopen(path, existing ? "r+b" : "w+b");
    }
    if (file && buffer) setvbuf(file, buffer, _IOFBF, size);
    if (file && existing && fseeko(file, 0, SEEK_END)) {
        fclose(file);
        return NULL;
    }
    return file;
}

static void remove_file(const char *dir, const char *name) {
    char path[PATH_SIZE];
    if (dir && !path_in(path, dir, name)) unlink(path);
}

/* The file `from` in dir renamed `to`: 0, or -1. */
static int rename_in(const char *dir, const char *from, const char *to) {
    char a[PATH_SIZE], b[PATH_SIZE];
    return path_in(a, dir, from) || path_in(b, dir, to) || rename(a, b) ? -1 : 0;
}

/* "<name>.tmp", written whole, in place of `name` at once: 0, or -1. */
static int publish_file(const char *dir, const char *name) {
    char tmp[PATH_SIZE];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", name) >= (int)sizeof tmp) return -1;
    return rename_in(dir, tmp, name);
}

/* A waiting file with its buffer (of `size`): 0, or -1. */
static int pending_open(Pending *pending, size_t size, int existing) {
    if (!pending->buffer && !(pending->buffer = malloc(size))) return -1;
    pending->file = open_file(pending->dir, pending->name, pending->buffer, size, existing);
    return pending->file ? 0 : -1;
}

/* Closes a layer's (or a part's) files; `keep` leaves those of a kept
 * search in place (to resume), else they are deleted. */
static void pending_release(Pending *pending, int keep) {
    if (pending->file) {
        fclose(pending->file);
        if (!keep) remove_file(pending->dir, pending->name);
    }
    free(pending->buffer);
    free(pending->recent);
    if (pending->parts)
        for (size_t k = 0; k < pending->nparts; k++) pending_release(&pending->parts[k], keep);
    free(pending->parts);
    const char *dir = pending->dir;
    char name[sizeof pending->name];
    memcpy(name, pending->name, sizeof name);
    memset(pending, 0, sizeof *pending);
    pending->dir = dir;
    memcpy(pending->name, name, sizeof name);
}

static void pending_close(Pending *pending) { pending_release(pending, 0); }

/* Parts of a pending file, named after it: "<name>-<k>". */
static Pending *pending_parts(const Pending *whole, size_t nparts) {
    Pending *parts = calloc(nparts, sizeof(Pending));
    if (parts)
        for (size_t k = 0; k < nparts; k++) {
            parts[k].dir = whole->dir;
            snprintf(parts[k].name, sizeof parts[k].name, "%.12s-%zu", whole->name, k);
        }
    return parts;
}

/* A layer's positions in the order they were reached (also the queue of the
 * layer's expansion) and an index of them by open addressing: a slot holds a
 * key's tag (high half) and its place + 1 (low half), so that probing reads
 * the positions only where the tags agree.  The index is in INDEX_PARTS
 * parts by the hash's top byte, each grown on its own: growing one table
 * would hold the old and the doubled one together, half again the layer's
 * memory at the moment it is largest. */
#define INDEX_PARTS 256

typedef struct {
    uint64_t *slots;
    size_t cap, used;
} IndexPart;

typedef struct {
    Rec *recs;
    size_t n, room;
    IndexPart part[INDEX_PARTS];
} Layer;

static void layer_free(Layer *layer) {
    free(layer->recs);
    for (int k = 0; k < INDEX_PARTS; k++) free(layer->part[k].slots);
    memset(layer, 0, sizeof *layer);
}

/* A key's tag in the layer's index: the 32 bits of its hash below the top
 * byte (which picks the index part), never 0.  Its slot in a part (of at
 * most 2^32) is the tag scaled, so a part grows without reading a position
 * or hashing a key again: growing the index of Faerie Queen 4940's largest
 * parts, 100 million positions, had been a fifth of the time spent reading
 * them in, nearly all of it trips to the positions for their keys. */
static inline uint32_t layer_tag(uint64_t h) { return (uint32_t)(h >> 24) | 1; }
static inline size_t part_slot(uint32_t tag, size_t cap) { return (size_t)(((uint64_t)tag * cap) >> 32); }

static int part_reindex(IndexPart *part, size_t cap) {
    size_t bytes = cap * sizeof(uint64_t);
    /* many small growths, together as large as one: each asks from 1 MiB */
    if (!memory_allows_from(bytes, (size_t)1 << 20)) return -1;
    uint64_t *slots = calloc(cap, sizeof(uint64_t));
    if (!slots) return -1;
    for (size_t k = 0; k < part->cap; k++) {
        uint64_t slot = part->slots[k];
        if (!slot) continue;
        size_t idx = part_slot((uint32_t)(slot >> 32), cap);
        while (slots[idx])
            if (++idx == cap) idx = 0;
        slots[idx] = slot;
    }
    free(part->slots);
    part->slots = slots;
    part->cap = cap;
    return 0;
}

/* 1 if the key (its hash h, its tag layer_tag(h)) was new and is now in,
 * with this entry; 0 if it was there; -1 out of memory. */
static int layer_add(Layer *layer, const Key *key, uint64_t h, uint32_t entry) {
    IndexPart *part = &layer->part[h >> 56];
    if (!part->cap && part_reindex(part, 64)) return -1;
    size_t idx = part_slot(key->tag, part->cap);
    for (uint64_t slot; (slot = part->slots[idx]);) {
        if ((uint32_t)(slot >> 32) == key->tag && rec_is(&layer->recs[(uint32_t)slot - 1], key)) return 0;
        if (++idx == part->cap) idx = 0;
    }
    if (layer->n == layer->room) {
        /* By eighths: the memory check asks for the whole growth, which the
         * layer touches only as it fills, and growing a large block moves
         * its pages (mremap) rather than copying them, so small steps cost
         * little and let the largest layer, most of the memory, take what
         * is there. */
        size_t room = layer->room >= 8192 ? layer->room + layer->room / 8 : 8192;
        if (room > 0xFFFFFFFEu) room = 0xFFFFFFFEu;
        if (room == layer->room || !memory_allows((room - layer->room) * sizeof(Rec))) return -1;
        Rec *recs = realloc(layer->recs, room * sizeof(Rec));
        if (!recs) return -1;
        layer->recs = recs;
        layer->room = room;
    }
    Rec *rec = &layer->recs[layer->n];
    memcpy(rec->col, key->col, sizeof rec->col);
    rec->dealt = (uint8_t)key->dealt;
    rec->entry = entry;
    part->slots[idx] = (uint64_t)key->tag << 32 | ++layer->n;
    if (++part->used * 10 >= part->cap * 7 && part_reindex(part, 2 * part->cap)) return -1;
    return 1;
}

/* What rebuild() needs besides a key: the root's column cards by type, and
 * what dealing from the root's stock index to each k adds (cards onto the
 * columns by type; the bases' counts). */
typedef struct {
    int in_columns[N_TYPES];
    int dealt_types[MAXCARDS + 1][N_TYPES];
    int dealt_counts[MAXCARDS + 1][CNT_SIZE];
} Rebuild;

static void rebuild_init(const State *root, Rebuild *rb) {
    memset(rb, 0, sizeof *rb);
    for (int i = 0; i < root->ncols; i++)
        for (int h = 0; h < root->len[i]; h++) rb->in_columns[root->col[i][h]]++;
    for (int k = root->dealt; k < root->n_order; k++) {
        memcpy(rb->dealt_types[k + 1], rb->dealt_types[k], sizeof rb->dealt_types[k]);
        memcpy(rb->dealt_counts[k + 1], rb->dealt_counts[k], sizeof rb->dealt_counts[k]);
        int effect = root->deal_effect[k];
        if (effect >= 0) rb->dealt_types[k + 1][effect]++;
        if (effect <= -10) {
            rb->dealt_counts[k + 1][BASES]++;
            rb->dealt_counts[k + 1][BASES_OF_SUIT - 10 - effect]++;
        }
    }
}

/* The position of `key` into w (the root, or the position last rebuilt
 * there, its moves undone): the columns from the trie, in the order play()
 * keeps them (the newest last); the pile counts from the cards that left
 * the columns since the root.  A key stands for every position it merges,
 * and expanding any one of them reaches the same keys (docs/solver.md,
 * "Equivalences").  A column w holds already in its place is not walked
 * again (5% of the instructions of Faerie Queen 2493 by layers). */
static void rebuild(const State *root, const Rebuild *rb, const Key *key, State *w) {
    const Trie *trie = root->trie;
    int dealt = root->manual ? (int)key->dealt : root->dealt;
    uint32_t ids[MAXCOLS];
    int n = 0;
    for (int i = 0; i < MAXCOLS; i++)
        if (key->col[i] != NO_COLUMN) ids[n++] = key->col[i];
    if (root->symmetry && dealt < root->n_order && n) {
        uint32_t newest = ids[0]; /* make_key put it first */
        memmove(ids, ids + 1, (size_t)(n - 1) * sizeof(uint32_t));
        ids[n - 1] = newest;
    }
    int have[N_TYPES] = {0};
    for (int i = 0; i < n; i++) {
        if (i >= w->ncols || w->cid[i] != ids[i]) {
            int len = 0;
            for (uint32_t id = ids[i]; id; id = trie->parent[id]) len++;
            int h = len;
            for (uint32_t id = ids[i]; id; id = trie->parent[id]) w->col[i][--h] = trie->last[id];
            w->len[i] = len;
            w->cid[i] = ids[i];
        }
        for (int h = 0; h < w->len[i]; h++) have[w->col[i][h]]++;
    }
    w->ncols = n;
    w->dealt = dealt;
    w->on = root->on;
    for (int c = 0; c < CNT_SIZE; c++) w->cnt[c] = root->cnt[c] + rb->dealt_counts[dealt][c];
    for (int t = 1; t < N_TYPES; t++) {
        int up = rb->in_columns[t] + rb->dealt_types[dealt][t] - have[t];
        w->cnt[t] += up;
        if (t > 13) w->cnt[w->rank_of_type[t]] += up;
        w->on += up;
    }
    w->nlog = 0;
}

/* From s, by moves that keep its progress, then one move: a position whose
 * key hashes to *target, or with target NULL a won position.  Found: 1, with s
 * there (its log holds the way); not found: 0, s as it was; -1 out of memory. */
static int reach(State *s, const uint64_t *target, int safe) {
    int progress = s->dealt + s->on, found = 0;
    Table *table = malloc(sizeof(Table));
    size_t depth = 0, room = 256;
    Frame *stack = malloc(room * sizeof(Frame));
    Key key;
    if (!table || !stack || table_init(table)) {
        free(stack);
        free(table);
        return -1;
    }
    make_key(s, s->cid, &key);
    if (table_add(table, &key) < 0 || !push_frame(&stack, &room, &depth, s, s->nlog)) goto memory;
    while (depth) {
        Frame *f = &stack[depth - 1];
        if (f->k == f->n) {
            undo_to(s, f->mark);
            depth--;
            continue;
        }
        int move = f->moves[f->k++];
        size_t mark = s->nlog;
        if (play(s, move) || (safe && play_safe_after(s, move))) goto memory;
        if (!target && s->on == s->goal) {
            found = 1;
            break;
        }
        make_key(s, s->cid, &key);
        if (s->dealt + s->on != progress) {
            if (target && hash_key(&key) == *target) {
                found = 1;
                break;
            }
            undo_to(s, mark);
            continue;
        }
        int added = table_add(table, &key);
        if (added < 0) goto memory;
        if (!added) {
            undo_to(s, mark);
            continue;
        }
        if (!push_frame(&stack, &room, &depth, s, mark)) goto memory;
    }
    free(stack);
    table_free(table);
    free(table);
    return found;
memory:
    free(stack);
    table_free(table);
    free(table);
    return -1;
}

/* The line from the root s to a won position, by the entries (the file) back
 * from `entry`, the one of the won position's layer: WON with s there, or
 * MEMORY, or FAILED (*why says what went wrong, with the GIL released).
 * With to_win 0, to the position of `entry` alone (the won position's layer
 * is above it). */
static int replay_entries(State *s, FILE *entries, uint32_t entry, int safe, int to_win, const char **why) {
    size_t n = 0, room = 64;
    Entry *chain = malloc(room * sizeof(Entry));
    if (!chain) return MEMORY;
    for (uint32_t at = entry; at != NO_ENTRY; at = chain[n - 1].parent) {
        if (n == room) {
            Entry *p = realloc(chain, 2 * room * sizeof(Entry));
            if (!p) {
                free(chain);
                return MEMORY;
            }
            chain = p;
            room *= 2;
        }
        if (fseeko(entries, (off_t)at * (off_t)sizeof(Entry), SEEK_SET) ||
            fread(&chain[n++], sizeof(Entry), 1, entries) != 1) {
            free(chain);
            *why = "the search by layers could not read back its temporary file";
            return FAILED;
        }
    }
    /* chain[n - 1] is the root, where s is. */
    int result = WON;
    for (size_t k = n - 1; k-- > 0 && result == WON;) {
        uint64_t target = chain[k].hash;
        int r = reach(s, &target, safe);
        if (r < 0) result = MEMORY;
        if (r == 0) {
            result = FAILED;
            *why = "the search by layers lost the way between two of its layers (a bug, or two keys with one hash)";
        }
    }
    if (result == WON && to_win) {
        int r = reach(s, NULL, safe);
        if (r < 0) result = MEMORY;
        if (r == 0) {
            result = FAILED;
            *why = "the search by layers lost the way to its won position (a bug)";
        }
    }
    free(chain);
    return result;
}

/* The bytes free on the disk a file is on for this process, and the disk's
 * size: 0 where they cannot be read. */
static unsigned long long disk_free(FILE *file, unsigned long long *total) {
    struct statvfs vfs;
    if (fstatvfs(fileno(file), &vfs)) return 0;
    unsigned long long block = vfs.f_frsize ? vfs.f_frsize : vfs.f_bsize;
    if (total) *total = (unsigned long long)vfs.f_blocks * block;
    return (unsigned long long)vfs.f_bavail * block;
}

/* Whether a file may grow by another DISK_CHECK records and leave `reserve`
 * bytes free.  The positions waiting, which the search cannot do without,
 * leave a fortieth of the disk (at least 1 GiB); the entries, which only
 * give a win its line, half of what was free when the search began (at
 * least 2 GiB, Entries.reserve).  Half of what is free rather than a share
 * of the disk's size: a disk can be far larger than what this process may
 * fill (a quota, or a container's share), and a share of its size would stop
 * the entries of even the smallest search there. */
#define DISK_CHECK (1u << 20)
static inline int disk_leaves(unsigned long long free_bytes, unsigned long long reserve) {
    return free_bytes >= reserve + (unsigned long long)DISK_CHECK * CODED_MAX; /* a check's records, however coded */
}

static int disk_allows(FILE *file, unsigned long long reserve) { return disk_leaves(disk_free(file, NULL), reserve); }

static int disk_allows_waiting(FILE *file) {
    unsigned long long total = 0, free_bytes = disk_free(file, &total);
    return disk_leaves(free_bytes, total / 40 > (1ULL << 30) ? total / 40 : 1ULL << 30);
}

/* A layer's positions fall into classes, one for each set of cards up (by
 * type) with one count of cards dealt: a move that keeps the progress sends
 * no card up and deals none, so it keeps the class, and no position of one
 * class is ever reached from another of the same layer.  So a layer can be
 * expanded a class at a time, each holding only its own positions: a
 * layer's waiting positions are split by these 16 bits of their class into
 * parts that each fit in memory, and each part is read and expanded alone.
 * The bits are a function of the key (the cards up by type follow from the
 * columns and the cards dealt), so a key waits in one part however often it
 * is reached, and the positions, the count and `best` are those of the
 * layer expanded whole. */
static uint32_t class_bits(const State *w, const Key *key) {
    uint64_t h = 0x9E3779B97F4A7C15ull ^ key->dealt;
    for (int t = 1; t < N_TYPES; t++) {
        h = (h ^ (uint64_t)(uint32_t)w->cnt[t]) * 0x100000001B3ull;
        h ^= h >> 29;
    }
    return (uint32_t)(h >> 48);
}
#define PART_BUFFER ((size_t)1 << 16)
#define MAX_PARTS 512
#define WAITING_PARTS 64
/* Small parts are faster as well as smaller, their index staying in the
 * caches: Faerie Queen 9844 took 139 s at 216 MB in parts of 2^24 records,
 * 113 s at 109 MB in parts of 10^6, 94 s at 49 MB in parts of 10^5.  A part
 * is a file while its layer is split, so their number is capped. */
#define DEFAULT_PART_RECORDS ((Py_ssize_t)1 << 17)

/* A part's file, opened on its first record. */
static int part_open(Pending *part) { return part->file ? 0 : pending_open(part, PART_BUFFER, 0); }

/* A part's file, read, to be written again from its start: a temporary
 * file is emptied in place; where the search is kept, a new file takes its
 * name, since the last save may hold the one it had ("A kept search, saved
 * as it goes"), which must stay as that save knew it.  0, or -1. */
static int part_restart(Pending *part) {
    if (!part->dir) return ftruncate(fileno(part->file), 0) || fseeko(part->file, 0, SEEK_SET) ? -1 : 0;
    char fresh[sizeof part->name + 4];
    snprintf(fresh, sizeof fresh, "%s.new", part->name);
    int failed = fclose(part->file) != 0;
    part->file = open_file(part->dir, fresh, part->buffer, PART_BUFFER, 0);
    return failed || !part->file || rename_in(part->dir, fresh, part->name) ? -1 : 0;
}

/* Splits the records of src's file into nparts parts (fresh Pendings) by
 * their class bits (divided by `div`, the number of parts src is already one
 * of), in their order: 0, or -1 where a file cannot be read, opened or
 * written.  src's file is left as it was, for its caller to remove (it is
 * never emptied in place: the last save of a kept search may hold it, "A
 * kept search, saved as it goes").  The disk holds the records twice until
 * then, coded (_records.h): a fifth of what one uncoded copy took. */
static int split_pending(Pending *src, Pending *parts, size_t nparts, size_t div) {
    RecordReader reader;
    if (reader_open(&reader, src->file)) return -1;
    Waiting wait;
    size_t seen = 0;
    int got, failed = 0;
    while (!failed && (got = reader_next(&reader, &wait)) > 0) {
        Pending *part = &parts[wait.cls / div % nparts];
        if (part_open(part) || record_put(part->file, &part->coder, &wait)) failed = 1;
        part->n++;
        seen++;
    }
    reader_close(&reader);
    if (got < 0 || seen != src->n) failed = 1;
    return failed ? -1 : 0;
}

/* Weeds the repeats out of a part's file, keeping the first of each (as the
 * layer's index would when it reads them) in their order: 0, or -1 where
 * the file cannot be read or written; where the memory does not allow it,
 * nothing changes.  *removed counts the records dropped.  A part is far
 * larger than the processor's caches and its repeats lie anywhere in it, so
 * a table of the whole part would cost a trip to memory a record: the
 * records are first sorted by the top bits of their hash into groups of
 * about COMPACT_GROUP (a pass that reads and writes memory in order), and
 * each group is weeded with a table that stays in the caches.  A table of
 * the whole part, its lookups asked for sixteen at a time, had taken 45% of
 * Intrigue 9879's search past 2 billion positions; the groups take 9%, for
 * a second copy of the part in memory while it is weeded. */
#define COMPACT_GROUP 4096
typedef struct {
    Waiting wait;
    uint32_t at;  /* its place in the part */
    uint32_t tag; /* the hash's low half */
} Grouped;

static inline uint64_t waiting_hash(const Waiting *wait) {
    Key key;
    waiting_key(wait, &key);
    return hash_key(&key);
}

/* The group of a hash among 2^bits: its top bits (a shift by 64 is undefined). */
static inline size_t group_of(uint64_t h, int bits) { return bits ? (size_t)(h >> (64 - bits)) : 0; }

static int compact_part(Pending *part, size_t least, size_t *removed) {
    size_t n = part->n, groups = 1;
    int bits = 0;
    while (groups * COMPACT_GROUP < n) groups *= 2, bits++;
    part->compact_at = 2 * n > least ? 2 * n : least;
    if (!memory_allows(n * (sizeof(Waiting) + sizeof(Grouped) + 1) + groups * sizeof(size_t))) return 0;
    Waiting *all = malloc(n * sizeof(Waiting));
    Grouped *grouped = malloc(n * sizeof(Grouped));
    uint8_t *dropped = calloc(n ? n : 1, 1);
    size_t *end = calloc(groups, sizeof(size_t));
    uint32_t table[4 * COMPACT_GROUP];
    RecordReader reader = {0};
    int failed = 0;
    if (!all || !grouped || !dropped || !end || reader_open(&reader, part->file)) goto done;
    size_t seen = 0;
    int got = 1;
    while (seen < n && (got = reader_next(&reader, &all[seen])) > 0) seen++;
    reader_close(&reader);
    if (seen != n || got < 0) {
        failed = 1;
        goto done;
    }
    /* By group, in their order within each: counted, then placed.  The
     * hash is made twice rather than kept, 8 bytes a record. */
    for (size_t i = 0; i < n; i++) end[group_of(waiting_hash(&all[i]), bits)]++;
    for (size_t g = 0, sum = 0; g < groups; g++) {
        size_t count = end[g];
        end[g] = sum; /* where it begins, until its records are placed */
        sum += count;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t h = waiting_hash(&all[i]);
        Grouped *to = &grouped[end[group_of(h, bits)]++];
        to->wait = all[i];
        to->at = (uint32_t)i;
        to->tag = (uint32_t)h;
    }
    for (size_t g = 0, from = 0; g < groups; from = end[g++]) {
        size_t size = end[g] - from, cap = 64;
        while (cap < 2 * size) cap *= 2;
        uint32_t *slots = cap <= 4 * COMPACT_GROUP ? memset(table, 0, cap * sizeof(uint32_t)) : calloc(cap, sizeof(uint32_t));
        if (!slots) {
            failed = 1;
            goto done;
        }
        for (size_t k = from; k < end[g]; k++) {
            const Grouped *one = &grouped[k];
            size_t idx = one->tag & (cap - 1);
            uint32_t slot;
            for (; (slot = slots[idx]); idx = (idx + 1) & (cap - 1)) {
                const Grouped *other = &grouped[from + slot - 1];
                if (other->tag == one->tag && same_waiting(&other->wait, &one->wait)) {
                    dropped[one->at] = 1;
                    break;
                }
            }
            if (!slot) slots[idx] = (uint32_t)(k - from + 1);
        }
        if (slots != table) free(slots);
    }
    part->coder.any = 0; /* written again from its start */
    if (part_restart(part)) {
        failed = 1;
        goto done;
    }
    size_t kept = 0;
    for (size_t i = 0; i < n && !failed; i++)
        if (!dropped[i]) {
            if (record_put(part->file, &part->coder, &all[i])) failed = 1;
            kept++;
        }
    if (!failed) {
        *removed += n - kept;
        part->n = kept;
        part->compact_at = 2 * kept > least ? 2 * kept : least;
    }
done:
    free(all);
    free(grouped);
    free(dropped);
    free(end);
    return failed ? -1 : 0;
}

/* A position (its key, cards up, class and the entry it came from) to wait
 * for its layer: 0; -1 where its file cannot be opened or written; -2 where
 * the disk would be left short or its buffer does not fit.  *written counts
 * the positions put to wait in all the files, for the disk check. */
static int pending_put(Pending *pending, const Key *key, uint64_t h, int on, uint32_t cls, uint32_t parent, size_t *written,
                       size_t part_records) {
    if (!pending->recent) { /* (a resumed search's files have none yet) */
        if (!(pending->recent = calloc(PENDING_RECENT, sizeof(Key)))) return -2;
    }
    if (!pending->file && !pending->parts && pending_open(pending, PENDING_BUFFER, 0)) return -1;
    Key *recent = &pending->recent[h & (PENDING_RECENT - 1)];
    if (recent->tag && same_position(recent, key)) return 0;
    *recent = *key;
    recent->tag = 1; /* in use */
    Pending *part = pending;
    if (pending->parts) {
        part = &pending->parts[cls % pending->nparts];
        if (part_open(part)) return -1;
    }
    if (!(*written % DISK_CHECK) && !disk_allows_waiting(part->file)) return -2;
    Waiting wait;
    waiting_pack(&wait, key, on, cls, parent);
    if (record_put(part->file, &part->coder, &wait)) return -1;
    ++*written;
    if (part != pending) {
        pending->n++;
        if (++part->n >= part->compact_at) {
            size_t removed = 0;
            if (compact_part(part, 8 * part_records, &removed)) return -1;
            pending->n -= removed;
        }
    } else if (++pending->n >= 64 * part_records) {
        /* Large: split by class from now on (the layer would be when read). */
        if (!(pending->parts = pending_parts(pending, WAITING_PARTS))) return -2;
        pending->nparts = WAITING_PARTS;
        if (split_pending(pending, pending->parts, WAITING_PARTS, 1)) return -1;
        for (size_t k = 0; k < WAITING_PARTS; k++) pending->parts[k].compact_at = 8 * part_records;
        fclose(pending->file);
        remove_file(pending->dir, pending->name);
        free(pending->buffer);
        pending->file = NULL;
        pending->buffer = NULL;
    }
    return 0;
}

/* The way back to a win, while it is kept. */
typedef struct {
    FILE *file;   /* NULL: none kept (trace=False) */
    int tracing;  /* 0 once the file has stopped growing */
    uint32_t n;   /* entries written */
    size_t max;   /* at most */
    /* A resumed search reads the part it stopped in again, and the records
     * that part wrote above name the entries it gave out then: up to here
     * the file goes on whatever the disk, so that those entries are there. */
    uint32_t floor;
    unsigned long long reserve; /* bytes the file leaves free (disk_allows) */
} Entries;

/* The entry a position new to its layer by a move that raised the progress
 * gets: the next in the file, or NO_ENTRY once the file has stopped. */
static uint32_t next_entry(Entries *entries) {
    if (entries->tracing && entries->n >= entries->floor &&
        (entries->n == NO_ENTRY - 1 || entries->n >= entries->max ||
         (!(entries->n % DISK_CHECK) && !disk_allows(entries->file, entries->reserve))))
        entries->tracing = 0; /* no more entries: a win found now has no way back */
    return entries->tracing ? entries->n : NO_ENTRY;
}

/* Reads the positions waiting for a layer into it, each once: a new one gets
 * its entry (once the entries stopped, the one it came from) and is
 * counted.  GOING, or UNKNOWN, MEMORY, FAILED. */
static int load_layer(Layer *layer, Pending *pending, Limits *lim, PyThreadState **ts, Entries *entries,
                      const char **why) {
    if (!pending->file) return GOING;
    static const char *unread = "the search by layers could not read back its temporary files";
    RecordReader reader;
    if (reader_open(&reader, pending->file)) {
        *why = unread;
        return FAILED;
    }
    int result = GOING, got = 0;
    size_t seen = 0;
    Waiting wait;
    while (result == GOING && (got = reader_next(&reader, &wait)) > 0) {
        seen++;
        Key key;
        waiting_key(&wait, &key);
        uint64_t h = hash_key(&key);
        key.tag = layer_tag(h);
        uint32_t entry = next_entry(entries);
        int added = layer_add(layer, &key, h, entries->tracing ? entry : wait.parent);
        if (added < 0) {
            result = MEMORY;
        } else if (added) {
            if (entries->tracing) {
                Entry its = {.hash = h, .parent = wait.parent};
                if (fwrite(&its, sizeof its, 1, entries->file) != 1) {
                    *why = "the search by layers could not write its temporary files";
                    result = FAILED;
                    break;
                }
                entries->n++;
            }
            result = count_position(lim, wait.on, ts);
        }
    }
    reader_close(&reader);
    if (result == GOING && (got < 0 || seen != pending->n)) *why = unread, result = FAILED;
    return result;
}

/* One search by layers under way: what expanding a position needs besides
 * the position. */
typedef struct {
    const State *root;
    const Rebuild *rb;
    State w;          /* the position expanded, rebuilt from its key */
    Layer layer;      /* the part of the layer expanded */
    Pending *pending; /* by progress: the positions waiting for the layers above */
    Entries entries;
    Limits *lim;
    PyThreadState *ts;
    size_t written;     /* positions put to wait, for the disk check */
    uint32_t won_entry; /* the entry of the won position's layer, or one below */
    uint32_t layer_entries; /* the first entry of the layer expanded */
    const char *why;
    int safe;
    /* Where the expansion of layer p is: its top part `top` (of those it was
     * split into as it was written), split again into `subs` where large
     * (NULL: that top part is read whole), of which `sub` is read next. */
    int p;
    size_t top, sub, nsubs;
    Pending *subs;
    /* The counts as they were before the part read last: a search stopped
     * within a part is kept as of then, and reads that part again. */
    struct {
        long long nodes;
        int best, tracing;
        uint32_t entries;
    } mark;
    const char *dir; /* where the search is kept, or NULL */
    uint64_t print;  /* the position's fingerprint, for its manifest */
    double save_due; /* when it is saved next as it goes (monotonic()) */
} Layered;

/* A position reached from the layer p's (entry `entry`) by one move: its key
 * (hash h), cards up `on` and class cls, in the layer or waiting for its own,
 * q.  GOING, or a verdict. */
static int place(Layered *run, int p, int q, Key *key, uint64_t h, int on, uint32_t cls, uint32_t entry) {
    if (q < p || q >= LAYERS) {
        run->why = "the search by layers met a move that lowered the progress or raised it past a game's (a malformed state)";
        return FAILED;
    }
    if (q > p) {
        int put = pending_put(&run->pending[q], key, h, on, cls, entry, &run->written, run->lim->part_records);
        if (put == -2) return MEMORY;
        if (put) {
            run->why = "the search by layers could not write its temporary files";
            return FAILED;
        }
        return GOING;
    }
    key->tag = layer_tag(h);
    int added = layer_add(&run->layer, key, h, entry);
    if (added < 0) return MEMORY;
    return added ? count_position(run->lim, on, &run->ts) : GOING;
}

/* Where the lookup of a position reached (hash h, for layer q) will first
 * go to memory: the layer's index, or the recent keys of the layer it waits
 * for. */
static inline void prefetch_place(const Layered *run, int p, int q, uint64_t h) {
    if (q == p) {
        const IndexPart *part = &run->layer.part[h >> 56];
        if (part->cap) __builtin_prefetch(&part->slots[part_slot(layer_tag(h), part->cap)]);
    } else if (q > p && q < LAYERS && run->pending[q].recent) {
        __builtin_prefetch(&run->pending[q].recent[h & (PENDING_RECENT - 1)]);
    }
}

/* Every move from the i-th position of the part of layer p in memory.
 * GOING, or a verdict (WON with run->won_entry set).  Every move's key is
 * made first, and then each is placed, in the same order: the lookups' trips
 * to memory, most of the time of a large search, are asked for while the
 * keys are made, and overlap. */
static int expand_position(Layered *run, int p, size_t i) {
    State *w = &run->w;
    Key here; /* a copy: the layer moves as it grows */
    rec_key(&run->layer.recs[i], &here);
    uint32_t entry = run->layer.recs[i].entry;
    rebuild(run->root, run->rb, &here, w);
    uint8_t moves[MAXMOVES];
    int nmoves = gen_moves(w, moves), n = 0, won = 0;
    Key next[MAXMOVES];
    uint64_t hash[MAXMOVES];
    uint32_t cls[MAXMOVES];
    int on[MAXMOVES], layer[MAXMOVES];
    for (int k = 0; k < nmoves; k++) {
        int move = moves[k];
        /* A column move with no safe move after it keeps the progress:
         * its key without playing it, as search() does. */
        int fast = move >= COLUMN_MOVE && move < DIG_CODE ? key_after(w, move, run->safe, &next[n]) : 0;
        if (fast < 0) return MEMORY;
        if (fast) {
            on[n] = w->on;
            layer[n] = p;
            cls[n] = 0;
        } else {
            if (play(w, move) || (run->safe && play_safe_after(w, move))) return MEMORY;
            if (w->on == w->goal) {
                won = 1;
                break;
            }
            make_key(w, w->cid, &next[n]);
            on[n] = w->on;
            layer[n] = w->dealt + w->on;
            cls[n] = class_bits(w, &next[n]);
            undo_to(w, 0);
        }
        hash[n] = hash_key(&next[n]);
        prefetch_place(run, p, layer[n], hash[n]);
        n++;
    }
    for (int k = 0; k < n; k++) {
        int result = place(run, p, layer[k], &next[k], hash[k], on[k], cls[k], entry);
        if (result != GOING) return result;
    }
    if (won) {
        run->won_entry = entry;
        return WON;
    }
    return GOING;
}

/* Layer p's top parts (those it was split into as it was written, or its
 * one file) and their number. */
static Pending *layer_tops(Layered *run, int p, size_t *ntops) {
    Pending *whole = &run->pending[p];
    *ntops = whole->parts ? whole->nparts : 1;
    return whole->parts ? whole->parts : whole;
}

/* The counts before a part is read (Layered.mark). */
static void mark_part(Layered *run) {
    run->mark.nodes = run->lim->nodes;
    run->mark.best = run->lim->best;
    run->mark.tracing = run->entries.tracing;
    run->mark.entries = run->entries.n;
}

static int save_going(Layered *run);

/* Layer run->p, whole or (a large one) in parts by class (class_bits()):
 * those it was split into as it was written, each split again here if
 * still large; each part read, expanded and freed in turn, from where
 * run->top and run->sub say (a resumed search: part way through).  GOING,
 * or a verdict, the part stopped in left in place. */
static int expand_layer(Layered *run) {
    int p = run->p;
    size_t ntops;
    Pending *tops = layer_tops(run, p, &ntops);
    int result = GOING;
    while (run->top < ntops && result == GOING) {
        Pending *top = &tops[run->top];
        mark_part(run);
        if (!run->subs && top->n > run->lim->part_records) {
            size_t nsubs = (top->n + run->lim->part_records - 1) / run->lim->part_records;
            if (nsubs > MAX_PARTS) nsubs = MAX_PARTS;
            if (!(run->subs = pending_parts(top, nsubs))) return MEMORY;
            run->nsubs = nsubs;
            run->sub = 0;
            if (split_pending(top, run->subs, nsubs, ntops)) {
                run->why = "the search by layers could not split its temporary file";
                return FAILED;
            }
            pending_close(top);
        }
        Pending *parts = run->subs ? run->subs : top;
        size_t nparts = run->subs ? run->nsubs : 1;
        while (run->sub < nparts && result == GOING) {
            mark_part(run);
            if (run->dir && run->lim->save_every >= 0 && monotonic() >= run->save_due) {
                save_going(run); /* where it cannot be, the last save stays */
                run->save_due = monotonic() + run->lim->save_every;
            }
            result = load_layer(&run->layer, &parts[run->sub], run->lim, &run->ts, &run->entries, &run->why);
            for (size_t i = 0; i < run->layer.n && result == GOING; i++) result = expand_position(run, p, i);
            layer_free(&run->layer);
            if (result == GOING) pending_close(&parts[run->sub++]);
        }
        if (result != GOING) break;
        free(run->subs);
        run->subs = NULL;
        run->nsubs = run->sub = 0;
        run->top++;
    }
    if (result == GOING) {
        pending_close(&run->pending[p]);
        run->top = 0;
    }
    return result;
}

/* ------------------------------------------------------------------ a search by layers, kept */

/* Given a directory (save_dir), the search by layers keeps its files there,
 * named, rather than as temporary files: the positions waiting for each
 * layer ("w<layer>", its parts "w<layer>-<k>", a part split again
 * "w<layer>-<k>-<j>") and the entries ("entries").  Where it stops short of
 * a verdict -- its limit, its deadline, Ctrl-C, the memory or the disk -- it
 * adds what it needs to go on: the trie of columns ("columns": the waiting
 * records name columns by their ids in it) and a manifest ("search": the
 * counts as they were before the part it stopped in, where the expansion
 * is, and each file's records).  Run again on the same position with the
 * same directory, it reads them back, reads that part again and goes on:
 * the records the stopped part had written above are repeats of those it
 * writes again (merged when their layer is read, the first kept), so the
 * positions, their count and `best` are a search's never stopped.  A
 * verdict deletes the files; so does a failure to write them, after which
 * they could not be trusted.  The manifest is written last and removed
 * first, so that a directory with one holds a search that can go on. */

#define SAVED_VERSION 2

static uint64_t fingerprint(const State *s, int safe) {
    uint64_t h = 0xcbf29ce484222325ull;
#define MIX(x) (h = (h ^ (uint64_t)(int64_t)(x)) * 0x100000001b3ull)
    MIX(SAVED_VERSION);
    MIX(safe);
    MIX(s->ncols);
    for (int i = 0; i < s->ncols; i++) {
        MIX(s->len[i]);
        for (int k = 0; k < s->len[i]; k++) MIX(s->col[i][k]);
    }
    for (int c = 0; c < CNT_SIZE; c++) MIX(s->cnt[c]);
    for (int t = 0; t < N_TYPES; t++) {
        MIX(s->need[t]);
        MIX(s->safe_at[t]);
        MIX(s->rank_of_type[t]);
    }
    for (int k = 0; k < s->n_order; k++) MIX(s->deal_effect[k]);
    int flags[] = {s->dealt,      s->n_order,     s->on,         s->goal,       s->manual,
                   s->symmetry,   s->deal_first,  s->natural_spots, s->lone_cards, s->build_down,
                   s->vacant_any_time};
    for (size_t k = 0; k < sizeof flags / sizeof *flags; k++) MIX(flags[k]);
    /* Mixed in only when on, so that a search kept before the rule existed
     * goes on with first_in_line=False. */
    if (s->first_in_line) MIX(0x46494c);
    if (s->digs) MIX(0x444947); /* the same for digs */
#undef MIX
    return h;
}

/* The trie of columns to "columns": its count, parents and last types. */
static int save_trie(const Trie *t, const char *dir) {
    FILE *f = open_file(dir, "columns.tmp", NULL, 0, 0);
    if (!f) return -1;
    int failed = fwrite("ICOL", 4, 1, f) != 1 || fwrite(&t->count, sizeof t->count, 1, f) != 1 ||
                 fwrite(t->parent, sizeof(uint32_t), t->count, f) != t->count ||
                 fwrite(t->last, 1, t->count, f) != t->count || fflush(f) || fsync(fileno(f));
    return fclose(f) || failed ? -1 : publish_file(dir, "columns");
}

/* "columns" back into t (which holds the root's columns, as the search it
 * saved first held them: they must be the same), its children indexed
 * again.  0, or -1 with *why. */
static int load_trie(Trie *t, const char *dir, const char **why) {
    FILE *f = open_file(dir, "columns", NULL, 0, 1);
    char magic[4];
    uint32_t count = 0;
    Trie saved = {0};
    *why = "its file of columns is missing or damaged";
    if (!f || fseeko(f, 0, SEEK_SET) || fread(magic, 4, 1, f) != 1 || memcmp(magic, "ICOL", 4) ||
        fread(&count, sizeof count, 1, f) != 1 || count < t->count || count >= 0x80000000u)
        goto fail;
    saved.room = 1 << 10;
    while (saved.room < count) saved.room *= 2;
    saved.count = count;
    saved.child_cap = 1 << 11;
    while (saved.child_cap <= 2 * (size_t)count) saved.child_cap *= 2;
    saved.parent = malloc(saved.room * sizeof(uint32_t));
    saved.last = malloc(saved.room);
    saved.child_key = calloc(saved.child_cap, sizeof(uint64_t));
    saved.child_id = malloc(saved.child_cap * sizeof(uint32_t));
    if (!saved.parent || !saved.last || !saved.child_key || !saved.child_id) {
        *why = "its file of columns does not fit in the memory";
        goto fail;
    }
    if (fread(saved.parent, sizeof(uint32_t), count, f) != count || fread(saved.last, 1, count, f) != count ||
        fgetc(f) != EOF)
        goto fail;
    for (uint32_t k = 1; k < count; k++) {
        if (saved.parent[k] >= k || saved.last[k] >= 32) goto fail;
        uint64_t key = ((uint64_t)saved.parent[k] << 5 | saved.last[k]) + 1;
        size_t idx = (size_t)mix64(key) & (saved.child_cap - 1);
        while (saved.child_key[idx]) idx = (idx + 1) & (saved.child_cap - 1);
        saved.child_key[idx] = key;
        saved.child_id[idx] = k;
    }
    if (memcmp(saved.parent, t->parent, t->count * sizeof(uint32_t)) || memcmp(saved.last, t->last, t->count)) {
        *why = "its columns are not this position's";
        goto fail;
    }
    fclose(f);
    trie_free(t);
    *t = saved;
    return 0;
fail:
    if (f) fclose(f);
    trie_free(&saved);
    return -1;
}

/* A waiting file's bytes (its records are coded, _records.h, so their
 * count does not give them), once flushed; 0 where it has none. */
static unsigned long long file_bytes(FILE *file) {
    struct stat st;
    return file && !fstat(fileno(file), &st) ? (unsigned long long)st.st_size : 0;
}

/* A file of the search written out, and where `to` is not its directory
 * linked there under its name (a save as it goes holds the files as they
 * are now: they are only ever added to or replaced, never changed in
 * place).  0, or -1. */
static int keep_file(FILE *file, const char *dir, const char *name, const char *to) {
    if (!file) return 0;
    if (fflush(file)) return -1;
    if (to == dir) return 0;
    char from[PATH_SIZE], path[PATH_SIZE];
    return fsync(fileno(file)) || path_in(from, dir, name) || path_in(path, to, name) || link(from, path) ? -1 : 0;
}

static int keep_waiting(const Pending *pending, const char *to) {
    if (!pending->n) return 0; /* as save_waiting: a save holds only what its manifest names */
    if (keep_file(pending->file, pending->dir, pending->name, to)) return -1;
    for (size_t k = 0; k < pending->nparts; k++)
        if (keep_waiting(&pending->parts[k], to)) return -1;
    return 0;
}

static void save_waiting(FILE *f, const Pending *pending, const char *tag, size_t k) {
    if (!pending->n) return;
    fprintf(f, "%s %zu %zu %zu %zu %llu\n", tag, k, pending->n, pending->nparts, pending->compact_at,
            file_bytes(pending->file));
    for (size_t j = 0; j < pending->nparts; j++) save_waiting(f, &pending->parts[j], "part", j);
}

/* The search as of the part it is in (run->mark), into the directory `to`:
 * the search's own (where it stops) or a save's (as it goes; its files
 * linked there).  The manifest ("search") last: 0, or -1. */
static int save_search(Layered *run, const char *to) {
    for (int q = run->p; q < LAYERS; q++)
        if (keep_waiting(&run->pending[q], to)) return -1;
    for (size_t k = 0; k < run->nsubs; k++)
        if (keep_waiting(&run->subs[k], to)) return -1;
    if (keep_file(run->entries.file, run->dir, "entries", to)) return -1;
    if (save_trie(run->root->trie, to)) return -1;
    FILE *f = open_file(to, "search.tmp", NULL, 0, 0);
    if (!f) return -1;
    fprintf(f, "intrigue search by layers %d\nposition %016llx\n", SAVED_VERSION, (unsigned long long)run->print);
    fprintf(f, "nodes %lld best %d layer %d layer_entries %u\n", run->mark.nodes, run->mark.best, run->p,
            run->layer_entries);
    fprintf(f, "entries %d %d %u %u\n", run->entries.file != NULL, run->mark.tracing, run->mark.entries,
            run->entries.n > run->entries.floor ? run->entries.n : run->entries.floor);
    fprintf(f, "at %zu %zu %zu\n", run->top, run->sub, run->nsubs);
    for (int q = run->p; q < LAYERS; q++) save_waiting(f, &run->pending[q], "waiting", (size_t)q);
    for (size_t k = run->sub; k < run->nsubs; k++) save_waiting(f, &run->subs[k], "sub", k);
    fprintf(f, "end\n");
    int failed = ferror(f) || fflush(f) || fsync(fileno(f));
    if (fclose(f) || failed) return -1;
    return publish_file(to, "search");
}

/* ------------------------------------------------------------------ a kept search, saved as it goes */

/* A search killed outright (SIGKILL, the machine going down) cannot save
 * itself where it stops, so a kept search also saves itself as it goes,
 * every save_every seconds at a part's boundary, into the directory
 * "saved": the manifest and trie of a stop there, and a hard link to each
 * file it names.  The search only ever appends to its files or replaces
 * them (a part weeded is written to a new file, part_restart; a file split
 * is removed, not emptied), so each link keeps the file as the save knew
 * it, but for records appended, which a search going on from there cuts
 * off (reopen_waiting) and writes again.  The entries are appended too, and
 * written again from the save's count.  A new save is made in "saved.new"
 * and takes the place of the last ("saved.old" for the moment between), so
 * that one is always whole; the disk holds the files the search has
 * dropped since the last save, until the next.  dfs.py's _kept_in puts a
 * save's files back in place of the search's where it finds no manifest of
 * a stop. */
#define DEFAULT_SAVE_EVERY 600.0
#define SAVING "saved.new"
#define SAVED "saved"
#define SAVED_BEFORE "saved.old"

/* The save `name` in dir, its files and itself, removed where it is. */
static void drop_save(const char *dir, const char *name) {
    char path[PATH_SIZE];
    DIR *d = path_in(path, dir, name) ? NULL : opendir(path);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.') remove_file(path, e->d_name);
    closedir(d);
    rmdir(path);
}

static void drop_saves(const char *dir) {
    drop_save(dir, SAVING);
    drop_save(dir, SAVED);
    drop_save(dir, SAVED_BEFORE);
}

static int sync_dir(const char *path) {
    DIR *d = opendir(path);
    if (!d) return -1;
    int failed = fsync(dirfd(d));
    return closedir(d) || failed ? -1 : 0;
}

/* The search saved as it goes, at the boundary of the part it is about to
 * read: 0, or -1 where it could not be (the last save stays). */
static int save_going(Layered *run) {
    char to[PATH_SIZE];
    drop_save(run->dir, SAVING);
    if (path_in(to, run->dir, SAVING) || mkdir(to, 0777)) return -1;
    if (save_search(run, to) || sync_dir(to)) {
        drop_save(run->dir, SAVING);
        return -1;
    }
    drop_save(run->dir, SAVED_BEFORE);
    if (rename_in(run->dir, SAVED, SAVED_BEFORE) && errno != ENOENT) return -1;
    if (rename_in(run->dir, SAVING, SAVED)) return -1;
    drop_save(run->dir, SAVED_BEFORE);
    return sync_dir(run->dir);
}

/* For whoever watches a kept search ("status", rewritten as each layer
 * begins): the layer, the positions so far, the most cards up, and the
 * records waiting for each layer above.  And the layers' history ("layers",
 * a line appended as each layer begins: the layer, the positions before it,
 * the most cards up), from which its layers' sizes, and so how fast they
 * grow, follow: what tells whether a search is worth going on with.  A
 * search that goes on appends the layer it goes on in again; the first line
 * of a layer is the one that counts.  The search never reads either back. */
static void write_status(const Layered *run) {
    char path[PATH_SIZE];
    FILE *log = path_in(path, run->dir, "layers") ? NULL : fopen(path, "a");
    if (log) {
        fprintf(log, "%d %lld %d\n", run->p, run->lim->nodes, run->lim->best);
        fclose(log);
    }
    FILE *f = open_file(run->dir, "status.tmp", NULL, 0, 0);
    if (!f) return;
    fprintf(f, "layer %d (cards dealt plus cards up; the game ends by %d)\n", run->p,
            run->root->n_order + run->root->goal);
    fprintf(f, "positions %lld\nbest %d\n", run->lim->nodes, run->lim->best);
    for (int q = run->p + 1; q < LAYERS; q++)
        if (run->pending[q].n) fprintf(f, "waiting for layer %d: %zu records\n", q, run->pending[q].n);
    if (!fclose(f)) publish_file(run->dir, "status");
}

/* The parts the top part run->top of layer run->p was split into as it was
 * read, named as they were (their files are opened as the manifest lists
 * them): 0, or -1 with *why. */
static int resume_subs(Layered *run, size_t nsubs, const char **why) {
    size_t ntops;
    Pending *tops = layer_tops(run, run->p, &ntops);
    if (run->top >= ntops) return -1;
    if (!(run->subs = pending_parts(&tops[run->top], nsubs))) {
        *why = "it does not fit in the memory";
        return -1;
    }
    run->nsubs = nsubs;
    return 0;
}

/* A waiting file of the manifest, opened where it was left: it must hold
 * the manifest's bytes; what it holds past them (appended after a save as
 * it goes) is cut off.  0, or -1 with *why. */
static int reopen_waiting(Pending *pending, size_t n, unsigned long long bytes, size_t buffer, const char **why) {
    pending->n = n;
    if (pending_open(pending, buffer, 1)) {
        *why = "one of its files of waiting positions is missing";
        return -1;
    }
    off_t size = ftello(pending->file);
    if (size < 0 || (unsigned long long)size < bytes || bytes < n ||
        ((unsigned long long)size > bytes &&
         (ftruncate(fileno(pending->file), (off_t)bytes) || fseeko(pending->file, (off_t)bytes, SEEK_SET)))) {
        *why = "one of its files of waiting positions is not the size its manifest says";
        return -1;
    }
    return 0;
}

/* The search kept in run->dir, if there is one: 1 with run ready to go on
 * (its trie in s, the counts in lim), 0 where there is none, -1 with
 * run->why where it cannot be read or is not of this position (then the
 * directory is left as it was). */
static int resume_search(Layered *run, State *s, uint64_t print) {
    char path[PATH_SIZE], line[160];
    FILE *f = path_in(path, run->dir, "search") ? NULL : fopen(path, "r");
    if (!f) return 0;
    const char *why = "its manifest is damaged";
    int version = 0, p = -1, has_entries = 0, tracing = 0;
    unsigned long long saved_print = 0;
    long long nodes = 0;
    int best = 0;
    unsigned layer_entries = 0, marked = 0, reached = 0;
    size_t top = 0, sub = 0, nsubs = 0;
    if (fscanf(f, "intrigue search by layers %d position %llx", &version, &saved_print) != 2) goto fail;
    if (version != SAVED_VERSION) {
        why = "it was kept by another version of the search by layers, whose files this one does not read";
        goto fail;
    }
    if (saved_print != print) {
        why = "it holds a search of another position, or with other search options";
        goto fail;
    }
    if (fscanf(f, " nodes %lld best %d layer %d layer_entries %u entries %d %d %u %u at %zu %zu %zu ", &nodes,
               &best, &p, &layer_entries, &has_entries, &tracing, &marked, &reached, &top, &sub, &nsubs) != 11 ||
        p < s->dealt + s->on || p >= LAYERS || nodes < 0 ||
        nsubs > MAX_PARTS || (nsubs && sub >= nsubs) || reached < marked || layer_entries > marked)
        goto fail;
    run->p = p;
    run->top = top;
    run->sub = sub;
    while (fgets(line, sizeof line, f)) {
        char tag[16];
        size_t k, n, nparts, compact_at;
        unsigned long long bytes;
        int got = sscanf(line, "%15s %zu %zu %zu %zu %llu", tag, &k, &n, &nparts, &compact_at, &bytes);
        if (got == 1 && !strcmp(tag, "end")) {
            size_t ntops;
            layer_tops(run, p, &ntops);
            if (top >= ntops || (nsubs && !run->subs && resume_subs(run, nsubs, &why))) goto fail;
            fclose(f);
            if (load_trie(s->trie, run->dir, &why)) {
                run->why = why;
                return -1;
            }
            run->lim->nodes = nodes;
            run->lim->best = best;
            run->layer_entries = layer_entries;
            run->entries.tracing = tracing;
            run->entries.n = marked;
            run->entries.floor = reached;
            if (has_entries) {
                run->entries.file = open_file(run->dir, "entries", NULL, 0, 1);
                if (!run->entries.file || ftello(run->entries.file) < (off_t)((off_t)marked * sizeof(Entry)) ||
                    fseeko(run->entries.file, (off_t)marked * (off_t)sizeof(Entry), SEEK_SET)) {
                    run->why = "its file of entries is missing or short";
                    return -1;
                }
            }
            unlink(path); /* the files change from here on */
            return 1;
        }
        if (got == 6 && !strcmp(tag, "waiting") && k >= (size_t)p && k < LAYERS && !run->pending[k].n && n &&
            (nparts == 0 || nparts == WAITING_PARTS)) {
            Pending *pending = &run->pending[k];
            if (!nparts) {
                if (reopen_waiting(pending, n, bytes, PENDING_BUFFER, &why)) goto fail;
            } else if (!(pending->parts = pending_parts(pending, nparts))) {
                why = "it does not fit in the memory";
                goto fail;
            }
            pending->n = n;
            pending->nparts = nparts;
            pending->compact_at = compact_at;
            for (size_t left = nparts; left > 0; left--) {
                long pos = ftell(f);
                if (!fgets(line, sizeof line, f)) goto fail;
                size_t j, m, none, at;
                unsigned long long size;
                if (sscanf(line, "part %zu %zu %zu %zu %llu", &j, &m, &none, &at, &size) != 5) {
                    fseek(f, pos, SEEK_SET); /* parts with no records are not listed */
                    break;
                }
                if (j >= nparts || none || !m || pending->parts[j].n) goto fail;
                if (reopen_waiting(&pending->parts[j], m, size, PART_BUFFER, &why)) goto fail;
                pending->parts[j].compact_at = at;
            }
            for (size_t j = 0; j < nparts; j++)
                if (!pending->parts[j].compact_at) pending->parts[j].compact_at = compact_at;
        } else if (got == 6 && !strcmp(tag, "sub") && nsubs && k < nsubs && n && !nparts) {
            if (!run->subs && resume_subs(run, nsubs, &why)) goto fail;
            if (k < sub || run->subs[k].n || reopen_waiting(&run->subs[k], n, bytes, PART_BUFFER, &why)) goto fail;
        } else {
            goto fail;
        }
    }
fail:
    fclose(f);
    run->why = why;
    return -1;
}

/* search()'s verdicts, nodes and best, layer by layer (above); a won line
 * is left in s's log as search() leaves it.  FAILED: a Python exception is
 * set, or *why says what failed (with the GIL held again); *bad_saved: what
 * failed was reading the search kept in save_dir (NULL: none kept). */
static int layered(State *s, Limits *lim, const char *save_dir, const char **why, int *bad_saved) {
    int result = GOING, resumed = 0;
    int keep = 1; /* the files of a kept search stay: before it starts, and where it is saved */
    *why = NULL;
    *bad_saved = 0;
    lim->nodes = 0;
    lim->best = s->on;
    lim->untraced = TRACED;
    uint64_t print = fingerprint(s, lim->safe_moves);
    if (lim->safe_moves && play_safe(s)) return MEMORY;
    lim->best = s->on;
    if (s->on == s->goal) {
        lim->nodes = 1;
        return WON;
    }
    if (lim->limit < 2) lim->limit = 2; /* as search(): the root, and at least one move */
    Rebuild *rb = malloc(sizeof(Rebuild));
    Layered run = {
        .root = s,
        .rb = rb,
        .w = *s,
        .pending = calloc(LAYERS, sizeof(Pending)),
        .entries = {.tracing = lim->trace, .max = lim->max_entries},
        .lim = lim,
        .won_entry = NO_ENTRY,
        .safe = lim->safe_moves,
        .p = s->dealt + s->on,
        .dir = save_dir,
        .print = print,
    };
    run.w.log = NULL;
    run.w.nlog = run.w.caplog = 0;
    if (!run.pending || !rb) {
        result = MEMORY;
        goto done;
    }
    for (int q = 0; q < LAYERS; q++) {
        run.pending[q].dir = save_dir;
        snprintf(run.pending[q].name, sizeof run.pending[q].name, "w%d", q);
    }
    if (save_dir && (resumed = resume_search(&run, s, print)) < 0) {
        *why = run.why;
        *bad_saved = 1;
        result = FAILED;
        goto done;
    }
    /* A search resumed has lost its manifest: it is saved again at once. */
    run.save_due = resumed ? 0 : monotonic() + lim->save_every;
    if (!resumed) {
        /* The root waits for its layer, as any position: it is read, counted
         * and given the first entry there. */
        Key root_key;
        make_key(s, s->cid, &root_key);
        if (lim->trace && !(run.entries.file = open_file(save_dir, "entries", NULL, 0, 0))) {
            *why = "the search by layers could not write its temporary file";
            result = FAILED;
            goto done;
        }
        int put = pending_put(&run.pending[run.p], &root_key, hash_key(&root_key), s->on, class_bits(s, &root_key), NO_ENTRY, &run.written,
                              lim->part_records);
        if (put) {
            if (put == -1) *why = "the search by layers could not write its temporary files";
            result = put == -1 ? FAILED : MEMORY;
            goto done;
        }
    }
    if (run.entries.file) {
        unsigned long long half = disk_free(run.entries.file, NULL) / 2;
        run.entries.reserve = half > (2ULL << 30) ? half : 2ULL << 30;
    }
    rebuild_init(s, rb);
    run.ts = PyEval_SaveThread();
    while (run.p < LAYERS && result == GOING) {
        if (save_dir) write_status(&run);
        if (!resumed) run.layer_entries = run.entries.n;
        resumed = 0;
        if ((result = expand_layer(&run)) == GOING) run.p++;
    }
    if (result == GOING) result = LOST;
    keep = result == UNKNOWN || result == MEMORY || (result == FAILED && !run.why);
    int unsaved = save_dir && keep && save_search(&run, save_dir);
    if (unsaved) keep = 0;
    if (save_dir && (result == WON || result == LOST || (keep && !unsaved))) drop_saves(save_dir);
    if (result == WON) {
        /* The won position's entry is of its own layer while the entries
         * were kept; after that, of the last position on its way that got
         * one, from which the line then goes no further; none but the
         * root's (or none, trace=False): no line. */
        int whole = run.won_entry != NO_ENTRY && run.won_entry >= run.layer_entries;
        lim->untraced = whole ? TRACED : run.won_entry == NO_ENTRY || run.won_entry == 0 ? UNTRACED : PART_TRACED;
        if (lim->untraced != UNTRACED) {
            fflush(run.entries.file);
            result = replay_entries(s, run.entries.file, run.won_entry, run.safe, whole, &run.why);
        }
        lim->best = whole ? s->on : s->goal;
    }
    PyEval_RestoreThread(run.ts);
    if (unsaved && !PyErr_Occurred()) { /* (a Ctrl-C is told rather than this) */
        run.why = "the search by layers could not keep its files in its directory";
        result = FAILED;
    }
    *why = run.why;
done:
    if (save_dir && !keep) {
        remove_file(save_dir, "columns");
        remove_file(save_dir, "columns.tmp");
        remove_file(save_dir, "search.tmp");
        remove_file(save_dir, "status");
        remove_file(save_dir, "status.tmp");
        remove_file(save_dir, "layers");
    }
    layer_free(&run.layer);
    if (run.pending)
        for (int k = 0; k < LAYERS; k++) pending_release(&run.pending[k], keep);
    for (size_t k = 0; k < run.nsubs; k++) pending_release(&run.subs[k], keep);
    free(run.subs);
    free(run.pending);
    free(rb);
    free(run.w.log);
    if (run.entries.file) {
        fclose(run.entries.file);
        if (!keep) remove_file(save_dir, "entries");
    }
    return result;
}

/* ------------------------------------------------------------------ Python glue */

/* Every int read from the state lies in [lo, hi]: the search indexes arrays
 * with them and counts them up and down, so a value outside would be an
 * out-of-bounds access or a signed overflow. */
#define BIG (1 << 20)

static int check_range(const char *name, long x, long lo, long hi) {
    if (x < lo || x > hi) {
        PyErr_Format(PyExc_ValueError, "%s: %ld is outside [%ld, %ld]", name, x, lo, hi);
        return -1;
    }
    return 0;
}

static int get_int(PyObject *obj, const char *name, int *out, long lo, long hi) {
    PyObject *v = PyObject_GetAttrString(obj, name);
    if (!v) return -1;
    long x = PyLong_AsLong(v);
    Py_DECREF(v);
    if (x == -1 && PyErr_Occurred()) return -1;
    if (check_range(name, x, lo, hi)) return -1;
    *out = (int)x;
    return 0;
}

/* A sequence of ints, read into out[0..size); at least min_n entries. */
static int get_ints(PyObject *obj, const char *name, int *out, Py_ssize_t min_n, Py_ssize_t size, long lo, long hi,
                    int *count) {
    PyObject *v = PyObject_GetAttrString(obj, name);
    if (!v) return -1;
    /* A tuple copy, not PySequence_Fast: an item's __index__ may run Python
     * code that shrinks a list while it is read. */
    PyObject *seq = PySequence_Tuple(v);
    Py_DECREF(v);
    if (!seq) return -1;
    Py_ssize_t n = PyTuple_GET_SIZE(seq);
    if (n > size || n < min_n) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%s has %zd entries, expected %zd to %zd", name, n, min_n, size);
        return -1;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        long x = PyLong_AsLong(PyTuple_GET_ITEM(seq, k));
        if ((x == -1 && PyErr_Occurred()) || check_range(name, x, lo, hi)) {
            Py_DECREF(seq);
            return -1;
        }
        out[k] = (int)x;
    }
    Py_DECREF(seq);
    if (count) *count = (int)n;
    return 0;
}

static int load_state(PyObject *obj, State *s, Trie *trie) {
    memset(s, 0, sizeof *s);
    s->trie = trie;
    PyObject *tables = NULL, *cols = NULL;
    int n_effects = 0;
    /* need[] and rank_of_type[] index cnt[]; a rank (+1) also indexes the
     * build targets (16 rows) in gen_moves. */
    if (get_ints(obj, "cnt", s->cnt, CNT_SIZE, CNT_SIZE, -BIG, BIG, NULL) ||
        get_ints(obj, "need", s->need, N_TYPES, N_TYPES, 0, CNT_SIZE - 1, NULL) ||
        get_ints(obj, "safe_at", s->safe_at, N_TYPES, N_TYPES, -BIG, BIG, NULL) ||
        get_ints(obj, "tot", s->tot, N_TYPES, N_TYPES, 0, MAXCARDS, NULL) ||
        get_ints(obj, "rank_of_type", s->rank_of_type, N_TYPES, N_TYPES, 0, 15, NULL) ||
        get_ints(obj, "deal_effect", s->deal_effect, 0, MAXCARDS, -10 - 3, N_TYPES - 1, &n_effects) ||
        get_int(obj, "dealt", &s->dealt, 0, MAXCARDS) || get_int(obj, "n_order", &s->n_order, 0, MAXCARDS) ||
        get_int(obj, "on", &s->on, -BIG, BIG) || get_int(obj, "goal", &s->goal, -BIG, BIG) ||
        get_int(obj, "manual", &s->manual, 0, 1) || get_int(obj, "symmetry", &s->symmetry, 0, 1) ||
        get_int(obj, "deal_first", &s->deal_first, 0, 1) || get_int(obj, "natural_spots", &s->natural_spots, 0, 1) ||
        get_int(obj, "lone_cards", &s->lone_cards, 0, 1) ||
        get_int(obj, "first_in_line", &s->first_in_line, 0, 1) || get_int(obj, "digs", &s->digs, 0, 1))
        return -1;
    tables = PyObject_GetAttrString(obj, "tables");
    if (!tables) return -1;
    if (get_int(tables, "build_down", &s->build_down, 0, 1) ||
        get_int(tables, "vacant_any_time", &s->vacant_any_time, 0, 1)) {
        Py_DECREF(tables);
        return -1;
    }
    Py_DECREF(tables);
    cols = PyObject_GetAttrString(obj, "cols");
    if (!cols) return -1;
    if (!PyList_Check(cols) || PyList_GET_SIZE(cols) > MAXCOLS) {
        Py_DECREF(cols);
        PyErr_SetString(PyExc_ValueError, "cols must be a list of at most 8 bytes");
        return -1;
    }
    s->ncols = (int)PyList_GET_SIZE(cols);
    for (int i = 0; i < s->ncols; i++) {
        PyObject *c = PyList_GET_ITEM(cols, i);
        if (!PyBytes_Check(c) || PyBytes_GET_SIZE(c) > MAXCARDS - MAXCOLS) {
            Py_DECREF(cols);
            PyErr_SetString(PyExc_ValueError, "a column must be bytes of at most 104 types");
            return -1;
        }
        s->len[i] = (int)PyBytes_GET_SIZE(c);
        memcpy(s->col[i], PyBytes_AS_STRING(c), (size_t)s->len[i]);
        for (int k = 0; k < s->len[i]; k++) {
            int t = s->col[i][k];
            if (t < 1 || t >= N_TYPES) {
                Py_DECREF(cols);
                PyErr_Format(PyExc_ValueError, "bad card type %d in column %d", t, i);
                return -1;
            }
            s->cid[i] = trie_child(s->trie, s->cid[i], t);
            if (s->cid[i] == TRIE_FULL) {
                Py_DECREF(cols);
                PyErr_NoMemory();
                return -1;
            }
        }
    }
    Py_DECREF(cols);
    if (s->n_order > MAXCARDS - MAXCOLS || s->dealt > s->n_order || n_effects < s->n_order) {
        PyErr_SetString(PyExc_ValueError, "the stock does not fit");
        return -1;
    }
    /* What the rest of the stock can do: the columns it opens must fit in
     * MAXCOLS, and all the cards that may ever lie in one column (every card
     * in the columns now or still to be dealt to them) in MAXCARDS. */
    int cards = 0, bases = 0;
    for (int i = 0; i < s->ncols; i++) cards += s->len[i];
    for (int k = s->dealt; k < s->n_order; k++) {
        int effect = s->deal_effect[k];
        if (effect == 0 || (effect < -1 && effect > -10)) {
            PyErr_Format(PyExc_ValueError, "bad deal effect %d", effect);
            return -1;
        }
        if (effect > 0) cards++;
        if (effect <= -10) bases++;
    }
    if (s->ncols + bases > MAXCOLS || cards > MAXCARDS || (s->dealt < s->n_order && s->ncols == 0)) {
        PyErr_SetString(PyExc_ValueError, "the columns do not fit");
        return -1;
    }
    return 0;
}

/* max_nodes (None: no limit) and deadline (None: none) as search.py reads them. */
static int parse_limits(PyObject *max_nodes, PyObject *deadline, Limits *lim) {
    memset(lim, 0, sizeof *lim);
    lim->limit = 1LL << 62;
    if (max_nodes != Py_None) {
        int overflow = 0;
        lim->limit = PyLong_AsLongLongAndOverflow(max_nodes, &overflow);
        if (lim->limit == -1 && PyErr_Occurred()) return -1;
        if (overflow > 0 || lim->limit > 1LL << 62) lim->limit = 1LL << 62; /* as search.py: no real limit */
        if (overflow < 0) lim->limit = 1;
    }
    lim->deadline = -1;
    if (deadline != Py_None) {
        lim->deadline = PyFloat_AsDouble(deadline);
        if (lim->deadline == -1 && PyErr_Occurred()) return -1;
        if (lim->deadline < 0) lim->deadline = 0;
    }
    return 0;
}

/* A list of Python ints (a state's log: the operations of state.py; stock indices). */
static PyObject *int_list(const int *values, size_t n) {
    PyObject *list = PyList_New((Py_ssize_t)n);
    if (!list) return NULL;
    for (size_t k = 0; k < n; k++) {
        PyObject *x = PyLong_FromLong(values[k]);
        if (!x) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)k, x);
    }
    return list;
}

/* Search from the loaded state (depth first, or layer by layer), then free
 * the trie and the log.  Returns the line (the whole log as ints) on WON,
 * None otherwise, NULL on an error; the verdict goes to *result. */
static PyObject *CheckpointError; /* _core.CheckpointError: a kept search that cannot be read */

static PyObject *search_line(State *s, Limits *lim, Trie *trie, int by_layers, const char *save_dir, int *result) {
    const char *why = NULL;
    int bad_saved = 0;
    *result = by_layers ? layered(s, lim, save_dir, &why, &bad_saved) : search(s, lim);
    trie_free(trie);
    PyObject *line = NULL;
    if (*result == WON && !(by_layers && lim->untraced == UNTRACED))
        line = int_list(s->log, s->nlog);
    else if (*result != FAILED)
        line = Py_NewRef(Py_None);
    else if (why && bad_saved)
        PyErr_Format(CheckpointError, "%s: cannot go on with the search kept there: %s", save_dir, why);
    else if (why)
        PyErr_SetString(PyExc_OSError, why);
    free(s->log);
    return line;
}

static const char *verdict_names[] = {"won", "lost", "unknown", "memory"};

/* search() or layered() on the arguments of _core.search. */
static PyObject *run_search(PyObject *args, PyObject *kwargs, int by_layers) {
    static char *kwlist[] = {"state",        "max_nodes",   "deadline", "on_progress", "safe_moves", "trace",
                             "part_records", "max_entries", "save_dir", "save_every",  NULL};
    static char *search_kwlist[] = {"state", "max_nodes", "deadline", "on_progress", "safe_moves", NULL};
    PyObject *obj, *max_nodes = Py_None, *deadline = Py_None, *on_progress = Py_None;
    int safe_moves = 1, trace = 1;
    Py_ssize_t part_records = DEFAULT_PART_RECORDS, max_entries = PY_SSIZE_T_MAX;
    const char *save_dir = NULL;
    double save_every = DEFAULT_SAVE_EVERY;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, by_layers ? "O|OOOppnnzd" : "O|OOOp",
                                     by_layers ? kwlist : search_kwlist, &obj, &max_nodes, &deadline, &on_progress,
                                     &safe_moves, &trace, &part_records, &max_entries, &save_dir, &save_every))
        return NULL;
    if (isnan(save_every)) {
        PyErr_SetString(PyExc_ValueError, "save_every: nan is not a number of seconds");
        return NULL;
    }
    if (max_entries < 1) {
        PyErr_Format(PyExc_ValueError, "max_entries: %zd is not a positive number of entries", max_entries);
        return NULL;
    }
    if (part_records < 1) {
        PyErr_Format(PyExc_ValueError, "part_records: %zd is not a positive number of records", part_records);
        return NULL;
    }
    Limits lim;
    if (parse_limits(max_nodes, deadline, &lim)) return NULL;
    lim.on_progress = on_progress == Py_None ? NULL : on_progress;
    lim.safe_moves = safe_moves;
    lim.trace = trace;
    lim.max_entries = (size_t)max_entries;
    lim.part_records = (size_t)part_records;
    lim.save_every = save_every;
    State s;
    Trie trie;
    if (trie_init(&trie)) {
        trie_free(&trie);
        return PyErr_NoMemory();
    }
    if (load_state(obj, &s, &trie)) {
        trie_free(&trie);
        return NULL;
    }
    if (by_layers && (s.on < 0 || s.dealt + s.on >= LAYERS)) {
        trie_free(&trie);
        PyErr_Format(PyExc_ValueError, "on: %d cards up with %d dealt is more progress than a game holds", s.on,
                     s.dealt);
        return NULL;
    }
    int result;
    PyObject *line = search_line(&s, &lim, &trie, by_layers, save_dir, &result);
    if (!line) return NULL;
    const char *verdict = result == WON && by_layers && lim.untraced != TRACED ? "won_untraced" : verdict_names[result];
    return Py_BuildValue("sLiN", verdict, lim.nodes, lim.best, line);
}

static PyObject *core_search(PyObject *self, PyObject *args, PyObject *kwargs) {
    (void)self;
    return run_search(args, kwargs, 0);
}

static PyObject *core_layered(PyObject *self, PyObject *args, PyObject *kwargs) {
    (void)self;
    return run_search(args, kwargs, 1);
}

/* ------------------------------------------------------------------ the hold-back probe */

/* state.py play_tracked: play(), keeping origin[i][h], the stock index of each column card, in step. */
static int play_tracked(State *s, uint8_t origin[MAXCOLS][MAXCARDS], int code) {
    int k = s->dealt, ncols = s->ncols, height = ncols ? s->len[ncols - 1] : 0;
    if (play(s, code)) return -1;
    if (code == DEAL_CODE) {
        if (s->ncols == ncols && s->len[ncols - 1] > height) origin[ncols - 1][height] = (uint8_t)k;
    } else if (code >= COLUMN_MOVE) {
        int i = (code - COLUMN_MOVE) >> 3, j = (code - COLUMN_MOVE) & 7;
        origin[j][s->len[j] - 1] = origin[i][s->len[i]];
    }
    return 0;
}

/* search.py deal_holding_back, step for step: deal the rest of the stock; a
 * dealt card that lands on the newest column goes up at once if it is not
 * held and can; then the cascade sends up the leftmost (newest_first: the
 * rightmost) column top that can go up and is not held, again and again.
 * origin[i][h] is the stock index of the card at height h of column i (kept
 * in step: the dealing only deals and sends tops up); held[k] marks stock
 * index k held back.  The stock indices sent up go to sent[0..*nsent). */
static int deal_holding_back(State *s, uint8_t origin[MAXCOLS][MAXCARDS], const uint8_t *held, int newest_first,
                             int *sent, int *nsent) {
    *nsent = 0;
    while (s->dealt < s->n_order) {
        int k = s->dealt, ncols = s->ncols, last = ncols - 1, height = s->len[last];
        if (play_tracked(s, origin, DEAL_CODE)) return -1;
        if (s->ncols == ncols && s->len[last] > height) {
            if (!held[k] && can_up(s, top(s, last))) {
                if (play(s, last)) return -1;
                sent[(*nsent)++] = k;
            }
        }
        /* Only a deal opens a column, so the cascade's scan is fixed until the next. */
        ncols = s->ncols;
        for (;;) {
            int found = -1;
            for (int n = 0; n < ncols; n++) {
                int i = newest_first ? ncols - 1 - n : n;
                if (s->len[i] && !held[origin[i][s->len[i] - 1]] && can_up(s, top(s, i))) {
                    found = i;
                    break;
                }
            }
            if (found < 0) break;
            if (play(s, found)) return -1;
            sent[(*nsent)++] = origin[found][s->len[found]];
        }
    }
    return 0;
}

/* origins: one sequence of stock indices per column of the state, as long as
 * the column, each index in [0, dealt): the cards in the columns were dealt. */
static int load_origins(PyObject *origins, const State *s, uint8_t origin[MAXCOLS][MAXCARDS]) {
    PyObject *outer = PySequence_Tuple(origins);
    if (!outer) return -1;
    if (PyTuple_GET_SIZE(outer) != s->ncols) {
        PyErr_Format(PyExc_ValueError, "origins has %zd columns, the state %d", PyTuple_GET_SIZE(outer), s->ncols);
        Py_DECREF(outer);
        return -1;
    }
    for (int i = 0; i < s->ncols; i++) {
        PyObject *seq = PySequence_Tuple(PyTuple_GET_ITEM(outer, i));
        if (!seq) {
            Py_DECREF(outer);
            return -1;
        }
        if (PyTuple_GET_SIZE(seq) != s->len[i]) {
            PyErr_Format(PyExc_ValueError, "origins of column %d has %zd cards, the column %d", i,
                         PyTuple_GET_SIZE(seq), s->len[i]);
            Py_DECREF(seq);
            Py_DECREF(outer);
            return -1;
        }
        for (int h = 0; h < s->len[i]; h++) {
            long x = PyLong_AsLong(PyTuple_GET_ITEM(seq, h));
            if ((x == -1 && PyErr_Occurred()) || check_range("origins", x, 0, (long)s->dealt - 1)) {
                Py_DECREF(seq);
                Py_DECREF(outer);
                return -1;
            }
            origin[i][h] = (uint8_t)x;
        }
        Py_DECREF(seq);
    }
    Py_DECREF(outer);
    return 0;
}

/* held: any iterable of stock indices, each in [0, n_order). */
static int load_held(PyObject *obj, const State *s, uint8_t *held) {
    memset(held, 0, MAXCARDS);
    PyObject *seq = PySequence_Tuple(obj);
    if (!seq) return -1;
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(seq); k++) {
        long x = PyLong_AsLong(PyTuple_GET_ITEM(seq, k));
        if ((x == -1 && PyErr_Occurred()) || check_range("held", x, 0, (long)s->n_order - 1)) {
            Py_DECREF(seq);
            return -1;
        }
        held[x] = 1;
    }
    Py_DECREF(seq);
    return 0;
}

/* The waiting records' coding (_records.h), on bytes: for tests and tools. */
static PyObject *core_code_records(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer raw;
    if (!PyArg_ParseTuple(args, "y*:code_records", &raw)) return NULL;
    PyObject *out = NULL;
    if (raw.len % (Py_ssize_t)sizeof(Waiting)) {
        PyErr_Format(PyExc_ValueError, "code_records: %zd bytes are not whole records of %zu", raw.len,
                     sizeof(Waiting));
    } else {
        size_t n = (size_t)raw.len / sizeof(Waiting);
        uint8_t *coded = malloc(n * CODED_MAX + 1), *p = coded;
        Coder coder = {0};
        if (!coded) {
            PyErr_NoMemory();
        } else {
            for (size_t k = 0; k < n; k++) {
                Waiting w;
                memcpy(&w, (const char *)raw.buf + k * sizeof w, sizeof w);
                p += record_code(&coder, &w, p);
            }
            out = PyBytes_FromStringAndSize((const char *)coded, p - coded);
            free(coded);
        }
    }
    PyBuffer_Release(&raw);
    return out;
}

static PyObject *core_read_records(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer coded;
    if (!PyArg_ParseTuple(args, "y*:read_records", &coded)) return NULL;
    PyObject *out = NULL;
    const uint8_t *p = coded.buf, *end = p + coded.len;
    size_t n = 0, room = 64;
    Waiting *all = malloc(room * sizeof(Waiting));
    Coder coder = {0};
    while (all && p < end) {
        if (n == room) {
            Waiting *more = realloc(all, 2 * room * sizeof(Waiting));
            if (!more) break;
            all = more;
            room *= 2;
        }
        const uint8_t *next = record_read(&coder, p, end, &all[n]);
        if (!next) {
            PyErr_Format(PyExc_ValueError, "read_records: record %zu (byte %zd) is damaged or cut short", n,
                         (Py_ssize_t)(p - (const uint8_t *)coded.buf));
            break;
        }
        p = next;
        n++;
    }
    if (!PyErr_Occurred()) {
        if (p < end) PyErr_NoMemory();
        else out = PyBytes_FromStringAndSize((const char *)all, (Py_ssize_t)(n * sizeof(Waiting)));
    }
    free(all);
    PyBuffer_Release(&coded);
    return out;
}

static PyObject *core_hold_back(PyObject *self, PyObject *args, PyObject *kwargs) {
    (void)self;
    static char *kwlist[] = {"state", "origins", "held", "newest_first", "max_nodes", "deadline", "safe_moves", NULL};
    PyObject *obj, *origins, *held_obj, *max_nodes = Py_None, *deadline = Py_None;
    int newest_first = 0, safe_moves = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOO|pOOp", kwlist, &obj, &origins, &held_obj, &newest_first,
                                     &max_nodes, &deadline, &safe_moves))
        return NULL;
    Limits lim;
    if (parse_limits(max_nodes, deadline, &lim)) return NULL;
    lim.safe_moves = safe_moves;
    State s;
    Trie trie;
    uint8_t origin[MAXCOLS][MAXCARDS], held[MAXCARDS];
    int sent[MAXCARDS], nsent = 0;
    if (trie_init(&trie)) {
        trie_free(&trie);
        return PyErr_NoMemory();
    }
    if (load_state(obj, &s, &trie) || load_origins(origins, &s, origin) || load_held(held_obj, &s, held)) {
        trie_free(&trie);
        free(s.log);
        return NULL;
    }
    if (deal_holding_back(&s, origin, held, newest_first, sent, &nsent)) {
        trie_free(&trie);
        free(s.log);
        return PyErr_NoMemory();
    }
    long long dealing = (long long)s.nlog;
    int result;
    PyObject *line = search_line(&s, &lim, &trie, 0, NULL, &result);
    if (!line) return NULL;
    if (result == MEMORY) { /* a try's small search: the machine itself is full */
        Py_DECREF(line);
        return PyErr_NoMemory();
    }
    PyObject *up = int_list(sent, (size_t)nsent);
    if (!up) {
        Py_DECREF(line);
        return NULL;
    }
    return Py_BuildValue("sLiNLN", verdict_names[result], lim.nodes, lim.best, up, dealing, line);
}

/* ------------------------------------------------------------------ the rollouts over the deal */

/* rollouts.py's nested rollout policy adaptation, draw for draw: the same
 * generator (Python's Mersenne Twister, whose state comes in from
 * random.Random.getstate() and goes back out), the same weights and the same
 * floating-point operations in the same order, so a seeded run makes the same
 * choices, spends the same budget and finds the same line as the Python one
 * (tests/test_rollouts.py checks it). */

#define MT_N 624
#define MT_M 397
#define MAXNAMES (3 * MAXCARDS)
#define SEND 0
#define DEALT 1
#define PARK 2

typedef struct {
    uint32_t mt[MT_N];
    int index;
} Twister;

static uint32_t twister_next(Twister *g) {
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t y;
    if (g->index >= MT_N) {
        int kk;
        for (kk = 0; kk < MT_N - MT_M; kk++) {
            y = (g->mt[kk] & 0x80000000U) | (g->mt[kk + 1] & 0x7fffffffU);
            g->mt[kk] = g->mt[kk + MT_M] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        for (; kk < MT_N - 1; kk++) {
            y = (g->mt[kk] & 0x80000000U) | (g->mt[kk + 1] & 0x7fffffffU);
            g->mt[kk] = g->mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        y = (g->mt[MT_N - 1] & 0x80000000U) | (g->mt[0] & 0x7fffffffU);
        g->mt[MT_N - 1] = g->mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 0x1U];
        g->index = 0;
    }
    y = g->mt[g->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* random.random(): 53 random bits in [0, 1). */
static double twister_random(Twister *g) {
    uint32_t a = twister_next(g) >> 5, b = twister_next(g) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* One decision of a rollout: the name chosen among the names offered. */
typedef struct {
    uint16_t *names; /* every choice's names, one after another */
    int *start;      /* choice k offers names[start[k] .. start[k + 1]) */
    uint16_t *chosen;
    int n;
} Choices;

typedef struct {
    State start, s;
    uint8_t start_origin[MAXCOLS][MAXCARDS], origin[MAXCOLS][MAXCARDS];
    Trie *trie;
    Twister rng;
    int level, iterations, end_nodes, max_moves, longest, safe_moves;
    double send_bias, alpha, deadline;
    long long used, cap;
    int best;
    PyObject *on_progress;
    Choices *seqs;     /* two a level: the best so far and the latest */
    double *policies;  /* two a level: the policy and the one being adapted */
    double weight[MAXMOVES];
} Runs;

enum { SPENT = -2, FOUND = -3, BROKE = -4 };

static double prior(const Runs *r, int name) { return name % 3 == SEND ? r->send_bias : 0.0; }

/* rollouts.py _odds: each name's weight, exponentiated, scaled so the largest is 1. */
static void odds(const double *policy, const uint16_t *names, int n, double *out) {
    double top = policy[names[0]];
    for (int k = 1; k < n; k++)
        if (policy[names[k]] > top) top = policy[names[k]];
    for (int k = 0; k < n; k++) out[k] = exp(policy[names[k]] - top);
}

/* rollouts.py _adapt, into adapted (a copy of policy first). */
static void adapt(Runs *r, const double *policy, double *adapted, const Choices *best) {
    memcpy(adapted, policy, MAXNAMES * sizeof(double));
    for (int c = 0; c < best->n; c++) {
        const uint16_t *names = best->names + best->start[c];
        int n = best->start[c + 1] - best->start[c];
        odds(policy, names, n, r->weight);
        double total = 0.0;
        for (int k = 0; k < n; k++) total += r->weight[k];
        for (int k = 0; k < n; k++) adapted[names[k]] = adapted[names[k]] - r->alpha * r->weight[k] / total;
        adapted[best->chosen[c]] = adapted[best->chosen[c]] + r->alpha;
    }
}

static void copy_choices(Choices *to, const Choices *from) {
    to->n = from->n;
    memcpy(to->start, from->start, (size_t)(from->n + 1) * sizeof(int));
    memcpy(to->chosen, from->chosen, (size_t)from->n * sizeof(uint16_t));
    memcpy(to->names, from->names, (size_t)from->start[from->n] * sizeof(uint16_t));
}

/* rollouts.py _name: what a move does to which card of the stock. */
static int name_of(const State *s, uint8_t origin[MAXCOLS][MAXCARDS], int code) {
    if (code < DEAL_CODE) return 3 * origin[code][s->len[code] - 1] + SEND;
    if (code == DEAL_CODE) return 3 * s->dealt + DEALT;
    int i = (code - COLUMN_MOVE) >> 3;
    return 3 * origin[i][s->len[i] - 1] + PARK;
}

/* The start state again, in a fresh trie now and then (the rollouts' columns
 * would otherwise fill it): the ids change, never what they stand for. */
static int restart(Runs *r) {
    if (r->trie->count > (1u << 21)) {
        trie_free(r->trie);
        if (trie_init(r->trie)) return -1;
        for (int i = 0; i < r->start.ncols; i++) {
            uint32_t id = 0;
            for (int h = 0; h < r->start.len[i]; h++) {
                id = trie_child(r->trie, id, r->start.col[i][h]);
                if (id == TRIE_FULL) return -1;
            }
            r->start.cid[i] = id;
        }
    }
    int *log = r->s.log;
    size_t caplog = r->s.caplog;
    r->s = r->start;
    r->s.log = log;
    r->s.caplog = caplog;
    r->s.nlog = 0;
    memcpy(r->origin, r->start_origin, sizeof r->origin);
    return 0;
}

/* rollouts.py Rollouts._rollout: a score >= 0, or SPENT, FOUND (the line is
 * r->s's log), BROKE (a Python exception is set). */
static int rollout(Runs *r, const double *policy, Choices *out) {
    if (r->used + r->end_nodes + r->longest > r->cap || (r->deadline >= 0 && monotonic() >= r->deadline))
        return SPENT;
    if (PyErr_CheckSignals()) return BROKE;
    if (restart(r)) goto oom;
    State *s = &r->s;
    uint8_t moves[MAXMOVES];
    int played = 0;
    /* rollouts.py _unmoved: the stock places of the cards moved between
     * columns since the last deal or pile move, flagged and listed. */
    uint8_t moved[256], moved_list[MAXCARDS];
    int nmoved = 0;
    memset(moved, 0, sizeof moved);
    out->n = 0;
    out->start[0] = 0;
    while (s->dealt < s->n_order && played < r->max_moves) {
        int ncols = r->safe_moves ? s->ncols : 0;
        for (int i = 0; i < ncols; i++) {
            while (s->len[i] && safe_top(s, i)) {
                if (play_tracked(s, r->origin, i)) goto oom;
                played++;
                while (nmoved) moved[moved_list[--nmoved]] = 0;
            }
        }
        int n = gen_moves(s, moves);
        if (nmoved) {
            int kept = 0;
            for (int k = 0; k < n; k++) {
                int code = moves[k];
                if (code < COLUMN_MOVE) {
                    moves[kept++] = moves[k];
                } else {
                    int i = (code - COLUMN_MOVE) >> 3;
                    if (!moved[r->origin[i][s->len[i] - 1]]) moves[kept++] = moves[k];
                }
            }
            n = kept;
        }
        int code;
        if (n > 1) {
            uint16_t *names = out->names + out->start[out->n];
            for (int k = 0; k < n; k++) names[k] = (uint16_t)name_of(s, r->origin, moves[k]);
            odds(policy, names, n, r->weight);
            /* random.choices(range(n), weights): a bisection of the running sums. */
            double cum[MAXMOVES], sum = 0.0;
            for (int k = 0; k < n; k++) cum[k] = sum = sum + r->weight[k];
            double x = twister_random(&r->rng) * (cum[n - 1] + 0.0);
            int lo = 0, hi = n - 1;
            while (lo < hi) {
                int mid = (lo + hi) / 2;
                if (x < cum[mid])
                    hi = mid;
                else
                    lo = mid + 1;
            }
            out->chosen[out->n] = names[lo];
            out->start[out->n + 1] = out->start[out->n] + n;
            out->n++;
            code = moves[lo];
        } else if (n) {
            code = moves[0];
        } else {
            break;
        }
        if (code >= COLUMN_MOVE) {
            int i = (code - COLUMN_MOVE) >> 3;
            uint8_t place = r->origin[i][s->len[i] - 1];
            if (!moved[place] && nmoved < MAXCARDS) {
                moved[place] = 1;
                moved_list[nmoved++] = place;
            }
        } else {
            while (nmoved) moved[moved_list[--nmoved]] = 0;
        }
        if (play_tracked(s, r->origin, code)) goto oom;
        played++;
    }
    Limits lim;
    memset(&lim, 0, sizeof lim);
    lim.limit = r->end_nodes;
    lim.deadline = r->deadline;
    lim.safe_moves = r->safe_moves;
    int verdict = search(s, &lim);
    if (verdict == FAILED) return BROKE;
    if (verdict == MEMORY) goto oom; /* a rollout's small end search: the machine itself is full */
    r->used += played + lim.nodes;
    if (lim.best > r->best) r->best = lim.best;
    if (r->on_progress) {
        PyObject *res = PyObject_CallFunction(r->on_progress, "L", r->used);
        if (!res) return BROKE;
        Py_DECREF(res);
    }
    return verdict == WON ? FOUND : lim.best;
oom:
    PyErr_NoMemory();
    return BROKE;
}

/* rollouts.py Rollouts._nested: level 0 is a rollout; level n runs level
 * n - 1 `iterations` times, adapting its policy to the best choices so far. */
static int nested(Runs *r, int level, const double *policy, Choices *out) {
    if (level == 0) return rollout(r, policy, out);
    double *mine = r->policies + (size_t)(2 * level) * MAXNAMES, *next = mine + MAXNAMES;
    Choices *best = &r->seqs[2 * level], *latest = &r->seqs[2 * level + 1];
    memcpy(mine, policy, MAXNAMES * sizeof(double));
    int best_score = -1;
    best->n = 0;
    best->start[0] = 0;
    for (int k = 0; k < r->iterations; k++) {
        int score = nested(r, level - 1, mine, latest);
        if (score < 0) return score;
        if (score >= best_score) {
            Choices swap = *best;
            *best = *latest;
            *latest = swap;
            best_score = score;
        }
        adapt(r, mine, next, best);
        memcpy(mine, next, MAXNAMES * sizeof(double));
    }
    copy_choices(out, best);
    return best_score;
}

static int alloc_choices(Choices *c, int max_moves) {
    c->names = malloc((size_t)max_moves * MAXMOVES * sizeof(uint16_t));
    c->start = malloc((size_t)(max_moves + 1) * sizeof(int));
    c->chosen = malloc((size_t)max_moves * sizeof(uint16_t));
    c->n = 0;
    if (c->start) c->start[0] = 0;
    return c->names && c->start && c->chosen ? 0 : -1;
}

/* Frees what core_rollouts allocated (the choices are calloc'd: unallocated ones are NULL). */
static void free_runs(Runs *r) {
    for (int k = 0; r->seqs && k < 2 * r->level + 2; k++) {
        free(r->seqs[k].names);
        free(r->seqs[k].start);
        free(r->seqs[k].chosen);
    }
    free(r->seqs);
    free(r->policies);
    free(r->s.log);
    trie_free(r->trie);
}

/* The generator's state: random.Random.getstate()[1], 624 words and the index. */
static int load_twister(PyObject *obj, Twister *g) {
    PyObject *seq = PySequence_Tuple(obj);
    if (!seq) return -1;
    if (PyTuple_GET_SIZE(seq) != MT_N + 1) {
        PyErr_Format(PyExc_ValueError, "rng_state has %zd entries, expected %d", PyTuple_GET_SIZE(seq), MT_N + 1);
        Py_DECREF(seq);
        return -1;
    }
    for (int k = 0; k <= MT_N; k++) {
        unsigned long x = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(seq, k));
        if ((x == (unsigned long)-1 && PyErr_Occurred()) || x > (k < MT_N ? 0xFFFFFFFFUL : (unsigned long)MT_N)) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "rng_state: a word is out of range");
            Py_DECREF(seq);
            return -1;
        }
        if (k < MT_N)
            g->mt[k] = (uint32_t)x;
        else
            g->index = (int)x;
    }
    Py_DECREF(seq);
    return 0;
}

static PyObject *dump_twister(const Twister *g) {
    PyObject *t = PyTuple_New(MT_N + 1);
    if (!t) return NULL;
    for (int k = 0; k <= MT_N; k++) {
        PyObject *x = PyLong_FromUnsignedLong(k < MT_N ? g->mt[k] : (unsigned long)g->index);
        if (!x) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, k, x);
    }
    return t;
}

static PyObject *core_rollouts(PyObject *self, PyObject *args, PyObject *kwargs) {
    (void)self;
    static char *kwlist[] = {"state",      "origins", "rng_state", "used",     "budget",      "best",
                             "level",      "iterations", "end_nodes", "max_moves", "longest",   "send_bias",
                             "alpha",      "deadline", "on_progress", "safe_moves", NULL};
    PyObject *obj, *origins, *rng_state, *deadline = Py_None, *on_progress = Py_None;
    long long used, budget;
    int best, level, iterations, end_nodes, max_moves, longest, safe_moves = 1;
    double send_bias, alpha;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOLLiiiiiidd|OOp", kwlist, &obj, &origins, &rng_state, &used,
                                     &budget, &best, &level, &iterations, &end_nodes, &max_moves, &longest, &send_bias,
                                     &alpha, &deadline, &on_progress, &safe_moves))
        return NULL;
    if (check_range("level", level, 0, 16) || check_range("iterations", iterations, 1, 1 << 16) ||
        check_range("end_nodes", end_nodes, 1, BIG) || check_range("max_moves", max_moves, 1, 4 * MAXCARDS) ||
        check_range("longest", longest, 0, BIG))
        return NULL;
    if (used < 0 || budget < 1 || used > (1LL << 62) - budget) {
        PyErr_Format(PyExc_ValueError, "used %lld and budget %lld: expected used >= 0 and budget >= 1", used, budget);
        return NULL;
    }
    Limits lim;
    if (parse_limits(Py_None, deadline, &lim)) return NULL;
    Runs *r = calloc(1, sizeof(Runs));
    Trie trie;
    if (!r) return PyErr_NoMemory();
    if (trie_init(&trie)) {
        trie_free(&trie);
        free(r);
        return PyErr_NoMemory();
    }
    r->trie = &trie;
    if (load_state(obj, &r->start, &trie) || load_origins(origins, &r->start, r->start_origin) ||
        load_twister(rng_state, &r->rng))
        goto fail;
    r->level = level;
    r->iterations = iterations;
    r->end_nodes = end_nodes;
    r->max_moves = max_moves;
    r->longest = longest;
    r->safe_moves = safe_moves;
    r->send_bias = send_bias;
    r->alpha = alpha;
    r->deadline = lim.deadline;
    r->used = used;
    r->cap = used + budget;
    r->best = best;
    r->on_progress = on_progress == Py_None ? NULL : on_progress;
    r->seqs = calloc((size_t)(2 * level + 2), sizeof(Choices));
    r->policies = malloc((size_t)(2 * level + 2) * MAXNAMES * sizeof(double));
    if (!r->seqs || !r->policies) goto oom;
    for (int k = 0; k < 2 * level + 2; k++)
        if (alloc_choices(&r->seqs[k], max_moves)) goto oom;
    /* rollouts.py Rollouts.run: restarts from an empty policy until a win or the budget's end. */
    double *empty = r->policies;
    for (int name = 0; name < MAXNAMES; name++) empty[name] = prior(r, name);
    int score;
    do {
        score = nested(r, level, empty, &r->seqs[1]);
    } while (score >= 0);
    if (score == BROKE) goto fail;
    PyObject *line = score == FOUND ? int_list(r->s.log, r->s.nlog) : Py_NewRef(Py_None);
    PyObject *twister = line ? dump_twister(&r->rng) : NULL;
    PyObject *result = NULL;
    if (twister)
        result = Py_BuildValue("NLiN", line, r->used, r->best, twister);
    else
        Py_XDECREF(line);
    free_runs(r);
    free(r);
    return result;
oom:
    PyErr_NoMemory();
fail:
    free_runs(r);
    free(r);
    return NULL;
}

static PyMethodDef methods[] = {
    {"search", (PyCFunction)(void (*)(void))core_search, METH_VARARGS | METH_KEYWORDS,
     "search(state, max_nodes=None, deadline=None, on_progress=None, safe_moves=True)\n"
     "-> (verdict, nodes, best, ops or None): search.py's depth-first search, compiled; verdict\n"
     "'memory' where its tables would not fit in the memory left (dfs.OutOfMemory)."},
    {"layered", (PyCFunction)(void (*)(void))core_layered, METH_VARARGS | METH_KEYWORDS,
     "layered(state, max_nodes=None, deadline=None, on_progress=None, safe_moves=True, trace=True,\n"
     "part_records=131072, max_entries=<no cap>, save_dir=None, save_every=600.0)\n"
     "-> (verdict, nodes, best, ops or None): search() layer by layer of progress (cards dealt plus\n"
     "cards up), holding only (a part of) the layer it expands: the same positions, less memory; a\n"
     "layer with more than part_records positions waiting is expanded in parts by class (cards up).\n"
     "'won_untraced': won, but the way back was kept only part of the way (trace=False, the disk\n"
     "ran short, or past max_entries): ops reach a position from which a win was found (None: none\n"
     "of it was kept).  save_dir: keep the search there, saved where it stops and, every save_every\n"
     "seconds (< 0: never), as it goes."},
    {"code_records", core_code_records, METH_VARARGS,
     "code_records(raw: bytes) -> bytes: packed 40-byte waiting records (the search by layers')\n"
     "coded as its files hold them, each against the one before (_records.h)."},
    {"read_records", core_read_records, METH_VARARGS,
     "read_records(coded: bytes) -> bytes: code_records() undone; ValueError where a record is\n"
     "damaged or cut short."},
    {"hold_back", (PyCFunction)(void (*)(void))core_hold_back, METH_VARARGS | METH_KEYWORDS,
     "hold_back(state, origins, held, newest_first=False, max_nodes=None, deadline=None, safe_moves=True)\n"
     "-> (verdict, nodes, best, sent, dealing, ops or None): search.py's deal_holding_back from state\n"
     "(origins: the stock index of each column card; held: stock indices), then search() from its end."},
    {"rollouts", (PyCFunction)(void (*)(void))core_rollouts, METH_VARARGS | METH_KEYWORDS,
     "rollouts(state, origins, rng_state, used, budget, best, level, iterations, end_nodes, max_moves, longest,\n"
     "send_bias, alpha, deadline=None, on_progress=None, safe_moves=True) -> (ops or None, used, best, rng_state):\n"
     "rollouts.py's Rollouts.run from state, draw for draw (rng_state: random.Random.getstate()[1])."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_core", "The solver's depth-first search, compiled (see search.py).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    CheckpointError = PyErr_NewExceptionWithDoc(
        "intrigue.solver._core.CheckpointError",
        "A search by layers kept in a directory that cannot go on: of another position, or damaged.",
        PyExc_ValueError, NULL);
    if (!CheckpointError || PyModule_AddObjectRef(m, "CheckpointError", CheckpointError)) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
