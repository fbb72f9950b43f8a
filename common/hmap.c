/* hmap.c -- linear-probing hash map with a power-of-two table kept at most
 * half full. */
#include "config.h"

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

enum hmap_result
hmap_put(struct hmap *m, uint64_t a, uint64_t b, int v, int *old)
{
	struct slot	*s;

	if (2 * (m->count + 1) > m->cap) {
		struct slot	*prev = m->slots;
		size_t		 n = m->cap, i;

		alloc_slots(m, m->cap * 2);
		for (i = 0; i < n; i++)
			if (prev[i].v != -1)
				*probe(m, prev[i].a, prev[i].b) = prev[i];
		free(prev);
	}
	s = probe(m, a, b);
	if (s->v != -1) {
		*old = s->v;
		return HMAP_FOUND;
	}
	s->a = a;
	s->b = b;
	s->v = v;
	m->count++;
	*old = v;
	return HMAP_INSERTED;
}
