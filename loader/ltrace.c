/* ltrace.c -- the processes' parts of a trace merged into one MTF file
 * (ltrace.h): a k-way merge by T0 over a binary heap of the parts' current
 * lines, written through libtrace's writer. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltrace.h"
#include "trace.h"
#include "xmalloc.h"

/* A stream being merged: its file and current line. */
struct stream {
	FILE		*f;
	char		*line;
	size_t		 cap;
	ssize_t		 len;
	int64_t		 t0;
	int		 rank;
	unsigned long	 n;		/* lines read, for ties */
};

/* The part of rank's stream in dir (wire.h). */
static char *
path_of(const char *dir, int rank)
{
	char	*p;

	xasprintf(&p, "%s/%d", dir, rank);
	return p;
}

/* Read s's next event line: 1, or 0 at its end, -1 when malformed. */
static int
advance(struct stream *s)
{
	int	ok;

	if ((s->len = getline(&s->line, &s->cap, s->f)) <= 0)
		return 0;
	s->n++;
	s->t0 = traceline_t0(s->line, (size_t)s->len, &ok);
	return ok && s->line[s->len - 1] == '\n' ? 1 : -1;
}

/* Whether stream a comes before b: by T0, then rank. */
static int
before(const struct stream *a, const struct stream *b)
{
	if (a->t0 != b->t0)
		return a->t0 < b->t0;
	return a->rank < b->rank;
}

/* Restore the heap from position i down. */
static void
sift(struct stream **h, int n, int i)
{
	struct stream	*x;
	int		 c;

	for (;;) {
		c = 2 * i + 1;
		if (c >= n)
			return;
		if (c + 1 < n && before(h[c + 1], h[c]))
			c++;
		if (!before(h[c], h[i]))
			return;
		x = h[c];
		h[c] = h[i];
		h[i] = x;
		i = c;
	}
}

int
ltrace_write(const char *dir, int nprocs, struct trace_hdr *h, const char *path,
    const volatile sig_atomic_t *stop, char **cause)
{
	struct trace_writer	 *w = NULL;
	struct stream		 *ss, **heap;
	char			 *p, *host, *wcause = NULL;
	size_t			  k;
	int			  i, n = 0, rc = -1, r;

	ss = xcalloc((size_t)nprocs, sizeof(*ss));
	heap = xcalloc((size_t)nprocs, sizeof(*heap));
	h->processors = xcalloc((size_t)nprocs, sizeof(*h->processors));
	for (i = 0; i < nprocs; i++) {
		ss[i].rank = i;
		p = path_of(dir, i);
		ss[i].f = fopen(p, "r");
		if (ss[i].f == NULL) {
			xasprintf(cause, "no trace from process %d ('%s'): %s",
			    i, p, strerror(errno));
			free(p);
			goto out;
		}
		free(p);
		/* "host NAME": its processor. */
		ss[i].len = getline(&ss[i].line, &ss[i].cap, ss[i].f);
		if (ss[i].len < 7 || strncmp(ss[i].line, "host ", 5) != 0) {
			xasprintf(cause, "the trace of process %d names no host",
			    i);
			goto out;
		}
		host = ss[i].line + 5;
		host[strcspn(host, "\n")] = '\0';
		for (k = 0; k < h->nprocessors; k++)
			if (strcmp(h->processors[k].host, host) == 0)
				break;
		if (k == h->nprocessors)
			h->processors[h->nprocessors++].host = xstrdup(host);
		h->processes[i].processor = (int)k;
		if ((r = advance(&ss[i])) < 0) {
			xasprintf(cause, "a bad line in the trace of process %d",
			    i);
			goto out;
		}
		if (r == 1)
			heap[n++] = &ss[i];
	}
	for (i = n / 2 - 1; i >= 0; i--)
		sift(heap, n, i);
	if ((w = trace_writer_open(path, &wcause)) == NULL) {
		xasprintf(cause, "%s", strerror(errno));
		goto out;
	}
	trace_write_header(w, h);
	while (n > 0) {
		if (*stop)
			goto out;
		trace_write_line(w, heap[0]->line, (size_t)heap[0]->len);
		if ((r = advance(heap[0])) < 0) {
			xasprintf(cause, "a bad line in the trace of process %d",
			    heap[0]->rank);
			goto out;
		}
		if (r == 0)
			heap[0] = heap[--n];
		sift(heap, n, 0);
	}
	if (*stop)
		goto out;
	/* The writer's cause names path; ours, to follow the trace's
	 * name, only why. */
	if ((rc = trace_writer_close(w, &wcause)) != 0) {
		xasprintf(cause, "%s", strerror(errno));
		unlink(path);
	}
	w = NULL;
out:
	if (w != NULL) {
		trace_writer_close(w, &wcause);
		unlink(path);
	}
	free(wcause);
	for (i = 0; i < nprocs; i++) {
		if (ss[i].f != NULL)
			fclose(ss[i].f);
		free(ss[i].line);
	}
	free(ss);
	free(heap);
	return rc;
}
