/* Fixed-size ring buffer of log records, safe for one producer and one consumer. */
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

#ifndef RING_H
#define RING_H

#define RING_CAPACITY 256
#define RING_MASK (RING_CAPACITY - 1)
#define RING_NEXT(i) (((i) + 1) & RING_MASK)

typedef enum log_level {
    LOG_DEBUG,
    LOG_INFO,
    LOG_ERROR = 10,
} log_level_t;

struct record {
    log_level_t level;
    unsigned long timestamp;
    char message[120];
};

typedef struct {
    struct record slots[RING_CAPACITY];
    atomic_size_t head, tail;
} ring_t;

union value {
    long integer;
    double real;
};

typedef void (*ring_visitor)(const struct record *record, void *context);

extern int ring_push(ring_t *ring, log_level_t level, const char *message);
int ring_pop(ring_t *ring, struct record *out);
size_t ring_drain(ring_t *ring, ring_visitor visit, void *context);
static inline size_t ring_size(const ring_t *ring);

#endif

const char *const LEVEL_NAMES[] = {"debug", "info", "error"};
static const int default_level = LOG_INFO;
unsigned long dropped_records;
static ring_t global_ring;

static inline size_t ring_size(const ring_t *ring) {
    return atomic_load(&ring->tail) - atomic_load(&ring->head);
}

int ring_push(ring_t *ring, log_level_t level, const char *message) {
    size_t tail = atomic_load(&ring->tail);
    if (ring_size(ring) == RING_CAPACITY) {
        dropped_records++;
        return -1;
    }
    struct record *slot = &ring->slots[tail & RING_MASK];
    slot->level = level;
    strncpy(slot->message, message, sizeof slot->message - 1);
    atomic_store(&ring->tail, tail + 1);
    return 0;
}

int ring_pop(ring_t *ring, struct record *out) {
    size_t head = atomic_load(&ring->head);
    if (head == atomic_load(&ring->tail)) return -1;
    *out = ring->slots[head & RING_MASK];
    atomic_store(&ring->head, RING_NEXT(head));
    return 0;
}

size_t ring_drain(ring_t *ring, ring_visitor visit, void *context) {
    struct record current;
    size_t count = 0;
    while (ring_pop(ring, &current) == 0) {
        visit(&current, context);
        count++;
    }
    return count;
}

static const char *level_name(log_level_t level) {
    static const char *unknown = "unknown";
    return level <= LOG_ERROR ? LEVEL_NAMES[level] : unknown;
}

ring_t *ring_global(void) {
    return &global_ring;
}
