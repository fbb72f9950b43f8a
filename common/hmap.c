/* hmap.c -- linear-probing hash map with a power-of-two table kept at most
 * half full; a removal moves back the keys its slot held up, so that no
 * tombstone is left and lookups stay short however many come and go. */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>

#include "hmap.h"
#include "xmalloc.h"

struct slot {
	uint64_t	a, b;
	int		v;		/* -1: empty */
};

struct hmap {
	struct slot	*slots;
	size_t		 cap;
	size_t		 count;
};

static uint64_t
mix(uint64_t a, uint64_t b)
{
	uint64_t	h = a * 0x9e3779b97f4a7c15ULL ^ (b + 0x632be59bd9b4e019ULL);

	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 29;
	return h;
}

static void
alloc_slots(struct hmap *m, size_t cap)
{
	size_t	i;

	m->slots = xreallocarray(NULL, cap, sizeof(struct slot));
	m->cap = cap;
	for (i = 0; i < cap; i++)
		m->slots[i].v = -1;
}

struct hmap *
hmap_new(void)
{
	struct hmap	*m = xcalloc(1, sizeof(*m));

	alloc_slots(m, 64);
	return m;
}

void
hmap_free(struct hmap *m)
{
	if (m == NULL)
		return;
	free(m->slots);
	free(m);
}

static struct slot *
probe(const struct hmap *m, uint64_t a, uint64_t b)
{
	size_t	i = mix(a, b) & (m->cap - 1);

	while (m->slots[i].v != -1 && (m->slots[i].a != a || m->slots[i].b != b))
		i = (i + 1) & (m->cap - 1);
	return &m->slots[i];
}

int
hmap_get(const struct hmap *m, uint64_t a, uint64_t b)
{
	return probe(m, a, b)->v;
}

/* Double the table when one more key would fill it past half. */
static void
make_room(struct hmap *m)
{
	struct slot	*prev = m->slots;
	size_t		 n = m->cap, i;

	if (2 * (m->count + 1) <= m->cap)
		return;
	alloc_slots(m, m->cap * 2);
	for (i = 0; i < n; i++)
		if (prev[i].v != -1)
			*probe(m, prev[i].a, prev[i].b) = prev[i];
	free(prev);
}

int *
hmap_ref(struct hmap *m, uint64_t a, uint64_t b, int v, enum hmap_result *res)
{
	struct slot	*s;

	make_room(m);
	s = probe(m, a, b);
	if (s->v != -1) {
		*res = HMAP_FOUND;
		return &s->v;
	}
	s->a = a;
	s->b = b;
	s->v = v;
	m->count++;
	*res = HMAP_INSERTED;
	return &s->v;
}

enum hmap_result
hmap_put(struct hmap *m, uint64_t a, uint64_t b, int v, int *old)
{
	enum hmap_result res;

	*old = *hmap_ref(m, a, b, v, &res);
	return res;
}

void
hmap_set(struct hmap *m, uint64_t a, uint64_t b, int v)
{
	enum hmap_result res;

	*hmap_ref(m, a, b, v, &res) = v;
}

void
hmap_del_at(struct hmap *m, int *ref)
{
	struct slot	*s = (struct slot *)(void *)((char *)ref -
			    offsetof(struct slot, v));
	size_t		 i, j, h, mask = m->cap - 1;

	s->v = -1;
	m->count--;
	/* Move back each key after the hole that may stand in it: one whose
	 * home slot h does not lie (cyclically) in (i, j]. */
	for (i = j = (size_t)(s - m->slots);;) {
		j = (j + 1) & mask;
		if (m->slots[j].v == -1)
			break;
		h = mix(m->slots[j].a, m->slots[j].b) & mask;
		if (i < j ? h <= i || h > j : h <= i && h > j) {
			m->slots[i] = m->slots[j];
			m->slots[j].v = -1;
			i = j;
		}
	}
}

int
hmap_del(struct hmap *m, uint64_t a, uint64_t b)
{
	struct slot	*s = probe(m, a, b);
	int		 v = s->v;

	if (v != -1)
		hmap_del_at(m, &s->v);
	return v;
}

size_t
hmap_count(const struct hmap *m)
{
	return m->count;
}
