/* watch.c -- the run's watch for deadlocks (runtime/wire.h, THE WATCH):
 * the memory file of the slots of the processes on this host, read every
 * WIRE_WATCH_PERIOD, and the "blocked" and "unblocked" markers of the
 * trampolines elsewhere; from them, which processes are blocked for good.
 *
 * A process is blocked when its slot shows it in one call at two
 * readings, the same gen (so in that call all the time between, and the
 * same view of what it waits for both times), and its main thread ran
 * for WIRE_WATCH_CPU between them (so it was polling for what it waits
 * for, not waiting for the processor: a message sent to it before the
 * first reading would have been taken); a process elsewhere, when its
 * trampoline said so (the same test there, wire_slot_blocked) at least
 * WATCH_HOLD ago and has not taken it back.  A process has ended when
 * its trampoline said so, or it called ens_finalize, by the first of the
 * two readings.  A blocked process waits for the processes its call can
 * be released by: the peers of a blocking send, receive or wait; for a
 * receive from any port, the processes at its ports' other ends; for a
 * collective, the members of its communicator not in the same collective
 * (or past it).  Two blocked processes that wait for each other with a
 * send and a receive that may match are taking a message: neither is
 * stuck.  The processes blocked for good are the largest set of blocked
 * processes each of which waits only for processes of the set or ended
 * ones, the knot of the wait-for graph: they were all blocked at once,
 * between the two readings, having sent what they sent before the first,
 * as the ended ones had; nothing outside can release any of them.  A
 * call the watch cannot follow (MPI_ANY_SOURCE, a wait for a request it
 * does not know, a communicator it did not make) waits for nobody it
 * knows: never part of a deadlock.  So a process computing, sleeping or
 * reading, and any process waiting for one, is never in it. */
#include "config.h"

#include <sys/mman.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "launch-int.h"

#define WATCH_HOLD	WIRE_WATCH_PERIOD	/* from a process elsewhere
					 * saying it is blocked to believing
					 * it: time for an "unblocked" on its
					 * way to come */

/* A process as the watch sees it. */
struct wproc {
	struct wire_slot	 cur;		/* as last read, or said */
	int			 have;		/* cur is a reading */
	unsigned long long	 cpu;		/* its main thread's run time
						 * then, ns */
	int			 blocked;	/* in cur's call since the
						 * reading before, running */
	int			 remote;	/* its trampoline says */
	int			 said;		/* remote: "blocked", not taken
						 * back */
	double			 since;		/* remote: when it came */
};

struct watch {
	int		 fd;
	size_t		 size;
	unsigned char	*map;
	char		*token;
	struct wproc	*p;
	double		 next;		/* the next reading */
	/* scratch of a reading */
	unsigned char	*cand;
	unsigned char	*ended, *ended_then;	/* at the reading before;
						 * at the last one */
	int		*waits, *peers;	/* whom a process waits for; the
					 * processes at its ports' ends */
	size_t		 awaits, apeers;
	int		**comp;		/* per component, its processes */
	int		*ncomp;
};

/* The memory file of the slots, for every process: a process on this
 * host maps its slot, found by the trampoline as /proc/PID/fd/FD. */
int
watch_open(struct run *R)
{
	struct watch		*w;
	struct wire_watch_head	*h;
	char			 host[256];
	int			 i;

	w = xcalloc(1, sizeof(*w));
	w->fd = -1;
	R->watch = w;
	w->p = xcalloc((size_t)R->n + 1, sizeof(*w->p));
	w->cand = xcalloc((size_t)R->n + 1, 1);
	w->ended = xcalloc((size_t)R->n + 1, 1);
	w->ended_then = xcalloc((size_t)R->n + 1, 1);
	w->comp = xcalloc((size_t)R->g->ncomps + 1, sizeof(*w->comp));
	w->ncomp = xcalloc((size_t)R->g->ncomps + 1, sizeof(*w->ncomp));
	for (i = 0; i < R->g->ncomps; i++)
		w->comp[i] = xcalloc((size_t)R->n + 1, sizeof(int));
	for (i = 0; i < R->n; i++) {
		int	c = R->g->procs[i].comp;

		w->comp[c][w->ncomp[c]++] = i;
	}
	w->size = ((size_t)R->n + 1) * WIRE_SLOT_SIZE;
	if ((w->fd = memfd_create("ensemble-watch", MFD_CLOEXEC)) < 0 ||
	    ftruncate(w->fd, (off_t)w->size) != 0 ||
	    (w->map = mmap(NULL, w->size, PROT_READ | PROT_WRITE, MAP_SHARED,
	    w->fd, 0)) == MAP_FAILED) {
		fprintf(stderr, "ensemble: cannot make the watch's memory file: %s\n",
		    strerror(errno));
		w->map = NULL;
		return -1;
	}
	h = (struct wire_watch_head *)w->map;
	h->magic = WIRE_WATCH_MAGIC;
	h->nslots = (uint32_t)R->n;
	snprintf(h->secret, sizeof(h->secret), "%s", R->secret);
	if (gethostname(host, sizeof(host) - 1) != 0)
		strcpy(host, "?");
	host[sizeof(host) - 1] = '\0';
	xasprintf(&w->token, "%ld:%d:%s", (long)getpid(), w->fd, host);
	return 0;
}

const char *
watch_token(const struct run *R)
{
	return R->watch != NULL ? R->watch->token : NULL;
}

void
watch_free(struct run *R)
{
	struct watch	*w = R->watch;
	int		 i;

	if (w == NULL)
		return;
	if (w->map != NULL)
		munmap(w->map, w->size);
	if (w->fd >= 0)
		close(w->fd);
	for (i = 0; i < R->g->ncomps; i++)
		free(w->comp[i]);
	free(w->comp);
	free(w->ncomp);
	free(w->token);
	free(w->p);
	free(w->cand);
	free(w->ended);
	free(w->ended_then);
	free(w->waits);
	free(w->peers);
	free(w);
	R->watch = NULL;
	for (i = 0; i < R->ndead; i++)
		free(R->dead[i].waits);
	free(R->dead);
	free(R->ended_mask);
	R->dead = NULL;
	R->ended_mask = NULL;
	R->ndead = 0;
}

void
watch_marker(struct run *R, int r, enum wire_mark k, const char *arg)
{
	struct wproc	*p;
	struct wire_slot s;
	char		*end;
	unsigned long	 gen;

	if (R->watch == NULL)
		return;
	p = &R->watch->p[r];
	if (k == WIRE_MARK_BLOCKED && wire_slot_get(arg, &s) == 0) {
		p->cur = s;
		p->remote = p->said = 1;
		p->since = clock_now();
	} else if (k == WIRE_MARK_UNBLOCKED) {
		errno = 0;
		gen = strtoul(arg, &end, 10);
		if (*end == '\0' && errno == 0 && gen == p->cur.gen)
			p->said = 0;
	}
}

double
watch_deadline(const struct run *R)
{
	const struct watch	*w = R->watch;
	double			 d;
	int			 i;

	if (w == NULL || R->dead != NULL || R->fail_at > 0 || R->timed_out ||
	    R->done || R->phase != RUN_RUNNING)
		return -1;
	d = w->next;
	for (i = 0; i < R->n; i++)
		if (w->p[i].said && w->p[i].since + WATCH_HOLD > clock_now() &&
		    w->p[i].since + WATCH_HOLD < d)
			d = w->p[i].since + WATCH_HOLD;
	return d;
}

/* Add process q to the list *v (*n so far, room for *a), once. */
static void
watch_add(int **v, size_t *a, int *n, int q)
{
	int	k;

	for (k = 0; k < *n; k++)
		if ((*v)[k] == q)
			return;
	xgrow(v, a, (size_t)*n + 1, sizeof(**v));
	(*v)[(*n)++] = q;
}

/* The processes at the other ends of process r's connected ports of type
 * t (-1: of every type), added to the list *v (*n so far, room *a). */
static void
watch_port_peers(const struct run *R, int r, int t, int **v, size_t *a,
    int *n)
{
	const struct pcg	*g = R->g;
	const struct pcg_proc	*p = &g->procs[r];
	const struct pcg_comp	*c = &g->comps[p->comp];
	const struct pcg_chan	*ch;
	int			 k, i, slot = p->portbase, ci;

	for (k = 0; k < c->ntypes; k++)
		for (i = 0; i < p->nports[k]; i++, slot++) {
			if ((t >= 0 && k != t) || (ci = g->portchan[slot]) < 0)
				continue;
			ch = &g->chans[ci];
			watch_add(v, a, n, ch->e[1 - pcg_chan_end(ch, r, k,
			    i + 1)].proc);
		}
}

/* The other end of process r's port (type index t, port 1..): 0 and *q,
 * *qt, *qp, or -1 when it is not connected. */
static int
watch_other_end(const struct run *R, int r, int t, int port, int *q, int *qt,
    int *qp)
{
	const struct pcg	*g = R->g;
	const struct pcg_proc	*p = &g->procs[r];
	const struct pcg_comp	*c = &g->comps[p->comp];
	const struct pcg_chan	*ch;
	const struct pcg_end	*e;
	int			 k, slot = p->portbase, ci;

	if (t < 0 || t >= c->ntypes || port < 1 || port > p->nports[t])
		return -1;
	for (k = 0; k < t; k++)
		slot += p->nports[k];
	if ((ci = g->portchan[slot + port - 1]) < 0)
		return -1;
	ch = &g->chans[ci];
	e = &ch->e[1 - pcg_chan_end(ch, r, t, port)];
	*q = e->proc;
	*qt = e->type;
	*qp = e->port;
	return 0;
}

/* The members of the communicator of collective slot s of process r. */
static const int *
watch_members(const struct run *R, int r, const struct wire_slot *s, int *n)
{
	const struct pcg	*g = R->g;
	int			 c = g->procs[r].comp;

	*n = 0;
	if (s->comm == WIRE_COMM_COMP) {
		*n = R->watch->ncomp[c];
		return R->watch->comp[c];
	}
	if (s->comm >= WIRE_COMM_GROUP && s->comm - WIRE_COMM_GROUP < g->ngroups) {
		*n = g->groups[s->comm - WIRE_COMM_GROUP].nmembers;
		return g->groups[s->comm - WIRE_COMM_GROUP].members;
	}
	return NULL;		/* the application, the world: every process */
}

/* Whom blocked process r waits for (w->waits, their count; *any: for any
 * one of them); -1 when it waits for nobody in particular, or for no one
 * any more (a collective every member is in). */
static int
watch_waits(const struct run *R, int r, int *any)
{
	struct watch		*w = R->watch;
	const struct wire_slot	*s = &w->p[r].cur, *o;
	const int		*m;
	int			 n = 0, nm, i, q;

	*any = s->wait != WIRE_WAIT_ALL;
	switch (s->wait) {
	case WIRE_WAIT_ALL:
	case WIRE_WAIT_ANY:
		for (i = 0; i < s->npeers && i < WIRE_WATCH_PEERS; i++)
			if (s->peers[i] >= 0 && s->peers[i] < R->n)
				watch_add(&w->waits, &w->awaits, &n, s->peers[i]);
			else
				return -1;
		break;
	case WIRE_WAIT_PORTS:
		watch_port_peers(R, r, s->type, &w->waits, &w->awaits, &n);
		break;
	case WIRE_WAIT_COLL:
		*any = 0;
		m = watch_members(R, r, s, &nm);
		for (i = 0; i < (m != NULL ? nm : R->n); i++) {
			q = m != NULL ? m[i] : i;
			if (q == r || q < 0 || q >= R->n)
				continue;
			o = &w->p[q].cur;
			/* Past this collective (its slot keeps its last
			 * collective's count), or in it: not waited for.  In
			 * another of the same count: a mismatch, waited for. */
			if ((w->p[q].have || w->p[q].remote) &&
			    o->comm == s->comm && (o->ncoll > s->ncoll ||
			    (o->ncoll == s->ncoll && (o->call == WC_NONE ||
			    o->wait != WIRE_WAIT_COLL ||
			    (wire_call_coll(o->call) == wire_call_coll(s->call) &&
			    o->root == s->root)))))
				continue;
			watch_add(&w->waits, &w->awaits, &n, q);
		}
		break;
	default:
		return -1;
	}
	return n > 0 ? n : -1;
}

/* Whether blocked process r waits to send to q (dir 1) or to receive from
 * it (dir 0), as far as its slot says. */
static int
watch_dir(const struct run *R, int r, int q, int dir)
{
	const struct wire_slot	*s = &R->watch->p[r].cur;
	int			 i, n = 0;

	if (s->wait == WIRE_WAIT_PORTS) {
		if (dir)
			return 0;
		watch_port_peers(R, r, s->type, &R->watch->peers,
		    &R->watch->apeers, &n);
		for (i = 0; i < n; i++)
			if (R->watch->peers[i] == q)
				return 1;
		return 0;
	}
	if (s->wait != WIRE_WAIT_ALL && s->wait != WIRE_WAIT_ANY)
		return 0;
	for (i = 0; i < s->npeers && i < WIRE_WATCH_PEERS; i++)
		if (s->peers[i] == q && ((dir ? s->sends : s->recvs) >> i & 1))
			return 1;
	return 0;
}

/* Whether port calls of r (sending) and q (receiving), both blocked, are
 * on one channel, as far as their slots say (a call not on one port, a
 * raw one, a wait for requests: it may be). */
static int
watch_same_channel(const struct run *R, int r, int q)
{
	const struct wire_slot	*a = &R->watch->p[r].cur, *b = &R->watch->p[q].cur;
	int			 e, et, ep;

	if (a->type < 0 || a->port < 1 || a->npeers != 1 ||
	    a->call >= WC_MPI_SEND || b->call >= WC_MPI_SEND ||
	    watch_other_end(R, r, a->type, a->port, &e, &et, &ep) != 0)
		return 1;
	if (b->wait == WIRE_WAIT_PORTS)
		return e == q && (b->type < 0 || b->type == et);
	if (b->type < 0 || b->port < 1 || b->npeers != 1)
		return 1;
	return e == q && et == b->type && ep == b->port;
}

/* Whether blocked processes r and q are taking a message one from the
 * other: a send and a receive that may match. */
static int
watch_served(const struct run *R, int r, int q)
{
	return (watch_dir(R, r, q, 1) && watch_dir(R, q, r, 0) &&
	    watch_same_channel(R, r, q)) ||
	    (watch_dir(R, q, r, 1) && watch_dir(R, r, q, 0) &&
	    watch_same_channel(R, q, r));
}

/* Read every slot of this host (local), and what the trampolines
 * elsewhere said: who is blocked now (wproc.blocked), and who had ended
 * at the reading before (w->ended): a process that ended since may have
 * sent a message just before, which a process seen blocked since that
 * reading has not taken yet; one that had ended then sent nothing that
 * such a process, running all the while, would not have taken. */
static void
watch_read_all(struct run *R, double t, int local)
{
	struct watch		*w = R->watch;
	struct wire_slot	 s;
	struct wproc		*p;
	unsigned long long	 cpu;
	int			 i, ended;

	for (i = 0; i < R->n; i++) {
		p = &w->p[i];
		ended = R->p[i].ended || R->p[i].finalized;
		if (p->remote) {
			p->blocked = p->said && t - p->since >= WATCH_HOLD &&
			    p->cur.call != WC_NONE;
			if (p->blocked && p->cur.wait == WIRE_WAIT_END) {
				p->blocked = 0;
				ended = 1;
			}
		} else if (local && (wire_slot_read((const volatile struct
		    wire_slot *)(w->map + ((size_t)i + 1) * WIRE_SLOT_SIZE),
		    &s) != 0 || s.pid <= 0))
			p->have = p->blocked = 0;
		else if (local) {
			ended |= s.call == WC_FINALIZE && s.wait == WIRE_WAIT_END;
			/* Its run time only when it is in a call: a process
			 * that computes costs no reading of /proc. */
			cpu = s.call != WC_NONE ? clock_ran(s.pid) : 0;
			p->blocked = p->have && wire_slot_blocked(&p->cur, p->cpu,
			    &s, cpu);
			p->cur = s;
			p->cpu = cpu;
			p->have = 1;
		}
		if (local) {
			w->ended[i] = w->ended_then[i];
			w->ended_then[i] = (unsigned char)ended;
		}
	}
}

/* Keep what the deadlock is: each process blocked for good, with its
 * slot and whom it waits for. */
static void
watch_keep(struct run *R)
{
	struct watch	*w = R->watch;
	struct wdead	*d;
	int		 i, n, any;

	R->dead = xcalloc((size_t)R->n + 1, sizeof(*R->dead));
	for (i = 0; i < R->n; i++) {
		if (!w->cand[i])
			continue;
		d = &R->dead[R->ndead++];
		d->proc = i;
		d->slot = w->p[i].cur;
		n = watch_waits(R, i, &any);
		d->any = any;
		d->nwaits = n > 0 ? n : 0;
		d->waits = xcalloc((size_t)d->nwaits + 1, sizeof(int));
		memcpy(d->waits, w->waits, (size_t)d->nwaits * sizeof(int));
	}
	R->ended_mask = xcalloc((size_t)R->n + 1, 1);
	memcpy(R->ended_mask, w->ended, (size_t)R->n);
}

void
watch_tick(struct run *R, double t)
{
	struct watch	*w = R->watch;
	double		 d;
	int		 i, k, n, any, changed, local, found = 0;

	if (w == NULL || (d = watch_deadline(R)) < 0 || t < d)
		return;
	local = t >= w->next;
	if (local)
		w->next = t + WIRE_WATCH_PERIOD;
	watch_read_all(R, t, local);
	for (i = 0; i < R->n; i++)
		w->cand[i] = w->p[i].blocked && !w->ended[i] &&
		    watch_waits(R, i, &any) > 0;
	/* A send and a receive that may match: a message being taken. */
	for (i = 0; i < R->n; i++) {
		if (!w->cand[i] || (n = watch_waits(R, i, &any)) <= 0)
			continue;
		for (k = 0; k < n; k++) {
			int	q = w->waits[k];

			if (q != i && w->cand[q] && watch_served(R, i, q)) {
				w->cand[i] = w->cand[q] = 0;
				break;
			}
		}
	}
	/* The knot: drop whoever waits for someone who can still move. */
	do {
		changed = 0;
		for (i = 0; i < R->n; i++) {
			if (!w->cand[i])
				continue;
			n = watch_waits(R, i, &any);
			for (k = 0; k < n; k++)
				if (!w->cand[w->waits[k]] && !w->ended[w->waits[k]]) {
					w->cand[i] = 0;
					changed = 1;
					break;
				}
		}
	} while (changed);
	for (i = 0; i < R->n; i++)
		found |= w->cand[i];
	if (!found)
		return;
	watch_keep(R);
	R->dead_at = t;
}

/* The process at the other end of process r's port "Type index", or -1. */
int
watch_peer_of(const struct run *R, int r, const char *type, int index)
{
	const struct pcg	*g = R->g;
	const struct pcg_proc	*p = &g->procs[r];
	const struct pcg_comp	*c = &g->comps[p->comp];
	const struct pcg_chan	*ch;
	int			 t, slot = p->portbase, ci;

	for (t = 0; t < c->ntypes; t++) {
		if (strcmp(c->types[t], type) == 0)
			break;
		slot += p->nports[t];
	}
	if (t == c->ntypes || index < 1 || index > p->nports[t])
		return -1;
	if ((ci = g->portchan[slot + index - 1]) < 0)
		return -1;
	ch = &g->chans[ci];
	return ch->e[1 - pcg_chan_end(ch, r, t, index)].proc;
}

/* Process r said where it is (its answer to SIGUSR1): blocked in a call
 * on a port whose peer has called ens_finalize, and in the same call when
 * asked before, having run WIRE_WATCH_CPU between the two answers (so
 * polling for the message: not one taking a message the peer sent before
 * it finalized, nor one the machine gave no processor to), it is blocked
 * for good, which fails the run now, as a death does (a finalized process
 * takes and sends nothing more). */
void
watch_blocked_for_good(struct run *R, int r)
{
	struct rproc	*p = &R->p[r];
	char		 call[64], type[256], pn[PCG_NAME_MAX];
	int		 port, q;

	if (p->forgood != NULL || p->finalized || p->seq < 0 ||
	    p->seq != p->seq_before || p->ran_before == 0 ||
	    p->ran < p->ran_before + WIRE_WATCH_CPU ||
	    sscanf(p->state, "%63s %255s %d", call, type, &port) != 3 ||
	    port < 1 || (q = watch_peer_of(R, r, type, port)) < 0 ||
	    !R->p[q].finalized)
		return;
	xasprintf(&p->forgood, "%s (component %s, host %s) is blocked for good"
	    " in '%s %s[%d]': its peer %s has called ens_finalize", p->name,
	    p->component, launch_host_of(p), call, type, port,
	    pcg_proc_name(R->g, q, pn, sizeof(pn)));
	launch_mark_failed(R, r);
}
