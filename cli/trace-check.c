/* trace-check.c -- 'ensemble trace check': whether a traced run kept to
 * its script.  Every message must have travelled on a declared channel,
 * and each process's port operations, replayed in their order, must be
 * accepted by its declared behaviour; then the communication graph the
 * run used is set beside the script's.
 *
 * The replay follows each behaviour with the protocol monitor of
 * libensemble (runtime/monitor.c, compiled in here as in the unit tests):
 * the same code that follows a live run under --check-protocol, which
 * tests/behave.test holds to the verifier's MP net programs.  A check
 * after the run thus gives the verdict the live monitor would have given,
 * with the same words, and there is one follower of behaviours, not a
 * third.  It lives in cli/, not mpnet/ nor trace/, because it joins three
 * floors that do not see each other: the trace (trace/), the expanded
 * script (pcg/) and the monitor (runtime/, which sees no front end). */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd-trace.h"
#include "hmap.h"
#include "monitor.h"
#include "parse.h"
#include "trace.h"
#include "trace-check.h"
#include "xmalloc.h"

/* An event's start from time zero (trace_rebase) as the trace writes
 * times: a sign, seconds and nanoseconds, for "%s%lld.%09lld". */
#define T0S(e)	(e)->t0ns < 0 ? "-" : "", \
		(long long)(llabs((e)->t0ns) / 1000000000), \
		(long long)(llabs((e)->t0ns) % 1000000000)

/* What the replay knows of one process of the trace. */
struct tproc {
	int		 proc;		/* in the pcg */
	struct mon	*mon;		/* NULL: no BEHAVIOUR */
	unsigned long	 ops;		/* port operations so far */
	char		*diverged;	/* the first divergence */
	char		*offchan;	/* the first message off its channels */
	int		 finalized;
	int		 inwait;	/* the last event was a wait ... */
	int64_t		 wt0, wt1;	/* ... of a waitall of these times (ns) */
	unsigned long	 lastline;
};

struct check {
	const struct pcg *g;
	const struct trace_hdr *h;
	struct tproc	*tp;		/* per rank */
	char		**names;	/* per rank: its name in the script */
	uint64_t	*chan_msgs;	/* per channel: port messages */
	struct hmap	*joined;	/* (a, b), a < b: a channel joins them */
	struct hmap	*pairs;		/* (src, dst) -> index in pair */
	struct pair {
		int		 src, dst;
		uint64_t	 n;
		uint64_t	 raw;
	}		*pair;
	size_t		 npair, apair;
};

/* A port named "Type[i]", "Type[*]" or "*" in the process's component:
 * *type its index (-1 for "*"), *port 1-based (0 for [*] and "*"); -1
 * when the component has no such type. */
static int
port_of(const struct pcg *g, int proc, const char *s, int *type, int *port)
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
slot_of(const struct pcg *g, int proc, int type, int port)
{
	const struct pcg_proc *p = &g->procs[proc];
	int		 t, off = 0;

	for (t = 0; t < type; t++)
		off += p->nports[t];
	return p->portbase + off + port - 1;
}

/* "relay[2].Prop[1]": a channel's end, in buf. */
static const char *
end_text(const struct pcg *g, const struct pcg_end *e, char *buf, size_t len)
{
	char	name[PCG_NAME_MAX];

	snprintf(buf, len, "%s.%s[%d]", pcg_proc_name(g, e->proc, name,
	    sizeof(name)), g->comps[g->procs[e->proc].comp].types[e->type],
	    e->port);
	return buf;
}

/* The monitor's view of a port operation; 0 when the event is none (a
 * raw call, init, a wait that continues a waitall). */
static int
mon_event_of(struct check *ck, const struct trace_event *e, struct tproc *tp,
    struct mon_event *me, char **err)
{
	int		 type, port, proc = tp->proc;

	memset(me, 0, sizeof(*me));
	*err = NULL;
	if (e->op != TRACE_WAIT)
		tp->inwait = 0;
	if (e->raw || e->op == TRACE_INIT)
		return 0;
	switch (e->op) {
	case TRACE_SEND:
	case TRACE_ISEND:
	case TRACE_RECV:
	case TRACE_IRECV:
		if (port_of(ck->g, proc, e->port, &type, &port) != 0) {
			xasprintf(err, "no port '%s' in %s", e->port != NULL ?
			    e->port : "-", ck->g->comps[ck->g->procs[proc].comp].name);
			return -1;
		}
		me->type = type >= 0 ?
		    ck->g->comps[ck->g->procs[proc].comp].types[type] : NULL;
		me->port = port;
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
	case TRACE_BARRIER:	me->op = MON_BARRIER; return 1;
	case TRACE_ALLREDUCE:	me->op = MON_ALLREDUCE; return 1;
	case TRACE_ALLGATHER:	me->op = MON_ALLGATHER; return 1;
	case TRACE_ALLTOALL:	me->op = MON_ALLTOALL; return 1;
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
	me->root = ck->names[e->peer];
	return 1;
}

/* Follow one event of a process in its behaviour. */
static void
replay(struct check *ck, const struct trace_event *e)
{
	struct tproc	*tp = &ck->tp[e->rank];
	struct mon_event me;
	char		*msg = NULL, *err = NULL;
	int		 r;

	tp->lastline = e->line;
	if (e->op == TRACE_FIN)
		tp->finalized = 1;
	if ((r = mon_event_of(ck, e, tp, &me, &err)) == 0 || tp->diverged != NULL)
		goto out;
	tp->ops++;
	if (r < 0) {
		xasprintf(&tp->diverged, "%s: operation %lu (t=%s%lld.%09lld, "
		    "trace line %lu): %s", ck->names[e->rank], tp->ops, T0S(e),
		    e->line, err);
		goto out;
	}
	if (tp->mon == NULL || ens_mon_step(tp->mon, &me, &msg) == 0)
		goto out;
	xasprintf(&tp->diverged, "%s: operation %lu (t=%s%lld.%09lld, trace "
	    "line %lu): %s",
	    ck->names[e->rank], tp->ops, T0S(e), e->line,
	    msg != NULL ? msg : "out of memory");
out:
	free(msg);
	free(err);
}

/* Count a message sent, and say when it left its channels. */
static void
count_send(struct check *ck, const struct trace_event *e)
{
	struct tproc	*tp = &ck->tp[e->rank];
	const struct pcg_chan *c;
	int		 type, port, slot, ch, other, i, old;
	char		 buf[2 * PCG_NAME_MAX];

	if (e->peer < 0 || e->peer >= ck->h->nprocs || e->comm != 0)
		return;
	if (hmap_put(ck->pairs, (uint64_t)e->rank, (uint64_t)e->peer,
	    (int)ck->npair, &old) == HMAP_INSERTED) {
		xgrow(&ck->pair, &ck->apair, ck->npair + 1, sizeof(*ck->pair));
		memset(&ck->pair[ck->npair], 0, sizeof(*ck->pair));
		ck->pair[ck->npair].src = e->rank;
		ck->pair[ck->npair].dst = e->peer;
		old = (int)ck->npair++;
	}
	ck->pair[old].n++;
	if (e->raw) {
		ck->pair[old].raw++;
		return;
	}
	if (port_of(ck->g, tp->proc, e->port, &type, &port) != 0 || port == 0)
		return;		/* the replay says so */
	slot = slot_of(ck->g, tp->proc, type, port);
	if ((ch = ck->g->portchan[slot]) < 0) {
		if (tp->offchan == NULL)
			xasprintf(&tp->offchan, "%s: message to %s "
			    "(t=%s%lld.%09lld, trace line %lu) sent on '%s', "
			    "which no channel connects",
			    ck->names[e->rank], ck->names[e->peer], T0S(e), e->line,
			    e->port);
		return;
	}
	c = &ck->g->chans[ch];
	i = pcg_chan_end(c, tp->proc, type, port);
	other = c->e[1 - i].proc;
	if (other != ck->tp[e->peer].proc) {
		if (tp->offchan == NULL)
			xasprintf(&tp->offchan, "%s: message to %s "
			    "(t=%s%lld.%09lld, trace line %lu) sent on '%s', "
			    "whose channel leads to %s",
			    ck->names[e->rank], ck->names[e->peer], T0S(e), e->line,
			    e->port, end_text(ck->g, &c->e[1 - i], buf, sizeof(buf)));
		return;
	}
	ck->chan_msgs[ch]++;
}

static int
cmp_pair(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;

	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	return x->dst < y->dst ? -1 : x->dst > y->dst;
}

/* A script process's name, for the map from the trace's names. */
struct named {
	char		*name;
	int		 proc;
};

static int
cmp_named(const void *a, const void *b)
{
	return strcmp(((const struct named *)a)->name,
	    ((const struct named *)b)->name);
}

/* Map the trace's ranks to the script's processes by name (sorted names
 * and a binary search: scripts have 100,000 processes). */
static int
map_procs(struct check *ck, char **cause)
{
	char		 name[PCG_NAME_MAX];
	struct named	*v, key, *hit;
	unsigned char	*taken;
	int		 r, p, n = ck->g->nprocs, rc = -1;

	if (ck->h->nprocs != n) {
		xasprintf(cause, "ensemble trace check: the trace has %d "
		    "process%s, the script %d%s", ck->h->nprocs,
		    ck->h->nprocs == 1 ? "" : "es", n, ck->h->nparams == 0 ?
		    " (the trace names no parameters: give the run's -np and -D)" :
		    "");
		return -1;
	}
	v = xcalloc((size_t)n + 1, sizeof(*v));
	taken = xcalloc((size_t)n + 1, 1);
	for (p = 0; p < n; p++) {
		v[p].name = xstrdup(pcg_proc_name(ck->g, p, name, sizeof(name)));
		v[p].proc = p;
	}
	qsort(v, (size_t)n, sizeof(*v), cmp_named);
	ck->tp = xcalloc((size_t)n, sizeof(*ck->tp));
	ck->names = xcalloc((size_t)n, sizeof(*ck->names));
	for (r = 0; r < n; r++) {
		key.name = ck->h->processes[r].name;
		hit = key.name == NULL ? NULL : bsearch(&key, v, (size_t)n,
		    sizeof(*v), cmp_named);
		if (hit == NULL || taken[hit->proc]) {
			xasprintf(cause, "ensemble trace check: the trace's process "
			    "'%s' (rank %d) is %s", key.name != NULL ? key.name :
			    "-", r, hit == NULL ? "not in the script" :
			    "there twice");
			goto out;
		}
		taken[hit->proc] = 1;
		ck->tp[r].proc = hit->proc;
		ck->names[r] = xstrdup(key.name);
	}
	rc = 0;
out:
	for (p = 0; p < n; p++)
		free(v[p].name);
	free(v);
	free(taken);
	return rc;
}

/* Give each process a monitor of its behaviour. */
static int
make_monitors(struct check *ck, char **cause)
{
	const struct pcg *g = ck->g;
	char		**locs, *why = NULL;
	int		 r, n, i;

	for (r = 0; r < ck->h->nprocs; r++) {
		const struct pcg_proc *p = &g->procs[ck->tp[r].proc];
		const struct pcg_comp *c = &g->comps[p->comp];

		if (!p->has_behaviour || p->behaviour == NULL)
			continue;
		n = pcg_behaviour_locs(g, ck->tp[r].proc, &locs);
		ck->tp[r].mon = ens_mon_new(p->behaviour, n,
		    (const char *const *)locs, c->ntypes, c->types, p->nports, &why);
		for (i = 0; i < n; i++)
			free(locs[i]);
		free(locs);
		if (ck->tp[r].mon == NULL) {
			xasprintf(cause, "ensemble trace check: %s: its "
			    "behaviour cannot be followed: %s", ck->names[r],
			    why != NULL ? why : "out of memory");
			free(why);
			return -1;
		}
	}
	return 0;
}

int
trace_check(struct trace_reader *tr, const struct pcg *g, FILE *out,
    char **cause)
{
	struct check	 ck;
	struct trace_event e;
	char		 a[2 * PCG_NAME_MAX], b[2 * PCG_NAME_MAX];
	const struct pcg_chan *c;
	size_t		 i;
	uint64_t	 nmsg = 0, off = 0;
	int		 r, rc = -1, ndiv = 0, noff = 0, nunused = 0, used = 0;

	memset(&ck, 0, sizeof(ck));
	ck.g = g;
	ck.h = trace_header(tr);
	*cause = NULL;
	if (map_procs(&ck, cause) != 0 || make_monitors(&ck, cause) != 0)
		goto out;
	trace_rebase(tr);
	ck.chan_msgs = xcalloc((size_t)g->nchans + 1, sizeof(*ck.chan_msgs));
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
		replay(&ck, &e);
		if (e.op == TRACE_SEND || e.op == TRACE_ISEND)
			count_send(&ck, &e);
	}
	if (r < 0)
		goto out;

	/* The behaviours. */
	for (r = 0; r < ck.h->nprocs; r++) {
		struct tproc *tp = &ck.tp[r];

		if (tp->diverged == NULL && !tp->finalized && tp->mon != NULL)
			xasprintf(&tp->diverged, "%s: the trace ends after "
			    "operation %lu, before its ens_finalize", ck.names[r],
			    tp->ops);
		if (tp->diverged != NULL) {
			fprintf(out, "%s\n", tp->diverged);
			ndiv++;
		}
		if (tp->offchan != NULL) {
			fprintf(out, "%s\n", tp->offchan);
			noff++;
		}
	}
	for (r = 0; r < ck.h->nprocs; r++)
		if (ck.tp[r].mon == NULL)
			fprintf(out, "%s: not replayed (%s has no BEHAVIOUR)\n",
			    ck.names[r], g->comps[g->procs[ck.tp[r].proc].comp].name);

	/* The graph: channels, then pairs without one. */
	for (i = 0; i < (size_t)g->nchans; i++) {
		c = &g->chans[i];
		end_text(g, &c->e[0], a, sizeof(a));
		end_text(g, &c->e[1], b, sizeof(b));
		if (ck.chan_msgs[i] > 0) {
			fprintf(out, "channel %s <-> %s: %" PRIu64 " message%s\n",
			    a, b, ck.chan_msgs[i], ck.chan_msgs[i] == 1 ? "" : "s");
			used++;
		} else {
			fprintf(out, "channel %s <-> %s: never used\n", a, b);
			nunused++;
		}
	}
	qsort(ck.pair, ck.npair, sizeof(*ck.pair), cmp_pair);
	for (i = 0; i < ck.npair; i++) {
		const struct pair *pp = &ck.pair[i];
		int	ps = ck.tp[pp->src].proc, pd = ck.tp[pp->dst].proc;

		nmsg += pp->n;
		if (hmap_get(ck.joined, (uint64_t)(ps < pd ? ps : pd),
		    (uint64_t)(ps < pd ? pd : ps)) >= 0)
			continue;
		fprintf(out, "no channel %s -> %s: %" PRIu64 " message%s", ck.names[pp->src],
		    ck.names[pp->dst], pp->n, pp->n == 1 ? "" : "s");
		if (pp->raw > 0)
			fprintf(out, " (%" PRIu64 " raw)", pp->raw);
		fputc('\n', out);
		off += pp->n;
	}
	if (ndiv == 0 && noff == 0 && off == 0) {
		fprintf(out, "conforming: %" PRIu64 " message%s on %d of %d "
		    "channel%s\n", nmsg, nmsg == 1 ? "" : "s", used, g->nchans,
		    g->nchans == 1 ? "" : "s");
		rc = 0;
	} else {
		fprintf(out, "not conforming:");
		if (ndiv > 0)
			fprintf(out, " %d process%s left %s behaviour%s", ndiv,
			    ndiv == 1 ? "" : "es", ndiv == 1 ? "its" : "their",
			    noff > 0 || off > 0 ? "," : "");
		if (noff > 0)
			fprintf(out, " %d process%s sent off %s channels%s", noff,
			    noff == 1 ? "" : "es", noff == 1 ? "its" : "their",
			    off > 0 ? "," : "");
		if (off > 0)
			fprintf(out, " %" PRIu64 " message%s between processes "
			    "without a channel", off, off == 1 ? "" : "s");
		fputc('\n', out);
		rc = 1;
	}
out:
	if (ck.tp != NULL)
		for (r = 0; r < ck.h->nprocs; r++) {
			ens_mon_free(ck.tp[r].mon);
			free(ck.tp[r].diverged);
			free(ck.tp[r].offchan);
			free(ck.names[r]);
		}
	free(ck.tp);
	free(ck.names);
	free(ck.chan_msgs);
	free(ck.pair);
	if (ck.pairs != NULL)
		hmap_free(ck.pairs);
	if (ck.joined != NULL)
		hmap_free(ck.joined);
	return rc;
}

/* The header's value of parameter name, or NULL. */
static const char *
hdr_param(const struct trace_hdr *h, const char *name)
{
	size_t	k;

	for (k = 0; k < h->nparams; k++)
		if (strcmp(h->params[k].name, name) == 0)
			return h->params[k].value;
	return NULL;
}

/* The script as the run expanded it: each parameter the command line
 * does not set takes its value from the trace's header; one the command
 * line sets to another value than the run's is an error that names it
 * (printed; NULL).  The script is parsed once and its parameters read
 * from it, so the header's parameters it lacks are left out. */
static struct pcg *
load_as_run(struct cli_opts *o, const struct trace_hdr *h, struct diag *d)
{
	struct pcg_opts		 pcgo = o->pcg;
	const struct item	*it;
	struct ast		*ast;
	struct pcg		*g = NULL;
	const char		**defs, *hv;
	char			**own, *text;
	size_t			 k, n, nown = 0, len;
	int			 given, differ = 0;

	if ((ast = cli_parse_script(o, d)) == NULL)
		return NULL;
	n = o->pcg.ndefs;
	for (it = ast->items; it != NULL; it = it->next) {
		if (it->kind == I_SCALE || it->kind == I_PARAM)
			n++;
		if (it->kind == I_APPLICATION && h->application != NULL &&
		    strcmp(it->name, h->application) != 0) {
			fprintf(stderr, "ensemble trace check: the trace is a run "
			    "of '%s' (%s), the script is '%s'\n", h->application,
			    h->script != NULL ? h->script : "-", it->name);
			ast_free(ast);
			return NULL;
		}
	}
	defs = xcalloc(n + 1, sizeof(*defs));
	own = xcalloc(n + 1, sizeof(*own));
	for (k = 0; k < o->pcg.ndefs; k++)
		defs[k] = o->pcg.defs[k];
	n = o->pcg.ndefs;
	for (it = ast->items; it != NULL; it = it->next) {
		if (it->kind != I_SCALE && it->kind != I_PARAM)
			continue;
		given = it->kind == I_SCALE && o->pcg.np_set;
		len = strlen(it->name);
		for (k = 0; k < o->pcg.ndefs && !given; k++)
			given = strncmp(o->pcg.defs[k], it->name, len) == 0 &&
			    o->pcg.defs[k][len] == '=';
		if (given || (hv = hdr_param(h, it->name)) == NULL)
			continue;
		xasprintf(&own[nown], "%s=%s", it->name, hv);
		defs[n++] = own[nown++];
	}
	pcgo.defs = defs;
	pcgo.ndefs = n;
	g = pcg_expand(ast, d, &pcgo);
	if (g == NULL || d->errors > 0) {
		pcg_free(g);
		diag_summary(d);
		g = NULL;
		goto out;
	}
	/* What the command line set, against the run's. */
	for (k = 0; k < (size_t)g->nparams; k++) {
		const struct pcg_param	*p = &g->params[k];

		if (p->from == PCG_FROM_DEFAULT ||
		    (hv = hdr_param(h, p->name)) == NULL)
			continue;
		text = pcg_param_text(p);
		if (strcmp(text, hv) != 0) {
			if (p->from == PCG_FROM_NP)
				fprintf(stderr, "ensemble trace check: -np %s "
				    "differs from the run's: %s=%s (leave -np out: "
				    "the trace gives the run's parameters)\n",
				    text, p->name, hv);
			else
				fprintf(stderr, "ensemble trace check: -D %s=%s "
				    "differs from the run's: %s=%s (leave it out: "
				    "the trace gives the run's parameters)\n",
				    p->name, text, p->name, hv);
			differ++;
		}
		free(text);
	}
	if (differ > 0) {
		pcg_free(g);
		g = NULL;
	}
out:
	for (k = 0; k < nown; k++)
		free(own[k]);
	free(own);
	free(defs);
	return g;
}

static int
trace_check_exec(const struct cmd_entry *self, int argc, char **argv)
{
	struct cli_opts		 o;
	struct trace_reader	*r = NULL;
	struct diag		*d = NULL;
	struct pcg		*g = NULL;
	const char		*path;
	char			*cause = NULL;
	int			 rc;

	if (argc < 2) {
		fprintf(stderr, "ensemble trace check: no trace given\n");
		cli_usage(stderr, self);
		return EXIT_BADINPUT;
	}
	path = cli_trace_first(&argc, &argv);
	if ((rc = cli_parse(self, argc, argv, &o)) >= 0)
		return rc;
	rc = EXIT_BADINPUT;
	if (path == NULL) {
		fprintf(stderr, "ensemble trace check: no trace given (it comes "
		    "first)\n");
		cli_usage(stderr, self);
		goto out;
	}
	/* The run is over: where the executables are does not matter. */
	o.pcg.skip_exec_check = 1;
	if ((r = cli_trace_open(path)) == NULL)
		goto out;
	d = diag_new(stderr);
	if ((g = load_as_run(&o, trace_header(r), d)) == NULL)
		goto out;
	if ((rc = trace_check(r, g, stdout, &cause)) < 0)
		rc = cli_trace_fail(cause);
out:
	if (r != NULL)
		trace_close(r);
	pcg_free(g);
	diag_free(d);
	cli_opts_free(&o);
	return cli_exit(rc);
}

static const struct cli_option trace_check_options[] = {
	CLI_OPTIONS_SCRIPT,
	{ CLI_END }
};

const struct cmd_entry trace_check_entry = {
	.name = "trace check",
	.args = "TRACE SCRIPT",
	.summary = "Whether a traced run kept to its script's channels and behaviours.",
	.options = trace_check_options,
	.operand = "script",
	.help =
	    "The script is expanded with the run's parameters, from the trace;\n"
	    "an -np or -D that differs from the run's is named.  Prints each\n"
	    "process's first operation its BEHAVIOUR does not allow and its\n"
	    "first message off its channels, then each channel's messages (or\n"
	    "'never used'), the pairs that talked without a channel, and the\n"
	    "verdict.  Exit status: 0 conforming, 1 not, 2 a bad trace or\n"
	    "script, a trace of another script, or an -np or -D not the run's.\n",
	.exec = trace_check_exec,
};
