/* slot.c -- libensemble's side of the run's watch (slot.h): the slot
 * mapped from the run's memory file, the communicators whose ranks and
 * collectives it can name, and the peers of pending requests, for the
 * waits that complete them. */
#include "config.h"

#include <sys/mman.h>
#include <sys/stat.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "slot.h"

/* Until slot_attach: the process's own, which only the SIGUSR1 handler
 * reads. */
static struct wire_slot	own = { .type = -1, .port = -1, .loc = -1,
			    .comm = -1, .root = -1 };
volatile struct wire_slot *slot_me = &own;

/* A communicator the watch names, with its members' world ranks in its
 * rank order (NULL: the world's order) and its collectives so far. */
struct scomm {
	MPI_Comm	 c;
	int		 id;		/* WIRE_COMM_* */
	int		*world;		/* NULL: rank r is world rank r */
	int		 size;
	unsigned	 ncoll;
};

/* The requests posted and not known complete: a table by the handle's
 * value, one request a place (a later one takes the place: the earlier
 * then has no known peer, which the watch takes as a wait it cannot
 * follow, never as a deadlock). */
#define SLOT_REQS	1024
struct sreq {
	uint64_t	key;		/* 0: free */
	int		peer;
	int		send;
};

static struct {
	struct scomm	*comms;
	int		 ncomms;
	struct scomm	 worldc;
	struct sreq	 reqs[SLOT_REQS];
} S = { .worldc = { .id = WIRE_COMM_WORLD } };

void
slot_attach(int rank)
{
	const char			*v = getenv(WIRE_ENV_WATCH);
	const struct wire_watch_head	*h;
	struct stat			 st;
	char				*end;
	void				*p;
	long				 fd;
	size_t				 at;
	int				 level;

	if (v == NULL)
		return;
	errno = 0;
	fd = strtol(v, &end, 10);
	unsetenv(WIRE_ENV_WATCH);
	if (*end != '\0' || errno != 0 || fd < 3 || fd > 65535)
		return;
	/* Threads that call MPI at once: one slot cannot say what the
	 * process waits for (a thread may release what another waits
	 * for).  The watch then never sees it blocked. */
	if (MPI_Query_thread(&level) != MPI_SUCCESS ||
	    level == MPI_THREAD_MULTIPLE) {
		close((int)fd);
		return;
	}
	if (fstat((int)fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_size < 2 * WIRE_SLOT_SIZE) {
		close((int)fd);
		return;
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED,
	    (int)fd, 0);
	close((int)fd);
	if (p == MAP_FAILED)
		return;
	h = p;
	at = h->nslots == 1 ? 0 : (size_t)rank;
	if (h->magic != WIRE_WATCH_MAGIC || rank < 0 || at >= h->nslots ||
	    (at + 2) * WIRE_SLOT_SIZE > (size_t)st.st_size) {
		munmap(p, (size_t)st.st_size);
		return;
	}
	slot_me = (volatile struct wire_slot *)((char *)p + (at + 1) *
	    WIRE_SLOT_SIZE);
	slot_begin(WC_NONE, WIRE_WAIT_NONE);
	slot_me->pid = (int32_t)getpid();
	slot_me->loc = -1;
	slot_me->comm = -1;		/* no collective yet */
	slot_me->root = -1;
	slot_done();
}

struct slot_last slot_last = { .c = MPI_COMM_NULL, .id = -1 };

/* Forget the last communicator: the list changes. */
static void
forget_last(void)
{
	slot_last.c = MPI_COMM_NULL;
	slot_last.known = 0;
}

/* The members of one run of a group or component, appended to w. */
static void
add_run(int *w, int *n, int first, int count, int step)
{
	int	k;

	for (k = 0; k < count; k++)
		w[(*n)++] = first + k * step;
}

/* Order world ranks by the index of their process in t (one component). */
static const struct wire_table *sort_t;

static int
by_index(const void *a, const void *b)
{
	int	ra = *(const int *)a, rb = *(const int *)b, i, ia = 0, ib = 0;

	for (i = 0; i < sort_t->nruns; i++) {
		const struct wire_run	*r = &sort_t->runs[i];

		if (ra >= r->rank && ra < r->rank + r->count)
			ia = r->index + (ra - r->rank);
		if (rb >= r->rank && rb < r->rank + r->count)
			ib = r->index + (rb - r->rank);
	}
	return (ia > ib) - (ia < ib);
}

int
slot_comms(MPI_Comm app, MPI_Comm comp, const MPI_Comm *gcomms, int n,
    const struct wire_table *t)
{
	struct scomm	*c;
	int		 i, k, m;

	slot_comms_clear();
	forget_last();
	if ((S.comms = calloc((size_t)n + 2, sizeof(*S.comms))) == NULL)
		return -1;
	c = &S.comms[S.ncomms++];
	c->c = app;
	c->id = WIRE_COMM_APP;
	c->size = t->nprocs;
	/* The component's: its processes in index order. */
	for (i = m = 0; i < t->nruns; i++)
		if (strcmp(t->runs[i].comp, t->component) == 0)
			m += t->runs[i].count;
	c = &S.comms[S.ncomms++];
	c->c = comp;
	c->id = WIRE_COMM_COMP;
	if ((c->world = calloc((size_t)m + 1, sizeof(int))) == NULL)
		return -1;
	for (i = 0; i < t->nruns; i++)
		if (strcmp(t->runs[i].comp, t->component) == 0)
			add_run(c->world, &c->size, t->runs[i].rank,
			    t->runs[i].count, 1);
	sort_t = t;
	qsort(c->world, (size_t)c->size, sizeof(int), by_index);
	for (i = 0; i < n; i++) {
		const struct wire_group	*g = &t->groups[i];

		c = &S.comms[S.ncomms++];
		c->c = gcomms[i];
		c->id = WIRE_COMM_GROUP + g->id;
		if ((c->world = calloc((size_t)g->size + 1, sizeof(int))) == NULL)
			return -1;
		for (k = 0; k < g->nruns && c->size < g->size; k++)
			add_run(c->world, &c->size, g->runs[k].first,
			    g->runs[k].count < g->size - c->size ?
			    g->runs[k].count : g->size - c->size,
			    g->runs[k].step);
	}
	return 0;
}

void
slot_comms_clear(void)
{
	int	i;

	for (i = 0; i < S.ncomms; i++)
		free(S.comms[i].world);
	free(S.comms);
	S.comms = NULL;
	S.ncomms = 0;
	forget_last();
}

/* The communicator c as the watch knows it, or NULL. */
static struct scomm *
find_comm(MPI_Comm c)
{
	int	i;

	if (c == MPI_COMM_WORLD)
		return &S.worldc;
	for (i = 0; i < S.ncomms; i++)
		if (S.comms[i].c == c)
			return &S.comms[i];
	return NULL;
}

void
slot_last_find(MPI_Comm c)
{
	struct scomm	*s = find_comm(c);

	slot_last.c = c;
	slot_last.known = s != NULL;
	slot_last.world = s != NULL ? s->world : NULL;
	slot_last.size = s != NULL ? s->size : 0;
	slot_last.id = s != NULL ? s->id : -1;
	slot_last.ncoll = s != NULL ? &s->ncoll : NULL;
}

/* The key of a request handle (0: MPI_REQUEST_NULL's, or none). */
static uint64_t
req_key(MPI_Request r)
{
	uint64_t	k = 0;

	if (r == MPI_REQUEST_NULL)
		return 0;
	memcpy(&k, &r, sizeof(r) < sizeof(k) ? sizeof(r) : sizeof(k));
	return k;
}

/* Its place in the table. */
static struct sreq *
req_at(uint64_t key)
{
	return &S.reqs[((key >> 3) * 11400714819323198485ULL) >> 54];
}

void
slot_req_post(MPI_Request r, int peer, int send)
{
	uint64_t	 key = req_key(r);
	struct sreq	*q;

	if (key == 0)
		return;
	q = req_at(key);
	q->key = key;
	q->peer = peer;
	q->send = send;
}

void
slot_req_done(int n, const MPI_Request *reqs, const MPI_Request *done)
{
	struct sreq	*q;
	uint64_t	 key;
	int		 i;

	for (i = 0; i < n; i++)
		if ((done == NULL || done[i] == MPI_REQUEST_NULL) &&
		    (key = req_key(reqs[i])) != 0 && (q = req_at(key))->key == key)
			q->key = 0;
}

void
slot_reqs(int call, int any, int n, const MPI_Request *reqs)
{
	volatile struct wire_slot	*s = slot_me;
	struct sreq			*q;
	uint64_t			 key;
	int				 i, k, peer, np = 0, ports = 0, other = 0;

	slot_begin(call, any ? WIRE_WAIT_ANY : WIRE_WAIT_ALL);
	for (i = 0; i < n; i++) {
		if ((key = req_key(reqs[i])) == 0)
			continue;
		if ((q = req_at(key))->key != key ||
		    (peer = q->peer) == SLOT_PEER_UNKNOWN) {
			other = 1;
			break;
		}
		if (peer == SLOT_PEER_PORTS) {
			ports = 1;
			continue;
		}
		for (k = 0; k < np && s->peers[k] != peer; k++)
			;
		if (k == np && np == WIRE_WATCH_PEERS) {
			other = 1;
			break;
		}
		if (k == np)
			s->peers[np++] = peer;
		if (q->send)
			s->sends |= 1U << k;
		else
			s->recvs |= 1U << k;
	}
	s->npeers = np;
	/* Receives from any port, and nothing else to wait for: for any of
	 * the ports; mixed with others, or past what a slot holds: a wait
	 * the watch does not follow. */
	if (other || (ports && np > 0))
		s->wait = WIRE_WAIT_NONE;
	else if (ports) {
		s->wait = WIRE_WAIT_PORTS;
		s->type = -1;
	} else if (np == 0)
		s->wait = WIRE_WAIT_NONE;
	slot_done();
}
