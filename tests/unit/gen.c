/* gen.c -- random scripts for the checker's differential tests (gen.h):
 * behaviours of sends and receives of every mode, wildcards, requests,
 * collectives (over the application or a group), counted and endless
 * loops, choices and if/else on the index, on random channels between 2
 * to 5 processes. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

static uint64_t	rng;
static uint64_t	rng2;		/* the groups' draws (gen.h) */

/* (gen.h) */
void
gen_seed(uint64_t seed)
{
	rng = seed;
}

/* A number below n, the next of the sequence (a linear congruential
 * generator: the same on every machine, so a seed names a script). */
static unsigned
rnd(unsigned n)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)(rng >> 33) % n;
}

/* The same for the groups' draws. */
static unsigned
rnd2(unsigned n)
{
	rng2 = rng2 * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)(rng2 >> 33) % n;
}

/* A group process p is in, from a random one on; -1 if none. */
static int
group_of(const struct gen *g, int p)
{
	int	k, j, gr, first = (int)rnd2(GEN_MAX_GROUPS);

	for (k = 0; k < g->ngroups; k++) {
		gr = (first + k) % g->ngroups;
		for (j = 0; j < g->gn[gr]; j++)
			if (g->gmem[gr][j] == p)
				return gr;
	}
	return -1;
}

/* A random port of process p: its type *t and index *k. */
static void
port(struct gen *g, int p, int *t, int *k)
{
	do
		*t = (int)rnd((unsigned)strlen(g->types));
	while (g->ports[p][*t] == 0);
	*k = 1 + (int)rnd((unsigned)g->ports[p][*t]);
}

/* The name of process i, a collective's root. */
static void
root_name(const struct gen *g, int i, char *s, size_t len)
{
	if (!g->indexed)
		snprintf(s, len, "p%d", i);
	else if (i < g->n - (g->ports[1][3] > 0))
		snprintf(s, len, "w[%d]", i + 1);
	else
		snprintf(s, len, "m");
}

static void stmts(struct gen *, int p, int depth, int n);
static void stmt(struct gen *, int p, int depth);

/* The collectives, those without a root first; twin[k]: the plain form
 * of a v-form and the other way round (k: none), which MPI does not
 * match with it. */
static const char *const colls[] = { "barrier", "allreduce", "allgatherv",
    "alltoallv", "reducescatter", "bcast from", "scatter from", "reduce to",
    "gather to", "scatterv from", "gatherv to" };
static const int twin[] = { 0, 1, 2, 3, 4, 5, 9, 7, 10, 6, 8 };
#define NCOLLS		((unsigned)(sizeof(colls) / sizeof(colls[0])))
#define NUNROOTED	5

/* One random statement of sendrecv, named requests, wait, test,
 * waitany, waitsome, probe or iprobe of process p; each way through it
 * completes the requests it names. */
static void
p2p_stmt(struct gen *g, int p, int depth)
{
	static const char *const isends[] = { "isend", "issend", "ibsend" };
	const char		*types = g->types;
	int			 t, k, t2, k2, a, b, r = (int)rnd(13);

	port(g, p, &t, &k);
	port(g, p, &t2, &k2);
	a = ++g->names;
	b = ++g->names;
	switch (r) {
	case 0:
		buf_printf(&g->b, "sendrecv%s %c[%d], %c[%d]; ", rnd(2) ? "" :
		    " replace", types[t], k, types[t2], k2);
		break;
	case 1:
		buf_printf(&g->b, "%s %c[%d] as r%d; ", isends[rnd(3)], types[t],
		    k, a);
		if (rnd(2))
			buf_printf(&g->b, "%s %c[%d]; ", rnd(2) ? "send" : "recv",
			    types[t2], k2);
		buf_printf(&g->b, rnd(2) ? "wait r%d; " : "test r%d { } else "
		    "{ wait r%d; } ", a, a);
		break;
	case 2:
		if (rnd(2))
			buf_printf(&g->b, "irecv %c[%d] as r%d; ", types[t], k, a);
		else if (rnd(2))
			buf_printf(&g->b, "irecv any %c as r%d; ", types[t], a);
		else
			buf_printf(&g->b, "irecv any as r%d; ", a);
		buf_printf(&g->b, "%s %c[%d] as r%d; ", rnd(2) ? "isend" : "irecv",
		    types[t2], k2, b);
		buf_printf(&g->b, rnd(2) ? "waitany { on r%d { wait r%d; } on "
		    "r%d { wait r%d; } } " : "waitsome { on r%d { } on r%d { } } "
		    "waitall; ", a, b, b, a);
		g->requests = 0;
		break;
	case 3:
		buf_printf(&g->b, "probe %c[%d]; recv %c[%d]; ", types[t], k,
		    types[t], k);
		break;
	case 4:
		if (rnd(2))
			buf_adds(&g->b, "probe any; recv any; ");
		else
			buf_printf(&g->b, "probe any %c; recv any %c; ", types[t],
			    types[t]);
		break;
	case 5:
		buf_printf(&g->b, "iprobe %c[%d] { recv %c[%d]; } else { ",
		    types[t], k, types[t], k);
		if (depth < 2 && rnd(2)) {
			int	saved = g->requests;

			g->requests = 3;	/* (posts nothing) */
			stmt(g, p, depth + 1);
			g->requests = saved;
		}
		buf_adds(&g->b, "} ");
		break;
	case 6:
		/* A test in a loop: counted, or endless (a livelock when what
		 * it waits for never comes). */
		buf_printf(&g->b, "irecv %c[%d] as r%d; loop%s { test r%d { "
		    "send %c[%d]; irecv %c[%d] as r%d; } else { } } ", types[t],
		    k, a, rnd(3) ? " 2" : "", a, types[t2], k2, types[t], k, a);
		buf_printf(&g->b, "wait r%d; ", a);
		break;
	case 7:
		buf_printf(&g->b, "loop%s { iprobe any { recv any; } else { } } ",
		    rnd(2) ? " 3" : "");
		break;
	case 8:
		/* Tests round after round, then a wait: those after the one
		 * that completed it find it complete at once (endless: a
		 * livelock once it completed). */
		buf_printf(&g->b, "%s %c[%d] as r%d; ", rnd(2) ? "irecv" :
		    isends[rnd(3)], types[t], k, a);
		if (rnd(4) == 0)
			buf_printf(&g->b, "loop { test r%d { } else { } } ", a);
		else
			buf_printf(&g->b, "loop %u { test r%d { } else { } } wait "
			    "r%d; ", 1 + rnd(3), a, a);
		break;
	case 10:
		/* A probe that names the message it finds, and the receive of
		 * it, now and then with a statement between them. */
		if (rnd(2))
			buf_printf(&g->b, "probe any %c as m%d; ", types[t], a);
		else if (rnd(2))
			buf_printf(&g->b, "probe any as m%d; ", a);
		else
			buf_printf(&g->b, "probe %c[%d] as m%d; ", types[t], k, a);
		if (rnd(3) == 0)
			buf_printf(&g->b, "%s %c[%d]; ", rnd(2) ? "send" : "recv",
			    types[t2], k2);
		buf_printf(&g->b, "recv m%d; ", a);
		break;
	case 11:
		/* Poll once for a message, else block for one: either way one
		 * message is taken, from the port it was found on. */
		buf_printf(&g->b, "%s { iprobe any %c as m%d { recv m%d; } else "
		    "{ ", rnd(2) ? "loop 2" : "loop 1", types[t], a, a);
		if (rnd(2))
			buf_printf(&g->b, "probe any %c as m%d; recv m%d; ",
			    types[t], a, a);
		buf_adds(&g->b, "} } ");
		break;
	case 12:
		/* Poll for ever, taking what is found (no livelock while
		 * messages keep coming). */
		buf_printf(&g->b, "loop%s { iprobe any as m%d { recv m%d; } else "
		    "{ } } ", rnd(2) ? " 3" : "", a, a);
		break;
	default:
		buf_printf(&g->b, "irecv %c[%d] as r%d; iprobe %c[%d] { } else "
		    "{ } waitany { on r%d { } } ", types[t], k, a, types[t2], k2,
		    a);
		break;
	}
}

/* One random statement of process p. */
static void
stmt(struct gen *g, int p, int depth)
{
	static const char *const sends[] = { "send", "ssend", "bsend" };
	const char		*types = g->types;
	int			 t, k, r;
	char			 root[16];

	if (g->p2p && rnd(3) == 0) {
		p2p_stmt(g, p, depth);
		return;
	}
	r = (int)rnd(100);

	root_name(g, (int)rnd((unsigned)g->n), root, sizeof(root));

	if (r < 22) {
		port(g, p, &t, &k);
		buf_printf(&g->b, "%s %c[%d]; ", sends[rnd(3)], types[t], k);
	} else if (r < 44) {
		port(g, p, &t, &k);
		buf_printf(&g->b, "recv %c[%d]; ", types[t], k);
	} else if (r < 52) {
		port(g, p, &t, &k);
		if (rnd(2))
			buf_printf(&g->b, "recv any %c; ", types[t]);
		else
			buf_adds(&g->b, "recv any; ");
	} else if (r < 60 && g->requests < 3) {
		port(g, p, &t, &k);
		buf_printf(&g->b, "%s %c[%d]; ", rnd(2) ? "isend" : "irecv",
		    types[t], k);
		g->requests++;
	} else if (r < 64) {
		buf_adds(&g->b, "waitall; ");
		g->requests = 0;
	} else if (r < 72) {
		int	gr = g->ngroups > 0 && rnd2(2) ? group_of(g, p) : -1;
		char	over[24] = "";

		k = (int)rnd(NCOLLS);
		if (gr >= 0) {
			/* Over a group of p's, rooted at one of its members. */
			snprintf(over, sizeof(over), " over g%d", gr);
			root_name(g, g->gmem[gr][rnd2((unsigned)g->gn[gr])], root,
			    sizeof(root));
		}
		if (k < NUNROOTED)
			buf_printf(&g->b, "%s%s; ", colls[k], over);
		else
			buf_printf(&g->b, "%s %s%s; ", colls[k], root, over);
	} else if (r < 84 && depth < 2) {
		int	saved = g->requests;

		/* A loop's body completes what it posts. */
		g->requests = 3;
		if (rnd(4) == 0)
			buf_adds(&g->b, "loop { ");
		else
			buf_printf(&g->b, "loop %u { ", 2 + rnd(2));
		stmts(g, p, depth + 1, 1 + (int)rnd(3));
		buf_adds(&g->b, "waitall; } ");
		g->requests = saved;
	} else if (depth < 2) {
		int	saved = g->requests;

		g->requests = 3;
		buf_adds(&g->b, "choice { ");
		stmts(g, p, depth + 1, 1 + (int)rnd(2));
		buf_adds(&g->b, "waitall; } or { ");
		stmts(g, p, depth + 1, 1 + (int)rnd(2));
		buf_adds(&g->b, "waitall; } ");
		g->requests = saved;
	} else {
		port(g, p, &t, &k);
		buf_printf(&g->b, "send %c[%d]; ", types[t], k);
	}
}

/* n random statements of process p. */
static void
stmts(struct gen *g, int p, int depth, int n)
{
	while (n-- > 0)
		stmt(g, p, depth);
}

/* A channel's end at process p: its type letter and index. */
struct end {
	int		 p, t, k;
};

static int		 nchan;
static struct end	 chans[GEN_MAX_PROCS + 2][2];

/* Groups now and then, from the groups' own sequence (gen.h): each of
 * 1 to n random processes in a random order. */
static void
groups(struct gen *g)
{
	int	k, i, j, t, perm[GEN_MAX_PROCS];

	rng2 = rng ^ 0x9e3779b97f4a7c15ULL;
	g->ngroups = rnd2(3) == 0 || g->always_groups ?
	    1 + (int)rnd2(GEN_MAX_GROUPS) : 0;
	for (k = 0; k < g->ngroups; k++) {
		for (i = 0; i < g->n; i++)
			perm[i] = i;
		for (i = g->n - 1; i > 0; i--) {
			j = (int)rnd2((unsigned)i + 1);
			t = perm[i];
			perm[i] = perm[j];
			perm[j] = t;
		}
		g->gn[k] = 1 + (int)rnd2((unsigned)g->n);
		memcpy(g->gmem[k], perm, sizeof(int) * (size_t)g->gn[k]);
	}
}

/* Random processes (2 to g->maxprocs) and channels: a chain that joins
 * them all, then a few more between random pairs (two between the same
 * pair now and then). */
static void
topology(struct gen *g)
{
	int	c, e;

	memset(g->ports, 0, sizeof(g->ports));
	g->types = "PQ";
	g->indexed = 0;
	g->n = 2 + (int)rnd((unsigned)g->maxprocs - 1);
	nchan = g->n - 1 + (int)rnd(3);
	for (c = 0; c < nchan; c++) {
		chans[c][0].p = c < g->n - 1 ? c : (int)rnd((unsigned)g->n);
		do
			chans[c][1].p = c < g->n - 1 ? c + 1 : (int)rnd((unsigned)g->n);
		while (chans[c][1].p == chans[c][0].p);
		for (e = 0; e < 2; e++) {
			chans[c][e].t = (int)rnd(2);
			chans[c][e].k = ++g->ports[chans[c][e].p][chans[c][e].t];
		}
	}
	groups(g);
}

/* The script's parts up to its BEHAVIOUR line, into g->b. */
static void
header(struct gen *g, const char *name)
{
	int	i, c;

	buf_reset(&g->b);
	buf_printf(&g->b, "application %s;\nPCG\nComponents\n", name);
	for (i = 0; i < g->n; i++)
		buf_printf(&g->b, "    p%d : P, Q;\n", i);
	buf_adds(&g->b, "Processes\n");
	for (i = 0; i < g->n; i++)
		buf_printf(&g->b, "    p%d : P[%d], Q[%d];\n", i, g->ports[i][0],
		    g->ports[i][1]);
	buf_adds(&g->b, "Channels\n");
	for (c = 0; c < nchan; c++)
		buf_printf(&g->b, "    p%d.%c[%d] <-> p%d.%c[%d];\n", chans[c][0].p,
		    "PQ"[chans[c][0].t], chans[c][0].k, chans[c][1].p,
		    "PQ"[chans[c][1].t], chans[c][1].k);
	if (g->ngroups > 0)
		buf_adds(&g->b, "Groups\n");
	for (i = 0; i < g->ngroups; i++) {
		buf_printf(&g->b, "    g%d :", i);
		for (c = 0; c < g->gn[i]; c++)
			buf_printf(&g->b, "%s p%d", c ? "," : "", g->gmem[i][c]);
		buf_adds(&g->b, ";\n");
	}
	buf_adds(&g->b, "BEHAVIOUR\n");
}

/* A random script into g->b: statements made at random. */
void
gen_script(struct gen *g)
{
	int	i;

	topology(g);
	header(g, "random");
	for (i = 0; i < g->n; i++) {
		buf_printf(&g->b, "    p%d { ", i);
		g->requests = 0;
		stmts(g, i, 0, 1 + (int)rnd(4));
		buf_adds(&g->b, "waitall; }\n");
	}
}

/* ---- protocols: scripts that are mostly right ---- */

/* Top-level statements of each process, each a string. */
struct proto {
	char		*st[GEN_MAX_PROCS][64];
	int		 n[GEN_MAX_PROCS];
};

static void
add(struct proto *pr, int p, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* One more top-level statement of process p (up to 64). */
static void
add(struct proto *pr, int p, const char *fmt, ...)
{
	va_list	ap;

	if (pr->n[p] >= 64)
		return;
	va_start(ap, fmt);
	xvasprintf(&pr->st[p][pr->n[p]++], fmt, ap);
	va_end(ap);
}

/* Free a protocol's statements, leaving it empty. */
static void
proto_free(struct proto *pr)
{
	for (int p = 0; p < GEN_MAX_PROCS; p++)
		for (int k = 0; k < pr->n[p]; k++)
			free(pr->st[p][k]);
	memset(pr, 0, sizeof(*pr));
}

/* A step of x and y, the two ends of a channel, with sendrecv, named
 * requests, wait, test, waitany, probe or iprobe: an exchange, a message
 * probed before it is taken, requests named and waited. */
static void
p2p_step(struct gen *g, struct proto *pr, const struct end *x,
    const struct end *y)
{
	char	X = "PQ"[x->t], Y = "PQ"[y->t];
	int	a = ++g->names, b = ++g->names;

	switch (rnd(8)) {
	case 6:
		/* y finds x's message by a probe that names it. */
		add(pr, x->p, rnd(2) ? "send %c[%d];" : "ssend %c[%d];", X, x->k);
		if (rnd(2))
			add(pr, y->p, "probe any as m%d; recv m%d;", b, b);
		else
			add(pr, y->p, "probe %c[%d] as m%d; recv m%d;", Y, y->k, b,
			    b);
		break;
	case 7:
		/* Poll once, else block: one message taken either way. */
		add(pr, x->p, "send %c[%d];", X, x->k);
		add(pr, y->p, "iprobe any as m%d { recv m%d; } else { probe any "
		    "as m%d; recv m%d; }", b, b, b, b);
		break;
	case 0:
		add(pr, x->p, "sendrecv %c[%d], %c[%d];", X, x->k, X, x->k);
		if (rnd(3))
			add(pr, y->p, "sendrecv%s %c[%d], %c[%d];", rnd(2) ? "" :
			    " replace", Y, y->k, Y, y->k);
		else
			add(pr, y->p, "recv %c[%d]; send %c[%d];", Y, y->k, Y, y->k);
		break;
	case 1:
		add(pr, x->p, "send %c[%d];", X, x->k);
		add(pr, y->p, rnd(2) ? "probe %c[%d]; recv %c[%d];" :
		    "probe any; recv any;", Y, y->k, Y, y->k);
		break;
	case 2:
		add(pr, x->p, "isend %c[%d] as r%d; wait r%d;", X, x->k, a, a);
		add(pr, y->p, "irecv %c[%d] as r%d; test r%d { } else { wait "
		    "r%d; }", Y, y->k, b, b, b);
		break;
	case 3:
		add(pr, x->p, "ssend %c[%d];", X, x->k);
		add(pr, y->p, "iprobe %c[%d] { recv %c[%d]; } else { recv "
		    "%c[%d]; }", Y, y->k, Y, y->k, Y, y->k);
		break;
	case 4:
		add(pr, x->p, "issend %c[%d] as r%d; waitany { on r%d { } }", X,
		    x->k, a, a);
		add(pr, y->p, "irecv any as r%d; waitsome { on r%d { } }", b, b);
		break;
	default:
		/* y polls for the message in a counted loop, then takes it. */
		add(pr, x->p, "send %c[%d];", X, x->k);
		add(pr, y->p, "loop %d { iprobe %c[%d] { } else { } } recv %c[%d];",
		    1 + (int)rnd(3), Y, y->k, Y, y->k);
		break;
	}
}

/* Steps every process takes its part in: a message on a channel (the
 * receiver by port or by wildcard), a collective, a loop of steps, a
 * choice of two messages to one receiver that takes either. */
static void
steps(struct gen *g, struct proto *pr, int n, int depth)
{
	static const char *const sends[] = { "send", "ssend", "bsend" };

	while (n-- > 0) {
		int	r = (int)rnd(100), c = (int)rnd((unsigned)nchan), d = (int)rnd(2);
		struct end *x = &chans[c][d], *y = &chans[c][1 - d];

		if (g->p2p && r < 30) {
			p2p_step(g, pr, x, y);
			continue;
		}
		if (r < 55) {
			if (rnd(5) == 0) {
				add(pr, x->p, "isend %c[%d];", "PQ"[x->t], x->k);
				add(pr, x->p, "waitall;");
			} else
				add(pr, x->p, "%s %c[%d];", sends[rnd(3)], "PQ"[x->t], x->k);
			if (rnd(4) == 0)
				add(pr, y->p, rnd(2) ? "recv any;" : "recv any %c;",
				    "PQ"[y->t]);
			else if (rnd(5) == 0) {
				add(pr, y->p, "irecv %c[%d];", "PQ"[y->t], y->k);
				add(pr, y->p, "waitall;");
			} else
				add(pr, y->p, "recv %c[%d];", "PQ"[y->t], y->k);
		} else if (r < 70) {
			int	k = (int)rnd(NCOLLS), root = (int)rnd((unsigned)g->n);
			int	odd = rnd(10) == 0 ? (int)rnd((unsigned)g->n) : -1;
			int	gr = g->ngroups > 0 && rnd2(2) ? (int)rnd2(
				    (unsigned)g->ngroups) : -1, in = 1;
			char	over[24] = "";

			if (gr >= 0) {
				/* Over a group: its members take part, the
				 * root one of them. */
				snprintf(over, sizeof(over), " over g%d", gr);
				root = g->gmem[gr][rnd2((unsigned)g->gn[gr])];
			}
			/* Now and then one process calls the twin (gather
			 * against gatherv): a collective mismatch. */
			for (int p = 0; p < g->n; p++) {
				int	kp = p == odd ? twin[k] : k;

				for (int j = 0; gr >= 0 && j < g->gn[gr]; j++)
					if ((in = g->gmem[gr][j] == p))
						break;
				if (!in)
					continue;
				if (kp < NUNROOTED)
					add(pr, p, "%s%s;", colls[kp], over);
				else
					add(pr, p, "%s p%d%s;", colls[kp], root, over);
			}
		} else if (r < 85 && depth == 0) {
			struct proto	 in;
			int		 count = rnd(6) == 0 ? -1 : 2 + (int)rnd(2);

			memset(&in, 0, sizeof(in));
			steps(g, &in, 1 + (int)rnd(2), depth + 1);
			for (int p = 0; p < g->n; p++) {
				struct buf	b;

				if (in.n[p] == 0)
					continue;
				buf_init(&b);
				if (count < 0)
					buf_adds(&b, "loop {");
				else
					buf_printf(&b, "loop %d {", count);
				for (int k = 0; k < in.n[p]; k++)
					buf_printf(&b, " %s", in.st[p][k]);
				buf_adds(&b, " }");
				add(pr, p, "%s", b.s);
				buf_free(&b);
			}
			proto_free(&in);
			if (count < 0)
				return;	/* nothing after an endless loop */
		} else {
			/* x sends on one of two channels to y, which takes any. */
			int	c2 = (int)rnd((unsigned)nchan), d2;
			struct end *x2;

			for (d2 = 0; d2 < 2 && chans[c2][d2].p != x->p; d2++)
				;
			if (d2 == 2 || chans[c2][1 - d2].p != y->p || c2 == c) {
				add(pr, x->p, "send %c[%d];", "PQ"[x->t], x->k);
				add(pr, y->p, "recv any;");
				continue;
			}
			x2 = &chans[c2][d2];
			add(pr, x->p, "choice { send %c[%d]; } or { %s %c[%d]; }",
			    "PQ"[x->t], x->k, sends[rnd(3)], "PQ"[x2->t], x2->k);
			add(pr, y->p, "recv any;");
		}
	}
}

/* A counted loop *st ("loop N { ... }") that drifts: one round more or
 * less than the others' (the checker must tell what a process can still
 * send from its counter); any other statement stays. */
static void
drift(char **st)
{
	char	*t, *d;
	int	 c;

	if (sscanf(*st, "loop %d {", &c) != 1 || (t = strchr(*st, '{')) == NULL)
		return;
	c += c > 1 && rnd(2) ? -1 : 1;
	xasprintf(&d, "loop %d %s", c, t);
	free(*st);
	*st = d;
}

/* A protocol script into g->b: steps every process agrees on, then now
 * and then a process's statements changed, once or twice (one left out,
 * two swapped, one twice, a counted loop one round longer or shorter). */
void
gen_protocol(struct gen *g)
{
	struct proto	 pr;
	int		 i, k, m;

	memset(&pr, 0, sizeof(pr));
	topology(g);
	steps(g, &pr, 2 + (int)rnd(5), 0);
	/* One change in 4 of 10 protocols, a second in a third of those. */
	for (m = rnd(10) < 4 ? 1 + (rnd(3) == 0) : 0; m > 0; m--) {
		int	p = (int)rnd((unsigned)g->n), n = pr.n[p];
		char	*t;

		k = n > 0 ? (int)rnd((unsigned)n) : 0;
		switch (n == 0 ? 4 : rnd(4)) {
		case 0:
			free(pr.st[p][k]);
			memmove(&pr.st[p][k], &pr.st[p][k + 1], sizeof(char *) * (n - k - 1));
			pr.n[p]--;
			break;
		case 1:
			if (k + 1 < n) {
				t = pr.st[p][k];
				pr.st[p][k] = pr.st[p][k + 1];
				pr.st[p][k + 1] = t;
			}
			break;
		case 2:
			add(&pr, p, "%s", pr.st[p][k]);
			break;
		case 3:
			drift(&pr.st[p][k]);
			break;
		default:
			break;
		}
	}
	/* Now and then loops drift in several processes at once: each of
	 * their counted loops one round longer or shorter, or not. */
	if (rnd(5) == 0)
		for (i = 0; i < g->n; i++)
			for (k = 0; k < pr.n[i]; k++)
				if (rnd(2) == 0)
					drift(&pr.st[i][k]);
	header(g, "protocol");
	for (i = 0; i < g->n; i++) {
		buf_printf(&g->b, "    p%d {", i);
		for (k = 0; k < pr.n[i]; k++)
			buf_printf(&g->b, " %s", pr.st[i][k]);
		buf_adds(&g->b, " }\n");
	}
	proto_free(&pr);
}

/* (gen.h) */
void
gen_p2p(struct gen *g)
{
	g->p2p = 1;
	g->names = 0;
	if (rnd(4) == 0)
		gen_indexed(g);	/* a ring: rotations (symm.c) */
	else if (rnd(2))
		gen_script(g);
	else
		gen_protocol(g);
	g->p2p = 0;
}

/* One condition on a process's index among 1..n. */
static void
condition(struct gen *g, int n)
{
	switch (rnd(3)) {
	case 0:
		buf_printf(&g->b, "index == %u", 1 + rnd((unsigned)n));
		break;
	case 1:
		buf_adds(&g->b, "index % 2 == 0");
		break;
	default:
		buf_printf(&g->b, "index < %u", 2 + rnd((unsigned)n - 1));
		break;
	}
}

/* Statements of w (p = 0) or m (p = 1), each way through them
 * completing what it posts. */
static void
body(struct gen *g, int p)
{
	g->requests = 0;
	stmts(g, p, 0, 1 + (int)rnd(3));
	buf_adds(&g->b, "waitall; ");
}

/* A farm: m hands each worker a task and collects the results with
 * wildcards (one too few or too many now and then), the workers answer
 * in any send mode, after random statements of their own now and then;
 * the wildcard runs the checker takes in one order (bags, pools). */
static void
farm(struct gen *g, int nw)
{
	static const char *const sends[] = { "send", "ssend", "bsend", "isend" };
	int	k, rounds = 1 + (int)rnd(2), results = nw;

	buf_adds(&g->b, "    w { ");
	if (rounds > 1)
		buf_printf(&g->b, "loop %d { ", rounds);
	buf_adds(&g->b, "recv M[1]; ");
	if (rnd(3) == 0) {
		buf_adds(&g->b, "if ");
		condition(g, nw);
		buf_adds(&g->b, " { ");
		body(g, 0);
		buf_adds(&g->b, "} ");
	}
	buf_printf(&g->b, "%s M[1]; waitall; ", sends[rnd(4)]);
	if (rounds > 1)
		buf_adds(&g->b, "} ");
	buf_adds(&g->b, "}\n    m { ");
	if (rounds > 1)
		buf_printf(&g->b, "loop %d { ", rounds);
	if (rnd(5) == 0)
		results += rnd(2) ? 1 : -1;
	for (k = 1; k <= nw; k++)
		buf_printf(&g->b, "%s W[%d]; ", rnd(4) ? "send" : "isend", k);
	for (k = 0; k < results; k++)
		buf_printf(&g->b, "%s; ", rnd(4) ? "recv any W" : "recv any");
	buf_adds(&g->b, "waitall; ");
	if (rounds > 1)
		buf_adds(&g->b, "} ");
	buf_adds(&g->b, "}\n");
}

/* (gen.h) */
void
gen_indexed(struct gen *g)
{
	int	nw, master;

	memset(g->ports, 0, sizeof(g->ports));
	g->types = "LRMW";
	g->indexed = 1;
	g->ngroups = 0;
	master = g->maxprocs > 2 && rnd(2) == 0;
	nw = 2 + (int)rnd((unsigned)(g->maxprocs - 1 - master));
	g->n = nw + master;
	g->ports[0][0] = g->ports[0][1] = 1;
	if (master)
		g->ports[0][2] = 1, g->ports[1][3] = nw;
	buf_reset(&g->b);
	buf_printf(&g->b, "application indexed;\nPCG\nComponents\n"
	    "    w : L, R%s;\n", master ? ", M" : "");
	if (master)
		buf_adds(&g->b, "    m : W;\n");
	buf_printf(&g->b, "Processes\n    w[1..%d] : L[1], R[1]%s;\n", nw,
	    master ? ", M[1]" : "");
	if (master)
		buf_printf(&g->b, "    m : W[%d];\n", nw);
	buf_printf(&g->b, "Channels\n    w[i].R[1] <-> w[i %% %d + 1].L[1] "
	    "for i in 1..%d;\n", nw, nw);
	if (master)
		buf_printf(&g->b, "    m.W[i] <-> w[i].M[1] for i in 1..%d;\n",
		    nw);
	buf_adds(&g->b, "BEHAVIOUR\n");
	if (master && rnd(3) != 0) {
		farm(g, nw);
		return;
	}
	buf_adds(&g->b, "    w { ");
	if (rnd(g->p2p ? 2 : 4) == 0)
		body(g, 0);	/* the same for every w: symmetric */
	else {
		buf_adds(&g->b, "if ");
		condition(g, nw);
		buf_adds(&g->b, " { ");
		body(g, 0);
		if (rnd(3) == 0) {
			buf_adds(&g->b, "} else if ");
			condition(g, nw);
			buf_adds(&g->b, " { ");
			body(g, 0);
		}
		buf_adds(&g->b, "} else { ");
		body(g, 0);
		buf_adds(&g->b, "} ");
	}
	buf_adds(&g->b, "}\n");
	if (master) {
		buf_adds(&g->b, "    m { ");
		body(g, 1);
		buf_adds(&g->b, "}\n");
	}
}

/* Text [s, e) into out with every counted loop written out, inner ones
 * first; the number of loops written out. */
static int
unroll(const char *s, const char *e, struct buf *out)
{
	struct buf	 body;
	const char	*p, *b;
	long		 n, k;
	int		 depth, loops = 0;
	char		*end;

	while (s < e) {
		if (strncmp(s, "loop ", 5) != 0 || s + 5 >= e ||
		    (s[5] < '0' || s[5] > '9') ||
		    (n = strtol(s + 5, &end, 10), strncmp(end, " {", 2) != 0)) {
			buf_addc(out, *s++);
			continue;
		}
		b = end + 2;
		for (p = b, depth = 1; p < e && depth > 0; p++)
			depth += *p == '{' ? 1 : *p == '}' ? -1 : 0;
		/* b..p-1 is the body and its closing brace. */
		buf_init(&body);
		loops += 1 + unroll(b, p - 1, &body);
		for (k = 0; k < n; k++) {
			if (body.len > 0)
				buf_add(out, body.s, body.len);
			buf_addc(out, ' ');
		}
		buf_free(&body);
		s = p;
	}
	return loops;
}

/* (gen.h) */
int
gen_unroll(const char *script, struct buf *out)
{
	buf_reset(out);
	return unroll(script, script + strlen(script), out);
}

/* ---- loops that drift ---- */

/* (gen.h) */
void
gen_loops(struct gen *g)
{
	static const char *const sends[] = { "send", "ssend", "bsend" };
	int	n = 2 + (int)rnd((unsigned)g->maxprocs - 2), rounds = 1 + (int)rnd(3);
	int	i, k, c, nested = rnd(4) == 0, reverse = rnd(4) == 0;

	/* A hub h joined to leaves l[1..n] by one channel each; the hub's
	 * counted loop goes to every leaf in an order of its own, each
	 * leaf's loop takes its part, one round more or less than the
	 * hub's now and then. */
	memset(g->ports, 0, sizeof(g->ports));
	g->types = "P";
	g->indexed = 0;
	g->ngroups = 0;
	g->n = n + 1;
	buf_reset(&g->b);
	buf_printf(&g->b, "application loops;\nPCG\nComponents\n"
	    "    h : P;\n    l : P;\nProcesses\n    h : P[%d];\n"
	    "    l[1..%d] : P[1];\nChannels\n"
	    "    h.P[i] <-> l[i].P[1] for i in 1..%d;\nBEHAVIOUR\n"
	    "    h { loop %d { ", n, n, n, rounds);
	if (nested)
		buf_adds(&g->b, "loop 2 { ");
	for (i = 0; i < n; i++) {
		k = 1 + (i + (int)rnd((unsigned)n)) % n;
		if (reverse)
			buf_printf(&g->b, "%s; ", rnd(2) ? "recv any" : "recv P[1]");
		else
			buf_printf(&g->b, "%s P[%d]; ", sends[rnd(3)], k);
	}
	buf_adds(&g->b, nested ? "} } }\n    l { " : "} }\n    l { ");
	for (i = 1; i <= n; i++) {
		c = rounds * (nested ? 2 : 1);
		if (rnd(3) == 0)
			c += c > 1 && rnd(2) ? -1 : 1;
		buf_printf(&g->b, "if index == %d { loop %d { %s } } ", i, c,
		    reverse ? (rnd(2) ? "send P[1];" : "ssend P[1];") :
		    rnd(3) ? "recv P[1];" : "irecv P[1]; waitall;");
	}
	buf_adds(&g->b, "}\n");
}

/* ---- interchangeable processes ---- */

/* One statement of a process with one port X[1] (a client, a pair's
 * member) or, hub != 0, of a hub over all its ports X[1..n] through
 * wildcards only (a hub that names one port now and then breaks the
 * symmetry, which the checker must then see). */
static void
sym_stmt(struct gen *g, char x, int hub, int depth)
{
	static const char *const sends[] = { "send", "ssend", "bsend" };
	int	r = (int)rnd(hub ? 14 : 16), a = ++g->names;

	switch (r) {
	case 0:
	case 1:
		if (hub)
			buf_printf(&g->b, "recv any %c; ", x);
		else
			buf_printf(&g->b, "%s %c[1]; ", sends[rnd(3)], x);
		break;
	case 2:
		if (hub)
			buf_printf(&g->b, "loop ports(%c) { recv any %c; } ", x, x);
		else
			buf_printf(&g->b, "recv %c[1]; ", x);
		break;
	case 3:
		buf_printf(&g->b, "irecv%s %c%s; waitall; ", hub ? " any" : "",
		    x, hub ? "" : "[1]");
		break;
	case 4:
		if (hub)
			buf_printf(&g->b, "probe any %c as m%d; recv m%d; ", x, a, a);
		else
			buf_printf(&g->b, "%s %c[1]; waitall; ", rnd(2) ?
			    "isend" : "issend", x);
		break;
	case 5:
		buf_printf(&g->b, "iprobe%s %c%s as m%d { recv m%d; } else { } ",
		    " any", x, "", a, a);
		break;
	case 6:
		buf_printf(&g->b, "irecv%s %c%s as r%d; loop %u { test r%d { } "
		    "else { } } wait r%d; ", hub ? " any" : "", x, hub ? "" : "[1]",
		    a, 1 + rnd(2), a, a);
		break;
	case 7:
		if (rnd(4) == 0) {
			buf_adds(&g->b, "barrier; ");
			break;
		}
		/* FALLTHROUGH */
	case 8:
		if (depth < 2) {
			if (rnd(4) == 0)
				buf_adds(&g->b, "loop { ");
			else
				buf_printf(&g->b, "loop %u { ", 1 + rnd(3));
			sym_stmt(g, x, hub, depth + 1);
			if (rnd(2))
				sym_stmt(g, x, hub, depth + 1);
			buf_adds(&g->b, "} ");
			break;
		}
		/* FALLTHROUGH */
	case 9:
		if (depth < 2) {
			buf_adds(&g->b, "choice { ");
			sym_stmt(g, x, hub, depth + 1);
			buf_adds(&g->b, "} or { ");
			sym_stmt(g, x, hub, depth + 1);
			buf_adds(&g->b, "} ");
			break;
		}
		/* FALLTHROUGH */
	case 10:
		if (hub)
			buf_printf(&g->b, "irecv any %c as r%d; irecv any %c as r%d; "
			    "waitany { on r%d { wait r%d; } on r%d { wait r%d; } } ",
			    x, a, x, a + 100, a, a + 100, a + 100, a);
		else
			buf_printf(&g->b, "probe %c[1]; recv %c[1]; ", x, x);
		break;
	case 11:
		if (hub && rnd(3) == 0)
			buf_printf(&g->b, "send %c[1]; ", x);	/* (not alike) */
		else if (hub)
			buf_printf(&g->b, "send %c[*]; ", x);	/* (in order) */
		else
			buf_printf(&g->b, "sendrecv %c[1], %c[1]; ", x, x);
		break;
	default:
		if (hub)
			buf_printf(&g->b, "recv any %c; ", x);
		else
			buf_printf(&g->b, "%s %c[1]; ", rnd(2) ? "recv" :
			    sends[rnd(3)], x);
		break;
	}
}

/* A protocol of interchangeable clients c[1..n] (pairs, exchanging
 * first, when 'pairs') and the hub: rounds (counted, or for ever) of a
 * message from each client, sent as it chooses or in one mode, which the
 * hub takes by wildcards, one too few or too many now and then. */
static void
symm_protocol(struct gen *g, int n, int pairs)
{
	static const char *const sends[] = { "send", "ssend", "bsend", "isend" };
	static const char *const takes[] = { "recv any X; ",
	    "probe any X as m; recv m; ", "irecv any X; waitall; ",
	    "iprobe any X as m { recv m; } else { probe any X as m; recv m; } " };
	int	rounds = rnd(4) == 0 ? -1 : 1 + (int)rnd(2), k, t, results = n;

	if (rounds < 0)
		buf_adds(&g->b, "loop { ");
	else if (rounds > 1)
		buf_printf(&g->b, "loop %d { ", rounds);
	if (pairs)
		buf_adds(&g->b, rnd(2) ? "if index % 2 == 1 { send P[1]; } else "
		    "{ recv P[1]; } " : "sendrecv P[1], P[1]; ");
	if (rnd(2))
		buf_printf(&g->b, "choice { %s X[1]; } or { %s X[1]; } ",
		    sends[rnd(4)], sends[rnd(4)]);
	else
		buf_printf(&g->b, "%s X[1]; ", sends[rnd(4)]);
	buf_adds(&g->b, "waitall; ");
	if (rounds != 1)
		buf_adds(&g->b, "} ");
	buf_adds(&g->b, "}\n    h { ");
	if (rounds < 0)
		buf_adds(&g->b, "loop { ");
	else if (rounds > 1)
		buf_printf(&g->b, "loop %d { ", rounds);
	if (rnd(5) == 0)
		results += rnd(2) ? 1 : -1;
	t = (int)rnd(4);
	if (rnd(2) && results == n)
		buf_printf(&g->b, "loop ports(X) { %s} ", takes[t]);
	else
		for (k = 0; k < results; k++)
			buf_adds(&g->b, takes[rnd(3) ? t : (int)rnd(4)]);
	if (rounds != 1)
		buf_adds(&g->b, "} ");
	buf_adds(&g->b, "}\n");
}

/* (gen.h) */
void
gen_symm(struct gen *g)
{
	int	k, pairs = rnd(3) == 0, hub = !pairs || rnd(2), n, i;

	memset(g->ports, 0, sizeof(g->ports));
	g->types = "X";
	g->indexed = 0;
	g->ngroups = 0;
	g->names = 0;
	k = 2 + (int)rnd(pairs ? 1 : (unsigned)g->maxprocs - 2);
	n = pairs ? 2 * k : k;
	g->n = n + hub;
	buf_reset(&g->b);
	buf_printf(&g->b, "application symm;\nPCG\nComponents\n"
	    "    c : X%s;\n", pairs ? ", P" : "");
	if (hub)
		buf_adds(&g->b, "    h : X;\n");
	buf_printf(&g->b, "Processes\n    c[1..%d] : X[%d]%s;\n", n,
	    hub ? 1 : 0, pairs ? ", P[1]" : "");
	if (hub)
		buf_printf(&g->b, "    h : X[%d];\n", n);
	buf_adds(&g->b, "Channels\n");
	if (hub)
		buf_printf(&g->b, "    h.X[i] <-> c[i].X[1] for i in 1..%d;\n", n);
	if (pairs)
		buf_printf(&g->b, "    c[2 * i - 1].P[1] <-> c[2 * i].P[1] for i "
		    "in 1..%d;\n", k);
	buf_adds(&g->b, "BEHAVIOUR\n    c { ");
	if (hub && rnd(2)) {
		symm_protocol(g, n, pairs);
		return;
	}
	for (i = 0; i < (pairs ? 2 : 1); i++) {
		if (pairs)
			buf_adds(&g->b, i == 0 ? "if index % 2 == 1 { " :
			    "else { ");
		else if (rnd(6) == 0)
			buf_adds(&g->b, "if index == 1 { recv X[1]; } ");
		k = 1 + (int)rnd(3);
		while (k-- > 0)
			sym_stmt(g, pairs && (!hub || rnd(2)) ? 'P' : 'X', 0, 0);
		if (pairs)
			buf_adds(&g->b, "} ");
	}
	buf_adds(&g->b, "}\n");
	if (hub) {
		buf_adds(&g->b, "    h { ");
		k = 1 + (int)rnd(3);
		while (k-- > 0)
			sym_stmt(g, 'X', 1, 0);
		buf_adds(&g->b, "}\n");
	}
}
