/* ring.c - a fixed-size ring buffer.
 * Copyright 2024 Example Corp.
 */
#include <stdio.h>
#include <string.h> /* memcpy */

#define RING_SIZE 64 /* must be a power of two */
#define MASK(i) ((i) & (RING_SIZE - 1))

static const char *banner = "/* not a comment */ // nor this";

typedef struct ring {
  unsigned head; // next write
  unsigned tail; /* next read */
  char data[RING_SIZE];
} ring_t;

enum ring_status { RING_OK = 0, RING_FULL, RING_EMPTY };

/* Returns the number of bytes stored. */
static unsigned ring_len(const ring_t *r) { return r->head - r->tail; }

int ring_push(ring_t *r, char c) {
  if (ring_len(r) == RING_SIZE) {
    return RING_FULL; // caller drops the byte
  }
  r->data[MASK(r->head++)] = c;
  return RING_OK;
}

int ring_pop(ring_t *r, char *out)
{
  if (r->head == r->tail)
    return RING_EMPTY;
  *out = r->data[MASK(r->tail++)];
  return RING_OK;
}

void ring_dump(const ring_t *r, FILE *f) {
  /* print every byte
     on its own line */
  for (unsigned i = r->tail; i != r->head; i++) {
    fprintf(f, "%c\n", r->data[MASK(i)]);
  }
  fputs(banner, f);
}

int main(void) {
  ring_t r;
  memset(&r, 0, sizeof r);
  ring_push(&r, 'a');
  ring_dump(&r, stdout);
  return 0;
}
