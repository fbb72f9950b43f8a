/* test-kinds.c -- random scripts, each checked with reductions (stubborn
 * sets, pools, bags, the single run) and with --exact, in both send modes:
 * the verdict and the kind of violation must be the same (ensemble(1):
 * the verdict names the worst kind any reachable state shows, whatever
 * the engine).  Scripts have 2 to 4 processes on random channels (two
 * between the same pair now and then, for MPI_ANY_SOURCE's order), and
 * behaviours of sends and receives of every mode, wildcards, requests,
 * collectives, counted and endless loops and choices.  TAP output; a
 * disagreement prints the script.
 *
 * usage: test-kinds [-n SCRIPTS] [-s SEED] [-v] [-p N]
 * -v prints every script, -p N prints script N only. */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "mpnet.h"
#include "parse.h"
#include "pcg.h"
#include "xmalloc.h"

#define MAX_PROCS	4
#define MAX_STATES	50000

static uint64_t	rng;

static unsigned
rnd(unsigned n)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)(rng >> 33) % n;
}

struct gen {
	struct buf	 b;
	int		 n;		/* processes */
	int		 ports[MAX_PROCS][2];	/* P and Q ports of each */
	int		 requests;	/* posted since the last waitall */
};

static void
port(struct gen *g, int p, int *t, int *k)
{
	do
		*t = (int)rnd(2);
	while (g->ports[p][*t] == 0);
	*k = 1 + (int)rnd((unsigned)g->ports[p][*t]);
}

static void stmts(struct gen *, int p, int depth, int n);

/* One random statement of process p. */
static void
stmt(struct gen *g, int p, int depth)
{
	static const char *const sends[] = { "send", "ssend", "bsend" };
	static const char *const types = "PQ";
	int			 t, k, r = (int)rnd(100), root = (int)rnd((unsigned)g->n);

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
		switch (rnd(6)) {
		case 0:
			buf_adds(&g->b, "barrier; ");
			break;
		case 1:
			buf_adds(&g->b, "allreduce; ");
			break;
		case 2:
			buf_printf(&g->b, "bcast from p%d; ", root);
			break;
		case 3:
			buf_printf(&g->b, "scatter from p%d; ", root);
			break;
		case 4:
			buf_printf(&g->b, "reduce to p%d; ", root);
			break;
		default:
			buf_printf(&g->b, "gather to p%d; ", root);
			break;
		}
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
static struct end	 chans[MAX_PROCS + 2][2];

/* Random processes (2 to MAX_PROCS) and channels: a chain that joins
 * them all, then a few more between random pairs (two between the same
 * pair now and then). */
static void
topology(struct gen *g)
{
	int	c, e;

	memset(g->ports, 0, sizeof(g->ports));
	g->n = 2 + (int)rnd(MAX_PROCS - 1);
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
	buf_adds(&g->b, "BEHAVIOUR\n");
}

/* A random script into g->b: statements made at random. */
static void
script(struct gen *g)
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

/* The script as TAP diagnostics, a "# " before each line. */
static void
diag_script(const char *s)
{
	const char	*nl;

	for (; *s != '\0'; s = nl + 1) {
		if ((nl = strchr(s, '\n')) == NULL)
			nl = s + strlen(s) - 1;
		printf("# %.*s\n", (int)(nl - s), s);
	}
}

/* ---- protocols: scripts that are mostly right ---- */

/* Top-level statements of each process, each a string. */
struct proto {
	char		*st[MAX_PROCS][64];
	int		 n[MAX_PROCS];
};

static void
add(struct proto *pr, int p, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

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

static void
proto_free(struct proto *pr)
{
	for (int p = 0; p < MAX_PROCS; p++)
		for (int k = 0; k < pr->n[p]; k++)
			free(pr->st[p][k]);
	memset(pr, 0, sizeof(*pr));
}

/* Steps every process takes its part in: a message on a channel (the
 * receiver by port or by wildcard), a collective, a loop of steps, a
 * choice of two messages to one receiver that takes either. */
static void
steps(struct gen *g, struct proto *pr, int n, int depth)
{
	static const char *const sends[] = { "send", "ssend", "bsend" };
	static const char *const colls[] = { "barrier", "allreduce", "bcast from",
	    "scatter from", "reduce to", "gather to" };

	while (n-- > 0) {
		int	r = (int)rnd(100), c = (int)rnd((unsigned)nchan), d = (int)rnd(2);
		struct end *x = &chans[c][d], *y = &chans[c][1 - d];

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
			int	k = (int)rnd(6), root = (int)rnd((unsigned)g->n);

			for (int p = 0; p < g->n; p++) {
				if (k < 2)
					add(pr, p, "%s;", colls[k]);
				else
					add(pr, p, "%s p%d;", colls[k], root);
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

/* A protocol script into g->b: steps every process agrees on, then now
 * and then one process's statements changed (one left out, two swapped,
 * one twice). */
static void
protocol(struct gen *g)
{
	struct proto	 pr;
	int		 i, k;

	memset(&pr, 0, sizeof(pr));
	topology(g);
	steps(g, &pr, 2 + (int)rnd(5), 0);
	if (rnd(10) < 4) {
		int	p = (int)rnd((unsigned)g->n), n = pr.n[p];
		char	*t;

		k = n > 0 ? (int)rnd((unsigned)n) : 0;
		switch (n == 0 ? 3 : rnd(3)) {
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
		default:
			break;
		}
	}
	header(g, "protocol");
	for (i = 0; i < g->n; i++) {
		buf_printf(&g->b, "    p%d {", i);
		for (k = 0; k < pr.n[i]; k++)
			buf_printf(&g->b, " %s", pr.st[i][k]);
		buf_adds(&g->b, " }\n");
	}
	proto_free(&pr);
}

/* "verified", a kind, or "incomplete" for one mode and engine. */
static const char *
verdict(const struct mpnet *mp, enum check_mode mode, int exact)
{
	struct verify_opts	 vo;
	struct mode_result	 r;
	const char		*v;

	memset(&vo, 0, sizeof(vo));
	vo.modes = 1 << mode;
	vo.exact = exact;
	vo.max_states = MAX_STATES;
	mpnet_check(mp, mode, &vo, &r);
	v = r.verdict == V_VERIFIED ? "verified" : r.incomplete != NULL ?
	    "incomplete" : vkind_name(r.viol->kind);
	mode_result_free(&r);
	return v;
}

int
main(int argc, char **argv)
{
	struct gen	 g;
	struct pcg_opts	 po;
	struct parse_opts pa = { NULL, 0, 1 };
	FILE		*devnull = fopen("/dev/null", "w");
	uint64_t	 seed = 1;
	int		 n = 1000, i, tap = 0, fails = 0, compiled = 0, verbose = 0;
	int		 counts[3] = { 0, 0, 0 }, only = -1;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
			n = atoi(argv[++i]);
		else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "-v") == 0)
			verbose = 1;
		else if (strcmp(argv[i], "-p") == 0 && i + 1 < argc)
			only = atoi(argv[++i]);
	}
	if (devnull == NULL)
		return 2;
	memset(&po, 0, sizeof(po));
	po.skip_exec_check = 1;
	buf_init(&g.b);
	for (i = 0; i < n; i++) {
		struct diag	*d = diag_new(devnull);
		struct ast	*ast;
		struct pcg	*pcg = NULL;
		struct mpnet	*mp = NULL;
		int		 mode;

		rng = seed * 1000003 + (uint64_t)i;
		if (i % 2 == 0)
			script(&g);
		else
			protocol(&g);
		if (only >= 0) {
			/* Print script number 'only' and stop. */
			if (i == only) {
				fputs(g.b.s, stdout);
				diag_free(d);
				buf_free(&g.b);
				fclose(devnull);
				return 0;
			}
			diag_free(d);
			continue;
		}
		if (verbose)
			printf("# script %d:\n%s", i, g.b.s);
		ast = parse_string("random.pcg", g.b.s, g.b.len, d, &pa);
		if (ast != NULL && d->errors == 0)
			pcg = pcg_expand(ast, d, &po);	/* (takes ast) */
		else
			ast_free(ast);
		if (pcg != NULL && d->errors == 0)
			mp = mpnet_compile(pcg);
		if (mp != NULL) {
			compiled++;
			for (mode = CHECK_BUFFERED; mode <= CHECK_SYNC; mode++) {
				const char	*r = verdict(mp, mode, 0);
				const char	*e = verdict(mp, mode, 1);

				counts[strcmp(e, "verified") == 0 ? 0 :
				    strcmp(e, "incomplete") == 0 ? 2 : 1]++;
				if (strcmp(r, e) == 0 || strcmp(r, "incomplete") == 0 ||
				    strcmp(e, "incomplete") == 0)
					continue;
				fails++;
				printf("not ok %d - script %d, %s mode: reduced says "
				    "%s, --exact says %s\n", ++tap, i,
				    check_mode_name(mode), r, e);
				diag_script(g.b.s);
			}
		}
		mpnet_free(mp);
		pcg_free(pcg);
		diag_free(d);
	}
	printf("%s %d - %d random scripts (%d compiled): reduced and exact agree on "
	    "verdict and kind (%d verified, %d violated, %d incomplete)\n",
	    fails == 0 ? "ok" : "not ok", ++tap, n, compiled, counts[0], counts[1],
	    counts[2]);
	printf("1..%d\n", tap);
	buf_free(&g.b);
	fclose(devnull);
	return fails > 0;
}
