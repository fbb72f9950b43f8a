/* fuzz-query.c -- libFuzzer target for the MTF query language
 * (trace/query.h), which 'ensemble trace query' reads from its command
 * line: every input, up to its first NUL, is parsed, bound to the header
 * of a small trace (tests/trace/qdemo.mtf, held here) and, when both go
 * well, run over that trace.  Run it with
 * FUZZER=tests/fuzz/fuzz-query SEEDS=tests/trace/query DICT=tests/fuzz/query.dict
 * tests/fuzz/run.sh.
 *
 * Besides the sanitizers' reports, these abort (a "crash"): an error whose
 * place is not in the query (its line, or a column past the line's end
 * and one more), an error without a message, and a run over the trace
 * that fails. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "query.h"
#include "xmalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const char sample[] =
	"MTF 1\n"
	"scenario tests/trace/qdemo.pcg qdemo 2026-11-26T01:00:00Z\n"
	"param N 3\n"
	"trace 2026-11-26T01:00:00Z 4\n"
	"processor 0 node01\n"
	"comm 0 world 4\n"
	"comm 1 other 0\n"
	"process 0 master master 0\n"
	"process 1 worker[1] worker 0\n"
	"process 2 worker[2] worker 0\n"
	"process 3 worker[3] worker 0\n"
	"port 0 Work 1 1\n"
	"port 0 Work 2 2\n"
	"port 0 Work 3 3\n"
	"port 1 Boss 1 0\n"
	"port 2 Boss 1 0\n"
	"port 3 Boss 1 0\n"
	"events\n"
	"init 0 0.000010000 0.000020000 0 - - - - - - 0 0 - - port\n"
	"init 1 0.000011000 0.000021000 0 - - - - - - 0 0 - - port\n"
	"init 2 0.000012000 0.000022000 0 - - - - - - 0 0 - - port\n"
	"init 3 0.000013000 0.000023000 0 - - - - - - 0 0 - - port\n"
	"bcast 0 0.000100000 0.000110000 0 - - 0 - MPI_INT 4 16 0 - 1 port\n"
	"bcast 1 0.000101000 0.000120000 0 - - 0 - MPI_INT 4 0 16 - 1 port\n"
	"bcast 2 0.000102000 0.000121000 0 - - 0 - MPI_INT 4 0 16 - 1 port\n"
	"bcast 3 0.000103000 0.000122000 0 - - 0 - MPI_INT 4 0 16 - 1 port\n"
	"irecv 1 0.000130000 0.000131000 0 - Boss[1] 0 1 MPI_DOUBLE 2 0 0 1 - port\n"
	"isend 0 0.000140000 0.000141000 0 std Work[1] 1 1 MPI_DOUBLE 2 16 0 1 1 port\n"
	"irecv 2 0.000142000 0.000143000 0 - Boss[1] 0 2 MPI_DOUBLE 2 0 0 1 - port\n"
	"isend 0 0.000143000 0.000144000 0 std Work[2] 2 2 MPI_DOUBLE 2 16 0 2 1 port\n"
	"isend 0 0.000145000 0.000146000 0 std Work[3] 3 3 MPI_DOUBLE 2 16 0 3 1 port\n"
	"irecv 3 0.000146000 0.000147000 0 - Boss[1] 0 3 MPI_DOUBLE 2 0 0 1 - port\n"
	"wait 0 0.000150000 0.000160000 0 std Work[1] 1 1 - - 0 0 1 - port\n"
	"wait 0 0.000150000 0.000160000 0 std Work[2] 2 2 - - 0 0 2 - port\n"
	"wait 0 0.000150000 0.000160000 0 std Work[3] 3 3 - - 0 0 3 - port\n"
	"wait 1 0.000151000 0.000155000 0 - Boss[1] 0 1 MPI_DOUBLE 2 0 16 1 1 port\n"
	"wait 2 0.000152000 0.000156000 0 - Boss[1] 0 2 MPI_DOUBLE 2 0 16 1 1 port\n"
	"wait 3 0.000153000 0.000157000 0 - Boss[1] 0 3 MPI_DOUBLE 2 0 16 1 1 port\n"
	"send 2 0.000170000 0.000171000 0 std Boss[1] 0 2 MPI_INT 1 4 0 - 1 port\n"
	"recv 0 0.000172000 0.000175000 0 - Work[*] 2 2 MPI_INT 1 0 4 - 1 port\n"
	"send 1 0.000173000 0.000174000 0 sync Boss[1] 0 1 MPI_INT 1 4 0 - 1 port\n"
	"send 3 0.000174000 0.000190000 0 std Boss[1] 0 3 MPI_INT 1 4 0 - 1 port\n"
	"recv 0 0.000176000 0.000177000 0 - Work[*] 1 1 MPI_INT 1 0 4 - 1 port\n"
	"recv 0 0.000178000 0.000189000 0 - Work[*] 3 3 MPI_INT 1 0 4 - 1 port\n"
	"allreduce 1 0.000195000 0.000199000 1 - - - - MPI_DOUBLE 8 64 64 - 1 raw\n"
	"allreduce 2 0.000195500 0.000199000 1 - - - - MPI_DOUBLE 8 64 64 - 1 raw\n"
	"allreduce 3 0.000196000 0.000199000 1 - - - - MPI_DOUBLE 8 64 64 - 1 raw\n"
	"allreduce 0 0.000197000 0.000199000 1 - - - - MPI_DOUBLE 8 64 64 - 1 raw\n"
	"reduce 0 0.000200000 0.000210000 0 - - 0 - MPI_INT 1 4 4 - 2 port\n"
	"reduce 1 0.000201000 0.000202000 0 - - 0 - MPI_INT 1 4 0 - 2 port\n"
	"reduce 2 0.000202000 0.000203000 0 - - 0 - MPI_INT 1 4 0 - 2 port\n"
	"reduce 3 0.000203000 0.000204000 0 - - 0 - MPI_INT 1 4 0 - 2 port\n"
	"fin 0 0.000300000 0.000310000 0 - - - - - - 0 0 - - port\n"
	"fin 1 0.000301000 0.000311000 0 - - - - - - 0 0 - - port\n"
	"fin 2 0.000302000 0.000312000 0 - - - - - - 0 0 - - port\n"
	"fin 3 0.000303000 0.000313000 0 - - - - - - 0 0 - - port\n"
	"end 38\n"
	;

static char	*path;
static FILE	*devnull;

/* Show what broke, and stop as a crash does. */
static void
broken(const char *what, const char *q)
{
	fprintf(stderr, "fuzz-query: %s: '%s'\n", what, q);
	abort();
}

/* Write the trace once, to a file removed at exit. */
static void
cleanup(void)
{
	if (path != NULL)
		unlink(path);
}

static void
setup(void)
{
	char	 tmpl[] = "/tmp/fuzz-query.XXXXXX";
	int	 fd;

	if ((fd = mkstemp(tmpl)) < 0 ||
	    write(fd, sample, sizeof(sample) - 1) != (ssize_t)(sizeof(sample) - 1))
		broken("cannot write the trace", tmpl);
	close(fd);
	path = xstrdup(tmpl);
	atexit(cleanup);
	if ((devnull = fopen("/dev/null", "w")) == NULL)
		broken("cannot open /dev/null", "");
}

/* An error's place must be in the query text q.  Columns are counted as
 * the query's lexer and diag.c count them, a tab to the next tab stop. */
static void
check_place(const char *q, const struct query_err *e)
{
	const char	*p = q;
	size_t		 len, i;
	int		 line;

	if (e->msg == NULL || e->msg[0] == '\0')
		broken("an error without a message", q);
	for (line = 1; line < e->loc.line; line++) {
		if ((p = strchr(p, '\n')) == NULL)
			broken("an error past the last line", q);
		p++;
	}
	for (i = 0, len = 0; p[i] != '\0' && p[i] != '\n'; i++)
		len = p[i] == '\t' ? len / 8 * 8 + 8 : len + 1;
	if (e->loc.line < 1 || e->loc.col < 1 || e->loc.last_col < e->loc.col ||
	    (size_t)e->loc.last_col > len + 1)
		broken("an error placed outside its line", q);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct trace_reader	*r;
	struct query		*q;
	struct query_err	 err, *errs;
	char			*text, *cause = NULL;
	int			 i, nerrs;

	if (path == NULL)
		setup();
	text = xmalloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	if ((q = query_parse(text, &err)) == NULL) {
		check_place(text, &err);
		query_err_free(&err);
		free(text);
		return 0;
	}
	if ((r = trace_open(path, &cause)) == NULL)
		broken(cause, text);
	if (query_bind(q, trace_header(r), &errs, &nerrs) != 0) {
		for (i = 0; i < nerrs; i++) {
			check_place(text, &errs[i]);
			query_err_free(&errs[i]);
		}
		free(errs);
	} else if (query_run(q, r, devnull, &cause) != 0)
		broken(cause, text);
	trace_close(r);
	query_free(q);
	free(text);
	return 0;
}
