/* write.c -- the writer of MTF trace files (trace.h): the header from a
 * struct trace_hdr, events through traceline_format (the one definition of
 * the event line, runtime/traceline.h), and the 'end N' trailer. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"
#include "xmalloc.h"

struct trace_writer {
	FILE		*f;
	char		*path;
	unsigned long	 nevents;
	char		*line;
	size_t		 linecap;
};

struct trace_writer *
trace_writer_open(const char *path, char **cause)
{
	struct trace_writer	*w;
	FILE			*f;
	int			 e;

	if (strcmp(path, "-") == 0)
		f = stdout;
	else if ((f = fopen(path, "w")) == NULL) {
		e = errno;
		xasprintf(cause, "ensemble: cannot create '%s': %s", path,
		    strerror(e));
		errno = e;
		return NULL;
	}
	w = xcalloc(1, sizeof(*w));
	w->f = f;
	w->path = xstrdup(path);
	return w;
}

/* Room for n bytes in w->line. */
static char *
room(struct trace_writer *w, size_t n)
{
	if (n > w->linecap) {
		w->linecap = n;
		w->line = xrealloc(w->line, n);
	}
	return w->line;
}

/* Write a string field (traceline_put_str). */
static void
put_str(struct trace_writer *w, const char *s)
{
	char	*p = room(w, 3 * (s != NULL ? strlen(s) : 0) + 4), *e;

	e = traceline_put_str(p, s);
	fwrite(p, 1, (size_t)(e - p), w->f);
}

/* Write n members m (world ranks) as runs, joined by commas: "A-B" (by 1,
 * up or down) or "A-B/S" for three or more at one step, "A-B" for two
 * next to each other, else "A". */
static void
put_members(struct trace_writer *w, const int *m, int n)
{
	int	i, j, st;

	for (i = 0; i < n; i = j + 1) {
		j = i;
		st = 1;
		if (i + 1 < n) {
			st = m[i + 1] - m[i];
			for (j = i + 1; j + 1 < n && m[j + 1] - m[j] == st; j++)
				;
			if (j - i < 2 && st != 1 && st != -1)
				j = i;
		}
		fprintf(w->f, "%s%d", i > 0 ? "," : "", m[i]);
		if (j > i)
			fprintf(w->f, "-%d", m[j]);
		if (j - i >= 2 && st != 1 && st != -1)
			fprintf(w->f, "/%d", st < 0 ? -st : st);
	}
}

void
trace_write_header(struct trace_writer *w, const struct trace_hdr *h)
{
	size_t	i;
	int	r;

	fprintf(w->f, "MTF %d\nscenario ", TRACE_VERSION);
	put_str(w, h->script);
	fputc(' ', w->f);
	put_str(w, h->application);
	fputc(' ', w->f);
	put_str(w, h->date);
	fputc('\n', w->f);
	for (i = 0; i < h->nparams; i++) {
		fputs("param ", w->f);
		put_str(w, h->params[i].name);
		fputc(' ', w->f);
		put_str(w, h->params[i].value);
		fputc('\n', w->f);
	}
	fputs("trace ", w->f);
	put_str(w, h->start);
	fprintf(w->f, " %d\n", h->nprocs);
	for (i = 0; i < h->nprocessors; i++) {
		fprintf(w->f, "processor %zu ", i);
		put_str(w, h->processors[i].host);
		fputc('\n', w->f);
	}
	for (i = 0; i < h->ncomms; i++) {
		fprintf(w->f, "comm %zu ", i);
		put_str(w, h->comms[i].name);
		fprintf(w->f, " %d", h->comms[i].size);
		if (h->comms[i].members != NULL && h->comms[i].size > 0) {
			fputc(' ', w->f);
			put_members(w, h->comms[i].members, h->comms[i].size);
		}
		fputc('\n', w->f);
	}
	for (r = 0; r < h->nprocs; r++) {
		fprintf(w->f, "process %d ", r);
		put_str(w, h->processes[r].name);
		fputc(' ', w->f);
		put_str(w, h->processes[r].component);
		fprintf(w->f, " %d\n", h->processes[r].processor);
	}
	for (i = 0; i < h->nports; i++) {
		fprintf(w->f, "port %d ", h->ports[i].rank);
		put_str(w, h->ports[i].type);
		fprintf(w->f, " %d %d\n", h->ports[i].index, h->ports[i].peer);
	}
	fputs("events\n", w->f);
}

void
trace_write_event(struct trace_writer *w, const struct trace_event *ev)
{
	struct traceline	 l;
	size_t			 n;

	l.op = ev->op;
	l.rank = ev->rank;
	l.t0 = ev->t0ns;
	l.t1 = ev->t1ns;
	l.comm = ev->comm;
	l.mode = ev->mode;
	l.port = ev->port;
	l.peer = ev->peer;
	l.tag = ev->tag;
	l.dtype = ev->dtype;
	l.count = ev->count;
	l.sbytes = ev->sbytes;
	l.rbytes = ev->rbytes;
	l.req = ev->req;
	l.seq = ev->seq;
	l.raw = ev->raw;
	n = traceline_format(room(w, traceline_bound(&l)), &l);
	fwrite(w->line, 1, n, w->f);
	w->nevents++;
}

void
trace_write_line(struct trace_writer *w, const char *line, size_t n)
{
	fwrite(line, 1, n, w->f);
	w->nevents++;
}

int
trace_writer_close(struct trace_writer *w, char **cause)
{
	int	rc = 0, e = 0;

	fprintf(w->f, "end %lu\n", w->nevents);
	if (fflush(w->f) != 0 || ferror(w->f)) {
		e = errno;
		xasprintf(cause, "ensemble: cannot write '%s': %s", w->path,
		    strerror(e));
		rc = -1;
	}
	if (w->f != stdout && fclose(w->f) != 0 && rc == 0) {
		e = errno;
		xasprintf(cause, "ensemble: cannot write '%s': %s", w->path,
		    strerror(e));
		rc = -1;
	}
	free(w->line);
	free(w->path);
	free(w);
	if (rc != 0)
		errno = e;
	return rc;
}
