/* hmap.h -- an open-addressing hash map from a pair of 64-bit keys to an
 * int, for the lookups expansion makes per process and per channel. */
#ifndef ENS_HMAP_H
#define ENS_HMAP_H

#include <stddef.h>
#include <stdint.h>

enum hmap_result { HMAP_FOUND, HMAP_INSERTED };

struct hmap;

struct hmap *hmap_new(void);
void hmap_free(struct hmap *);
/* The value stored for (a, b), or -1. */
int hmap_get(const struct hmap *, uint64_t a, uint64_t b);
/* Store v for (a, b) unless present; *old gets the value found (or v). */
enum hmap_result hmap_put(struct hmap *, uint64_t a, uint64_t b, int v, int *old);

#endif
