/* demux.c -- the launcher's output taken apart (launch-int.h).  It tags
 * each forwarded line, and each piece of one, with its writer's rank
 * (Open MPI's "[1,3]<stderr>:", read by the launcher's tag); a
 * trampoline's relayed line is a frame line (runtime/wire.h), and a
 * marker line is consumed here (wire_mark_parse), the rest passed on to
 * our stdout and stderr through bounded queues, or to the process's files
 * under --output-dir.  The launcher's own lines are kept and read (its
 * own_line) for exit codes and signals. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "launch-int.h"

/* The trampoline's marker of where process r runs, "start HOST", or of
 * how it ended (wire.h): "end HOST exit N", "end HOST signal N" or
 * "cannot HOST MESSAGE"; h is what follows the marker's word.  A process
 * that ends before it joined (no hello), even with status 0, failed; a
 * signal after another failure is the run being stopped. */
static void
demux_end(struct run *R, int r, enum wire_mark k, const char *h)
{
	struct rproc	*p = &R->p[r];
	size_t		 hl;
	int		 n;
	enum wire_mark	 how = wire_end_parse(h, &hl, &n);
	const char	*e = h + hl;

	if (p->host == NULL)
		p->host = xstrndup(h, hl);
	if (*e == '\0')
		return;
	if (!p->ended && ++R->nended == R->n) {
		R->done = 1;
		R->ended_at = clock_now();
	}
	p->ended = 1;
	if (k == WIRE_MARK_CANNOT) {
		if (p->cannot == NULL)
			p->cannot = xstrdup(e + 1);
		launch_mark_failed(R, r);
	} else if (k == WIRE_MARK_END && how == WIRE_MARK_EXIT) {
		p->exit_code = n;
		if (n != 0 || !p->hello)
			launch_mark_failed(R, r);
	} else if (k == WIRE_MARK_END && how == WIRE_MARK_SIGNAL) {
		if (p->signal == 0)
			p->signal = n;
		if (R->fail_at == 0)
			launch_mark_failed(R, r);
	}
}

/* A marker line from process r. */
static void
demux_marker(struct run *R, int r, const char *m)
{
	struct rproc	*p = &R->p[r];
	const char	*arg;
	char		*at, *ran;
	enum wire_mark	 k;

	switch (k = wire_mark_parse(m, &arg)) {
	case WIRE_MARK_HELLO:
		if (!p->hello && ++R->nhello == R->n)
			R->joined_at = clock_now();
		p->hello = 1;
		free(p->host);
		p->host = xstrdup(arg);
		break;
	case WIRE_MARK_FAIL:
		/* Before ens_init knew its name (an MPI error there), the
		 * process is named as the run knows it. */
		if (p->fail == NULL && strncmp(arg, WIRE_FAIL_NOBODY ": ",
		    strlen(WIRE_FAIL_NOBODY ": ")) == 0)
			xasprintf(&p->fail, "%s: %s", p->name,
			    arg + strlen(WIRE_FAIL_NOBODY ": "));
		else if (p->fail == NULL)
			p->fail = xstrdup(arg);
		/* It stopped the run (MPI_Abort after this line): a process
		 * said ended by SIGTERM or SIGKILL before this line came was
		 * stopped by that, through another path. */
		if (R->culprit >= 0 && R->p[R->culprit].fail == NULL &&
		    (R->p[R->culprit].signal == SIGTERM ||
		    R->p[R->culprit].signal == SIGKILL))
			R->culprit = r;
		launch_mark_failed(R, r);
		break;
	case WIRE_MARK_SIGNAL:
		p->signal = atoi(arg);
		launch_mark_failed(R, r);
		break;
	case WIRE_MARK_EXIT:
		p->exited_early = 1;
		launch_mark_failed(R, r);
		break;
	case WIRE_MARK_INIT:
		if (!p->entered && ++R->ninit == R->n)
			R->inited_at = clock_now();
		p->entered = 1;
		break;
	case WIRE_MARK_FINALIZE:
		p->finalized = 1;
		if (R->final_at == 0)
			R->final_at = clock_now();
		break;
	case WIRE_MARK_STATE:
		free(p->state);
		p->state = xstrdup(arg);
		/* " @SEQ +NS": which call and how long the process has run,
		 * kept apart from where. */
		p->seq_before = p->seq;
		p->ran_before = p->ran;
		p->seq = -1;
		p->ran = 0;
		if ((at = strstr(p->state, " @")) != NULL) {
			p->seq = atol(at + 2);
			if ((ran = strstr(at, " +")) != NULL)
				p->ran = strtoull(ran + 2, NULL, 10);
			*at = '\0';
		}
		if (R->final_at > 0 && R->fail_at == 0)
			watch_blocked_for_good(R, r);
		break;
	case WIRE_MARK_START:
	case WIRE_MARK_END:
	case WIRE_MARK_CANNOT:
		demux_end(R, r, k, arg);
		break;
	case WIRE_MARK_BLOCKED:
	case WIRE_MARK_UNBLOCKED:
		watch_marker(R, r, k, arg);
		break;
	case WIRE_MARK_WORLD:
		/* Its MPI world is not the run's: the launcher started the
		 * processes apart (launch_finish says it). */
		if (R->world == 0)
			R->world = atoi(arg) > 0 ? atoi(arg) : -1;
		launch_mark_failed(R, r);
		break;
	case WIRE_MARK_UNKNOWN:
		break;
	}
}

/* The path of process r's file for stdout (err 0) or stderr (err 1) under
 * --output-dir, a name no shell needs quoted: DIR/relay.2.out for
 * relay[2] (its name, '.' for '[', without ']'), DIR/master.err.  The
 * caller frees it. */
char *
demux_out_path(const struct run *R, int r, int err)
{
	const char	*name = R->p[r].name;
	char		*path, *q;

	xasprintf(&path, "%s/%s.%s", R->o->output_dir, name, err ? "err" : "out");
	for (q = path + strlen(R->o->output_dir) + 1; *name != '\0'; name++)
		if (*name != ']')
			*q++ = *name == '[' ? '.' : *name;
	memmove(q, err ? ".err" : ".out", 5);
	return path;
}

/* A write to process r's file under --output-dir failed with errno e:
 * said once; the run goes on, and fails at its end (launch_finish: output
 * lost is no success). */
static void
demux_out_lost(struct run *R, int r, int err, int e)
{
	char	*path;

	if (R->out_failed)
		return;
	path = demux_out_path(R, r, err);
	fprintf(stderr, "ensemble: cannot write to '%s': %s\n", path,
	    strerror(e));
	free(path);
	R->out_failed = 1;
}

/* Close process r's file under --output-dir, if open; an error on the
 * way (what stdio held back) is demux_out_lost's. */
void
demux_out_close(struct run *R, int r, int err)
{
	struct rproc	*p = &R->p[r];

	if (p->file[err] == NULL)
		return;
	if (fclose(p->file[err]) != 0)
		demux_out_lost(R, r, err, errno);
	p->file[err] = NULL;
	R->nopen--;
}

/* Why name, in the output directory, may not be made a process's file:
 * a symbolic link (never written through) or what is not a regular file
 * (a new string), or NULL: nothing there, or a file to replace. */
static char *
demux_out_refused(const struct run *R, const char *name)
{
	struct stat	st;

	if (fstatat(R->outdir, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return NULL;
	if (S_ISLNK(st.st_mode))
		return xstrdup("it is a symbolic link, which is not written"
		    " through");
	if (!S_ISREG(st.st_mode))
		return xstrdup("it is not a regular file");
	return NULL;
}

/* Open process r's file for stdout (err 0) or stderr (err 1) under
 * --output-dir: make it ('create', the run's start), or open it again to
 * append, the file made then and no other (not a link put in its place);
 * never through a symbolic link.  Kept open while fewer than OUT_OPEN_MAX
 * are (then the one of the process before it is closed: its next line
 * opens it again).  NULL when it cannot be (said once). */
static FILE *
demux_out_open(struct run *R, int r, int err, int create)
{
	struct rproc	*p = &R->p[r];
	struct stat	 st;
	char		*path, *name, *why = NULL;
	FILE		*f = NULL;
	int		 k, fd = -1;

	if (R->nopen >= OUT_OPEN_MAX)
		for (k = 0; k < 2 * R->n && R->nopen >= OUT_OPEN_MAX; k++) {
			struct rproc	*q = &R->p[(r + 1 + k / 2) % R->n];

			if (q->file[k % 2] != NULL)
				demux_out_close(R, (r + 1 + k / 2) % R->n, k % 2);
		}
	path = demux_out_path(R, r, err);
	name = path + strlen(R->o->output_dir) + 1;
	if (create && (why = demux_out_refused(R, name)) == NULL &&
	    unlinkat(R->outdir, name, 0) != 0 && errno != ENOENT)
		/* What is there is replaced, not written through: a link to
		 * a file elsewhere keeps it as it was. */
		xasprintf(&why, "%s", strerror(errno));
	if (why == NULL && (fd = openat(R->outdir, name, create ?
	    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC :
	    O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0666)) < 0)
		xasprintf(&why, "%s", strerror(errno));
	if (why == NULL && fstat(fd, &st) != 0)
		xasprintf(&why, "%s", strerror(errno));
	if (why == NULL && create) {
		p->fdev[err] = st.st_dev;
		p->fino[err] = st.st_ino;
	} else if (why == NULL && (st.st_dev != p->fdev[err] ||
	    st.st_ino != p->fino[err]))
		why = xstrdup("another file was put in its place");
	if (why == NULL && (f = fdopen(fd, "a")) == NULL)
		xasprintf(&why, "%s", strerror(errno));
	if (f == NULL && fd >= 0)
		close(fd);
	if (why != NULL && !R->out_failed) {
		fprintf(stderr, "ensemble: cannot open '%s': %s\n", path, why);
		R->out_failed = 1;
	}
	free(why);
	free(path);
	if (f != NULL) {
		p->file[err] = f;
		R->nopen++;
	}
	return f;
}

/* Queue n bytes of s for our stdout (q: R->oq[0]) or stderr; beyond
 * OUTQ_MAX, or once a write failed, they are dropped (counted). */
static void
demux_outq_add(struct outq *q, const char *s, size_t n)
{
	if (n == 0)
		return;
	if (q->dead || q->len - q->off + n > OUTQ_MAX) {
		q->dropped += n;
		return;
	}
	if (q->off > 0 && q->len + n > q->cap) {
		memmove(q->p, q->p + q->off, q->len - q->off);
		q->len -= q->off;
		q->off = 0;
	}
	if (q->len + n > q->cap)
		xgrow(&q->p, &q->cap, q->len + n, 1);
	memcpy(q->p + q->len, s, n);
	q->len += n;
}

/* The queue of what goes to our stdout (err 0) or stderr (1): one for
 * both when they are one file or pipe. */
struct outq *
demux_q(struct run *R, int err)
{
	return &R->oq[R->oq_same ? 0 : err];
}

/* Bytes queued for q. */
size_t
demux_outq_pending(const struct outq *q)
{
	return q->len - q->off;
}

/* Write what q holds, as much as its fd takes without blocking after
 * ppoll said it has room: PIPE_BUF on a pipe or a terminal, all on a
 * file.  A write that fails drops the rest. */
void
demux_outq_write(struct outq *q)
{
	size_t	n = demux_outq_pending(q);
	ssize_t	w;

	if (n == 0)
		return;
	if (q->piped && n > PIPE_BUF)
		n = PIPE_BUF;
	if ((w = write(q->fd, q->p + q->off, n)) < 0) {
		if (errno == EINTR || errno == EAGAIN)
			return;
		q->dead = 1;
		q->err = errno;
		q->dropped += demux_outq_pending(q);
		q->off = q->len = 0;
		return;
	}
	if (w > 0)
		q->last = (unsigned char)q->p[q->off + (size_t)w - 1];
	q->off += (size_t)w;
	if (q->off == q->len)
		q->off = q->len = 0;
}

/* Write n bytes of process r's stdout (err 0) or stderr (err 1), a line's
 * end after them when eol: to its file under --output-dir, else to ours,
 * each line after its name and ": " with --tag-output.  A tagged line is
 * one process's alone: a piece of another's that comes while it is open
 * (a long line, relayed in pieces) ends it, and its rest comes on a line
 * tagged anew. */
static void
demux_put(struct run *R, int r, int err, const char *s, size_t n, int eol)
{
	struct rproc	*p = &R->p[r];
	struct outq	*q = demux_q(R, err);
	FILE		*f;

	if (R->o->output_dir != NULL) {
		if ((f = p->file[err]) == NULL && (f = demux_out_open(R, r, err, 0)) == NULL)
			return;
		if ((fwrite(s, 1, n, f) != n || (eol && fputc('\n', f) == EOF)))
			demux_out_lost(R, r, err, errno);
		return;
	}
	if (R->o->tag_output && q->open_r >= 0 &&
	    (q->open_r != r || q->open_err != err)) {
		demux_outq_add(q, "\n", 1);
		R->p[q->open_r].open[q->open_err] = 0;
	}
	if (R->o->tag_output && !p->open[err]) {
		demux_outq_add(q, p->name, strlen(p->name));
		demux_outq_add(q, ": ", 2);
	}
	demux_outq_add(q, s, n);
	if (eol)
		demux_outq_add(q, "\n", 1);
	p->open[err] = !eol;
	q->open_r = eol ? -1 : r;
	q->open_err = err;
}

/* Bytes of process r's stdout (err 0) or stderr (err 1) as it wrote them,
 * eol: a newline after them.  Its stderr's last lines are kept for the
 * failure report (each cut at TAIL_LINE_MAX). */
static void
demux_out(struct run *R, int r, int err, const char *s, size_t n, int eol)
{
	struct rproc	*p = &R->p[r];
	size_t		 room;
	int		 put;

	if (!err) {
		demux_put(R, r, 0, s, n, eol);
		return;
	}
	/* Once one process failed, the others' last words are collateral. */
	put = R->o->output_dir != NULL || R->fail_at == 0 ||
	    R->culprit == r || R->timed_out || p->open[1];
	room = TAIL_LINE_MAX - p->tline.len;
	buf_add(&p->tline, s, n < room ? n : room);
	if (eol) {
		free(p->tail[p->ntail % TAIL_LINES]);
		p->tail[p->ntail % TAIL_LINES] = xstrdup(p->tline.s);
		/* On our stderr: the report need not quote it again. */
		p->shown[p->ntail % TAIL_LINES] = put &&
		    R->o->output_dir == NULL;
		p->ntail++;
		buf_reset(&p->tline);
	}
	if (put)
		demux_put(R, r, 1, s, n, eol);
}

/* A frame line of process r (the n bytes of s, NUL after them) on its
 * stdout (err 0), stderr (1) or stddiag (2), whole when eol, else the
 * start of one too long to keep, passed on as it is.  Under the
 * trampoline's relay (wire.h) its stdout and stderr are pieces of the
 * component's output, escaped, and a marker is a line of its stderr with
 * the run's secret; the rest is passed on as it is. */
static void
demux_frame(struct run *R, int r, int err, char *s, size_t n, int eol)
{
	struct rproc	*p = &R->p[r];
	size_t		 ml = strlen(WIRE_MARK), sl = strlen(R->secret);

	if (p->raw[err] || !eol) {
		p->raw[err] = !eol;
		demux_out(R, r, err == 0 ? 0 : 1, s, n, eol);
		return;
	}
	if (err == 1 && n > ml + sl && memcmp(s, WIRE_MARK, ml) == 0 &&
	    memcmp(s + ml, R->secret, sl) == 0 && s[ml + sl] == ' ')
		demux_marker(R, r, s + ml + sl + 1);
	else if (err < 2 && n > 0 &&
	    (s[0] == WIRE_PIECE_LINE || s[0] == WIRE_PIECE_PART))
		demux_out(R, r, err, s + 1, wire_unescape(s + 1, n - 1),
		    s[0] == WIRE_PIECE_LINE);
	else
		demux_out(R, r, err == 0 ? 0 : 1, s, n, 1);
}

/* Bytes of a segment of process r's stream err, as mpirun tagged it: to
 * its frame line, up to a newline ('eol', not in s). */
static void
demux_bytes(struct run *R, int r, int err, const char *s, size_t n, int eol)
{
	struct buf	*part;

	if (r < 0 || r >= R->n)
		return;
	part = &R->p[r].part[err];
	if (part->len + n > PART_MAX) {
		demux_frame(R, r, err, part->s, part->len, 0);
		buf_reset(part);
	}
	buf_add(part, s, n);
	if (eol) {
		demux_frame(R, r, err, part->s, part->len, 1);
		buf_reset(part);
	}
}

/* One of mpirun's own lines: keep it, and learn what it says of exits
 * (the launcher reads it). */
static void
demux_mpirun_line(struct run *R, const char *s)
{
	xgrow(&R->mlines, &R->amlines, R->nmlines + 1, sizeof(char *));
	R->mlines[R->nmlines++] = xstrdup(s);
	R->L->own_line(R, s);
}

/* Take what was read of mpirun's stdout (i 0) or stderr (1): split at its
 * tags (mpirun puts one before every line, and one before each piece it
 * read of a process's output, which may start in the middle of a line:
 * the trampolines escape every '[' of the components' output), each
 * piece to its process, a line without a tag mpirun's own.  What may be
 * the start of a tag is kept for the next read, unless 'eof'. */
static void
demux_take(struct run *R, int i, int eof)
{
	struct rd	*d = &R->rd[i];
	char		*p = d->acc.s, *e = p + d->acc.len, *q, *nl;
	int		 rank, err, k;
	size_t		 room;

	while (p < e) {
		if (d->seg == SEG_START) {
			if ((k = R->L->tag(p, (size_t)(e - p), i, &rank, &err)) < 0 &&
			    !eof)
				break;
			if (k > 0) {
				d->seg = SEG_PROC;
				d->rank = rank;
				d->err = err;
				p += k;
			} else
				d->seg = SEG_MPIRUN;
		} else if (d->seg == SEG_MPIRUN) {
			nl = memchr(p, '\n', (size_t)(e - p));
			q = nl != NULL ? nl : e;
			room = MLINE_MAX - d->mline.len;
			buf_add(&d->mline, p, (size_t)(q - p) < room ?
			    (size_t)(q - p) : room);
			p = q;
			if (nl != NULL) {
				demux_mpirun_line(R, d->mline.s);
				buf_reset(&d->mline);
				d->seg = SEG_START;
				p++;
			}
		} else {
			for (q = p; q < e && *q != '\n' && *q != '['; q++)
				;
			demux_bytes(R, d->rank, d->err, p, (size_t)(q - p),
			    q < e && *q == '\n');
			p = q;
			if (q == e)
				break;
			if (*q == '\n') {
				d->seg = SEG_START;
				p++;
				continue;
			}
			if ((k = R->L->tag(q, (size_t)(e - q), i, &rank, &err)) < 0 &&
			    !eof)
				break;
			if (k > 0) {
				d->rank = rank;
				d->err = err;
				p += k;
			} else {
				demux_bytes(R, d->rank, d->err, q, 1, 0);
				p++;
			}
		}
	}
	if (eof && d->seg == SEG_MPIRUN && d->mline.len > 0) {
		demux_mpirun_line(R, d->mline.s);
		buf_reset(&d->mline);
	}
	if (d->acc.s == NULL)
		return;
	memmove(d->acc.s, p, (size_t)(e - p));
	d->acc.len = (size_t)(e - p);
	d->acc.s[d->acc.len] = '\0';
}

/* Read what is there on mpirun's stdout (i 0) or stderr (1), and take
 * it.  0, or -1 at EOF. */
int
demux_drain(struct run *R, int i)
{
	struct rd	*d = &R->rd[i];
	char		 chunk[65536];
	ssize_t		 n;

	n = read(R->pfd[i].fd, chunk, sizeof(chunk));
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (n <= 0) {
		demux_take(R, i, 1);
		return -1;
	}
	buf_add(&d->acc, chunk, (size_t)n);
	demux_take(R, i, 0);
	return 0;
}

/* --output-dir: make the directory if it is not there, and a new empty
 * NAME.out and NAME.err in it for every process.  The directory is
 * opened once, and the files in it (demux_out_open); one we made is
 * opened without following a link put in its place.  0, or -1 (said). */
int
demux_out_create(struct run *R)
{
	const char	*dir = R->o->output_dir;
	struct stat	 st;
	char		*path, *why;
	int		 i, err, made;

	made = mkdir(dir, 0777) == 0;
	if (!made && errno != EEXIST) {
		fprintf(stderr, "ensemble: cannot make the directory '%s': %s\n",
		    dir, strerror(errno));
		return -1;
	}
	if ((R->outdir = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC |
	    (made ? O_NOFOLLOW : 0))) < 0 || fstat(R->outdir, &st) != 0 ||
	    (made && st.st_uid != geteuid())) {
		fprintf(stderr, "ensemble: cannot make the directory '%s': %s\n",
		    dir, errno == ELOOP || R->outdir >= 0 ?
		    "another was put in its place" : strerror(errno));
		return -1;
	}
	/* Every name looked at before any file is made, so that a refused
	 * one leaves the directory as it was. */
	for (i = 0; i < R->n; i++)
		for (err = 0; err < 2; err++) {
			path = demux_out_path(R, i, err);
			why = demux_out_refused(R, path + strlen(dir) + 1);
			if (why != NULL) {
				fprintf(stderr, "ensemble: cannot open '%s': %s\n",
				    path, why);
				R->out_failed = 1;
			}
			free(why);
			free(path);
			if (R->out_failed)
				return -1;
		}
	for (i = 0; i < R->n; i++)
		for (err = 0; err < 2; err++) {
			if (demux_out_open(R, i, err, 1) == NULL)
				return -1;
			demux_out_close(R, i, err);
		}
	return 0;
}

/* The end of the run's output: each frame line mpirun's end cut short,
 * then what is queued for our stdout and stderr, written while their
 * readers take it, for OUT_GRACE at most; what is left is dropped and
 * said, and stderr made non-blocking for the report if its reader takes
 * nothing (*stuck: its flags before).  What run says next starts a line
 * of its own, after a newline if a process's output on our stderr ended
 * without one. */
void
demux_flush(struct run *R, int *stuck)
{
	static const char	*what[] = { "stdout", "stderr" };
	struct pollfd		 pfd[2];
	struct outq		*q;
	double			 end = clock_now() + OUT_GRACE, left;
	int			 i, k, n, r;

	for (r = 0; r < R->n; r++)
		for (k = 0; k < 3; k++)
			if (R->p[r].part[k].len > 0) {
				demux_frame(R, r, k, R->p[r].part[k].s,
				    R->p[r].part[k].len, 1);
				buf_reset(&R->p[r].part[k]);
			}
	for (;;) {
		for (i = n = 0; i < 2; i++)
			if (demux_outq_pending(&R->oq[i]) > 0) {
				pfd[n].fd = i + 1;
				pfd[n++].events = POLLOUT;
			}
		if (n == 0 || (left = end - clock_now()) <= 0)
			break;
		if (poll(pfd, (nfds_t)n, (int)(left * 1000) + 1) < 0 &&
		    errno != EINTR)
			break;
		for (i = 0; i < n; i++)
			if (pfd[i].revents != 0)
				demux_outq_write(&R->oq[pfd[i].fd - 1]);
	}
	q = demux_q(R, 1);
	*stuck = -1;
	if (demux_outq_pending(q) > 0 &&
	    (*stuck = fcntl(STDERR_FILENO, F_GETFL)) >= 0)
		fcntl(STDERR_FILENO, F_SETFL, *stuck | O_NONBLOCK);
	if (q->last >= 0 && q->last != '\n' && demux_outq_pending(q) == 0)
		fputc('\n', stderr);
	for (i = 0; i < 2; i++) {
		q = &R->oq[i];
		q->dropped += demux_outq_pending(q);
		q->off = q->len = 0;
		if (q->dropped == 0)
			continue;
		if (q->dead && q->err != EPIPE)
			fprintf(stderr, "ensemble: %s: cannot write the processes'"
			    " output to %s: %s (%llu bytes dropped)\n",
			    R->g->name, R->oq_same ? "stdout and stderr" : what[i],
			    strerror(q->err), q->dropped);
		else
			fprintf(stderr, "ensemble: %s: %llu bytes of the processes'"
			    " output to %s were dropped: %s\n", R->g->name,
			    q->dropped, R->oq_same ? "stdout and stderr" : what[i],
			    q->dead ? "its reader closed it" :
			    "its reader did not take them");
	}
}

/* Whether writing the processes' output to our stdout or stderr failed
 * (not for a reader that closed its end): said by demux_flush. */
int
demux_out_failed(const struct run *R)
{
	int	i;

	for (i = 0; i < 2; i++)
		if (R->oq[i].dead && R->oq[i].err != EPIPE)
			return 1;
	return 0;
}
