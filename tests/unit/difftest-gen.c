/* difftest-gen.c -- the models of the differential test against SPIN
 * (tests/difftest.sh): random scripts from gen.c, written to a folder,
 * with how the checker's default engine explores each send mode, so the
 * test can say which reductions its models reached.
 *
 * usage: difftest-gen -s SEED -n COUNT [-f FIRST] [-P] -o DIR [-g]
 * (-g: random scripts and protocols only, each with groups; -P: every
 * script by gen_p2p, with sendrecv, wait, test, probe...)
 * Model i (FIRST <= i < FIRST + COUNT) is script i of seed SEED, written
 * to DIR/m-i.pcg when the checker takes it and its state space is small
 * (--exact within MAX_STATES states in both modes); one line a model on
 * stdout:
 *	i MODEL buffered ENGINE POOLED BAGS synchronous ENGINE POOLED BAGS
 * (ENGINE kahn, por; POOLED channels sharing a pool; BAGS wildcard runs
 * taken in one order), or "i - static" (the checker refuses the
 * script) or "i - large". */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "frontend.h"
#include "gen.h"
#include "mpnet.h"
#include "pcg.h"
#include "xmalloc.h"

#define MAX_STATES	20000

/* Whether --exact decides mode within MAX_STATES states. */
static int
small(const struct mpnet *mp, enum check_mode mode)
{
	struct verify_opts	 vo;
	struct mode_result	 r;
	int			 ok;

	memset(&vo, 0, sizeof(vo));
	vo.modes = 1 << mode;
	vo.exact = 1;
	vo.max_states = MAX_STATES;
	mpnet_check(mp, mode, &vo, &r);
	ok = r.incomplete == NULL;
	mode_result_free(&r);
	return ok;
}

/* How the default engine explores mode: "ENGINE POOLED BAGS". */
static void
how(const struct mpnet *mp, enum check_mode mode, FILE *f)
{
	struct verify_opts	 vo;
	struct mode_result	 r;

	memset(&vo, 0, sizeof(vo));
	vo.modes = 1 << mode;
	mpnet_check(mp, mode, &vo, &r);
	fprintf(f, " %s %s %d %" PRIu64, check_mode_name(mode),
	    check_engine_name(r.engine), r.pooled, r.bags);
	mode_result_free(&r);
}

int
main(int argc, char **argv)
{
	struct gen	 g;
	struct pcg_opts	 po;
	FILE		*devnull = fopen("/dev/null", "w"), *f;
	uint64_t	 seed = 1;
	int		 n = 100, first = 0, i, p2p = 0;
	const char	*dir = NULL;
	char		*path;

	memset(&g, 0, sizeof(g));
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
			n = atoi(argv[++i]);
		else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "-f") == 0 && i + 1 < argc)
			first = atoi(argv[++i]);
		else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
			dir = argv[++i];
		else if (strcmp(argv[i], "-g") == 0)
			g.always_groups = 1;
		else if (strcmp(argv[i], "-P") == 0)
			p2p = 1;
		else {
			fprintf(stderr, "usage: difftest-gen -s SEED -n COUNT "
			    "[-f FIRST] [-P] -o DIR [-g]\n");
			return 2;
		}
	}
	if (devnull == NULL || dir == NULL) {
		fprintf(stderr, "usage: difftest-gen -s SEED -n COUNT "
		    "[-f FIRST] [-P] -o DIR\n");
		return 2;
	}
	memset(&po, 0, sizeof(po));
	po.skip_exec_check = 1;
	buf_init(&g.b);
	g.maxprocs = GEN_MAX_PROCS;
	for (i = first; i < first + n; i++) {
		struct diag	*d = diag_new(devnull);
		struct frontend_src src = { .name = "m.pcg", .no_includes = 1 };
		struct frontend	 fe;
		struct mpnet	*mp;

		gen_seed(seed * 1000003 + (uint64_t)i);
		switch (p2p ? 4 : g.always_groups ? i % 2 : i % 4) {
		case 0:
			gen_script(&g);
			break;
		case 1:
			gen_protocol(&g);
			break;
		case 2:
			gen_indexed(&g);
			break;
		case 3:
			gen_loops(&g);
			break;
		default:
			gen_p2p(&g);
			break;
		}
		src.text = g.b.s;
		src.len = g.b.len;
		(void)frontend_compile(&src, &po, FRONTEND_COMPILE, d, &fe);
		mp = fe.net;
		if (mp == NULL)
			printf("%d - static\n", i);
		else if (!small(mp, CHECK_BUFFERED) || !small(mp, CHECK_SYNC))
			printf("%d - large\n", i);
		else {
			xasprintf(&path, "%s/m-%d.pcg", dir, i);
			if ((f = fopen(path, "w")) == NULL) {
				perror(path);
				return 2;
			}
			fprintf(f, "# difftest-gen -s %" PRIu64 " -f %d -n 1\n%s",
			    seed, i, g.b.s);
			if (fclose(f) != 0) {
				perror(path);
				return 2;
			}
			free(path);
			printf("%d m-%d.pcg", i, i);
			how(mp, CHECK_BUFFERED, stdout);
			how(mp, CHECK_SYNC, stdout);
			putchar('\n');
		}
		fflush(stdout);
		frontend_free(&fe);
		diag_free(d);
	}
	buf_free(&g.b);
	fclose(devnull);
	return 0;
}
