/* test-kinds.c -- random scripts, each checked with reductions (stubborn
 * sets, pools, bags, the single run) and with --exact, in both send modes:
 * the verdict and the kind of violation must be the same (ensemble(1):
 * the verdict names the worst kind any reachable state shows, whatever
 * the engine).  Scripts have 2 to 4 processes on random channels (two
 * between the same pair now and then, for MPI_ANY_SOURCE's order), and
 * behaviours of sends and receives of every mode, wildcards, requests,
 * collectives (over groups too), counted and endless loops and choices (the generator is
 * gen.c, shared with difftest-gen).  Each with counted loops is checked
 * again with them written out (gen_unroll): --exact must give the same
 * verdict, kind, states and transitions.  TAP output; a disagreement
 * prints the script.
 *
 * One script in four uses sendrecv, named requests, wait, test, waitany,
 * waitsome, probe and iprobe (gen_p2p).
 *
 * usage: test-kinds [-n SCRIPTS] [-s SEED] [-v] [-p N] [-g] [-P] [-S]
 * -v prints every script, -p N prints script N only; -g makes random
 * scripts and protocols only, each with groups; -P makes every script
 * with gen_p2p; -S every script of interchangeable processes (gen_symm:
 * the symmetry reduction), where the reduced search may store no more
 * states than --exact. */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "frontend.h"
#include "gen.h"
#include "mpnet.h"
#include "pcg.h"
#include "xmalloc.h"

#define MAX_STATES	50000

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

/* "verified", a kind, or "incomplete" for one mode and engine; the
 * states and transitions counted into *states and *trans when not NULL. */
static const char *
verdict(const struct mpnet *mp, enum check_mode mode, int exact,
    uint64_t *states, uint64_t *trans, int *sym)
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
	if (states != NULL)
		*states = r.states;
	if (sym != NULL)
		*sym = r.symmetry != NULL;
	if (trans != NULL)
		*trans = r.transitions;
	mode_result_free(&r);
	return v;
}

/* The script's MP net, or NULL when it has errors; its model and its
 * diagnostics (which hold the text the net's locations point into) are
 * the caller's to free, after the net. */
static struct mpnet *
compile(const char *text, size_t len, FILE *devnull, struct pcg **pcgp,
    struct diag **dp)
{
	struct frontend_src src = { .name = "random.pcg", .text = text,
			    .len = len, .no_includes = 1 };
	struct frontend	 fe;
	struct pcg_opts	 po;

	memset(&po, 0, sizeof(po));
	po.skip_exec_check = 1;
	*dp = diag_new(devnull);
	(void)frontend_compile(&src, &po, FRONTEND_COMPILE, *dp, &fe);
	*pcgp = fe.pcg;
	return fe.net;
}

/* The script and its counted loops written out (gen_unroll) checked with
 * --exact in mode: the same verdict, kind, states and transitions.  0, or
 * 1 after printing how they differ. */
static int
unrolled(const struct mpnet *mp, const char *text, enum check_mode mode,
    FILE *devnull, int i, int *tap)
{
	struct buf	 u;
	struct pcg	*pcg;
	struct diag	*d = NULL;
	struct mpnet	*ump = NULL;
	const char	*a, *b;
	uint64_t	 sa, ta, sb, tb;
	int		 bad = 0;

	buf_init(&u);
	if (gen_unroll(text, &u) == 0 ||
	    (ump = compile(u.s, u.len, devnull, &pcg, &d)) == NULL) {
		if (d != NULL) {
			pcg_free(pcg);
			diag_free(d);
		}
		buf_free(&u);
		return 0;
	}
	a = verdict(mp, mode, 1, &sa, &ta, NULL);
	b = verdict(ump, mode, 1, &sb, &tb, NULL);
	if (strcmp(a, "incomplete") != 0 && strcmp(b, "incomplete") != 0 &&
	    (strcmp(a, b) != 0 || sa != sb || ta != tb)) {
		printf("not ok %d - script %d, %s mode: with its loops %s (%" PRIu64
		    " states, %" PRIu64 " transitions), written out %s (%" PRIu64
		    ", %" PRIu64 ")\n", ++*tap, i, check_mode_name(mode), a, sa,
		    ta, b, sb, tb);
		diag_script(text);
		diag_script(u.s);
		bad = 1;
	}
	mpnet_free(ump);
	pcg_free(pcg);
	diag_free(d);
	buf_free(&u);
	return bad;
}

int
main(int argc, char **argv)
{
	struct gen	 g;
	FILE		*devnull = fopen("/dev/null", "w");
	uint64_t	 seed = 1;
	int		 n = 1000, i, tap = 0, fails = 0, compiled = 0, verbose = 0;
	int		 counts[3] = { 0, 0, 0 }, only = -1, ufails = 0, looped = 0;
	int		 grouped = 0;
	int		 p2p = 0, symm = 0, symmetric = 0;
	struct buf	 u;

	memset(&g, 0, sizeof(g));

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
			n = atoi(argv[++i]);
		else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "-v") == 0)
			verbose = 1;
		else if (strcmp(argv[i], "-p") == 0 && i + 1 < argc)
			only = atoi(argv[++i]);
		else if (strcmp(argv[i], "-g") == 0)
			g.always_groups = 1;
		else if (strcmp(argv[i], "-P") == 0)
			p2p = 1;
		else if (strcmp(argv[i], "-S") == 0)
			symm = 1;
	}
	if (devnull == NULL)
		return 2;
	buf_init(&u);
	buf_init(&g.b);
	g.maxprocs = 4;
	for (i = 0; i < n; i++) {
		struct pcg	*pcg = NULL;
		struct diag	*d = NULL;
		struct mpnet	*mp = NULL;
		int		 mode;

		gen_seed(seed * 1000003 + (uint64_t)i);
		if (symm)
			gen_symm(&g);
		else if (p2p || (!g.always_groups && i % 4 == 3))
			gen_p2p(&g);
		else if (i % 3 == 0 || (g.always_groups && i % 3 == 2))
			gen_script(&g);
		else if (i % 3 == 1)
			gen_protocol(&g);
		else
			gen_loops(&g);
		if (only >= 0) {
			/* Print script number 'only' and stop. */
			if (i == only) {
				fputs(g.b.s, stdout);
				buf_free(&g.b);
				buf_free(&u);
				fclose(devnull);
				return 0;
			}
			continue;
		}
		if (verbose)
			printf("# script %d:\n%s", i, g.b.s);
		if ((mp = compile(g.b.s, g.b.len, devnull, &pcg, &d)) != NULL) {
			compiled++;
			if (gen_unroll(g.b.s, &u) > 0)
				looped++;
			if (strstr(g.b.s, "\nGroups\n") != NULL)
				grouped++;
			for (mode = CHECK_BUFFERED; mode <= CHECK_SYNC; mode++) {
				uint64_t	 rs, es;
				int		 sym;
				const char	*r = verdict(mp, mode, 0, &rs, NULL, &sym);
				const char	*e = verdict(mp, mode, 1, &es, NULL, NULL);

				ufails += unrolled(mp, g.b.s, (enum check_mode)mode,
				    devnull, i, &tap);

				counts[strcmp(e, "verified") == 0 ? 0 :
				    strcmp(e, "incomplete") == 0 ? 2 : 1]++;
				symmetric += sym;
				if (symm && sym && strcmp(r, "incomplete") != 0 &&
				    strcmp(e, "incomplete") != 0 && rs > es) {
					fails++;
					printf("not ok %d - script %d, %s mode: by "
					    "symmetry %" PRIu64 " states, --exact %"
					    PRIu64 "\n", ++tap, i,
					    check_mode_name(mode), rs, es);
					diag_script(g.b.s);
				}
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
	printf("%s %d - %d random scripts (%d compiled, %d with groups, %d "
	    "searches by symmetry): reduced and exact agree on verdict and "
	    "kind (%d verified, %d violated, %d incomplete)\n", fails == 0 ?
	    "ok" : "not ok", ++tap, n, compiled, grouped, symmetric, counts[0],
	    counts[1], counts[2]);
	printf("%s %d - the %d of them with counted loops agree with their loops "
	    "written out (--exact: verdict, kind, states, transitions)\n",
	    ufails == 0 ? "ok" : "not ok", ++tap, looped);
	printf("1..%d\n", tap);
	buf_free(&g.b);
	buf_free(&u);
	fclose(devnull);
	return fails > 0 || ufails > 0;
}
