/* hmap.h -- an open-addressing hash map from a pair of 64-bit keys to an
 * int that is not negative, for the lookups expansion makes per process
 * and per channel and for the message ends a trace's matcher keeps
 * (trace/match.c), which come and go. */
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
/* Store v for (a, b), in place of any value stored for it. */
void hmap_set(struct hmap *, uint64_t a, uint64_t b, int v);
/* Remove (a, b): the value it had, or -1 when it was not there. */
int hmap_del(struct hmap *, uint64_t a, uint64_t b);
/* hmap_put's lookup, giving the stored value's place in the map: valid
 * until the next call that adds or removes a key, and the caller may
 * store another value there (not -1) or remove the key with
 * hmap_del_at, without a second lookup. */
int *hmap_ref(struct hmap *, uint64_t a, uint64_t b, int v,
    enum hmap_result *res);
/* Remove the key whose value is at ref (hmap_ref's). */
void hmap_del_at(struct hmap *, int *ref);
/* How many keys are stored. */
size_t hmap_count(const struct hmap *);

#endif
