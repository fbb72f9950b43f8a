/* fuzz-parse.c -- libFuzzer target for the front end: parse the input as a
 * .pcg script, expand it, and when it is clean print it and build its graph,
 * as 'ensemble check/expand/graph' do (frontend_compile), with includes refused so an
 * input can never read a file.  Run it with tests/fuzz/run.sh.
 *
 * Besides the sanitizers' reports, three broken promises abort (a "crash"):
 * a graph without one node per process and one edge per channel (graph.h),
 * an expanded script that does not parse back to the same model (emit.c:
 * "what it prints parses back to the same graph"), and a model whose
 * verdict or kind of violation with reductions differs from the one over
 * every interleaving (ensemble(1): the worst kind any reachable state
 * shows, whatever the engine).  The checks run with a small state limit;
 * a verdict cut short by it is not compared. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "graph.h"
#include "mpnet.h"
#include "pcg.h"

/* Bigger inputs only make the fuzzer slower; the grammar has no constructs
 * that need them. */
#define FUZZ_MAX_INPUT	(64 * 1024)
/* Expanded scripts longer than this are not parsed back (time, not bugs). */
#define FUZZ_MAX_EXPANDED	(1024 * 1024)

/* States per check: enough for the small models inputs make. */
#define FUZZ_MAX_STATES	4000

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static FILE	*devnull;

/* Show what broke, and stop as a crash does. */
static void
broken(const char *what, const char *expanded, size_t len)
{
	fprintf(stderr, "fuzz-parse: %s\n", what);
	if (expanded != NULL) {
		fprintf(stderr, "fuzz-parse: the expanded script:\n");
		fwrite(expanded, 1, len, stderr);
	}
	abort();
}

/* One node per process, one edge per channel. */
static void
check_graph(const struct pcg *g)
{
	Agraph_t	*G = pcg_graph(g);
	char		 msg[128];

	if (G == NULL)
		broken("pcg_graph returned NULL", NULL, 0);
	if (agnnodes(G) != g->nprocs || agnedges(G) != g->nchans) {
		snprintf(msg, sizeof(msg), "the graph has %d nodes and %d edges "
		    "for %d processes and %d channels", agnnodes(G), agnedges(G),
		    g->nprocs, g->nchans);
		broken(msg, NULL, 0);
	}
	agclose(G);
}

/* Whether two expanded models are the same graph: counts, ends and tags of
 * channels, and each process's instantiated behaviour. */
static const char *
same_model(const struct pcg *a, const struct pcg *b)
{
	int	 i, k;

	if (a->ncomps != b->ncomps)
		return "another number of components";
	if (a->nprocs != b->nprocs)
		return "another number of processes";
	if (a->nchans != b->nchans)
		return "another number of channels";
	for (i = 0; i < a->nchans; i++) {
		if (a->chans[i].tag != b->chans[i].tag)
			return "another channel tag";
		for (k = 0; k < 2; k++)
			if (a->chans[i].e[k].proc != b->chans[i].e[k].proc ||
			    a->chans[i].e[k].type != b->chans[i].e[k].type ||
			    a->chans[i].e[k].port != b->chans[i].e[k].port)
				return "another channel end";
	}
	for (i = 0; i < a->nprocs; i++)
		if (strcmp(a->procs[i].behaviour != NULL ? a->procs[i].behaviour : "",
		    b->procs[i].behaviour != NULL ? b->procs[i].behaviour : "") != 0)
			return "another behaviour";
	return NULL;
}

/* Print the model as 'ensemble expand' does, parse and expand that, and
 * compare. */
static void
check_roundtrip(const struct pcg *g, const struct pcg_opts *opts)
{
	struct frontend_src src = { .name = "expanded.pcg", .no_includes = 1 };
	struct frontend	 fe;
	struct diag	*d;
	const char	*why = NULL;
	char		*text = NULL;
	size_t		 len = 0;
	FILE		*f;

	if ((f = open_memstream(&text, &len)) == NULL)
		abort();
	pcg_emit(g, f);
	if (fclose(f) != 0)
		abort();
	if (len > FUZZ_MAX_EXPANDED) {
		free(text);
		return;
	}
	src.text = text;
	src.len = len;
	d = diag_new(devnull);
	switch (frontend_compile(&src, opts, FRONTEND_EXPAND, d, &fe)) {
	case 0:
		why = same_model(g, fe.pcg);
		break;
	case FRONTEND_EXPAND:
		why = "the expanded script does not expand";
		break;
	default:
		why = "the expanded script does not parse";
		break;
	}
	frontend_free(&fe);
	if (why != NULL) {
		/* Once more, showing the diagnostics. */
		diag_free(d);
		d = diag_new(stderr);
		(void)frontend_compile(&src, opts, FRONTEND_EXPAND, d, &fe);
		frontend_free(&fe);
		broken(why, text, len);
	}
	diag_free(d);
	free(text);
}

/* A mode's verdict as a word: "verified", its violation's kind, or
 * "incomplete" (also when a limit stopped the search after a violation:
 * its kind is then the worst found so far). */
static const char *
verdict_word(const struct mode_result *r)
{
	if (r->verdict == V_VERIFIED)
		return "verified";
	if (r->verdict == V_INCOMPLETE || r->incomplete != NULL)
		return "incomplete";
	return vkind_name(r->viol->kind);
}

/* Reduced and exact exploration agree on each mode's verdict and kind. */
static void
check_verify(const struct pcg *g)
{
	struct mpnet		*net = mpnet_compile(g);
	struct verify_opts	 vo;
	struct mode_result	 r, x;
	char			 msg[160];
	int			 mode;

	if (net == NULL)
		return;
	memset(&vo, 0, sizeof(vo));
	vo.max_states = FUZZ_MAX_STATES;
	vo.max_memory = 64 << 20;
	for (mode = CHECK_BUFFERED; mode <= CHECK_SYNC; mode++) {
		vo.exact = 0;
		mpnet_check(net, (enum check_mode)mode, &vo, &r);
		vo.exact = 1;
		mpnet_check(net, (enum check_mode)mode, &vo, &x);
		if (strcmp(verdict_word(&r), "incomplete") != 0 &&
		    strcmp(verdict_word(&x), "incomplete") != 0 &&
		    strcmp(verdict_word(&r), verdict_word(&x)) != 0) {
			snprintf(msg, sizeof(msg), "%s mode: %s with reductions "
			    "(%s), %s over every interleaving",
			    check_mode_name((enum check_mode)mode),
			    verdict_word(&r), check_engine_name(r.engine), verdict_word(&x));
			broken(msg, NULL, 0);
		}
		mode_result_free(&r);
		mode_result_free(&x);
	}
	mpnet_free(net);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct frontend_src	 src = { .name = "fuzz.pcg", .no_includes = 1 };
	struct frontend		 fe;
	struct pcg_opts		 opts;
	struct diag		*d;
	struct pcg		*g;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	/* Opened once and kept: diagnostics are formatted but not shown. */
	if (devnull == NULL && (devnull = fopen("/dev/null", "w")) == NULL)
		abort();

	d = diag_new(devnull);
	src.text = (const char *)data;
	src.len = size;
	memset(&opts, 0, sizeof(opts));
	if (frontend_compile(&src, &opts, FRONTEND_EXPAND, d, &fe) == 0) {
		g = fe.pcg;
		pcg_emit(g, devnull);
		check_graph(g);
		check_roundtrip(g, &opts);
		check_verify(g);
	}
	frontend_free(&fe);
	diag_summary(d);
	diag_free(d);
	return 0;
}
