/* fuzz-trace.c -- libFuzzer target for the MTF trace reader (trace/read.c),
 * which reads files anyone can write: every input is read as a trace to
 * its end.  Run it with
 *   FUZZER=tests/fuzz/fuzz-trace SEEDS=../tests/trace \
 *       DICT=../tests/fuzz/trace.dict ../tests/fuzz/run.sh
 *
 * Besides the sanitizers' reports, these abort (a "crash"): a refusal
 * whose diagnostic is not "PATH:LINE: error: ..."; an accepted trace that,
 * written again with the writer (trace/write.c), is refused or reads back
 * to other communicators (sizes, members), another number of events or
 * other fields. */
#include "config.h"

#include <sys/mman.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace.h"
#include "xmalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
broken(const char *what, const char *s)
{
	fprintf(stderr, "fuzz-trace: %s: '%s'\n", what, s != NULL ? s : "");
	abort();
}

/* A file holding n bytes of data: its fd, and its path in *path. */
static int
file(const void *data, size_t n, char **path)
{
	int	fd = memfd_create("trace", 0);

	if (fd < 0 || (n > 0 && write(fd, data, n) != (ssize_t)n))
		broken("memfd", NULL);
	xasprintf(path, "/proc/self/fd/%d", fd);
	return fd;
}

/* Whether headers a and b have the same communicators: names, sizes and
 * members. */
static int
same_comms(const struct trace_hdr *a, const struct trace_hdr *b)
{
	size_t	k;

	if (a->ncomms != b->ncomms)
		return 0;
	for (k = 0; k < a->ncomms; k++)
		if (strcmp(a->comms[k].name, b->comms[k].name) != 0 ||
		    a->comms[k].size != b->comms[k].size ||
		    (a->comms[k].members == NULL) !=
		    (b->comms[k].members == NULL) ||
		    (a->comms[k].members != NULL &&
		    memcmp(a->comms[k].members, b->comms[k].members,
		    (size_t)a->comms[k].size * sizeof(int)) != 0))
			return 0;
	return 1;
}

/* Whether cause is "path:LINE: error: ...". */
static int
well_said(const char *cause, const char *path)
{
	size_t	n = strlen(path);
	const char *p;

	if (cause == NULL || strncmp(cause, path, n) != 0 || cause[n] != ':')
		return 0;
	for (p = cause + n + 1; *p >= '0' && *p <= '9'; p++)
		;
	return p > cause + n + 1 && strncmp(p, ": error: ", 9) == 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct trace_reader	*r, *r2;
	struct trace_writer	*w;
	struct trace_event	 ev, ev2;
	char			*path, *path2, *cause = NULL;
	int			 fd, fd2, rc, rc2;

	fd = file(data, size, &path);
	if ((r = trace_open(path, &cause)) == NULL) {
		if (!well_said(cause, path))
			broken("a refused header said no place", cause);
		goto out;
	}
	fd2 = memfd_create("copy", 0);
	xasprintf(&path2, "/proc/self/fd/%d", fd2);
	if ((w = trace_writer_open(path2, &cause)) == NULL)
		broken("cannot write a copy", cause);
	trace_write_header(w, trace_header(r));
	while ((rc = trace_next(r, &ev, &cause)) == 1) {
		trace_write_event(w, &ev);
	}
	if (trace_writer_close(w, &cause) != 0)
		broken("cannot write a copy", cause);
	if (rc < 0) {
		if (!well_said(cause, path))
			broken("a refused event said no place", cause);
		trace_close(r);
		close(fd2);
		free(path2);
		goto out;
	}
	trace_close(r);
	/* Accepted: its copy reads back the same, event by event. */
	if ((r = trace_open(path, &cause)) == NULL ||
	    (r2 = trace_open(path2, &cause)) == NULL)
		broken("an accepted trace's copy is refused", cause);
	if (!same_comms(trace_header(r), trace_header(r2)))
		broken("the copy has other communicators", path2);
	for (;;) {
		rc = trace_next(r, &ev, &cause);
		rc2 = trace_next(r2, &ev2, &cause);
		if (rc != rc2)
			broken("the copy has another number of events", cause);
		if (rc != 1)
			break;
		if (ev.op != ev2.op || ev.rank != ev2.rank ||
		    ev.t0ns != ev2.t0ns || ev.t1ns != ev2.t1ns ||
		    ev.peer != ev2.peer || ev.tag != ev2.tag ||
		    ev.count != ev2.count || ev.sbytes != ev2.sbytes ||
		    ev.req != ev2.req || ev.seq != ev2.seq ||
		    ev.raw != ev2.raw || ev.mode != ev2.mode ||
		    (ev.port == NULL) != (ev2.port == NULL) ||
		    (ev.port != NULL && strcmp(ev.port, ev2.port) != 0) ||
		    (ev.dtype == NULL) != (ev2.dtype == NULL) ||
		    (ev.dtype != NULL && strcmp(ev.dtype, ev2.dtype) != 0))
			broken("the copy has another event", path2);
	}
	trace_close(r);
	trace_close(r2);
	close(fd2);
	free(path2);
out:
	free(cause);
	close(fd);
	free(path);
	return 0;
}
