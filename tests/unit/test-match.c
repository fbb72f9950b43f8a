/* test-match.c -- the message matcher (trace/match.h) and the hash map it
 * stands on (common/hmap.h), a TAP test.  The map against a plain array
 * through a long run of puts, sets and removals (the removals move keys
 * back: every key must still be found); the matcher: which events are
 * ends, a send and its receive paired in either order with the caller's
 * bytes given back (and reachable while the end waits), two ends of one side paired first come first, keys
 * that pack alike told apart, and the ends left over in the order they
 * came. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hmap.h"
#include "match.h"
#include "xmalloc.h"

static int	tap_n, failed;

static void
check(int good, const char *what)
{
	tap_n++;
	if (!good)
		failed = 1;
	printf("%sok %d - %s\n", good ? "" : "not ", tap_n, what);
}

/* A small generator, so that the run is the same each time. */
static uint64_t
next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

#define NKEYS	4096

/* The map against an array of what it should hold. */
static void
test_hmap(void)
{
	struct hmap	*m = hmap_new();
	int		*want = xcalloc(NKEYS, sizeof(*want));
	uint64_t	 s = 88172645463325252ULL;
	size_t		 n = 0;
	int		 i, k, old, bad = 0, v;

	for (k = 0; k < NKEYS; k++)
		want[k] = -1;
	for (i = 0; i < 200000; i++) {
		/* Keys that differ only in b, and only in a, crowd together. */
		k = (int)(next_rand(&s) % NKEYS);
		switch (next_rand(&s) % 3) {
		case 0:
			if (hmap_put(m, (uint64_t)k & 63, (uint64_t)k >> 6, i,
			    &old) == HMAP_INSERTED) {
				bad += want[k] != -1 || old != i;
				want[k] = i;
				n++;
			} else
				bad += old != want[k];
			break;
		case 1:
			hmap_set(m, (uint64_t)k & 63, (uint64_t)k >> 6, i);
			n += want[k] == -1;
			want[k] = i;
			break;
		default:
			v = hmap_del(m, (uint64_t)k & 63, (uint64_t)k >> 6);
			bad += v != want[k];
			n -= want[k] != -1;
			want[k] = -1;
			break;
		}
	}
	for (k = 0; k < NKEYS; k++)
		bad += hmap_get(m, (uint64_t)k & 63, (uint64_t)k >> 6) != want[k];
	check(bad == 0, "hmap: 200,000 puts, sets and removals agree with an "
	    "array, every key found after");
	check(hmap_count(m) == n, "hmap: the count follows");
	for (k = 0; k < NKEYS; k++)
		if (want[k] != -1)
			hmap_del(m, (uint64_t)k & 63, (uint64_t)k >> 6);
	check(hmap_count(m) == 0 && hmap_get(m, 1, 1) == -1,
	    "hmap: empty after every key is removed");
	hmap_free(m);
	free(want);
}

/* An event of op at rank to or from peer. */
static struct trace_event
ev(enum trace_op op, int rank, int peer, int tag, long seq, int64_t t)
{
	struct trace_event e;

	memset(&e, 0, sizeof(e));
	e.op = op;
	e.rank = rank;
	e.peer = peer;
	e.tag = tag;
	e.seq = seq;
	e.t0ns = t;
	e.t1ns = t + 5;
	e.count = -1;
	e.req = -1;
	if (op == TRACE_SEND || op == TRACE_ISEND)
		e.sbytes = 8;
	else
		e.rbytes = 8;
	return e;
}

/* match_take, its partner copied to *o: 1, or 0 when e waits. */
static int
take(struct match *m, const struct match_end *e, struct match_end *o)
{
	const struct match_end *p = match_take(m, e);

	if (p == NULL)
		return 0;
	*o = *p;
	return 1;
}

/* What the leftovers test gathers: the ends' serials and the data. */
struct left {
	uint64_t	 serial[8];
	int		 data[8];
	int		 n;
};

static void
gather(void *arg, struct match_end *e)
{
	struct left	*l = arg;

	if (l->n < 8) {
		l->serial[l->n] = e->serial;
		memcpy(&l->data[l->n], e->data, sizeof(int));
	}
	l->n++;
}

/* The matcher. */
static void
test_match(void)
{
	struct match	*m = match_new(sizeof(int));
	struct match_end a, b, o;
	struct trace_event e;
	struct left	 l;
	uint64_t	 d;
	int		 x, got;

	e = ev(TRACE_IRECV, 1, 0, 1, -1, 0);
	check(!match_end_of(&e, &a), "end_of: an irecv is none");
	e = ev(TRACE_WAIT, 0, 1, 1, 1, 0);
	e.mode = TRACE_MODE_STD;
	check(!match_end_of(&e, &a), "end_of: an isend's wait is none");
	e.mode = TRACE_MODE_NONE;
	check(match_end_of(&e, &a) && a.side == TRACE_SIDE_RECV &&
	    a.from == 1 && a.to == 0 && a.bytes == 8,
	    "end_of: an irecv's wait is a receive, from its peer");
	e = ev(TRACE_RECV, 1, TRACE_ANY, 1, 1, 0);
	check(!match_end_of(&e, &a), "end_of: a peer '*' is none");
	e = ev(TRACE_SEND, 0, 1, TRACE_NONE, 1, 0);
	check(!match_end_of(&e, &a), "end_of: a tag '-' is none");
	e = ev(TRACE_SEND, 0, 1, 3, -1, 0);
	check(!match_end_of(&e, &a), "end_of: a seq '-' is none");

	/* A receive first, then its send. */
	e = ev(TRACE_RECV, 1, 0, 3, 1, 100);
	match_end_of(&e, &a);
	x = 11;
	a.data = &x;
	check(take(m, &a, &o) == 0 && match_waiting(m) == 1,
	    "a receive waits for its send");
	check(match_kept_data(m) != NULL && *(int *)match_kept_data(m) == 11,
	    "the kept end's bytes, for the caller to own");
	x = 99;		/* (the matcher took a copy) */
	e = ev(TRACE_SEND, 0, 1, 3, 1, 50);
	match_end_of(&e, &b);
	x = 12;
	b.data = &x;
	got = take(m, &b, &o);
	check(got == 1 && o.side == TRACE_SIDE_RECV && o.t1ns == 105 &&
	    *(int *)o.data == 11 && match_waiting(m) == 0 &&
	    match_kept_data(m) == NULL,
	    "its send pairs with it, the receive's bytes given back");

	/* Another tag, comm or number is another message. */
	e = ev(TRACE_SEND, 0, 1, 3, 2, 200);
	match_end_of(&e, &a);
	a.data = &x;
	take(m, &a, &o);
	e = ev(TRACE_RECV, 1, 0, 4, 2, 210);
	match_end_of(&e, &b);
	b.data = &x;
	got = take(m, &b, &o);
	e.comm = 1;
	e.tag = 3;
	match_end_of(&e, &b);
	b.data = &x;
	got += take(m, &b, &o);
	check(got == 0 && match_waiting(m) == 3,
	    "another tag or communicator does not pair");
	e.comm = 0;
	match_end_of(&e, &b);
	b.data = &x;
	check(take(m, &b, &o) == 1 && o.t0ns == 200,
	    "the same key does");

	/* Two sends of one key (a bad trace): first come, first paired. */
	match_free(m);
	m = match_new(sizeof(int));
	for (x = 1; x <= 2; x++) {
		e = ev(TRACE_SEND, 0, 1, 3, 1, 10 * x);
		match_end_of(&e, &a);
		a.data = &x;
		take(m, &a, &o);
	}
	e = ev(TRACE_RECV, 1, 0, 3, 1, 40);
	match_end_of(&e, &b);
	b.data = &x;
	check(take(m, &b, &o) == 1 && *(int *)o.data == 1 &&
	    match_waiting(m) == 1, "two sends of one key: the first pairs first");
	check(take(m, &b, &o) == 1 && *(int *)o.data == 2 &&
	    match_waiting(m) == 0, "then the second");

	/* Keys that pack alike (match.c's packing) stay apart. */
	d = 0x9e3779b97f4a7c15ULL ^ 0x9e3779b97f4a7c15ULL * 2;
	memset(&a, 0, sizeof(a));
	a.from = 0;
	a.to = 1;
	a.tag = 5;
	a.seq = 1;
	a.side = TRACE_SIDE_SEND;
	a.data = &x;
	b = a;
	b.seq = 2;
	b.tag = (int)(uint32_t)(5 ^ (d >> 32));
	b.comm = (int)(uint32_t)d;
	take(m, &a, &o);
	take(m, &b, &o);
	b.side = TRACE_SIDE_RECV;
	x = 7;
	got = take(m, &b, &o);
	check(got == 1 && o.seq == 2 && o.comm == b.comm &&
	    match_waiting(m) == 1, "keys that pack alike: the right one pairs");
	a.side = TRACE_SIDE_RECV;
	check(take(m, &a, &o) == 1 && o.seq == 1 &&
	    match_waiting(m) == 0, "and the other with its own");

	/* Leftovers in the order they came, whatever their slots. */
	match_free(m);
	m = match_new(sizeof(int));
	for (x = 0; x < 6; x++) {
		e = ev(x % 2 ? TRACE_RECV : TRACE_SEND, x % 2, 1 - x % 2, 1,
		    x / 2 + 1, x);
		if (x == 4)	/* so that neither 4 nor 5 pairs */
			e.tag = 2;
		match_end_of(&e, &a);
		a.data = &x;
		take(m, &a, &o);
	}
	/* x 0 and 1 paired (seq 1), 2 and 3 paired (seq 2): 4, 5 left */
	e = ev(TRACE_SEND, 0, 1, 9, 1, 100);
	match_end_of(&e, &a);
	x = 6;
	a.data = &x;
	take(m, &a, &o);
	memset(&l, 0, sizeof(l));
	match_left(m, gather, &l);
	check(l.n == 3 && l.data[0] == 4 && l.data[1] == 5 && l.data[2] == 6 &&
	    l.serial[0] < l.serial[1] && l.serial[1] < l.serial[2],
	    "the ends left, in the order they came");
	match_free(m);

	/* No bytes of the caller's. */
	m = match_new(0);
	e = ev(TRACE_SEND, 0, 1, 1, 1, 0);
	match_end_of(&e, &a);
	take(m, &a, &o);
	e = ev(TRACE_RECV, 1, 0, 1, 1, 0);
	match_end_of(&e, &b);
	check(take(m, &b, &o) == 1 && o.data == NULL,
	    "without the caller's bytes: paired, data NULL");
	match_free(m);
}

int
main(void)
{
	test_hmap();
	test_match();
	printf("1..%d\n", tap_n);
	return failed;
}
