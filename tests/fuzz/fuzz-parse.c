/* fuzz-parse.c -- libFuzzer target for the front end: parse the input as a
 * .pcg script, expand it, and when it is clean print it and build its graph,
 * as 'ensemble check/expand/graph' do (cli_load), with includes refused so an
 * input can never read a file.  Run it with tests/fuzz/run.sh. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "parse.h"
#include "pcg.h"

/* Bigger inputs only make the fuzzer slower; the grammar has no constructs
 * that need them. */
#define FUZZ_MAX_INPUT	(64 * 1024)

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE		*devnull;
	struct parse_opts	 po = { NULL, 0, 1 };
	struct pcg_opts		 opts;
	struct diag		*d;
	struct ast		*ast;
	struct pcg		*g;
	Agraph_t		*graph;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	/* Opened once and kept: diagnostics are formatted but not shown. */
	if (devnull == NULL && (devnull = fopen("/dev/null", "w")) == NULL)
		abort();

	d = diag_new(devnull);
	ast = parse_string("fuzz.pcg", (const char *)data, size, d, &po);
	if (ast == NULL)
		goto out;
	if (d->errors > 0) {
		ast_free(ast);
		goto out;
	}
	memset(&opts, 0, sizeof(opts));
	g = pcg_expand(ast, d, &opts);		/* takes ownership of ast */
	if (g != NULL && d->errors == 0) {
		pcg_emit(g, devnull);
		if ((graph = pcg_graph(g)) != NULL)
			agclose(graph);
	}
	pcg_free(g);
out:
	diag_summary(d);
	diag_free(d);
	return 0;
}
