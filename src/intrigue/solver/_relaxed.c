/* The column test's relaxed game, compiled: relaxation.py's RelaxedGame.clears
 * (and _Room.places), state for state.
 *
 * Why C: the relaxed game of a long column runs to a million states, which
 * CPython visits at ~65 000 a second -- seconds inside a card-table hint.  The
 * rules are relaxation.py's; nothing here is a rule of its own, and
 * tests/test_relaxation.py checks that both visit the same number of states
 * with the same answer, column by column, on random positions of every game.
 *
 * A state is (cards of the chosen columns dealt -- one column, or up to
 * four kept exact together -- their stacks, the parked cards sorted,
 * the cards on the piles per type, the free cards per type), as in Python; the
 * stack is a node of a trie of stacks (a stack is its parent plus a card on
 * top), so states are fixed-size and stored whole: "cannot clear" stays
 * exhaustive.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RANKS 14
#define TYPES 22 /* ranks, and Glencoe's suited Fives and Sixes (rules.py) */
#define MAXPARKED 8
#define MAXDEAL 112
#define MAXOTHERS 8
#define MAXCHOSEN 4
#define DEADLINE_EVERY 4096

/* A column's stack is a node of a trie of stacks (_trie.h): one int. */
#include "_memory.h"
#include "_pyread.h"
#include "_trie.h"

/* ------------------------------------------------------------------ states */

typedef struct {
    uint32_t stack[MAXCHOSEN]; /* 0 for a column not chosen */
    uint8_t dealt, nparked;
    uint8_t parked[MAXPARKED]; /* sorted; unused entries 0 (no card is type 0) */
    uint8_t on[TYPES]; /* per type, and Glencoe's openers under their rank too */
} Key;

/* A state: its key, and what the key determines but leaves out (the free
 * cards left are those at the start, less the piles' cards that are neither
 * the column's nor there at the start; the column's cards up are those dealt
 * less those on it and parked). */
typedef struct {
    Key key;
    uint8_t free[TYPES];
    uint8_t own_up[RANKS]; /* per rank, for the room */
} Node;

/* The states seen, each packed (pack_key) in a slot of `size` bytes: a 4-byte
 * tag, part of the hash and never 0 in a filled slot, then the chosen
 * columns' stacks, the cards dealt, the parked cards, and the cards on the
 * piles four bits a type (a type has at most 8 cards): 24 bytes for one
 * column of Salic Law, 36 for four, rather than the 52 of a whole key. */
typedef struct {
    uint8_t *slots;
    size_t cap, count;
    size_t full;       /* the slots max_states fill at most to three quarters */
    int size, k, types; /* bytes a slot; the stacks and the types it keeps */
} Seen;

#define MAXPACKED (4 + 4 * MAXCHOSEN + 1 + MAXPARKED + (TYPES + 1) / 2)

/* The slots a table of at most `max_states` keys needs (a load of three
 * quarters, and a margin so that it never grows at the very end). */
static size_t slots_for(long long max_states) {
    unsigned long long n = max_states > 0 ? (unsigned long long)max_states : 1;
    if (n > ((unsigned long long)1 << 60) / 4) return (size_t)1 << 61; /* no budget to speak of */
    return (size_t)(n * 4 / 3 + 64);
}

/* An empty table for `k` chosen columns, `types` types on the piles and a
 * budget of `max_states`: 0, or -1 out of memory. */
static int seen_init(Seen *t, int k, int types, long long max_states) {
    t->k = k;
    t->types = types;
    t->size = 4 + 4 * k + 1 + MAXPARKED + (types + 1) / 2;
    t->cap = 1 << 10;
    t->count = 0;
    t->full = slots_for(max_states);
    t->slots = calloc(t->cap, (size_t)t->size);
    return t->slots ? 0 : -1;
}

/* The key's bytes after the tag (`out` + 4). */
static void pack_key(const Seen *t, const Key *key, uint8_t *out) {
    uint8_t *p = out + 4;
    memcpy(p, key->stack, 4 * (size_t)t->k);
    p += 4 * t->k;
    *p++ = key->dealt;
    memcpy(p, key->parked, MAXPARKED);
    p += MAXPARKED;
    for (int i = 0; i < t->types; i += 2) *p++ = (uint8_t)(key->on[i] | (i + 1 < t->types ? key->on[i + 1] << 4 : 0));
}

/* The hash of a packed key's bytes after the tag. */
static uint64_t hash_packed(const Seen *t, const uint8_t *slot) {
    uint64_t h = 0xCBF29CE484222325ULL;
    for (int i = 4; i < t->size; i++) h = (h ^ slot[i]) * 0x100000001B3ULL;
    return mix64(h);
}

static inline uint32_t tag_of(const uint8_t *slot) {
    uint32_t tag;
    memcpy(&tag, slot, 4);
    return tag;
}

/* A hash's slot: by multiplication rather than a mask, so that a table may be
 * any size, and the one a budget needs is no larger than that. */
static inline size_t slot_of(uint64_t h, size_t cap) {
#ifdef __SIZEOF_INT128__
    return (size_t)(((unsigned __int128)h * cap) >> 64);
#else
    return (size_t)(h % cap);
#endif
}

/* Twice the slots, or the budget's own table where twice would be half of it
 * or more: a game that fills its budget then ends in a table of the size it
 * needs (not up to twice that), and its last growth, while the old table and
 * the new are both held, takes at most half as much again; a smaller game
 * grows as before. */
static int seen_grow(Seen *t) {
    size_t cap = t->cap * 2, size = (size_t)t->size;
    if (t->full > cap && t->full / 2 <= cap) cap = t->full;
    if (!memory_allows(cap * size)) return -1;
    uint8_t *slots = calloc(cap, size);
    if (!slots) return -1;
    for (size_t k = 0; k < t->cap; k++) {
        const uint8_t *old = t->slots + k * size;
        if (!tag_of(old)) continue;
        size_t idx = slot_of(hash_packed(t, old), cap);
        while (tag_of(slots + idx * size)) idx = idx + 1 == cap ? 0 : idx + 1;
        memcpy(slots + idx * size, old, size);
    }
    free(t->slots);
    t->slots = slots;
    t->cap = cap;
    return 0;
}

/* 1 if new (now added), 0 if seen, -1 out of memory. */
static int seen_add(Seen *t, const Key *key) {
    uint8_t packed[MAXPACKED];
    size_t size = (size_t)t->size;
    pack_key(t, key, packed);
    uint64_t h = hash_packed(t, packed);
    uint32_t tag = (uint32_t)h | 1; /* the slot comes from the high bits */
    memcpy(packed, &tag, 4);
    size_t idx = slot_of(h, t->cap);
    uint8_t *slot;
    while (tag_of(slot = t->slots + idx * size)) {
        if (!memcmp(slot, packed, size)) return 0;
        idx = idx + 1 == t->cap ? 0 : idx + 1;
    }
    memcpy(slot, packed, size);
    t->count++;
    if (t->count * 4 >= t->cap * 3 && seen_grow(t)) return -1;
    return 1;
}

/* ------------------------------------------------------------------ the game */

typedef struct {
    int prev[TYPES], slots[TYPES], rank_of[TYPES], suit_of[TYPES];
    int k; /* columns chosen */
    uint8_t deal[MAXDEAL], deal_column[MAXDEAL], deal_opened[MAXDEAL], deal_places[MAXDEAL];
    int n;
    int opens_at[MAXCHOSEN]; /* cards dealt before each chosen column counts as open */
    int suited;              /* Glencoe: bases dealt of each suit, per card to deal and after */
    uint8_t deal_by_suit[MAXDEAL][4], after_by_suit[4];
    int later[TYPES];
    int after_opened, after_places, parking_back;
    /* the room (docs/solver.md, "Room to park"); has_room 0 in Salic Law */
    int has_room, on0[RANKS], own[RANKS], other_free[RANKS], order[RANKS], norder;
    int nothers, other[MAXOTHERS][RANKS];
    int *sets;       /* per set of other columns, largest first: its size, then its needs */
    int nsets;
} Game;

/* RelaxedGame._opens: whether `card`, an opener, may open a pile now. */
static int opens(const Game *g, const Key *k, int card, int opened, const uint8_t *by_suit) {
    int rank = g->rank_of[card];
    if (by_suit) return g->suit_of[card] >= 0 && k->on[rank] < g->slots[rank] && k->on[card] < by_suit[g->suit_of[card]];
    int most = opened < g->slots[rank] ? opened : g->slots[rank];
    return k->on[rank] < most;
}

/* RelaxedGame._up: each state after `card` goes up (up to four: Glencoe's free
 * opener may be of any suit that may open), in out; how many. */
static int up(const Game *g, const Node *node, int card, int opened, const uint8_t *by_suit, int direct,
              Node *out) {
    const Key *k = &node->key;
    int path[RANKS], np = 0, q = card, opener = -1;
    for (;;) {
        int p = g->prev[q];
        if (p == 0) {
            opener = q;
            break;
        }
        if (k->on[p] > k->on[q]) break;
        if (direct || np == RANKS) return 0;
        path[np++] = p;
        q = p;
    }
    int last[4], nc = 0; /* the type spent last: -1 for the path as it is */
    if (opener < 0) {
        last[nc++] = -1;
    } else if (opener == card || !by_suit) {
        if (opens(g, k, opener, opened, by_suit)) last[nc++] = -1;
    } else {
        for (int t = RANKS; t < TYPES && nc < 4; t++)
            if (g->rank_of[t] == opener && opens(g, k, t, opened, by_suit)) last[nc++] = t;
    }
    int n = 0;
    for (int c = 0; c < nc; c++) {
        Node *o = &out[n];
        *o = *node;
        int ok = 1;
        for (int i = 0; i < np && ok; i++) {
            int t = i == np - 1 && last[c] >= 0 ? last[c] : path[i];
            if (o->free[t] == 0) ok = 0;
            o->free[t]--;
            o->key.on[t]++;
            if (g->rank_of[t] != t) o->key.on[g->rank_of[t]]++;
        }
        if (!ok) continue;
        o->key.on[card]++;
        if (g->rank_of[card] != card) o->key.on[g->rank_of[card]]++;
        o->own_up[g->rank_of[card]]++;
        n++;
    }
    return n;
}

static void park(Key *k, int rank) {
    int i = k->nparked++;
    while (i > 0 && k->parked[i - 1] > rank) {
        k->parked[i] = k->parked[i - 1];
        i--;
    }
    k->parked[i] = (uint8_t)rank;
}

static void unpark(Key *k, int at) {
    memmove(k->parked + at, k->parked + at + 1, (size_t)(k->nparked - at - 1));
    k->parked[--k->nparked] = 0;
}

/* _Room.places: the most other columns that can be vacant. */
static int room_places(const Game *g, const uint8_t *own_up) {
    int most[RANKS] = {0}, other_up[RANKS] = {0};
    for (int i = 0; i < g->norder; i++) {
        int r = g->order[i];
        most[r] = g->on0[r] + own_up[r] + g->other_free[r];
        if (g->prev[r] && most[g->prev[r]] < most[r]) most[r] = most[g->prev[r]];
        other_up[r] = most[r] - g->on0[r] - own_up[r];
    }
    const int *set = g->sets;
    for (int s = 0; s < g->nsets; s++, set += 1 + RANKS) {
        int fits = 1;
        for (int r = 0; r < RANKS && fits; r++) fits = !set[1 + r] || other_up[r] >= set[1 + r];
        if (fits) return set[0];
    }
    return 0; /* the empty set always fits */
}

static int build_room(Game *g) {
    int n = g->nothers, total = 1 << n;
    g->sets = malloc((size_t)total * (1 + RANKS) * sizeof(int));
    if (!g->sets) return -1;
    int *out = g->sets;
    for (int size = n; size >= 0; size--) {
        for (int mask = 0; mask < total; mask++) {
            if (__builtin_popcount((unsigned)mask) != size) continue;
            out[0] = size;
            for (int r = 0; r < RANKS; r++) {
                int need = 0;
                for (int c = 0; c < n; c++)
                    if (mask >> c & 1) need += g->other[c][r];
                out[1 + r] = need;
            }
            out += 1 + RANKS;
        }
    }
    g->nsets = total;
    /* each rank after the one below it */
    g->norder = 0;
    int placed[RANKS] = {0}, progress = 1;
    while (progress) {
        progress = 0;
        for (int r = 0; r < RANKS; r++) {
            if (placed[r] || g->prev[r] < 0) continue;
            if (g->prev[r] == 0 || placed[g->prev[r]]) {
                g->order[g->norder++] = r;
                placed[r] = 1;
                progress = 1;
            }
        }
    }
    return 0;
}

typedef struct {
    Node *items;
    size_t n, cap;
} Todo;

static int todo_push(Todo *t, const Node *node) {
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 1024;
        Node *items = realloc(t->items, cap * sizeof(Node));
        if (!items) return -1;
        t->items = items;
        t->cap = cap;
    }
    t->items[t->n++] = *node;
    return 0;
}

enum { CLEARED, BLOCKED, CUT_SHORT, FAILED };

/* RelaxedGame.clears, state for state. */
static int clears(const Game *g, uint8_t stack[MAXCHOSEN][MAXDEAL], const int *nstack, const int *on,
                  const int *free_cards, long long max_states, double deadline, long long *visited) {
    Trie stacks;
    Seen seen = {0};
    Todo todo = {NULL, 0, 0};
    int result = FAILED;
    if (trie_init(&stacks) || seen_init(&seen, g->k, g->suited ? TYPES : RANKS, max_states)) goto done;
    Node start;
    memset(&start, 0, sizeof start);
    for (int c = 0; c < g->k; c++) {
        for (int i = 0; i < nstack[c]; i++) {
            start.key.stack[c] = trie_child(&stacks, start.key.stack[c], stack[c][i]);
            if (start.key.stack[c] == TRIE_FULL) goto done;
        }
    }
    for (int t = 0; t < TYPES; t++) {
        start.key.on[t] = (uint8_t)on[t];
        start.free[t] = (uint8_t)free_cards[t];
    }
    if (todo_push(&todo, &start)) goto done;
    Node succ[4 * MAXCHOSEN + 4 * MAXPARKED + MAXCHOSEN + 1 + MAXCHOSEN * (MAXPARKED + MAXCHOSEN)];
    while (todo.n) {
        Node node = todo.items[--todo.n];
        Key *k = &node.key;
        int after = k->dealt >= g->n;
        int empty = 0;
        for (int c = 0; c < g->k; c++) empty += k->stack[c] == 0;
        int any = empty < g->k; /* a chosen column still has cards */
        if (after && !any && !k->nparked) {
            result = CLEARED;
            goto done;
        }
        int added = seen_add(&seen, k);
        if (added < 0) goto done;
        if (!added) continue;
        if ((long long)seen.count >= max_states) {
            result = CUT_SHORT;
            goto done;
        }
        if (!(seen.count % DEADLINE_EVERY)) {
            if (PyErr_CheckSignals()) goto done;
            if (deadline >= 0 && monotonic() > deadline) {
                result = CUT_SHORT;
                goto done;
            }
        }
        int opened = after ? g->after_opened : g->deal_opened[k->dealt];
        int places = after ? g->after_places : g->deal_places[k->dealt];
        const uint8_t *by_suit = !g->suited ? NULL : after ? g->after_by_suit : g->deal_by_suit[k->dealt];
        if (after && any && g->has_room) {
            int room = room_places(g, node.own_up) + empty; /* an emptied chosen column */
            if (k->nparked > room) continue;
            if (room < places) places = room;
        }
        /* a parked card that a pile wants goes up at once */
        int forced = 0;
        for (int i = 0; i < k->nparked && !forced; i++) {
            int rank = k->parked[i];
            if (!(after || (g->prev[rank] && !g->parking_back))) continue;
            Node next[4];
            if (up(g, &node, rank, opened, by_suit, 1, next)) {
                unpark(&next[0].key, i);
                if (todo_push(&todo, &next[0])) goto done;
                forced = 1;
            }
        }
        if (forced) continue;
        int ns = 0;
        for (int c = 0; c < g->k; c++) {
            if (!k->stack[c]) continue;
            int rank = stacks.last[k->stack[c]];
            int got = up(g, &node, rank, opened, by_suit, 0, &succ[ns]);
            for (int i = 0; i < got; i++) succ[ns++].key.stack[c] = stacks.parent[k->stack[c]];
        }
        for (int i = 0; i < k->nparked; i++) {
            int rank = k->parked[i];
            if (i && k->parked[i - 1] == rank) continue;
            int got = up(g, &node, rank, opened, by_suit, 0, &succ[ns]);
            for (int j = 0; j < got; j++) unpark(&succ[ns++].key, i);
        }
        for (int c = 0; c < g->k && k->nparked < places && k->nparked < MAXPARKED; c++) {
            if (!k->stack[c]) continue;
            Node *next = &succ[ns++];
            *next = node;
            park(&next->key, stacks.last[k->stack[c]]);
            next->key.stack[c] = stacks.parent[k->stack[c]];
        }
        if (!after) {
            Node *next = &succ[ns++];
            int c = g->deal_column[k->dealt];
            *next = node;
            next->key.stack[c] = trie_child(&stacks, k->stack[c], g->deal[k->dealt]);
            if (next->key.stack[c] == TRIE_FULL) goto done;
            next->key.dealt++;
            if (next->key.dealt == g->n)
                for (int t = 0; t < TYPES; t++) next->free[t] = (uint8_t)(next->free[t] + g->later[t]);
        }
        /* onto an emptied chosen column that is open (Salic Law): a parked card
           (once all is dealt, only where another chosen column could use the
           place), or another chosen column's top */
        for (int j = 0; g->parking_back && j < g->k; j++) {
            if (k->stack[j] || k->dealt < g->opens_at[j]) continue;
            for (int i = 0; i < k->nparked && (!after || g->k > 1); i++) {
                int rank = k->parked[i];
                if (i && k->parked[i - 1] == rank) continue;
                Node *back = &succ[ns++];
                *back = node;
                unpark(&back->key, i);
                back->key.stack[j] = trie_child(&stacks, 0, rank);
                if (back->key.stack[j] == TRIE_FULL) goto done;
            }
            for (int c = 0; c < g->k; c++) {
                if (c == j || !k->stack[c]) continue;
                Node *moved = &succ[ns++];
                *moved = node;
                moved->key.stack[c] = stacks.parent[k->stack[c]];
                moved->key.stack[j] = trie_child(&stacks, 0, stacks.last[k->stack[c]]);
                if (moved->key.stack[j] == TRIE_FULL) goto done;
            }
        }
        for (int i = ns - 1; i >= 0; i--)
            if (todo_push(&todo, &succ[i])) goto done;
    }
    result = BLOCKED;
done:
    /* Out of memory (or a table that would leave the machine short:
     * _memory.h) is a limit, as max_states is: undecided, no proof. */
    if (result == FAILED && !PyErr_Occurred()) result = CUT_SHORT;
    *visited = (long long)seen.count;
    trie_free(&stacks);
    free(seen.slots);
    free(todo.items);
    return result;
}

/* ------------------------------------------------------------------ Python */

static PyObject *relaxed_clears(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *relaxed, *deadline_obj;
    long long max_states;
    if (!PyArg_ParseTuple(args, "OLO", &relaxed, &max_states, &deadline_obj)) return NULL;
    double deadline = -1;
    if (deadline_obj != Py_None) {
        deadline = PyFloat_AsDouble(deadline_obj);
        if (deadline == -1 && PyErr_Occurred()) return NULL;
    }
    Game g;
    memset(&g, 0, sizeof g);
    int deal[MAXDEAL], columns[MAXDEAL], on[TYPES], free_cards[TYPES], after[2], after_by_suit[4];
    int stack[MAXCHOSEN][MAXDEAL], nstack[MAXCHOSEN] = {0}, limits[MAXDEAL][2];
    Py_ssize_t ndeal, ncolumns, nlimits, nsuits, cards = 0;
    if (read_attr(relaxed, "prev", g.prev, TYPES, -1, RANKS - 1, NULL) ||
        read_attr(relaxed, "slots", g.slots, TYPES, 0, 255, NULL) ||
        read_attr(relaxed, "rank_of", g.rank_of, TYPES, 0, RANKS - 1, NULL) ||
        read_attr(relaxed, "suit_of", g.suit_of, TYPES, -1, 3, NULL) ||
        read_attr(relaxed, "deal", deal, MAXDEAL, 1, TYPES - 1, &ndeal) ||
        read_attr(relaxed, "on", on, TYPES, 0, 255, NULL) ||
        read_attr(relaxed, "free", free_cards, TYPES, 0, 255, NULL) ||
        read_attr(relaxed, "later", g.later, TYPES, 0, 255, NULL) ||
        read_attr(relaxed, "after_limits", after, 2, 0, 255, NULL) ||
        read_attr(relaxed, "after_bases_by_suit", after_by_suit, 4, 0, 255, &nsuits))
        return NULL;
    if (nsuits != 0 && nsuits != 4) {
        PyErr_Format(PyExc_ValueError, "after_bases_by_suit has %zd entries, expected 0 or 4", nsuits);
        return NULL;
    }
    g.suited = nsuits == 4;
    for (int s = 0; s < 4 && g.suited; s++) g.after_by_suit[s] = (uint8_t)after_by_suit[s];
    /* the chosen columns' stacks, and per card to deal its column and limits */
    PyObject *rows = PyObject_GetAttrString(relaxed, "stacks");
    if (!rows) return NULL;
    PyObject *seq = PySequence_Tuple(rows);
    Py_DECREF(rows);
    if (!seq) return NULL;
    g.k = (int)PyTuple_GET_SIZE(seq);
    int bad = g.k < 1 || g.k > MAXCHOSEN;
    if (bad) PyErr_Format(PyExc_ValueError, "stacks has %d entries, expected 1 to %d", g.k, MAXCHOSEN);
    for (int c = 0; c < g.k && !bad; c++) {
        Py_ssize_t n;
        bad = read_ints(PyTuple_GET_ITEM(seq, c), "stacks", stack[c], MAXDEAL, 1, TYPES - 1, &n);
        nstack[c] = (int)n;
        cards += n;
    }
    Py_DECREF(seq);
    if (bad) return NULL;
    if (read_attr(relaxed, "deal_columns", columns, MAXDEAL, 0, g.k - 1, &ncolumns) ||
        read_rows(relaxed, "deal_limits", &limits[0][0], 2, MAXDEAL, 0, 255, &nlimits, NULL))
        return NULL;
    if (ncolumns != ndeal || nlimits != ndeal) {
        PyErr_Format(PyExc_ValueError, "deal has %zd cards, deal_columns %zd and deal_limits %zd", ndeal, ncolumns,
                     nlimits);
        return NULL;
    }
    if (cards + ndeal > MAXDEAL) {
        PyErr_SetString(PyExc_ValueError, "the chosen columns have more cards than a pack");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < ndeal; i++) {
        g.deal[i] = (uint8_t)deal[i];
        g.deal_column[i] = (uint8_t)columns[i];
        g.deal_opened[i] = (uint8_t)limits[i][0];
        g.deal_places[i] = (uint8_t)limits[i][1];
    }
    g.n = (int)ndeal;
    if (g.suited) {
        /* Glencoe: the bases of each suit dealt by each card to deal */
        int by_suit[MAXDEAL][4];
        Py_ssize_t nrows;
        if (read_rows(relaxed, "deal_bases_by_suit", &by_suit[0][0], 4, MAXDEAL, 0, 255, &nrows, NULL)) return NULL;
        if (nrows != ndeal) {
            PyErr_Format(PyExc_ValueError, "deal_bases_by_suit has %zd entries, expected %zd", nrows, ndeal);
            return NULL;
        }
        for (Py_ssize_t i = 0; i < ndeal; i++)
            for (int s = 0; s < 4; s++) g.deal_by_suit[i][s] = (uint8_t)by_suit[i][s];
    }
    for (int c = 0; c < g.k; c++) /* from its first card's deal on (RelaxedGame.opens_at) */
        for (int i = (int)ndeal - 1; i >= 0; i--)
            if (g.deal_column[i] == c) g.opens_at[c] = i;
    g.after_opened = after[0];
    g.after_places = after[1];
    PyObject *back = PyObject_GetAttrString(relaxed, "parking_back");
    if (!back) return NULL;
    g.parking_back = PyObject_IsTrue(back);
    Py_DECREF(back);
    if (g.parking_back < 0) return NULL;
    PyObject *room = PyObject_GetAttrString(relaxed, "room_counts");
    if (!room) return NULL;
    int has_room = room != Py_None;
    Py_DECREF(room);
    if (has_room) {
        /* (cards on the piles at the start, the column's own, then each other column's) */
        int counts[2 + MAXOTHERS][RANKS];
        Py_ssize_t n;
        if (read_rows(relaxed, "room_counts", &counts[0][0], RANKS, 2 + MAXOTHERS, 0, 255, &n, NULL)) return NULL;
        if (n < 2) {
            PyErr_Format(PyExc_ValueError, "room_counts has %zd entries, expected 2 to %d", n, 2 + MAXOTHERS);
            return NULL;
        }
        memcpy(g.on0, counts[0], sizeof g.on0);
        memcpy(g.own, counts[1], sizeof g.own);
        memcpy(g.other, counts[2], (size_t)(n - 2) * sizeof g.other[0]);
        g.has_room = 1;
        g.nothers = (int)n - 2;
        for (int c = 0; c < g.nothers; c++)
            for (int r = 0; r < RANKS; r++) g.other_free[r] += g.other[c][r];
        if (build_room(&g)) return PyErr_NoMemory();
    }
    uint8_t stack8[MAXCHOSEN][MAXDEAL];
    for (int c = 0; c < g.k; c++)
        for (int i = 0; i < nstack[c]; i++) stack8[c][i] = (uint8_t)stack[c][i];
    long long visited = 0;
    int result = clears(&g, stack8, nstack, on, free_cards, max_states, deadline, &visited);
    free(g.sets);
    if (result == FAILED) return NULL; /* a Python exception (memory is CUT_SHORT) */
    PyObject *verdict = result == CLEARED ? Py_True : result == BLOCKED ? Py_False : Py_None;
    return Py_BuildValue("(OL)", verdict, visited);
}

static PyMethodDef methods[] = {
    {"clears", relaxed_clears, METH_VARARGS,
     "clears(relaxed, max_states, deadline) -> (cleared, states): relaxation.RelaxedGame.clears, compiled."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_relaxed", "The column test's relaxed game, compiled.", -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__relaxed(void) { return PyModule_Create(&module); }
