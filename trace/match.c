/* match.c -- pairing a trace's message ends (match.h).  The ends that wait
 * are entries of one array, reused through a free list; a hash map
 * (common/hmap.c) leads from a message's key, packed into two words, to
 * the first of the entries whose keys pack alike, chained in the order
 * they came.  A chain holds more than one entry only when a bad trace
 * repeats an end or two keys pack alike, so an end is paired or put
 * away in one lookup. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "hmap.h"
#include "match.h"
#include "xmalloc.h"

struct match {
	struct hmap	*keys;		/* packed key -> its chain's first */
	struct match_end *v;		/* the entries: ends that wait, or
					 * free (side TRACE_SIDE_NONE) */
	int		*next;		/* per entry: the next in its chain
					 * or in the free list; -1 */
	size_t		 n, alloc, nalloc;	/* entries used at some time */
	int		 freel;		/* the first free entry, or -1 */
	size_t		 waiting;
	size_t		 size;		/* the caller's bytes per end */
	unsigned char	*data;		/* size bytes per entry */
	size_t		 dalloc;
	int		 freed;		/* the entry match_take gave back,
					 * to be marked free; -1 */
	int		 kept;		/* the entry it kept last; -1 */
	uint64_t	 serial;
};

struct match *
match_new(size_t size)
{
	struct match	*m = xcalloc(1, sizeof(*m));

	m->keys = hmap_new();
	m->freel = -1;
	m->size = size;
	m->freed = -1;
	m->kept = -1;
	return m;
}

void
match_free(struct match *m)
{
	if (m == NULL)
		return;
	hmap_free(m->keys);
	free(m->v);
	free(m->next);
	free(m->data);
	free(m);
}

int
match_end_of(const struct trace_event *ev, struct match_end *e)
{
	enum trace_side	 side = trace_side(ev);

	if (side == TRACE_SIDE_NONE || ev->peer < 0 || ev->tag < 0 ||
	    ev->seq < 0)
		return 0;
	e->comm = ev->comm;
	e->from = side == TRACE_SIDE_SEND ? ev->rank : ev->peer;
	e->to = side == TRACE_SIDE_SEND ? ev->peer : ev->rank;
	e->tag = ev->tag;
	e->seq = ev->seq;
	e->side = side;
	e->t0ns = ev->t0ns;
	e->t1ns = ev->t1ns;
	e->bytes = side == TRACE_SIDE_SEND ? ev->sbytes : ev->rbytes;
	e->count = ev->count;
	e->raw = ev->raw;
	e->serial = 0;
	e->data = NULL;
	return 1;
}

/* A message's key in two words: exact in the ranks, mixed in the rest
 * (the chain tells keys that pack alike apart). */
static void
match_pack(const struct match_end *e, uint64_t *a, uint64_t *b)
{
	*a = (uint64_t)(uint32_t)e->from << 32 | (uint32_t)e->to;
	*b = ((uint64_t)(uint32_t)e->tag << 32 | (uint32_t)e->comm) ^
	    (uint64_t)e->seq * 0x9e3779b97f4a7c15ULL;
}

/* Whether two ends are of one message (whichever their sides). */
static int
match_same(const struct match_end *x, const struct match_end *y)
{
	return x->seq == y->seq && x->from == y->from && x->to == y->to &&
	    x->tag == y->tag && x->comm == y->comm;
}

/* Mark free the entry the last match_take gave back. */
static void
match_settle(struct match *m)
{
	if (m->freed >= 0) {
		m->v[m->freed].side = TRACE_SIDE_NONE;
		m->freed = -1;
	}
}

/* The entry an end that waits would take. */
static int
match_next_free(const struct match *m)
{
	return m->freel >= 0 ? m->freel : (int)m->n;
}

/* Put e away in entry k (match_next_free's), at the end of its chain. */
static void
match_keep(struct match *m, int k, const struct match_end *e)
{
	struct match_end *t;

	if (k == m->freel)
		m->freel = m->next[k];
	else {
		xgrow(&m->v, &m->alloc, m->n + 1, sizeof(*m->v));
		xgrow(&m->next, &m->nalloc, m->n + 1, sizeof(*m->next));
		if (m->size > 0)
			xgrow(&m->data, &m->dalloc, (m->n + 1) * m->size, 1);
		m->n++;
	}
	t = &m->v[k];
	*t = *e;
	t->data = NULL;
	t->serial = m->serial - 1;
	m->next[k] = -1;
	if (m->size > 0)
		memcpy(m->data + (size_t)k * m->size, e->data, m->size);
	m->waiting++;
	m->kept = k;
}

const struct match_end *
match_take(struct match *m, const struct match_end *e)
{
	uint64_t	 a, b;
	enum hmap_result res;
	int		 k, *first, j, prev = -1;
	struct match_end *t;

	match_settle(m);
	k = match_next_free(m);
	m->serial++;
	m->kept = -1;
	match_pack(e, &a, &b);
	first = hmap_ref(m->keys, a, b, k, &res);
	if (res == HMAP_INSERTED) {
		match_keep(m, k, e);
		return NULL;
	}
	for (j = *first; j != -1; prev = j, j = m->next[j])
		if (m->v[j].side != e->side && match_same(&m->v[j], e))
			break;
	if (j == -1) {
		match_keep(m, k, e);
		m->next[prev] = k;
		return NULL;
	}
	t = &m->v[j];
	if (prev != -1)
		m->next[prev] = m->next[j];
	else if (m->next[j] != -1)
		*first = m->next[j];
	else
		hmap_del_at(m->keys, first);
	/* Free, but left as it is until the next call. */
	if (m->size > 0)
		t->data = m->data + (size_t)j * m->size;
	m->next[j] = m->freel;
	m->freel = j;
	m->waiting--;
	m->freed = j;
	return t;
}

void *
match_kept_data(struct match *m)
{
	if (m->kept < 0 || m->size == 0)
		return NULL;
	return m->data + (size_t)m->kept * m->size;
}

size_t
match_waiting(const struct match *m)
{
	return m->waiting;
}

/* qsort's order of ends: the order they came. */
static int
match_cmp_serial(const void *x, const void *y)
{
	const struct match_end *p = *(struct match_end *const *)x;
	const struct match_end *q = *(struct match_end *const *)y;

	return p->serial < q->serial ? -1 : p->serial > q->serial;
}

void
match_left(struct match *m, void (*fn)(void *, struct match_end *),
    void *arg)
{
	struct match_end **v;
	size_t		 i, n = 0;

	match_settle(m);
	v = xreallocarray(NULL, m->waiting + 1, sizeof(*v));
	for (i = 0; i < m->n; i++)
		if (m->v[i].side != TRACE_SIDE_NONE) {
			if (m->size > 0)
				m->v[i].data = m->data + i * m->size;
			v[n++] = &m->v[i];
		}
	qsort(v, n, sizeof(*v), match_cmp_serial);
	for (i = 0; i < n; i++)
		fn(arg, v[i]);
	free(v);
}
