/* test-kinds.c -- random scripts, each checked with reductions (stubborn
 * sets, pools, bags, the single run) and with --exact, in both send modes:
 * the verdict and the kind of violation must be the same (ensemble(1):
 * the verdict names the worst kind any reachable state shows, whatever
 * the engine).  Scripts have 2 to 4 processes on random channels (two
 * between the same pair now and then, for MPI_ANY_SOURCE's order), and
 * behaviours of sends and receives of every mode, wildcards, requests,
 * collectives, counted and endless loops and choices (the generator is
 * gen.c, shared with difftest-gen).  TAP output; a disagreement prints
 * the script.
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
#include "gen.h"
#include "mpnet.h"
#include "parse.h"
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
	memset(&g, 0, sizeof(g));
	buf_init(&g.b);
	g.maxprocs = 4;
	for (i = 0; i < n; i++) {
		struct diag	*d = diag_new(devnull);
		struct ast	*ast;
		struct pcg	*pcg = NULL;
		struct mpnet	*mp = NULL;
		int		 mode;

		gen_seed(seed * 1000003 + (uint64_t)i);
		if (i % 2 == 0)
			gen_script(&g);
		else
			gen_protocol(&g);
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
