/* conform.c -- a traced run held to its script (conform.h): the trace's
 * ranks mapped to the script's processes by name, each process's port
 * operations replayed in its behaviour's monitor, each message sent on
 * world counted on its channel and per pair of processes, and the
 * verdict.  It prints nothing: 'ensemble trace check' (cli/) does. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "conform.h"
#include "hmap.h"
#include "monitor.h"
#include "xmalloc.h"

/* What the replay keeps of one process besides its findings. */
struct cf_proc {
	struct mon	*mon;		/* NULL: no BEHAVIOUR */
	int		 finalized;
	int		 inwait;	/* the last event was a wait ... */
	int64_t		 wt0, wt1;	/* ... of a waitall of these times (ns) */
	char		*srport;	/* a sendrecv's send line's port */
	long		*some;		/* a waitsome's lines so far: requests */
	size_t		 nsome, asome;
	struct trace_event some_ev;	/* its first line (no strings) */
};

struct cf {
	const struct pcg *g;
	const struct trace_hdr *h;
	struct conform	*c;
	struct cf_proc	*tp;		/* by rank */
	struct hmap	*joined;	/* (a, b), a < b: a channel joins them */
	struct hmap	*pairs;		/* (src, dst) -> index in c->pairs */
	size_t		 apairs;
};

/* A port named "Type[i]", "Type[*]" or "*" in the process's component:
 * *type its index (-1 for "*"), *port 1-based (0 for [*] and "*"); -1
 * when the component has no such type. */
static int
conform_port_of(const struct pcg *g, int proc, const char *s, int *type,
    int *port)
{
	const struct pcg_comp *c = &g->comps[g->procs[proc].comp];
	const char	*br;
	size_t		 len;
	char		*end;
	long		 k;
	int		 t;

	*type = -1;
	*port = 0;
	if (s == NULL || strcmp(s, "*") == 0)
		return 0;
	if ((br = strchr(s, '[')) == NULL)
		return -1;
	len = (size_t)(br - s);
	for (t = 0; t < c->ntypes; t++)
		if (strlen(c->types[t]) == len && strncmp(c->types[t], s, len) == 0)
			break;
	if (t == c->ntypes)
		return -1;
	*type = t;
	if (strcmp(br, "[*]") == 0)
		return 0;
	k = strtol(br + 1, &end, 10);
	if (end == br + 1 || strcmp(end, "]") != 0 || k < 1 ||
	    k > g->procs[proc].nports[t])
		return -1;
	*port = (int)k;
	return 0;
}

/* The port slot of a process's port. */
static int
conform_slot_of(const struct pcg *g, int proc, int type, int port)
{
	const struct pcg_proc *p = &g->procs[proc];
	int		 t, off = 0;

	for (t = 0; t < type; t++)
		off += p->nports[t];
	return p->portbase + off + port - 1;
}

/* The monitor's view of a probe's and an iprobe's line: its port the
 * one asked, or (a probe of any port that found) "ASKED>FOUND", the port
 * found after the ports asked ("In[*]>In[3]", "*>In[3]"; a trace of
 * before it was recorded has none).  As conform_mon_event. */
static int
conform_probe_event(struct cf *ck, const struct trace_event *e, int proc,
    struct mon_event *me, char **err)
{
	const struct pcg_comp *c = &ck->g->comps[ck->g->procs[proc].comp];
	const char	*gt = e->port != NULL ? strchr(e->port, '>') : NULL;
	char		*asked;
	int		 type, port, ftype, fport, r;

	asked = gt != NULL ? xstrndup(e->port, (size_t)(gt - e->port)) : NULL;
	r = conform_port_of(ck->g, proc, asked != NULL ? asked : e->port, &type,
	    &port);
	free(asked);
	if (r != 0 || (gt != NULL && (port > 0 || e->op == TRACE_IPROBEFALSE ||
	    conform_port_of(ck->g, proc, gt + 1, &ftype, &fport) != 0 ||
	    fport == 0 || (type >= 0 && ftype != type)))) {
		xasprintf(err, "no port '%s' in %s", e->port != NULL ? e->port :
		    "-", c->name);
		return -1;
	}
	me->type = type >= 0 ? c->types[type] : NULL;
	me->port = port;
	me->flag = e->op == TRACE_IPROBE;
	if (port > 0) {
		me->op = e->op == TRACE_PROBE ? MON_PROBE : MON_IPROBE;
		return 1;
	}
	me->op = e->op == TRACE_PROBE ? MON_PROBE_ANY : MON_IPROBE_ANY;
	if (gt != NULL) {
		me->rtype = c->types[ftype];
		me->rport = fport;
	}
	return 1;
}

/* The monitor's view of a sendrecv's lines (the first, its send, is
 * kept until the second, its receive, comes: 0 then 1), a probe's and an
 * iprobe's: as conform_mon_event. */
static int
conform_p2p_event(struct cf *ck, const struct trace_event *e, int rank,
    struct mon_event *me, char **err)
{
	struct cf_proc	*tp = &ck->tp[rank];
	const struct pcg_comp *c;
	int		 type, port, stype, sport, proc = ck->c->procs[rank].proc;

	c = &ck->g->comps[ck->g->procs[proc].comp];
	if ((e->op == TRACE_SENDRECV || e->op == TRACE_SENDRECVREPLACE) &&
	    e->mode != TRACE_MODE_NONE) {
		free(tp->srport);
		tp->srport = xstrdup(e->port != NULL ? e->port : "-");
		return 0;
	}
	if (e->op == TRACE_PROBE || e->op == TRACE_IPROBE ||
	    e->op == TRACE_IPROBEFALSE)
		return conform_probe_event(ck, e, proc, me, err);
	if (conform_port_of(ck->g, proc, e->port, &type, &port) != 0) {
		xasprintf(err, "no port '%s' in %s", e->port != NULL ? e->port :
		    "-", c->name);
		return -1;
	}
	me->type = type >= 0 ? c->types[type] : NULL;
	me->port = port;
	/* A sendrecv's receive: its send's port came first. */
	if (tp->srport == NULL || conform_port_of(ck->g, proc, tp->srport,
	    &stype, &sport) != 0 || sport == 0 || port == 0) {
		xasprintf(err, "a sendrecv on '%s' and '%s', not two ports",
		    tp->srport != NULL ? tp->srport : "-", e->port != NULL ?
		    e->port : "-");
		free(tp->srport);
		tp->srport = NULL;
		return -1;
	}
	free(tp->srport);
	tp->srport = NULL;
	me->op = e->op == TRACE_SENDRECV ? MON_SENDRECV : MON_SENDRECV_REPLACE;
	me->rtype = me->type;
	me->rport = me->port;
	me->type = c->types[stype];
	me->port = sport;
	return 1;
}

/* The monitor's view of a port operation; 0 when the event is none (a
 * raw call, init, a wait that continues a waitall), -1 and *err when it
 * is none of the process's. */
static int
conform_mon_event(struct cf *ck, const struct trace_event *e, int rank,
    struct mon_event *me, char **err)
{
	struct cf_proc	*tp = &ck->tp[rank];
	int		 type, port, proc = ck->c->procs[rank].proc;

	memset(me, 0, sizeof(*me));
	*err = NULL;
	if (e->op != TRACE_WAIT)
		tp->inwait = 0;
	if (e->raw || e->op == TRACE_INIT)
		return 0;
	/* A collective over a group goes on its comm (2 and on), which the
	 * header names as the script does ("rows[2]"). */
	if (e->comm >= 2 && (size_t)e->comm < ck->h->ncomms)
		me->group = ck->h->comms[e->comm].name;
	switch (e->op) {
	case TRACE_SEND:
	case TRACE_ISEND:
	case TRACE_RECV:
	case TRACE_IRECV:
		if (conform_port_of(ck->g, proc, e->port, &type, &port) != 0) {
			xasprintf(err, "no port '%s' in %s", e->port != NULL ?
			    e->port : "-", ck->g->comps[ck->g->procs[proc].comp].name);
			return -1;
		}
		me->type = type >= 0 ?
		    ck->g->comps[ck->g->procs[proc].comp].types[type] : NULL;
		me->port = port;
		me->req = e->req > 0 ? e->req : 0;
		if (e->op == TRACE_SEND || e->op == TRACE_ISEND) {
			if (port == 0) {
				xasprintf(err, "a send on '%s', not one port",
				    e->port);
				return -1;
			}
			me->op = e->op == TRACE_SEND ? MON_SEND : MON_ISEND;
			if (e->mode == TRACE_MODE_SYNC)
				me->op += 1;
			else if (e->mode == TRACE_MODE_BUF)
				me->op += 2;
		} else if (port == 0)
			me->op = e->op == TRACE_RECV ? MON_RECV_ANY : MON_IRECV_ANY;
		else
			me->op = e->op == TRACE_RECV ? MON_RECV : MON_IRECV;
		return 1;
	case TRACE_WAIT:
		/* The wait lines of one waitall share their times. */
		if (tp->inwait && tp->wt0 == e->t0ns && tp->wt1 == e->t1ns)
			return 0;
		tp->inwait = 1;
		tp->wt0 = e->t0ns;
		tp->wt1 = e->t1ns;
		me->op = MON_WAITALL;
		return 1;
	case TRACE_SENDRECV:
	case TRACE_SENDRECVREPLACE:
	case TRACE_PROBE:
	case TRACE_IPROBE:
	case TRACE_IPROBEFALSE:
		return conform_p2p_event(ck, e, rank, me, err);
	case TRACE_WAITONE:
	case TRACE_TEST:
	case TRACE_TESTFALSE:
	case TRACE_WAITANY:
		me->op = e->op == TRACE_WAITONE ? MON_WAIT : e->op == TRACE_WAITANY ?
		    MON_WAITANY : MON_TEST;
		me->req = e->req > 0 ? e->req : 0;
		me->flag = e->op == TRACE_TEST;
		return 1;
	case TRACE_WAITSOME:	/* stepped whole, by conform_some */
		return 0;
	case TRACE_BARRIER:	me->op = MON_BARRIER; return 1;
	case TRACE_ALLREDUCE:	me->op = MON_ALLREDUCE; return 1;
	case TRACE_ALLGATHER:	me->op = MON_ALLGATHER; return 1;
	case TRACE_ALLTOALL:	me->op = MON_ALLTOALL; return 1;
	case TRACE_ALLGATHERV:	me->op = MON_ALLGATHERV; return 1;
	case TRACE_ALLTOALLV:	me->op = MON_ALLTOALLV; return 1;
	case TRACE_REDUCESCATTER: me->op = MON_REDUCE_SCATTER; return 1;
	case TRACE_SCATTERV:	me->op = MON_SCATTERV; break;
	case TRACE_GATHERV:	me->op = MON_GATHERV; break;
	case TRACE_BCAST:	me->op = MON_BCAST; break;
	case TRACE_SCATTER:	me->op = MON_SCATTER; break;
	case TRACE_REDUCE:	me->op = MON_REDUCE; break;
	case TRACE_GATHER:	me->op = MON_GATHER; break;
	case TRACE_FIN:
		me->op = MON_FINALIZE;
		return 1;
	default:
		return 0;
	}
	/* A rooted collective: its root by name. */
	if (e->peer < 0 || e->peer >= ck->h->nprocs) {
		xasprintf(err, "a %s without its root", trace_op_name(e->op));
		return -1;
	}
	me->root = ck->c->procs[e->peer].name;
	return 1;
}

/* Step process rank's monitor with me, made of the event e; r as
 * conform_mon_event returned, err its cause. */
static void
conform_step(struct cf *ck, int rank, const struct trace_event *e,
    const struct mon_event *me, int r, char *err)
{
	struct conform_proc *cp = &ck->c->procs[rank];
	struct cf_proc	*tp = &ck->tp[rank];
	char		*msg = NULL;

	if (r == 0 || cp->div != CONFORM_KEPT) {
		free(err);
		return;
	}
	cp->ops++;
	if (r > 0 && (tp->mon == NULL || ens_mon_step(tp->mon, me, &msg) == 0))
		return;
	cp->div = CONFORM_DIVERGED;
	cp->div_op = cp->ops;
	cp->div_t = e->t0ns;
	cp->div_line = e->line;
	if (r < 0)
		cp->div_why = err;
	else
		cp->div_why = msg != NULL ? msg : xstrdup("out of memory");
}

/* Step process rank's monitor with the waitsome whose lines it kept, if
 * any. */
static void
conform_some(struct cf *ck, int rank)
{
	struct cf_proc	*tp = &ck->tp[rank];
	struct mon_event me;

	if (tp->nsome == 0)
		return;
	memset(&me, 0, sizeof(me));
	me.op = MON_WAITSOME;
	me.reqs = tp->some;
	me.nreqs = (int)tp->nsome;
	tp->nsome = 0;
	conform_step(ck, rank, &tp->some_ev, &me, 1, NULL);
}

/* Follow one event of a process in its behaviour: a waitsome's lines (of
 * one time) as one call. */
static void
conform_replay(struct cf *ck, const struct trace_event *e)
{
	struct cf_proc	*tp = &ck->tp[e->rank];
	struct mon_event me;
	char		*err = NULL;
	int		 r;

	if (tp->nsome > 0 && (e->op != TRACE_WAITSOME ||
	    e->t0ns != tp->some_ev.t0ns || e->t1ns != tp->some_ev.t1ns))
		conform_some(ck, e->rank);
	if (e->op == TRACE_WAITSOME && !e->raw) {
		if (tp->nsome == 0) {
			tp->some_ev = *e;
			tp->some_ev.port = tp->some_ev.dtype = NULL;
		}
		xgrow(&tp->some, &tp->asome, tp->nsome + 1, sizeof(*tp->some));
		tp->some[tp->nsome++] = e->req > 0 ? e->req : 0;
	}
	if (e->op == TRACE_FIN)
		tp->finalized = 1;
	r = conform_mon_event(ck, e, e->rank, &me, &err);
	conform_step(ck, e->rank, e, &me, r, err);
}

/* Count a message sent, and note when it left its channels. */
static void
conform_count_send(struct cf *ck, const struct trace_event *e)
{
	struct conform	*c = ck->c;
	struct conform_proc *cp = &c->procs[e->rank];
	const struct pcg_chan *ch = NULL;
	struct conform_pair *pp;
	int		 type, port, slot, k, other, i = 0, old;

	if (e->peer < 0 || e->peer >= ck->h->nprocs || e->comm != 0)
		return;
	if (hmap_put(ck->pairs, (uint64_t)e->rank, (uint64_t)e->peer,
	    (int)c->npairs, &old) == HMAP_INSERTED) {
		xgrow(&c->pairs, &ck->apairs, c->npairs + 1, sizeof(*c->pairs));
		memset(&c->pairs[c->npairs], 0, sizeof(*c->pairs));
		c->pairs[c->npairs].src = e->rank;
		c->pairs[c->npairs].dst = e->peer;
		old = (int)c->npairs++;
	}
	pp = &c->pairs[old];
	pp->n++;
	if (e->raw) {
		pp->raw++;
		return;
	}
	if (conform_port_of(ck->g, cp->proc, e->port, &type, &port) != 0 ||
	    port == 0)
		return;		/* the replay says so */
	slot = conform_slot_of(ck->g, cp->proc, type, port);
	if ((k = ck->g->portchan[slot]) >= 0) {
		ch = &ck->g->chans[k];
		i = pcg_chan_end(ch, cp->proc, type, port);
		other = ch->e[1 - i].proc;
		if (other == c->procs[e->peer].proc) {
			c->chan_msgs[k]++;
			return;
		}
	}
	if (cp->off != CONFORM_ON)
		return;
	cp->off = k < 0 ? CONFORM_NO_CHANNEL : CONFORM_ELSEWHERE;
	cp->off_peer = e->peer;
	cp->off_t = e->t0ns;
	cp->off_line = e->line;
	cp->off_port = xstrdup(e->port);
	if (k >= 0)
		cp->off_to = ch->e[1 - i];
}

/* qsort's order of pairs: by sender, then receiver. */
static int
conform_cmp_pair(const void *a, const void *b)
{
	const struct conform_pair *x = a, *y = b;

	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	return x->dst < y->dst ? -1 : x->dst > y->dst;
}

/* A script process's name, for the map from the trace's names. */
struct conform_named {
	char		*name;
	int		 proc;
};

/* qsort's and bsearch's order of names. */
static int
conform_cmp_named(const void *a, const void *b)
{
	return strcmp(((const struct conform_named *)a)->name,
	    ((const struct conform_named *)b)->name);
}

/* Map the trace's ranks to the script's processes by name (sorted names
 * and a binary search: scripts have 100,000 processes). */
static int
conform_map_procs(struct cf *ck, char **cause)
{
	char		 name[PCG_NAME_MAX];
	struct conform_named *v, key, *hit;
	unsigned char	*taken;
	int		 r, p, n = ck->g->nprocs, rc = -1;

	if (ck->h->nprocs != n) {
		xasprintf(cause, "the trace has %d process%s, the script %d%s",
		    ck->h->nprocs, ck->h->nprocs == 1 ? "" : "es", n,
		    ck->h->nparams == 0 ? " (the trace names no parameters: "
		    "give the run's -np and -D)" : "");
		return -1;
	}
	v = xcalloc((size_t)n + 1, sizeof(*v));
	taken = xcalloc((size_t)n + 1, 1);
	for (p = 0; p < n; p++) {
		v[p].name = xstrdup(pcg_proc_name(ck->g, p, name, sizeof(name)));
		v[p].proc = p;
	}
	qsort(v, (size_t)n, sizeof(*v), conform_cmp_named);
	for (r = 0; r < n; r++) {
		key.name = ck->h->processes[r].name;
		hit = key.name == NULL ? NULL : bsearch(&key, v, (size_t)n,
		    sizeof(*v), conform_cmp_named);
		if (hit == NULL || taken[hit->proc]) {
			xasprintf(cause, "the trace's process '%s' (rank %d) is "
			    "%s", key.name != NULL ? key.name : "-", r,
			    hit == NULL ? "not in the script" : "there twice");
			goto out;
		}
		taken[hit->proc] = 1;
		ck->c->procs[r].proc = hit->proc;
		ck->c->procs[r].name = xstrdup(key.name);
	}
	rc = 0;
out:
	for (p = 0; p < n; p++)
		free(v[p].name);
	free(v);
	free(taken);
	return rc;
}

/* Hold the trace's groups to the script's: a comm whose members the
 * trace gives (a group's) is the script's group of its name, with the
 * same processes in the same rank order. */
static int
conform_map_groups(struct cf *ck, char **cause)
{
	const struct pcg_group *gr;
	const struct trace_comm *tc;
	char		 name[PCG_NAME_MAX], pt[PCG_NAME_MAX], ps[PCG_NAME_MAX];
	size_t		 i;
	int		 k, j, r;

	for (i = 2; i < ck->h->ncomms; i++) {
		tc = &ck->h->comms[i];
		if (tc->members == NULL)
			continue;
		for (k = 0; k < ck->g->ngroups; k++)
			if (strcmp(pcg_group_name(ck->g, k, name, sizeof(name)),
			    tc->name) == 0)
				break;
		if (k == ck->g->ngroups) {
			xasprintf(cause, "the trace's group '%s' is not in the "
			    "script", tc->name);
			return -1;
		}
		gr = &ck->g->groups[k];
		if (tc->size != gr->nmembers) {
			xasprintf(cause, "group '%s' has %d process%s in the "
			    "trace, %d in the script", tc->name, tc->size,
			    tc->size == 1 ? "" : "es", gr->nmembers);
			return -1;
		}
		for (j = 0; j < tc->size; j++) {
			r = tc->members[j];
			if (r >= 0 && r < ck->h->nprocs &&
			    ck->c->procs[r].proc == gr->members[j])
				continue;
			xasprintf(cause, "group '%s': its rank %d is %s in the "
			    "trace, %s in the script", tc->name, j,
			    r >= 0 && r < ck->h->nprocs ? pcg_proc_name(ck->g,
			    ck->c->procs[r].proc, pt, sizeof(pt)) : "no process",
			    pcg_proc_name(ck->g, gr->members[j], ps, sizeof(ps)));
			return -1;
		}
	}
	return 0;
}

/* Give each process a monitor of its behaviour. */
static int
conform_monitors(struct cf *ck, char **cause)
{
	const struct pcg *g = ck->g;
	char		**locs, *why = NULL;
	int		 r, n, i;

	for (r = 0; r < ck->h->nprocs; r++) {
		const struct pcg_proc *p = &g->procs[ck->c->procs[r].proc];
		const struct pcg_comp *c = &g->comps[p->comp];

		if (!p->has_behaviour || p->behaviour == NULL)
			continue;
		n = pcg_behaviour_locs(g, ck->c->procs[r].proc, &locs);
		ck->tp[r].mon = ens_mon_new(p->behaviour, n,
		    (const char *const *)locs, c->ntypes, c->types, p->nports, &why);
		for (i = 0; i < n; i++)
			free(locs[i]);
		free(locs);
		if (ck->tp[r].mon == NULL) {
			xasprintf(cause, "%s: its behaviour cannot be followed: "
			    "%s", ck->c->procs[r].name, why != NULL ? why :
			    "out of memory");
			free(why);
			return -1;
		}
		ck->c->procs[r].replayed = 1;
	}
	return 0;
}

/* The sums of the findings, and the verdict. */
static void
conform_judge(struct cf *ck)
{
	struct conform	*c = ck->c;
	struct conform_pair *pp;
	size_t		 i;
	int		 r, ps, pd;

	for (r = 0; r < c->nprocs; r++) {
		struct conform_proc *cp = &c->procs[r];

		if (cp->div == CONFORM_KEPT && !ck->tp[r].finalized &&
		    ck->tp[r].mon != NULL)
			cp->div = CONFORM_UNFINISHED;
		c->diverged += cp->div != CONFORM_KEPT;
		c->offchan += cp->off != CONFORM_ON;
	}
	for (i = 0; i < (size_t)ck->g->nchans; i++)
		c->used += c->chan_msgs[i] > 0;
	if (c->npairs > 0)
		qsort(c->pairs, c->npairs, sizeof(*c->pairs), conform_cmp_pair);
	for (i = 0; i < c->npairs; i++) {
		pp = &c->pairs[i];
		ps = c->procs[pp->src].proc;
		pd = c->procs[pp->dst].proc;
		c->messages += pp->n;
		pp->joined = hmap_get(ck->joined, (uint64_t)(ps < pd ? ps : pd),
		    (uint64_t)(ps < pd ? pd : ps)) >= 0;
		if (!pp->joined)
			c->unjoined += pp->n;
	}
	c->conforming = c->diverged == 0 && c->offchan == 0 &&
	    c->unjoined == 0;
}

enum conform_status
conform_check(struct trace_reader *tr, const struct pcg *g,
    struct conform **out, char **cause)
{
	struct cf	 ck;
	struct trace_event e;
	enum conform_status rc = CONFORM_NOT_A_RUN;
	size_t		 i;
	int		 r;

	memset(&ck, 0, sizeof(ck));
	ck.g = g;
	ck.h = trace_header(tr);
	ck.c = xcalloc(1, sizeof(*ck.c));
	ck.c->nprocs = ck.h->nprocs;
	ck.c->procs = xcalloc((size_t)ck.h->nprocs + 1, sizeof(*ck.c->procs));
	ck.tp = xcalloc((size_t)ck.h->nprocs + 1, sizeof(*ck.tp));
	*out = NULL;
	*cause = NULL;
	if (conform_map_procs(&ck, cause) != 0 ||
	    conform_map_groups(&ck, cause) != 0 ||
	    conform_monitors(&ck, cause) != 0)
		goto out;
	trace_rebase(tr);
	ck.c->chan_msgs = xcalloc((size_t)g->nchans + 1,
	    sizeof(*ck.c->chan_msgs));
	ck.pairs = hmap_new();
	ck.joined = hmap_new();
	for (i = 0; i < (size_t)g->nchans; i++) {
		int	p0 = g->chans[i].e[0].proc, p1 = g->chans[i].e[1].proc;

		hmap_put(ck.joined, (uint64_t)(p0 < p1 ? p0 : p1),
		    (uint64_t)(p0 < p1 ? p1 : p0), 1, &r);
	}
	while ((r = trace_next(tr, &e, cause)) == 1) {
		if (e.rank < 0 || e.rank >= ck.h->nprocs)
			continue;
		conform_replay(&ck, &e);
		if (trace_side(&e) == TRACE_SIDE_SEND)
			conform_count_send(&ck, &e);
	}
	if (r < 0) {
		rc = CONFORM_BAD_TRACE;
		goto out;
	}
	for (r = 0; r < ck.h->nprocs; r++)
		conform_some(&ck, r);
	conform_judge(&ck);
	*out = ck.c;
	ck.c = NULL;
	rc = CONFORM_DONE;
out:
	for (r = 0; r < ck.h->nprocs; r++) {
		ens_mon_free(ck.tp[r].mon);
		free(ck.tp[r].srport);
		free(ck.tp[r].some);
	}
	free(ck.tp);
	conform_free(ck.c);
	hmap_free(ck.pairs);
	hmap_free(ck.joined);
	return rc;
}

void
conform_free(struct conform *c)
{
	int	r;

	if (c == NULL)
		return;
	for (r = 0; r < c->nprocs; r++) {
		free(c->procs[r].name);
		free(c->procs[r].div_why);
		free(c->procs[r].off_port);
	}
	free(c->procs);
	free(c->chan_msgs);
	free(c->pairs);
	free(c);
}
