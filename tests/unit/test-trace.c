/* test-trace.c -- the MTF reader and writer (trace/trace.h), a TAP test.
 * Given the hand-written sample tests/trace/ring4.mtf and a scratch
 * directory: its header and events read back exactly as written; the
 * writer writes the same file again byte for byte (comments aside); every
 * truncation of it (at each line) and a list of corruptions are refused
 * with the right FILE:LINE and no crash.  Groups' comms: their members
 * read as runs, written back in the same few forms, a group of a trace
 * without them read, and bad lists refused. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"
#include "xmalloc.h"

static int	tap_n, failed;

static void
check(int good, const char *what)
{
	tap_n++;
	if (!good)
		failed = 1;
	printf("%sok %d - %s\n", good ? "" : "not ", tap_n, what);
}

/* The whole of path, NUL-terminated, or NULL. */
static char *
slurp(const char *path, size_t *len)
{
	FILE	*f;
	char	*s;
	long	 n;

	if ((f = fopen(path, "rb")) == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	s = xmalloc((size_t)n + 1);
	*len = fread(s, 1, (size_t)n, f);
	s[*len] = '\0';
	fclose(f);
	return s;
}

static void
spit(const char *path, const char *s, size_t n)
{
	FILE	*f = fopen(path, "wb");

	if (f == NULL || fwrite(s, 1, n, f) != n || fclose(f) != 0) {
		perror(path);
		exit(2);
	}
}

/* Read path to the end: the number of events, or -1 with *cause. */
static long
read_all(const char *path, char **cause)
{
	struct trace_reader	*r;
	struct trace_event	 ev;
	long			 n = 0;
	int			 rc;

	*cause = NULL;
	if ((r = trace_open(path, cause)) == NULL)
		return -1;
	while ((rc = trace_next(r, &ev, cause)) == 1)
		n++;
	trace_close(r);
	return rc == 0 ? n : -1;
}

/* A corruption: replace the first 'from' after line 'line' starts by
 * 'to'; the reader must refuse at 'at' saying 'says'. */
static const struct {
	int		 line;
	const char	*from, *to;
	int		 at;
	const char	*says;
} bad[] = {
	{ 1, "MTF 1", "MTF 2", 1, "unsupported MTF version '2'" },
	{ 1, "MTF 1", "MTX 1", 1, "not an MTF trace" },
	{ 4, "scenario", "scenari0", 4, "unknown header record 'scenari0'" },
	{ 6, "param rounds 1", "param rounds", 6, "'param' needs 3 fields" },
	{ 7, "trace 2026-11-26T01:00:00Z 4", "trace x 0", 7,
	    "bad process count '0'" },
	{ 8, "processor 0", "processor 1", 8, "processor '1' is not 0" },
	{ 11, "process 1 node[2] node 0", "process 0 node[2] node 0", 11,
	    "process 0 given twice" },
	{ 12, "node 0", "node 7", 12, "no processor '7'" },
	{ 14, "port 0 Left 1 3", "port 0 Left 1 4", 14,
	    "peer '4' out of range -1..3" },
	{ 5, "param N 4", "port 0 Left 1 3", 5, "'port' before 'trace'" },
	{ 22, "events", "comm 1 other 2", 22, "'comm' out of place" },
	{ 23, "init 0", "init 4", 23, "rank '4' out of range 0..3" },
	{ 23, "init 0", "inot 0", 23, "unknown operation 'inot'" },
	{ 27, "0.012100000", "0.0121", 27, "bad start time '0.0121'" },
	{ 27, "0.012110000", "0.012000000", 27,
	    "end time '0.012000000' before start time '0.012100000'" },
	{ 27, " 0 std", " 1 std", 27, "no comm '1'" },
	{ 27, " std", " fast", 27, "unknown send mode 'fast'" },
	{ 27, "Right[1]", "Right%2", 27, "bad port 'Right%2'" },
	{ 27, "Right[1] 1", "Right[1] 9", 27, "peer '9' out of range 0..3" },
	{ 27, "MPI_INT 1 4", "MPI_INT x 4", 27, "bad count 'x'" },
	{ 27, " 4 0 - 1 port", " 4 0 - 1 port extra", 27,
	    "an event needs 16 fields, not more than 16" },
	{ 27, " 4 0 - 1 port", " 4 0 - 0 port", 27,
	    "bad sequence number '0'" },
	{ 27, " 1 port", " 1 mpi", 27, "VIA is 'port' or 'raw', not 'mpi'" },
	{ 27, " 4 0 -", " 4 0 0", 27, "bad request id '0'" },
	{ 39, "end 16", "end 15", 39, "'end' says 15 events, but 16 were read" },
	{ 39, "end 16\n", "end 16\nfin 0 0.1 0.1\n", 40, "a record after 'end'" },
	{ 23, "init 0 0.010000000", "init 0\001" "0.010000000", 23,
	    "a NUL byte in the line" },
};

/* A trace with groups: every form of members the writer uses (and a
 * group without members, as an older trace has), as it writes them. */
static const char groups_mtf[] =
	"MTF 1\n"
	"scenario g.pcg g 2026-11-27T00:00:00Z\n"
	"trace 2026-11-27T00:00:00Z 6\n"
	"processor 0 h\n"
	"comm 0 world 6\n"
	"comm 1 other 0\n"
	"comm 2 rev 6 5-0\n"
	"comm 3 odd 4 5-1/2,0\n"
	"comm 4 cols[1] 2 0,3\n"
	"comm 5 tail 4 0,3-5\n"
	"comm 6 two 2 1-2\n"
	"comm 7 old 3\n"
	"process 0 c[1] c 0\n"
	"process 1 c[2] c 0\n"
	"process 2 c[3] c 0\n"
	"process 3 c[4] c 0\n"
	"process 4 c[5] c 0\n"
	"process 5 c[6] c 0\n"
	"events\n"
	"end 0\n";

/* Bad comm lines: in groups_mtf, the first 'from' replaced by 'to'; the
 * reader must refuse at line 'at' saying 'says'. */
static const struct {
	int		 at;
	const char	*from, *to, *says;
} bad_members[] = {
	{ 7, "6 5-0\n", "6 5-0/2\n", "bad members '5-0/2' of comm 2 (runs "
	    "of world ranks 0..5: A, A-B or A-B/S, joined by commas)" },
	{ 7, "6 5-0\n", "6 5-0/0\n", "bad members '5-0/0' of comm 2" },
	{ 7, "6 5-0\n", "6 5-5/1\n", "bad members '5-5/1' of comm 2" },
	{ 7, "6 5-0\n", "6 5-0,\n", "bad members '5-0,' of comm 2" },
	{ 7, "6 5-0\n", "6 -5-0\n", "bad members '-5-0' of comm 2" },
	{ 7, "6 5-0\n", "6 5-6\n", "bad members '5-6' of comm 2" },
	{ 7, "6 5-0\n", "6 x\n", "bad members 'x' of comm 2" },
	{ 7, "6 5-0\n", "6 5-1\n", "comm 2 lists 5 members, not its size 6" },
	{ 7, "6 5-0\n", "6 5-0,1\n",
	    "comm 2 lists more members than its size 6" },
	{ 7, "6 5-0\n", "6 5-1,3\n", "comm 2 lists rank 3 twice" },
	{ 7, "6 5-0\n", "7 5-0\n",
	    "comm 2 lists members of 7, more than the 6 processes" },
	{ 7, "6 5-0\n", "6 5-0 x\n", "'comm' needs 4 or 5 fields, not 6" },
	{ 5, "world 6\n", "world 6 0-5\n",
	    "comm 0 lists members (only a group's comm, 2 and on, does)" },
	{ 6, "other 0\n", "other 0 0\n", "comm 1 lists members" },
};

/* s with its first from replaced by to: a new string (from is there). */
static char *
replaced(const char *s, const char *from, const char *to)
{
	const char	*at = strstr(s, from);
	char		*out;

	xasprintf(&out, "%.*s%s%s", (int)(at - s), s, to, at + strlen(from));
	return out;
}

/* Apply bad[i] to the sample s: a new string, NULL if 'from' is absent. */
static char *
corrupt(const char *s, size_t len, int i, size_t *outlen)
{
	const char	*p = s, *at;
	size_t		 fl = strlen(bad[i].from), tl = strlen(bad[i].to), j;
	char		*out;
	int		 line;

	for (line = 1; line < bad[i].line && (p = strchr(p, '\n')) != NULL;
	    line++)
		p++;
	if (p == NULL || (at = strstr(p, bad[i].from)) == NULL)
		return NULL;
	out = xmalloc(len - fl + tl + 1);
	memcpy(out, s, (size_t)(at - s));
	memcpy(out + (at - s), bad[i].to, tl);
	memcpy(out + (at - s) + tl, at + fl, len - (size_t)(at - s) - fl);
	*outlen = len - fl + tl;
	out[*outlen] = '\0';
	for (j = 0; j < tl; j++)	/* \001 stands for a NUL byte */
		if (out[(at - s) + j] == '\001')
			out[(at - s) + j] = '\0';
	return out;
}

/* Whether cause is "PATH:LINE: error: ..." holding says. */
static int
says(const char *cause, const char *path, unsigned long line,
    const char *what)
{
	char	*want;
	int	 good;

	if (cause == NULL)
		return 0;
	xasprintf(&want, "%s:%lu: error: ", path, line);
	good = strncmp(cause, want, strlen(want)) == 0 &&
	    strstr(cause, what) != NULL;
	if (!good)
		printf("# got '%s', want '%s...%s'\n", cause, want, what);
	free(want);
	return good;
}

int
main(int argc, char **argv)
{
	const struct trace_hdr	*h;
	struct trace_reader	*r;
	struct trace_writer	*w;
	struct trace_event	 ev, first_send;
	char			*cause = NULL, *s, *t, *path, *copy, *what;
	size_t			 len, tlen, i, nl;
	long			 n, ops[TRACE_NOPS] = { 0 };
	int			 rc, lines;

	if (argc != 3) {
		fprintf(stderr, "usage: test-trace SAMPLE DIR\n");
		return 2;
	}

	/* The sample's header and events. */
	r = trace_open(argv[1], &cause);
	check(r != NULL, "the sample opens");
	if (r == NULL) {
		printf("# %s\n", cause);
		return 1;
	}
	h = trace_header(r);
	check(strcmp(h->script, "scripts/ring.pcg") == 0 &&
	    strcmp(h->application, "ring") == 0 &&
	    strcmp(h->date, "2026-11-26T01:00:00Z") == 0, "scenario");
	check(h->nparams == 2 && strcmp(h->params[1].name, "rounds") == 0 &&
	    strcmp(h->params[1].value, "1") == 0, "params");
	check(h->nprocs == 4 && h->nprocessors == 1 && h->ncomms == 1 &&
	    strcmp(h->comms[0].name, "world") == 0 && h->comms[0].size == 4,
	    "trace, processor, comm");
	check(strcmp(h->processes[3].name, "node[4]") == 0 &&
	    strcmp(h->processes[3].component, "node") == 0 &&
	    h->processes[3].processor == 0, "processes");
	check(h->nports == 8 && h->ports[7].rank == 3 &&
	    strcmp(h->ports[7].type, "Right") == 0 && h->ports[7].index == 1 &&
	    h->ports[7].peer == 0, "ports");
	n = 0;
	memset(&first_send, 0, sizeof(first_send));
	while ((rc = trace_next(r, &ev, &cause)) == 1) {
		ops[ev.op]++;
		if (ev.op == TRACE_SEND && first_send.line == 0)
			first_send = ev;
		n++;
	}
	check(rc == 0 && n == 16 && ops[TRACE_INIT] == 4 &&
	    ops[TRACE_SEND] == 4 && ops[TRACE_RECV] == 4 &&
	    ops[TRACE_FIN] == 4, "16 events: 4 init, send, recv, fin");
	check(first_send.line == 27 && first_send.rank == 0 &&
	    first_send.t0ns == 12100000 && first_send.t1ns == 12110000 &&
	    first_send.mode == TRACE_MODE_STD && first_send.peer == 1 &&
	    first_send.tag == 1 && first_send.count == 1 &&
	    first_send.sbytes == 4 && first_send.rbytes == 0 &&
	    first_send.req == -1 && first_send.seq == 1 && !first_send.raw &&
	    first_send.comm == 0, "the first send's fields");

	/* Written again: the same bytes, less the comment lines. */
	trace_close(r);
	r = trace_open(argv[1], &cause);
	xasprintf(&path, "%s/copy.mtf", argv[2]);
	w = trace_writer_open(path, &cause);
	trace_write_header(w, trace_header(r));
	while (trace_next(r, &ev, &cause) == 1)
		trace_write_event(w, &ev);
	trace_close(r);
	check(trace_writer_close(w, &cause) == 0, "written again");
	s = slurp(argv[1], &len);
	copy = slurp(path, &tlen);
	{
		/* the sample without its comment lines */
		struct buf	 b;
		const char	*p, *e;

		buf_init(&b);
		for (p = s; *p != '\0'; p = e + 1) {
			e = strchr(p, '\n');
			if (*p != '#')
				buf_add(&b, p, (size_t)(e - p + 1));
		}
		check(copy != NULL && b.len == tlen &&
		    memcmp(b.s, copy, tlen) == 0,
		    "the copy is the sample, byte for byte");
		buf_free(&b);
	}
	free(copy);

	/* Strings with spaces, '%', '-' and control bytes round-trip. */
	{
		struct trace_hdr	*hh = trace_hdr_new();

		hh->script = xstrdup("my dir/100% ring.pcg");
		hh->application = xstrdup("-");
		hh->date = NULL;
		hh->nparams = 1;
		hh->params = xcalloc(1, sizeof(*hh->params));
		hh->params[0].name = xstrdup("s");
		hh->params[0].value = xstrdup("a\tb\n\"c\"");
		hh->start = xstrdup("x");
		hh->nprocs = 1;
		hh->processes = xcalloc(1, sizeof(*hh->processes));
		hh->processes[0].name = xstrdup("p");
		hh->processes[0].component = xstrdup("c");
		hh->nprocessors = 1;
		hh->processors = xcalloc(1, sizeof(*hh->processors));
		hh->processors[0].host = xstrdup("h 1");
		hh->ncomms = 1;
		hh->comms = xcalloc(1, sizeof(*hh->comms));
		hh->comms[0].name = xstrdup("world");
		hh->comms[0].size = 1;
		w = trace_writer_open(path, &cause);
		trace_write_header(w, hh);
		memset(&ev, 0, sizeof(ev));
		ev.op = TRACE_BCAST;
		ev.t0ns = 1;
		ev.t1ns = 1000000001;
		ev.peer = 0;
		ev.tag = TRACE_NONE;
		ev.dtype = "my type";
		ev.count = 3;
		ev.req = ev.seq = -1;
		ev.raw = 1;
		trace_write_event(w, &ev);
		check(trace_writer_close(w, &cause) == 0, "strings written");
		trace_hdr_free(hh);
		r = trace_open(path, &cause);
		h = r != NULL ? trace_header(r) : NULL;
		check(h != NULL && strcmp(h->script, "my dir/100% ring.pcg") ==
		    0 && strcmp(h->application, "-") == 0 && h->date == NULL &&
		    strcmp(h->params[0].value, "a\tb\n\"c\"") == 0 &&
		    strcmp(h->processors[0].host, "h 1") == 0,
		    "header strings read back");
		check(r != NULL && trace_next(r, &ev, &cause) == 1 &&
		    strcmp(ev.dtype, "my type") == 0 && ev.raw &&
		    ev.t0ns == 1 && ev.t1ns == 1000000001 && ev.peer == 0 &&
		    ev.tag == TRACE_NONE && ev.port == NULL &&
		    trace_next(r, &ev, &cause) == 0, "event strings read back");
		trace_close(r);
	}

	/* Groups' members: read, written back byte for byte, refused. */
	xasprintf(&t, "%s/groups.mtf", argv[2]);
	spit(t, groups_mtf, sizeof(groups_mtf) - 1);
	r = trace_open(t, &cause);
	h = r != NULL ? trace_header(r) : NULL;
	{
		static const int	rev[] = { 5, 4, 3, 2, 1, 0 };
		static const int	odd[] = { 5, 3, 1, 0 };
		static const int	tail[] = { 0, 3, 4, 5 };

		check(h != NULL && h->ncomms == 8 && h->comms[0].members ==
		    NULL && h->comms[1].members == NULL &&
		    h->comms[7].members == NULL && h->comms[7].size == 3,
		    "groups: world, other and a group of an older trace list "
		    "no members");
		check(h != NULL && h->comms[2].size == 6 &&
		    memcmp(h->comms[2].members, rev, sizeof(rev)) == 0 &&
		    memcmp(h->comms[3].members, odd, sizeof(odd)) == 0 &&
		    memcmp(h->comms[5].members, tail, sizeof(tail)) == 0 &&
		    h->comms[4].members[0] == 0 && h->comms[4].members[1] == 3 &&
		    h->comms[6].members[0] == 1 && h->comms[6].members[1] == 2,
		    "groups: members in rank order, from runs");
	}
	w = trace_writer_open(path, &cause);
	if (r != NULL)
		trace_write_header(w, trace_header(r));
	trace_close(r);
	check(trace_writer_close(w, &cause) == 0, "groups: written again");
	copy = slurp(path, &tlen);
	check(copy != NULL && tlen == sizeof(groups_mtf) - 1 &&
	    memcmp(copy, groups_mtf, tlen) == 0,
	    "groups: written again byte for byte, members as runs");
	free(copy);
	/* A run by a step the writer would not use reads the same. */
	copy = replaced(groups_mtf, "comm 4 cols[1] 2 0,3\n",
	    "comm 4 cols[1] 2 0-3/3\n");
	spit(path, copy, strlen(copy));
	free(copy);
	r = trace_open(path, &cause);
	h = r != NULL ? trace_header(r) : NULL;
	check(h != NULL && h->comms[4].size == 2 && h->comms[4].members[0] == 0 &&
	    h->comms[4].members[1] == 3, "groups: '0-3/3' is 0 and 3");
	if (r == NULL) {
		printf("# %s\n", cause);
		free(cause);
	}
	trace_close(r);
	for (i = 0; i < sizeof(bad_members) / sizeof(bad_members[0]); i++) {
		copy = replaced(groups_mtf, bad_members[i].from,
		    bad_members[i].to);
		spit(path, copy, strlen(copy));
		free(copy);
		xasprintf(&what, "groups: '%.*s' refused at line %d: %s",
		    (int)strlen(bad_members[i].to) - 1, bad_members[i].to,
		    bad_members[i].at, bad_members[i].says);
		n = read_all(path, &cause);
		check(n < 0 && says(cause, path, (unsigned long)bad_members[i].at,
		    bad_members[i].says), what);
		free(what);
		free(cause);
	}
	free(t);

	/* Every truncation at a line's end is refused. */
	lines = 0;
	for (i = 0; i < len; i++)
		if (s[i] == '\n')
			lines++;
	for (i = 0, nl = 0; i + 1 < len; i++) {
		if (s[i] != '\n')
			continue;
		nl++;
		spit(path, s, i + 1);
		xasprintf(&what, "truncated after line %zu", nl);
		n = read_all(path, &cause);
		check(n < 0 && says(cause, path, nl, "truncated trace"), what);
		free(what);
		free(cause);
	}
	spit(path, s, len - 1);
	n = read_all(path, &cause);
	check(n < 0 && says(cause, path, (unsigned long)lines,
	    "the last line has no newline"), "truncated in the last line");
	free(cause);

	/* Corruptions. */
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		t = corrupt(s, len, (int)i, &tlen);
		xasprintf(&what, "refused at line %d: %s", bad[i].at,
		    bad[i].says);
		if (t == NULL) {
			check(0, what);
			free(what);
			continue;
		}
		spit(path, t, tlen);
		n = read_all(path, &cause);
		check(n < 0 && says(cause, path, (unsigned long)bad[i].at,
		    bad[i].says), what);
		free(what);
		free(cause);
		free(t);
	}
	free(s);
	free(path);
	printf("1..%d\n", tap_n);
	return failed;
}
