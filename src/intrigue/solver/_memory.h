/* Memory as a limit, shared by the compiled search (_core.c), the column test
 * (_relaxed.c) and the rank projection (_projected.c).  Their tables grow by
 * doubling; a table about to grow asks memory_allows first, so that a search
 * that outgrows the machine stops with "unknown" (or an undecided relaxed
 * game) while there is still room, rather than being killed by the kernel
 * when an overcommitted allocation is first touched, or raising MemoryError
 * from deep inside a run of many deals. */
#ifndef INTRIGUE_MEMORY_H
#define INTRIGUE_MEMORY_H

#include <stddef.h>
#include <stdio.h>

/* Growths below this never ask: the rollouts' thousands of small searches
 * would otherwise read /proc for nothing. */
#define MEMORY_ASK_FROM ((size_t)64 << 20)
#define MEMORY_RESERVE_MIN ((unsigned long long)256 << 20)

static unsigned long long memory_read_number(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    unsigned long long n = 0;
    if (fscanf(f, "%llu", &n) != 1) n = 0; /* "max" (no limit) reads as nothing */
    fclose(f);
    return n;
}

/* The bytes this process may still take: MemAvailable, or less where a cgroup
 * (v2) caps the container; 0 when neither can be read. */
static unsigned long long memory_available(unsigned long long *total) {
    FILE *f = fopen("/proc/meminfo", "r");
    unsigned long long available = 0;
    *total = 0;
    if (f) {
        char line[128];
        unsigned long long kb;
        while (fgets(line, sizeof line, f)) {
            if (sscanf(line, "MemTotal: %llu kB", &kb) == 1) *total = kb << 10;
            if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) available = kb << 10;
        }
        fclose(f);
    }
    unsigned long long cap = memory_read_number("/sys/fs/cgroup/memory.max");
    if (cap) {
        unsigned long long current = memory_read_number("/sys/fs/cgroup/memory.current");
        unsigned long long left = cap > current ? cap - current : 0;
        if (!available || left < available) available = left;
        if (!*total || cap < *total) *total = cap;
    }
    return available;
}

/* The most bytes the solver's tables may take now: what the machine has
 * available less a reserve of a thirty-second of its memory (at least 256
 * MiB) for everything else; SIZE_MAX where that cannot be read (the
 * allocation itself then decides). */
static size_t memory_grantable(void) {
    unsigned long long total;
    unsigned long long available = memory_available(&total);
    if (!available && !total) return (size_t)-1;
    unsigned long long reserve = total / 32 > MEMORY_RESERVE_MIN ? total / 32 : MEMORY_RESERVE_MIN;
    return available > reserve ? (size_t)(available - reserve) : 0;
}

/* Whether a table may allocate `bytes` more, asking only for growths of
 * `from` bytes or more. */
static int memory_allows_from(size_t bytes, size_t from) { return bytes < from || bytes <= memory_grantable(); }

/* Whether a table may allocate `bytes` more. */
static int memory_allows(size_t bytes) { return memory_allows_from(bytes, MEMORY_ASK_FROM); }

#endif
