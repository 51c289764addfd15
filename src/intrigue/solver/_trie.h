/* A trie of stacks of small types, shared by the compiled search (_core.c:
 * column contents) and the column test (_relaxed.c: a column's stack): node 0
 * is the empty stack, node k > 0 is the stack of node parent[k] with type
 * last[k] on top, so a stack is one int, kept up to date as cards are pushed
 * and popped, and compared in O(1).  children maps (parent << 5 | type) + 1 to
 * a node, by open addressing.  Types are below 32. */
#ifndef INTRIGUE_TRIE_H
#define INTRIGUE_TRIE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_memory.h"

#define TRIE_FULL 0xFFFFFFFFu /* what trie_child returns when out of memory */

typedef struct {
    uint32_t *parent;
    uint8_t *last;
    uint32_t count, room;
    uint64_t *child_key;
    uint32_t *child_id;
    size_t child_cap;
} Trie;

static inline uint64_t mix64(uint64_t h) {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

static int trie_init(Trie *t) {
    memset(t, 0, sizeof *t);
    t->room = 1 << 10;
    t->count = 1;
    t->parent = malloc(t->room * sizeof(uint32_t));
    t->last = malloc(t->room);
    t->child_cap = 1 << 11;
    t->child_key = calloc(t->child_cap, sizeof(uint64_t));
    t->child_id = malloc(t->child_cap * sizeof(uint32_t));
    if (!t->parent || !t->last || !t->child_key || !t->child_id) return -1;
    t->parent[0] = 0;
    t->last[0] = 0;
    return 0;
}

static void trie_free(Trie *t) {
    free(t->parent);
    free(t->last);
    free(t->child_key);
    free(t->child_id);
}

static int trie_grow_children(Trie *t) {
    size_t cap = t->child_cap * 2;
    if (!memory_allows(cap * (sizeof(uint64_t) + sizeof(uint32_t)))) return -1;
    uint64_t *keys = calloc(cap, sizeof(uint64_t));
    uint32_t *ids = malloc(cap * sizeof(uint32_t));
    if (!keys || !ids) {
        free(keys);
        free(ids);
        return -1;
    }
    for (size_t k = 0; k < t->child_cap; k++) {
        uint64_t key = t->child_key[k];
        if (!key) continue;
        size_t idx = (size_t)mix64(key) & (cap - 1);
        while (keys[idx]) idx = (idx + 1) & (cap - 1);
        keys[idx] = key;
        ids[idx] = t->child_id[k];
    }
    free(t->child_key);
    free(t->child_id);
    t->child_key = keys;
    t->child_id = ids;
    t->child_cap = cap;
    return 0;
}

/* The node of stack `id` with type `type` on top (made if new); TRIE_FULL
 * when out of memory, or when growing would leave the machine short
 * (_memory.h).  Looking up a content already met never allocates. */
static uint32_t trie_child(Trie *t, uint32_t id, int type) {
    uint64_t key = ((uint64_t)id << 5 | (uint64_t)type) + 1;
    size_t mask = t->child_cap - 1;
    size_t idx = (size_t)mix64(key) & mask;
    while (t->child_key[idx]) {
        if (t->child_key[idx] == key) return t->child_id[idx];
        idx = (idx + 1) & mask;
    }
    if (t->count == t->room) {
        if (t->room >= 0x80000000u) return TRIE_FULL;
        uint32_t room = t->room * 2;
        if (!memory_allows((size_t)room * (sizeof(uint32_t) + 1))) return TRIE_FULL;
        uint32_t *parent = realloc(t->parent, room * sizeof(uint32_t));
        if (!parent) return TRIE_FULL;
        t->parent = parent;
        uint8_t *last = realloc(t->last, room);
        if (!last) return TRIE_FULL;
        t->last = last;
        t->room = room;
    }
    uint32_t node = t->count++;
    t->parent[node] = id;
    t->last[node] = (uint8_t)type;
    t->child_key[idx] = key;
    t->child_id[idx] = node;
    if ((size_t)t->count * 2 >= t->child_cap && trie_grow_children(t)) return TRIE_FULL;
    return node;
}

#endif
