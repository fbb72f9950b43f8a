/* launch.c -- 'ensemble run' after verification: check that the processes
 * fit the slots they are given, write the run's plan (plan.h: an appfile
 * line per process, through the trampoline ensemble-exec, and the port
 * tables), start 'mpirun --app' with the tables on its standard input,
 * pass every process's output through, and watch.  The processes are one
 * MPI job, as under a plain mpirun: no helper of ours takes a slot or
 * talks MPI.  Open MPI tags each forwarded line with its writer's rank
 * ("[1,3]<stderr>:"), so a line is known to come from process 3; marker
 * lines (runtime/wire.h) are consumed, the rest passed on.  When
 * something fails the report names the process and how it ended, with its
 * last lines on stderr, and holds back the noise of the others being
 * stopped; --timeout asks every process where it is (SIGUSR1, which
 * mpirun forwards) before stopping them, and so does the start watchdog
 * when not every process joins.  Open MPI's own messages are read for
 * exit codes and signals and otherwise shown only when nothing else
 * explains a failure.  While the processes run, this process sleeps in
 * ppoll until a line, a signal or its next deadline comes.  No process is
 * left behind: this process is a child subreaper, so whatever mpirun
 * leaves is ours to stop.  With --trace, the processes write their parts
 * into a directory beside the trace file, merged here (ltrace.c). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>

#include "alloc.h"
#include "clock.h"
#include "fan.h"
#include "launch.h"
#include "ltrace.h"
#include "plan.h"
#include "tidy.h"
#include "trace.h"
#include "wire.h"
#include "xmalloc.h"

#define TAIL_LINES	10
#define STOP_GRACE	4.0	/* seconds from a failure to SIGTERM */
#define KILL_GRACE	3.0	/* from SIGTERM to SIGKILL */
#define STATE_WAIT	2.0	/* for the answers to SIGUSR1 */
#define ORPHAN_GRACE	2.0	/* from the last process's end to stopping strays */
#define DRAIN_GRACE	0.05	/* from mpirun having read all its stdin to
				 * its end (stdin_drained) */
#define DRAIN_POLL	0.01	/* how often to look until then: first, */
#define DRAIN_POLL_MOST	1.0	/* ... doubling up to this */
#define OUT_OPEN_MAX	256	/* --output-dir: files kept open at once */
#define FINAL_ASK	1.0	/* from a process's ens_finalize, the run going
				 * on, to asking where the others are */
#define FINAL_ASK_EVERY	1.0	/* ... and again, while it goes on, twice as
				 * long each time up to FINAL_ASK_MOST */
#define FINAL_ASK_MOST	60.0
#define PART_MAX	(4 * WIRE_MARK_MAX)	/* a frame line kept whole:
				 * longer is passed on as it is, cut */
#define MLINE_MAX	65536	/* of one of mpirun's own lines, kept */
#define TAIL_LINE_MAX	1024	/* of a line of the failure report's tail */
#define OUTQ_SOFT	(256 * 1024)	/* queued for our stdout or stderr:
				 * mpirun's is not read while more is */
#define OUTQ_MAX	(4 * 1024 * 1024)	/* more is dropped */
#define OUT_GRACE	2.0	/* at the end, for our readers to take it */

/* A process of the application as the run sees it. */
struct rproc {
	char		 name[PCG_NAME_MAX];
	const char	*component;
	char		*host;		/* from its trampoline, then its hello */
	int		 hello;		/* ens_init returned: it joined */
	int		 entered;	/* its "init": it called ens_init */
	char		*fail;		/* its fail marker's message */
	int		 signal;
	int		 exited_early;	/* without ens_finalize */
	int		 finalized;	/* it called ens_finalize */
	int		 exit_code;	/* from mpirun or its end; -1 unknown */
	int		 ended;		/* the trampoline said how it ended */
	char		*cannot;	/* why it could not be started */
	char		*state;		/* its answer to SIGUSR1 */
	char		*forgood;	/* why it is blocked for good: its peer
					 * on the port it waits on finalized */
	int		 loader_signal;	/* its trampoline was killed by this
					 * signal, saying nothing: 0 none */
	long		 seq, seq_before;	/* the call of its last answer
					 * and of the one before; -1: none */
	char		*tail[TAIL_LINES];
	char		 shown[TAIL_LINES]; /* that line is on our stderr */
	int		 ntail;		/* lines seen */
	struct buf	 tline;		/* the stderr line being read, for tail */
	struct buf	 part[3];	/* a frame line in pieces, as mpirun cut
					 * it: stdout, stderr, stddiag */
	int		 raw[3];	/* part was too long: passed on as it is */
	int		 open[2];	/* a line of its stdout, stderr is open
					 * on ours (--tag-output: no name) */
	FILE		*file[2];	/* --output-dir: NAME.out, NAME.err */
};

/* Reading one of mpirun's pipes: where the bytes that come belong. */
enum rd_seg {
	SEG_START,		/* a line begins: a tag, or mpirun's own */
	SEG_MPIRUN,		/* mpirun's own line */
	SEG_PROC,		/* a process's, after a tag */
};

struct rd {
	enum rd_seg	 seg;
	int		 rank, err;	/* SEG_PROC: whose, and which stream */
	struct buf	 acc;		/* read, not yet taken (a tag in part) */
	struct buf	 mline;		/* SEG_MPIRUN: the line so far */
};

/* What waits to be written on our stdout or stderr (run_pump writes it
 * when ppoll says there is room, so that a reader that takes nothing
 * never stops the watch). */
struct outq {
	int		 fd;
	char		*p;
	size_t		 off, len, cap;
	int		 piped;		/* not a file: PIPE_BUF at a time */
	int		 dead;		/* a write failed: drop the rest */
	unsigned long long dropped;	/* bytes */
};

/* How far the stopping of the run has gone (run_escalate).  A failure, an
 * interrupt, --timeout or the start watchdog starts it; each phase up to
 * RUN_KILLED is entered by sending mpirun one signal, which it forwards to
 * the processes it started.  Once mpirun has exited, whatever the phase,
 * only its pipes are read. */
enum run_phase {
	RUN_RUNNING,		/* no signal sent */
	RUN_ASKED,		/* SIGUSR1 sent, waiting for the answers */
	RUN_TERMINATED,		/* SIGTERM sent */
	RUN_KILLED,		/* SIGKILL sent */
	RUN_EXITED,		/* mpirun reaped; reading what is left in its pipes */
};

struct run {
	const struct pcg	*g;
	const struct launch_opts *o;
	struct rproc		*p;
	int			 n;
	int			 ninit, nhello, nended;	/* processes that did */
	double			 inited_at, joined_at, ended_at;	/* all of them */
	int			 done;		/* every process ended */
	char			**mlines;	/* mpirun's own lines */
	size_t			 nmlines, amlines;
	int			 culprit;	/* the first process that failed */
	int			 exit_proc;	/* mpirun's "Process name" */
	int			 sig_rank, sig_num;
	double			 fail_at;	/* when a failure was first seen */
	double			 final_at;	/* a process's ens_finalize, first */
	double			 final_asked;	/* when the others were last asked
						 * where they are, since */
	double			 final_every;	/* the wait before the next time */
	int			 timed_out;	/* --timeout: SIGUSR1 sent */
	int			 out_failed;	/* --output-dir: a file failed */
	int			 nopen;		/* files open in it */
	double			 start_timeout;	/* the start watchdog's seconds */
	int			 stuck;		/* it fired */
	int			 stuck_asked;	/* ... and SIGUSR1 was sent for it */
	struct alloc		 alloc;		/* the slots (run_fit) */
	const struct alloc_host	**placed;	/* per process, its host in them;
						 * NULL: not placed, or this
						 * machine alone */
	int			 nplaced;	/* processes placed */

	/* What mpirun's standard input carries: the bundle of port tables,
	 * then with --stdin ours (relayed through rbuf). */
	struct wire_buf		 bundle;
	size_t			 sent;
	int			 in_eof;	/* our stdin ended */
	double			 drained_at;	/* when mpirun had read all of
						 * it (0: not yet; stdin_drained) */
	double			 drain_next;	/* when to look again */
	double			 drain_wait;	/* the wait before that */
	char			 rbuf[65536];
	size_t			 rlen, roff;	/* rbuf holds [roff, rlen) */

	/* Where the run keeps its files: the appfile, and on this machine
	 * Open MPI's session directory; Open MPI's shared-memory segments
	 * (shmdir, this machine only); --trace: the parts.  All removed by
	 * tidy, even when run dies. */
	char			*workdir, *appfile;
	char			*shmdir;
	char			*tracedir;
	struct tidy		 tidy;
	char			 origin[64];	/* --trace: "S.N" */

	/* mpirun, and the watch over it. */
	pid_t			 pid;
	int			 wstatus;	/* its wait status, once RUN_EXITED */
	double			 t0;		/* when it was started */
	enum run_phase		 phase;
	double			 phase_at;	/* when the phase began */
	double			 swept_at;	/* the last stop of strays */
	struct pollfd		*pfd;		/* its stdout, stderr; its stdin;
						 * --stdin: ours; our stdout,
						 * stderr (out_write); then
						 * --stdin all: the fan's */
	struct fan		*fan;		/* --stdin all; NULL */
	char			*fan_addrs;	/* its --stdin-net */
	struct rd		 rd[2];		/* reading its stdout, stderr */
	struct outq		 oq[2];		/* to our stdout, stderr */
	int			 oq_same;	/* both one pipe */
	char			 secret[40];	/* the run's, in the trampolines'
						 * markers (exec.c) */
	int			 handling;	/* SIGINT, SIGTERM, SIGCHLD are ours */
	struct sigaction	 old_int, old_term, old_chld;
	sigset_t		 old_mask;
};

static volatile sig_atomic_t interrupted;

static void
on_interrupt(int sig)
{
	interrupted = sig;
}

/* SIGCHLD only wakes ppoll (it is blocked but there): mpirun or a
 * process left behind has ended. */
static void
on_child(int sig)
{
	(void)sig;
}

/* "[J,R]<stdout>:" at the n bytes of s: its length, with *job, *rank
 * and *err (0 stdout, 1 stderr, 2 stddiag) set; 0 when s does not start
 * with a tag; -1 when the n bytes may be the start of one. */
static int
tag_at(const char *s, size_t n, int *job, int *rank, int *err)
{
	static const char	*names[] = { "<stdout>:", "<stderr>:",
				    "<stddiag>:" };
	long			 v[2];
	size_t			 i = 1, k, m;
	int			 f;

	if (n == 0)
		return -1;
	if (s[0] != '[')
		return 0;
	for (f = 0; f < 2; f++) {
		v[f] = 0;
		for (k = 0; i < n && s[i] >= '0' && s[i] <= '9'; i++, k++) {
			if (k >= 9)
				return 0;
			v[f] = v[f] * 10 + (s[i] - '0');
		}
		if (i == n)
			return -1;
		if (k == 0 || s[i++] != (f == 0 ? ',' : ']'))
			return 0;
	}
	for (f = 0; f < 3; f++) {
		m = strlen(names[f]);
		k = n - i < m ? n - i : m;
		if (memcmp(s + i, names[f], k) != 0)
			continue;
		if (k < m)
			return -1;
		*job = (int)v[0];
		*rank = (int)v[1];
		*err = f;
		return (int)(i + m);
	}
	return 0;
}

static const char *
host_of(const struct rproc *p)
{
	return p->host != NULL ? p->host : "unknown";
}

static void
mark_failed(struct run *R, int who)
{
	if (R->fail_at == 0)
		R->fail_at = clock_now();
	if (R->culprit < 0 && who >= 0)
		R->culprit = who;
}

/* The process at the other end of process r's port "Type index", or -1. */
static int
peer_of(const struct run *R, int r, const char *type, int index)
{
	const struct pcg	*g = R->g;
	const struct pcg_proc	*p = &g->procs[r];
	const struct pcg_comp	*c = &g->comps[p->comp];
	const struct pcg_chan	*ch;
	int			 t, slot = p->portbase, ci;

	for (t = 0; t < c->ntypes; t++) {
		if (strcmp(c->types[t], type) == 0)
			break;
		slot += p->nports[t];
	}
	if (t == c->ntypes || index < 1 || index > p->nports[t])
		return -1;
	if ((ci = g->portchan[slot + index - 1]) < 0)
		return -1;
	ch = &g->chans[ci];
	return ch->e[1 - pcg_chan_end(ch, r, t, index)].proc;
}

/* Process r said where it is (its answer to SIGUSR1): blocked in a call
 * on a port whose peer has called ens_finalize, and in the same call when
 * asked before (not one that was taking a message the peer sent before
 * it finalized), it is blocked for good, which fails the run now, as a
 * death does (a finalized process takes and sends nothing more). */
static void
blocked_for_good(struct run *R, int r)
{
	struct rproc	*p = &R->p[r];
	char		 call[64], type[256], pn[PCG_NAME_MAX];
	int		 port, q;

	if (p->forgood != NULL || p->finalized || p->seq < 0 ||
	    p->seq != p->seq_before ||
	    sscanf(p->state, "%63s %255s %d", call, type, &port) != 3 ||
	    port < 1 || (q = peer_of(R, r, type, port)) < 0 ||
	    !R->p[q].finalized)
		return;
	xasprintf(&p->forgood, "%s (component %s, host %s) is blocked for good"
	    " in '%s %s[%d]': its peer %s has called ens_finalize", p->name,
	    p->component, host_of(p), call, type, port,
	    pcg_proc_name(R->g, q, pn, sizeof(pn)));
	mark_failed(R, r);
}

/* The trampoline's marker of where process r runs, "start HOST", or of
 * how it ended (wire.h): "end HOST exit N", "end HOST signal N" or
 * "cannot HOST MESSAGE"; h is what follows the marker's word.  A process
 * that ends before it joined (no hello), even with status 0, failed; a
 * signal after another failure is the run being stopped. */
static void
proc_end(struct run *R, int r, enum wire_mark k, const char *h)
{
	struct rproc	*p = &R->p[r];
	const char	*e = h + strcspn(h, " ");
	int		 n;

	if (p->host == NULL)
		p->host = xstrndup(h, (size_t)(e - h));
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
		mark_failed(R, r);
	} else if (sscanf(e, " " WIRE_WORD_EXIT " %d", &n) == 1) {
		p->exit_code = n;
		if (n != 0 || !p->hello)
			mark_failed(R, r);
	} else if (sscanf(e, " " WIRE_WORD_SIGNAL " %d", &n) == 1) {
		if (p->signal == 0)
			p->signal = n;
		if (R->fail_at == 0)
			mark_failed(R, r);
	}
}

/* A marker line from process r. */
static void
proc_marker(struct run *R, int r, const char *m)
{
	struct rproc	*p = &R->p[r];
	const char	*arg;
	char		*at;
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
		if (p->fail == NULL)
			p->fail = xstrdup(arg);
		/* It stopped the run (MPI_Abort after this line): a process
		 * said ended by SIGTERM or SIGKILL before this line came was
		 * stopped by that, through another path. */
		if (R->culprit >= 0 && R->p[R->culprit].fail == NULL &&
		    (R->p[R->culprit].signal == SIGTERM ||
		    R->p[R->culprit].signal == SIGKILL))
			R->culprit = r;
		mark_failed(R, r);
		break;
	case WIRE_MARK_SIGNAL:
		p->signal = atoi(arg);
		mark_failed(R, r);
		break;
	case WIRE_MARK_EXIT:
		p->exited_early = 1;
		mark_failed(R, r);
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
		/* " @SEQ": which call, kept apart from where. */
		p->seq_before = p->seq;
		p->seq = -1;
		if ((at = strstr(p->state, " @")) != NULL) {
			p->seq = atol(at + 2);
			*at = '\0';
		}
		if (R->final_at > 0 && R->fail_at == 0)
			blocked_for_good(R, r);
		break;
	case WIRE_MARK_START:
	case WIRE_MARK_END:
	case WIRE_MARK_CANNOT:
		proc_end(R, r, k, arg);
		break;
	case WIRE_MARK_UNKNOWN:
		break;
	}
}

/* The path of process r's file for stdout (err 0) or stderr (err 1) under
 * --output-dir, a name no shell needs quoted: DIR/relay.2.out for
 * relay[2] (its name, '.' for '[', without ']'), DIR/master.err.  The
 * caller frees it. */
static char *
out_path(const struct run *R, int r, int err)
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
 * said once; the run goes on, and fails at its end (run_finish: output
 * lost is no success). */
static void
out_lost(struct run *R, int r, int err, int e)
{
	char	*path;

	if (R->out_failed)
		return;
	path = out_path(R, r, err);
	fprintf(stderr, "ensemble: cannot write to '%s': %s\n", path,
	    strerror(e));
	free(path);
	R->out_failed = 1;
}

/* Close process r's file under --output-dir, if open; an error on the
 * way (what stdio held back) is out_lost's. */
static void
out_close(struct run *R, int r, int err)
{
	struct rproc	*p = &R->p[r];

	if (p->file[err] == NULL)
		return;
	if (fclose(p->file[err]) != 0)
		out_lost(R, r, err, errno);
	p->file[err] = NULL;
	R->nopen--;
}

/* Open process r's file for stdout (err 0) or stderr (err 1) under
 * --output-dir in 'mode', kept open while fewer than OUT_OPEN_MAX are
 * (then the one of the process before it is closed: its next line opens
 * it again, to append).  NULL when it cannot be opened (said once). */
static FILE *
out_open(struct run *R, int r, int err, const char *mode)
{
	char	*path;
	FILE	*f;
	int	 k;

	if (R->nopen >= OUT_OPEN_MAX)
		for (k = 0; k < 2 * R->n && R->nopen >= OUT_OPEN_MAX; k++) {
			struct rproc	*q = &R->p[(r + 1 + k / 2) % R->n];

			if (q->file[k % 2] != NULL)
				out_close(R, (r + 1 + k / 2) % R->n, k % 2);
		}
	path = out_path(R, r, err);
	if ((f = fopen(path, mode)) == NULL && !R->out_failed) {
		fprintf(stderr, "ensemble: cannot open '%s': %s\n", path,
		    strerror(errno));
		R->out_failed = 1;
	}
	free(path);
	if (f != NULL) {
		R->p[r].file[err] = f;
		R->nopen++;
	}
	return f;
}

/* Queue n bytes of s for our stdout (q: R->oq[0]) or stderr; beyond
 * OUTQ_MAX, or once a write failed, they are dropped (counted). */
static void
outq_add(struct outq *q, const char *s, size_t n)
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

/* Bytes queued for q. */
static size_t
outq_pending(const struct outq *q)
{
	return q->len - q->off;
}

/* Write what q holds, as much as its fd takes without blocking after
 * ppoll said it has room: PIPE_BUF on a pipe or a terminal, all on a
 * file.  A write that fails drops the rest. */
static void
outq_write(struct outq *q)
{
	size_t	n = outq_pending(q);
	ssize_t	w;

	if (n == 0)
		return;
	if (q->piped && n > PIPE_BUF)
		n = PIPE_BUF;
	if ((w = write(q->fd, q->p + q->off, n)) < 0) {
		if (errno == EINTR || errno == EAGAIN)
			return;
		q->dead = 1;
		q->dropped += outq_pending(q);
		q->off = q->len = 0;
		return;
	}
	q->off += (size_t)w;
	if (q->off == q->len)
		q->off = q->len = 0;
}

/* Write n bytes of process r's stdout (err 0) or stderr (err 1), a line's
 * end after them when eol: to its file under --output-dir, else to ours,
 * each line after its name and ": " with --tag-output. */
static void
proc_put(struct run *R, int r, int err, const char *s, size_t n, int eol)
{
	struct rproc	*p = &R->p[r];
	struct outq	*q = &R->oq[err];
	FILE		*f;

	if (R->o->output_dir != NULL) {
		if ((f = p->file[err]) == NULL && (f = out_open(R, r, err, "a")) == NULL)
			return;
		if ((fwrite(s, 1, n, f) != n || (eol && fputc('\n', f) == EOF)))
			out_lost(R, r, err, errno);
		return;
	}
	if (R->o->tag_output && !p->open[err]) {
		outq_add(q, p->name, strlen(p->name));
		outq_add(q, ": ", 2);
	}
	outq_add(q, s, n);
	if (eol)
		outq_add(q, "\n", 1);
	p->open[err] = !eol;
}

/* Bytes of process r's stdout (err 0) or stderr (err 1) as it wrote them,
 * eol: a newline after them.  Its stderr's last lines are kept for the
 * failure report (each cut at TAIL_LINE_MAX). */
static void
proc_out(struct run *R, int r, int err, const char *s, size_t n, int eol)
{
	struct rproc	*p = &R->p[r];
	size_t		 room;
	int		 put;

	if (!err) {
		proc_put(R, r, 0, s, n, eol);
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
		proc_put(R, r, 1, s, n, eol);
}

/* A frame line of process r (the n bytes of s, NUL after them) on its
 * stdout (err 0), stderr (1) or stddiag (2), whole when eol, else the
 * start of one too long to keep, passed on as it is.  Under the
 * trampoline's relay (wire.h) its stdout and stderr are pieces of the
 * component's output, escaped, and a marker is a line of its stderr with
 * the run's secret; the rest is passed on as it is. */
static void
proc_frame(struct run *R, int r, int err, char *s, size_t n, int eol)
{
	struct rproc	*p = &R->p[r];
	size_t		 ml = strlen(WIRE_MARK), sl = strlen(R->secret);

	if (p->raw[err] || !eol) {
		p->raw[err] = !eol;
		proc_out(R, r, err == 0 ? 0 : 1, s, n, eol);
		return;
	}
	if (err == 1 && n > ml + sl && memcmp(s, WIRE_MARK, ml) == 0 &&
	    memcmp(s + ml, R->secret, sl) == 0 && s[ml + sl] == ' ')
		proc_marker(R, r, s + ml + sl + 1);
	else if (err < 2 && n > 0 &&
	    (s[0] == WIRE_PIECE_LINE || s[0] == WIRE_PIECE_PART))
		proc_out(R, r, err, s + 1, wire_unescape(s + 1, n - 1),
		    s[0] == WIRE_PIECE_LINE);
	else
		proc_out(R, r, err == 0 ? 0 : 1, s, n, 1);
}

/* Bytes of a segment of process r's stream err, as mpirun tagged it: to
 * its frame line, up to a newline ('eol', not in s). */
static void
proc_bytes(struct run *R, int r, int err, const char *s, size_t n, int eol)
{
	struct buf	*part;

	if (r < 0 || r >= R->n)
		return;
	part = &R->p[r].part[err];
	if (part->len + n > PART_MAX) {
		proc_frame(R, r, err, part->s, part->len, 0);
		buf_reset(part);
	}
	buf_add(part, s, n);
	if (eol) {
		proc_frame(R, r, err, part->s, part->len, 1);
		buf_reset(part);
	}
}

/* One of mpirun's own lines: keep it, and learn what it says of exits. */
static void
mpirun_line(struct run *R, const char *s)
{
	int	j, r, code, pid;
	char	node[256];

	xgrow(&R->mlines, &R->amlines, R->nmlines + 1, sizeof(char *));
	R->mlines[R->nmlines++] = xstrdup(s);
	while (*s == ' ')
		s++;
	if (sscanf(s, "Process name: [[%*d,%d],%d]", &j, &r) == 2)
		R->exit_proc = j >= 1 && r < R->n ? r : -1;
	else if (sscanf(s, "Exit code: %d", &code) == 1 && R->exit_proc >= 0) {
		R->p[R->exit_proc].exit_code = code;
		mark_failed(R, R->exit_proc);
	} else if (sscanf(s, "mpirun noticed that process rank %d with PID %d on node"
	    " %255s exited on signal %d", &r, &pid, node, &code) == 4) {
		R->sig_rank = r;
		R->sig_num = code;
		mark_failed(R, -1);
	}
}

/* Take what was read of mpirun's stdout (i 0) or stderr (1): split at its
 * tags (mpirun puts one before every line, and one before each piece it
 * read of a process's output, which may start in the middle of a line:
 * the trampolines escape every '[' of the components' output), each
 * piece to its process, a line without a tag mpirun's own.  What may be
 * the start of a tag is kept for the next read, unless 'eof'. */
static void
rd_take(struct run *R, int i, int eof)
{
	struct rd	*d = &R->rd[i];
	char		*p = d->acc.s, *e = p + d->acc.len, *q, *nl;
	int		 job, rank, err, k;
	size_t		 room;

	while (p < e) {
		if (d->seg == SEG_START) {
			if ((k = tag_at(p, (size_t)(e - p), &job, &rank, &err)) < 0 &&
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
				mpirun_line(R, d->mline.s);
				buf_reset(&d->mline);
				d->seg = SEG_START;
				p++;
			}
		} else {
			for (q = p; q < e && *q != '\n' && *q != '['; q++)
				;
			proc_bytes(R, d->rank, d->err, p, (size_t)(q - p),
			    q < e && *q == '\n');
			p = q;
			if (q == e)
				break;
			if (*q == '\n') {
				d->seg = SEG_START;
				p++;
				continue;
			}
			if ((k = tag_at(q, (size_t)(e - q), &job, &rank, &err)) < 0 &&
			    !eof)
				break;
			if (k > 0) {
				d->rank = rank;
				d->err = err;
				p += k;
			} else {
				proc_bytes(R, d->rank, d->err, q, 1, 0);
				p++;
			}
		}
	}
	if (eof && d->seg == SEG_MPIRUN && d->mline.len > 0) {
		mpirun_line(R, d->mline.s);
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
static int
drain(struct run *R, int i)
{
	struct rd	*d = &R->rd[i];
	char		 chunk[65536];
	ssize_t		 n;

	n = read(R->pfd[i].fd, chunk, sizeof(chunk));
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (n <= 0) {
		rd_take(R, i, 1);
		return -1;
	}
	buf_add(&d->acc, chunk, (size_t)n);
	rd_take(R, i, 0);
	return 0;
}

/* The peer of process r's port "Type index", or NULL. */
static const char *
peer_name(const struct run *R, int r, const char *type, int index, char *buf, size_t len)
{
	int	q = peer_of(R, r, type, index);

	return q < 0 ? NULL : pcg_proc_name(R->g, q, buf, len);
}

/* Where each process was when --timeout stopped the run. */
static void
report_timeout(struct run *R)
{
	char	 call[64], type[256], pn[PCG_NAME_MAX];
	int	 i, port, n;

	fprintf(stderr, "ensemble: %s: the run did not end within %g s (--timeout);"
	    " stopped it\n", R->g->name, R->o->timeout);
	for (i = 0; i < R->n; i++) {
		struct rproc	*p = &R->p[i];
		int		 isdone = p->ended && p->finalized;

		fprintf(stderr, "  %s", p->name);
		if (p->host != NULL)
			fprintf(stderr, " (host %s)", p->host);
		fputs(": ", stderr);
		if (p->state == NULL && !p->hello && p->entered)
			fputs("in ens_init, waiting for the other processes to start\n",
			    stderr);
		else if (p->state == NULL)
			fputs(isdone ? "finished\n" : p->hello ? "did not answer\n" :
			    "never called ens_init\n", stderr);
		else if (strcmp(p->state, WIRE_WORD_FINALIZE) == 0 || isdone)
			fputs("finished (in ens_finalize or after)\n", stderr);
		else if (strcmp(p->state, "-") == 0)
			fputs("running, not in a port call\n", stderr);
		else if (strcmp(p->state, "ens_init") == 0)
			fputs("in ens_init, waiting for the other processes to start\n",
			    stderr);
		else if ((n = sscanf(p->state, "%63s %255s %d", call, type, &port)) == 3) {
			const char *peer = port > 0 ?
			    peer_name(R, i, type, port, pn, sizeof(pn)) : NULL;

			if (port > 0)
				fprintf(stderr, "blocked in '%s %s[%d]'", call, type, port);
			else
				fprintf(stderr, "blocked in '%s %s'", call, type);
			if (peer != NULL)
				fprintf(stderr, " (peer %s)", peer);
			fputc('\n', stderr);
		} else
			fprintf(stderr, "blocked in '%s'\n", p->state);
	}
}

/* Show what mpirun said, held back until now. */
static void
mpirun_said(const struct run *R)
{
	size_t	j;

	for (j = 0; j < R->nmlines; j++)
		fprintf(stderr, "%s\n", R->mlines[j]);
}

/* The start watchdog fired before every process joined: name each that
 * never called ens_init, from its "init" marker (or its answer to
 * SIGUSR1).  Not from the answer alone: the SIGUSR1 kills the processes
 * that never called ens_init (theirs is the default action), Open MPI
 * then stops the others with SIGTERM, and on a loaded machine that can
 * come before one in ens_init had the processor to answer. */
static void
report_stuck(struct run *R)
{
	struct rproc	*p;
	int		 i, waiting = 0;

	fprintf(stderr, "ensemble: %s: not every process joined within %g s"
	    " (--start-timeout); stopped it\n", R->g->name, R->start_timeout);
	for (i = 0; i < R->n; i++) {
		p = &R->p[i];
		if (p->hello)
			continue;
		if (p->entered ||
		    (p->state != NULL && strcmp(p->state, "ens_init") == 0)) {
			waiting++;
			continue;
		}
		fprintf(stderr, "  %s", p->name);
		if (p->host != NULL)
			fprintf(stderr, " (host %s)", p->host);
		fputs(": never called ens_init\n", stderr);
	}
	if (waiting > 0)
		fprintf(stderr, "  %d other%s waited in ens_init\n", waiting,
		    waiting == 1 ? "" : "s");
	if (R->o->verbose)
		mpirun_said(R);
}

/* How process r ended, as the failure summary says it: from the
 * trampoline's end marker, whether it joined, and whether the run was
 * already being stopped (a SIGTERM or SIGKILL then is ours). */
static void
proc_how(const struct run *R, int r, char *buf, size_t len)
{
	const struct rproc	*p = &R->p[r];
	const char		*where;

	where = !p->hello ? " before ens_init returned" :
	    p->finalized ? " in ens_finalize or after" : "";
	if (p->cannot != NULL)
		snprintf(buf, len, "could not be started");
	else if (p->loader_signal > 0)
		snprintf(buf, len, "its loader was killed by signal %d (%s)",
		    p->loader_signal, strsignal(p->loader_signal));
	else if (p->fail != NULL)
		snprintf(buf, len, "stopped the run (a misuse or an MPI error)");
	else if (p->forgood != NULL)
		snprintf(buf, len, "blocked for good on a peer that finalized");
	else if (p->ended && p->signal > 0 && r != R->culprit &&
	    (p->signal == SIGTERM || p->signal == SIGKILL))
		snprintf(buf, len, "stopped with the run%s (%s)", where,
		    p->signal == SIGTERM ? "SIGTERM" : "SIGKILL");
	else if (p->signal > 0)
		snprintf(buf, len, "killed by signal %d (%s)%s", p->signal,
		    strsignal(p->signal), where);
	else if (!p->ended && p->exit_code < 0)
		snprintf(buf, len, R->fail_at != 0 && r != R->culprit ?
		    "stopped with the run%s (how it ended was not reported)" :
		    "how it ended was not reported%s", where);
	else if (!p->hello)
		snprintf(buf, len, p->exit_code == 0 ?
		    "exited with status 0 without calling ens_init" :
		    "exited with status %d before ens_init returned", p->exit_code);
	else if (!p->finalized)
		snprintf(buf, len, "exited with status %d without calling "
		    "ens_finalize", p->exit_code < 0 ? 0 : p->exit_code);
	else if (p->exit_code == 0)
		snprintf(buf, len, "finished");
	else
		snprintf(buf, len, "exited with status %d after ens_finalize",
		    p->exit_code);
}
/* The failure summary's table of how every process ended, one line per
 * run of processes of one component with consecutive indices, one host
 * and one end ("terminal[1..8] (host a): stopped with the run (SIGTERM)"),
 * so that a large run stays short; the first to fail has a line of its
 * own, which says so.  Said only for two processes or more. */
static void
report_ends(const struct run *R)
{
	const struct pcg_proc	*pp, *qp;
	char			 how[160], next[160];
	int			 i, j;

	if (R->n < 2)
		return;
	fputs("  how each process ended:\n", stderr);
	for (i = 0; i < R->n; i = j) {
		proc_how(R, i, how, sizeof(how));
		pp = &R->g->procs[i];
		for (j = i + 1; j < R->n; j++) {
			qp = &R->g->procs[j];
			if (i == R->culprit || j == R->culprit ||
			    qp->comp != pp->comp ||
			    qp->index != pp->index + (j - i) ||
			    strchr(R->p[j].name, '[') == NULL ||
			    strchr(R->p[i].name, '[') == NULL ||
			    strcmp(host_of(&R->p[j]), host_of(&R->p[i])) != 0)
				break;
			proc_how(R, j, next, sizeof(next));
			if (strcmp(next, how) != 0)
				break;
		}
		if (j - i > 1)
			fprintf(stderr, "    %s[%" PRId64 "..%" PRId64 "]",
			    R->p[i].component, pp->index, pp->index + (j - i - 1));
		else
			fprintf(stderr, "    %s", R->p[i].name);
		fprintf(stderr, " (host %s): %s%s\n", host_of(&R->p[i]), how,
		    i == R->culprit ? " (the first to fail)" : "");
	}
}
/* Say which process failed and how, with its last lines on stderr. */
static void
report_failure(struct run *R, int status)
{
	struct rproc	*p;
	char		*path;
	int		 i, k, first;

	if (R->sig_num > 0 && R->sig_rank >= 0 && R->sig_rank < R->n &&
	    !R->p[R->sig_rank].ended && R->p[R->sig_rank].fail == NULL &&
	    (R->culprit < 0 || R->culprit == R->sig_rank ||
	    R->p[R->culprit].signal == SIGTERM ||
	    R->p[R->culprit].signal == SIGKILL)) {
		/* mpirun says the rank ended on a signal, and its trampoline,
		 * which says how its component ended before it ends the same
		 * way, said nothing: the trampoline itself was killed (its
		 * component dies with it).  That, not the processes Open MPI
		 * stopped then (SIGTERM, SIGKILL), is what went wrong; a
		 * failure of another kind known first stays the cause (Open
		 * MPI may drop a trampoline's last words as it stops the
		 * job). */
		R->culprit = R->sig_rank;
		R->p[R->culprit].loader_signal = R->sig_num;
	} else if (R->culprit < 0 && R->sig_num > 0 && R->sig_rank < R->n) {
		/* mpirun names the process by its rank. */
		R->culprit = R->sig_rank;
		R->p[R->culprit].signal = R->sig_num;
	}
	if (R->culprit < 0)
		for (i = 0; i < R->n; i++)
			if (R->p[i].exit_code > 0 || R->p[i].exited_early) {
				R->culprit = i;
				break;
			}
	if (R->culprit < 0) {
		/* Nothing explains it: show what mpirun said. */
		mpirun_said(R);
		if (WIFSIGNALED(status))
			fprintf(stderr, "ensemble: %s: mpirun was killed by signal %d (%s)\n",
			    R->g->name, WTERMSIG(status), strsignal(WTERMSIG(status)));
		else
			fprintf(stderr, "ensemble: %s: mpirun exited with status %d\n",
			    R->g->name, WEXITSTATUS(status));
		return;
	}
	p = &R->p[R->culprit];
	if (p->fail != NULL)
		fprintf(stderr, "ensemble: %s\n", p->fail);
	else if (p->forgood != NULL)
		fprintf(stderr, "ensemble: %s\n", p->forgood);
	else {
		fprintf(stderr, "ensemble: %s (component %s, host %s) ", p->name,
		    p->component, host_of(p));
		if (p->cannot != NULL)
			fprintf(stderr, "could not be started: %s\n", p->cannot);
		else if (p->loader_signal > 0)
			fprintf(stderr, "lost its loader: ensemble-exec, which ran"
			    " it, was killed by signal %d (%s), and the component"
			    " with it\n", p->loader_signal,
			    strsignal(p->loader_signal));
		else if (!p->hello && p->ended && p->signal > 0)
			fprintf(stderr, "was killed by signal %d (%s) before ens_init"
			    " returned\n", p->signal, strsignal(p->signal));
		else if (!p->hello && p->ended && p->exit_code == 0)
			fputs("exited with status 0 without calling ens_init\n", stderr);
		else if (!p->hello && p->ended && p->exit_code > 0)
			fprintf(stderr, "exited with status %d before ens_init returned\n",
			    p->exit_code);
		else if (p->signal > 0)
			fprintf(stderr, "was killed by signal %d (%s)\n", p->signal,
			    strsignal(p->signal));
		else if (p->exit_code > 0)
			fprintf(stderr, "exited with status %d%s\n", p->exit_code,
			    p->exited_early ? " without calling ens_finalize" : "");
		else
			fputs("exited without calling ens_finalize\n", stderr);
	}
	/* The last lines it wrote on stderr, but those passed on to ours
	 * already (a traceback is said once). */
	first = p->ntail > TAIL_LINES ? p->ntail - TAIL_LINES : 0;
	while (first < p->ntail && p->shown[first % TAIL_LINES])
		first++;
	if (first < p->ntail) {
		if (R->o->output_dir != NULL) {
			path = out_path(R, R->culprit, 1);
			fprintf(stderr, "  last lines of its stderr (%s):\n", path);
			free(path);
		} else
			fprintf(stderr, "  last lines of its stderr:\n");
		for (k = first; k < p->ntail; k++)
			if (!p->shown[k % TAIL_LINES])
				fprintf(stderr, "    %s\n",
				    p->tail[k % TAIL_LINES]);
	}
	report_ends(R);
	if (R->o->verbose)
		mpirun_said(R);
}

/* Stop and reap our children but 'keep' (mpirun while it runs, else 0)
 * and 'janitor' (tidy.h's): what the run left behind, reparented to us,
 * its subreaper.  The number of processes stopped. */
static int
sweep(pid_t self, pid_t keep, pid_t janitor)
{
	DIR		*d;
	struct dirent	*de;
	char		 path[300], buf[512], *rp;
	FILE		*f;
	int		 round, found, n = 0;
	long		 ppid;
	pid_t		 pid;

	for (round = 0; round < 40; round++) {
		found = 0;
		if ((d = opendir("/proc")) == NULL)
			return n;
		while ((de = readdir(d)) != NULL) {
			if (de->d_name[0] < '1' || de->d_name[0] > '9')
				continue;
			snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
			if ((f = fopen(path, "r")) == NULL)
				continue;
			pid = (pid_t)atol(de->d_name);
			if (fgets(buf, sizeof(buf), f) != NULL &&
			    (rp = strrchr(buf, ')')) != NULL &&
			    sscanf(rp + 2, "%*c %ld", &ppid) == 1 && ppid == (long)self &&
			    pid != keep && pid != janitor) {
				kill(pid, SIGKILL);
				waitpid(pid, NULL, 0);
				found = 1;
				n++;
			}
			fclose(f);
		}
		closedir(d);
		if (!found)
			break;
	}
	return n;
}

/* Close *fd if it is open, and mark it closed. */
static void
close_fd(int *fd)
{
	if (*fd >= 0) {
		close(*fd);
		*fd = -1;
	}
}

/* Put the environment Open MPI needs for the user: running as root, and
 * on one machine more processes than cores, and only the transports one
 * machine uses (shared memory; TCP for anything else): probing UCX, OFI
 * and PSM costs every process a third of its start-up (bench/run.sh),
 * and the transports chosen are the ones a plain mpirun picks here.
 * What the user set is kept. */
static void
set_env(const struct launch_opts *o)
{
	if (geteuid() == 0) {
		setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);
		setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
	}
	if (o->hostfile == NULL && getenv("SLURM_JOBID") == NULL) {
		setenv("OMPI_MCA_rmaps_base_oversubscribe", "1", 0);
		setenv("OMPI_MCA_pml", "ob1", 0);
		setenv("OMPI_MCA_btl", "self,vader,tcp", 0);
		setenv("OMPI_MCA_mtl", "^ofi,psm,psm2", 0);
		setenv("OMPI_MCA_osc", "^ucx", 0);
	}
}

/* Put dir first on PYTHONPATH, for the components in Python that mpirun
 * starts ('-x PYTHONPATH' takes it to every host), unless it is there
 * already. */
static void
set_pythonpath(const char *dir)
{
	const char	*old = getenv("PYTHONPATH");
	char		*v;
	size_t		 n;

	if (dir == NULL)
		return;
	if (old == NULL || *old == '\0') {
		setenv("PYTHONPATH", dir, 1);
		return;
	}
	n = strlen(dir);
	if (strncmp(old, dir, n) == 0 && (old[n] == ':' || old[n] == '\0'))
		return;
	xasprintf(&v, "%s:%s", dir, old);
	setenv("PYTHONPATH", v, 1);
	free(v);
}

/* Whether the script has a 'scale' parameter (-np sets it). */
static int
run_scalable(const struct pcg *g)
{
	int	k;

	for (k = 0; k < g->nparams; k++)
		if (g->params[k].scale)
			return 1;
	return 0;
}

/* Whether v is true as Open MPI reads a boolean parameter. */
static int
run_true(const char *v)
{
	return v != NULL && (strcmp(v, "1") == 0 || strcasecmp(v, "true") == 0 ||
	    strcasecmp(v, "yes") == 0 || strcasecmp(v, "t") == 0 ||
	    strcasecmp(v, "y") == 0);
}

/* Whether the user sets Open MPI's parameter key as mpirun takes it: by
 * --mca, by '--mca' (or '-mca') after '--', or in the environment
 * (OMPI_MCA_key); with 'ok', to a value ok says yes to, in any of them. */
static int
mca_set(const struct launch_opts *o, const char *key, int (*ok)(const char *))
{
	const char	*v;
	char		 env[128];
	size_t		 k;

	for (k = 0; k + 1 < o->nmca; k += 2)
		if (strcmp(o->mca[k], key) == 0 && (ok == NULL || ok(o->mca[k + 1])))
			return 1;
	for (k = 0; k + 1 < o->nrest; k++) {
		if ((strcmp(o->rest[k], "--mca") != 0 &&
		    strcmp(o->rest[k], "-mca") != 0) ||
		    strcmp(o->rest[k + 1], key) != 0)
			continue;
		v = k + 2 < o->nrest ? o->rest[k + 2] : NULL;
		if (ok == NULL || (v != NULL && ok(v)))
			return 1;
	}
	snprintf(env, sizeof(env), "OMPI_MCA_%s", key);
	return (v = getenv(env)) != NULL && (ok == NULL || ok(v));
}

/* Whether processes may share slots, however the user said it as mpirun
 * takes it: --oversubscribe; after '--', '--oversubscribe' (or
 * '-oversubscribe') or a '--map-by' (or '-map-by') with ':OVERSUBSCRIBE';
 * the MCA parameter rmaps_base_oversubscribe true by --mca, '--mca' (or
 * '-mca') after '--', or the environment. */
static int
run_oversubscribed(const struct launch_opts *o)
{
	size_t	k;

	if (o->oversubscribe ||
	    mca_set(o, "rmaps_base_oversubscribe", run_true))
		return 1;
	for (k = 0; k < o->nrest; k++) {
		if (strcmp(o->rest[k], "--oversubscribe") == 0 ||
		    strcmp(o->rest[k], "-oversubscribe") == 0)
			return 1;
		if (k + 1 < o->nrest && (strcmp(o->rest[k], "--map-by") == 0 ||
		    strcmp(o->rest[k], "-map-by") == 0) &&
		    strcasestr(o->rest[k + 1], ":OVERSUBSCRIBE") != NULL)
			return 1;
	}
	return 0;
}

/* Whether a binding policy is to a core or a hardware thread, each for
 * one process. */
static int
run_core(const char *v)
{
	return (strncasecmp(v, "core", 4) == 0 ||
	    strncasecmp(v, "hwthread", 8) == 0) &&
	    strcasestr(v, "overload-allowed") == NULL;
}

/* Whether the user asks mpirun to bind each process to a core (or a
 * hardware thread), as mpirun takes it: '--bind-to core' (or '-bind-to',
 * or 'hwthread') after '--', or the MCA parameter
 * hwloc_base_binding_policy; not with its qualifier ':overload-allowed'. */
static int
run_binds_cores(const struct launch_opts *o)
{
	const char	*v = NULL;
	size_t		 k;

	for (k = 0; k + 1 < o->nrest; k++)
		if (strcmp(o->rest[k], "--bind-to") == 0 ||
		    strcmp(o->rest[k], "-bind-to") == 0)
			v = o->rest[k + 1];
	if (v == NULL && !mca_set(o, "hwloc_base_binding_policy", run_core))
		return 0;
	if (v == NULL)
		return 1;
	return run_core(v);
}

/* Check, before anything starts, that the processes fit the slots they
 * are given, and keep those slots in R->alloc for the plan, with the host
 * each placed process goes to in R->placed: a hostfile's, a Slurm
 * allocation's (which must still be running), or this machine's, where
 * the processes share its cores as they like.  Every host a process is
 * placed on must be one of them; each name is looked up once, as the
 * look-up may ask the resolver.  0, or the exit status after saying what
 * is wrong and what to do. */
static int
run_fit(struct run *R)
{
	const struct launch_opts *o = R->o;
	const struct pcg	*g = R->g;
	struct alloc		*a = &R->alloc;
	const struct alloc_host	*h = NULL;
	const char		*jobid = getenv("SLURM_JOBID");
	const char		*host, *last = NULL;
	char			*cause = NULL, pn[PCG_NAME_MAX];
	int			*pinned = NULL, i, k, rc = 2;

	if (o->hostfile != NULL) {
		if (alloc_hostfile(a, o->hostfile, &cause) != 0)
			goto bad;
	} else if (jobid != NULL && *jobid != '\0') {
		/* Open MPI takes the allocation from the environment, even one
		 * that has ended: ask Slurm first. */
		if ((k = alloc_slurm_alive(jobid, &cause)) != ALLOC_JOB_RUNNING) {
			rc = k == ALLOC_JOB_ENDED ? 2 : 1;
			goto bad;
		}
		if (alloc_slurm(a, &cause) != 0)
			goto bad;
	} else
		alloc_local(a);
	for (i = 0; i < g->nprocs; i++) {
		if ((host = g->procs[i].host) == NULL)
			continue;
		R->nplaced++;
		if (last != NULL && strcmp(host, last) == 0) {
			/* Placed where the one before was. */
			if (a->kind != ALLOC_LOCAL)
				R->placed[i] = h;
			continue;
		}
		last = host;
		if (a->kind == ALLOC_LOCAL) {
			/* This machine; a host it is not would have Open MPI
			 * try ssh. */
			if (!alloc_is_local(host))
				break;
			continue;
		}
		if ((h = R->placed[i] = alloc_find(a, host)) == NULL)
			break;
	}
	if (i < g->nprocs && a->kind == ALLOC_LOCAL) {
		xasprintf(&cause, "%s is placed on host '%s', which is not this"
		    " machine: Open MPI runs processes only on hosts it knows (give"
		    " them with --hostfile, or run inside a Slurm allocation)",
		    pcg_proc_name(g, i, pn, sizeof(pn)), g->procs[i].host);
		goto bad;
	}
	if (i < g->nprocs) {
		xasprintf(&cause, "%s is placed on host '%s', which %s does not"
		    " have: Open MPI runs processes only on hosts it knows",
		    pcg_proc_name(g, i, pn, sizeof(pn)), g->procs[i].host, a->what);
		goto bad;
	}
	/* This machine: processes share its cores as they like, but bound
	 * to cores two share one (where mpirun alone, by its own mapping,
	 * refuses): said, and they run. */
	if (a->kind == ALLOC_LOCAL && a->slots > 0 && g->nprocs > a->slots &&
	    run_binds_cores(o)) {
		fprintf(stderr, "ensemble: %s: %d processes bound to the %d"
		    " core%s of %s: up to %d share one", g->name, g->nprocs,
		    a->slots, a->slots == 1 ? "" : "s", a->what,
		    (g->nprocs + a->slots - 1) / a->slots);
		if (run_scalable(g))
			fprintf(stderr, " (-np %d gives each its own)", a->slots);
		fputc('\n', stderr);
	}
	if (a->kind == ALLOC_LOCAL || run_oversubscribed(o))
		return 0;
	/* (Slots of -1: a host's cores, which only mpirun learns.) */
	if (a->slots >= 0 && g->nprocs > a->slots) {
		fprintf(stderr, "ensemble: %s: %d processes need %d slots, and %s"
		    " has %d\n", g->name, g->nprocs, g->nprocs, a->what, a->slots);
		if (a->kind == ALLOC_SLURM)
			fprintf(stderr, "  ask for %d (salloc -n %d, sbatch -n %d)",
			    g->nprocs, g->nprocs, g->nprocs);
		else
			fprintf(stderr, "  give the hostfile %d slots (slots=N after"
			    " a host)", g->nprocs);
		if (run_scalable(g) && a->slots > 0)
			fprintf(stderr, ", run fewer (-np %d)", a->slots);
		fprintf(stderr, ", or let processes share slots"
		    " (--oversubscribe)\n");
		return 2;
	}
	/* Every host with more processes placed on it than it has slots,
	 * named as the first of them names it. */
	pinned = xcalloc((size_t)a->nhosts + 1, sizeof(*pinned));
	for (i = 0; i < g->nprocs; i++)
		if (R->placed[i] != NULL)
			pinned[R->placed[i] - a->hosts]++;
	for (k = 0; k < a->nhosts; k++) {
		h = &a->hosts[k];
		if (h->slots < 0 || pinned[k] <= h->slots)
			continue;
		for (i = 0; R->placed[i] != h; i++)
			;
		fprintf(stderr, "ensemble: %s: %d processes are placed on host"
		    " '%s', which has %d slot%s in %s\n", g->name, pinned[k],
		    g->procs[i].host, h->slots, h->slots == 1 ? "" : "s", a->what);
		fprintf(stderr, "  place fewer there, give it more slots, or let"
		    " processes share slots (--oversubscribe)\n");
		free(pinned);
		return 2;
	}
	free(pinned);
	return 0;
bad:
	fprintf(stderr, "ensemble: %s: %s\n", g->name, cause);
	free(cause);
	return rc;
}

/* Set R up for g's processes, with nothing started and nothing open. */
static void
run_init(struct run *R, const struct pcg *g, const struct launch_opts *o)
{
	struct stat	st[2];
	int		i, k;

	memset(R, 0, sizeof(*R));
	R->g = g;
	R->o = o;
	R->n = g->nprocs;
	R->culprit = -1;
	R->exit_proc = -1;
	R->p = xcalloc((size_t)R->n, sizeof(*R->p));
	R->placed = xcalloc((size_t)R->n + 1, sizeof(*R->placed));
	for (i = 0; i < R->n; i++) {
		pcg_proc_name(g, i, R->p[i].name, sizeof(R->p[i].name));
		R->p[i].component = g->comps[g->procs[i].comp].name;
		R->p[i].exit_code = -1;
		R->p[i].seq = R->p[i].seq_before = -1;
		for (k = 0; k < 3; k++)
			buf_init(&R->p[i].part[k]);
		buf_init(&R->p[i].tline);
	}
	for (k = 0; k < 2; k++) {
		buf_init(&R->rd[k].acc);
		buf_init(&R->rd[k].mline);
		R->oq[k].fd = k + 1;
		R->oq[k].piped = fstat(k + 1, &st[k]) != 0 ||
		    !S_ISREG(st[k].st_mode);
	}
	R->oq_same = R->oq[0].piped && R->oq[1].piped &&
	    st[0].st_dev == st[1].st_dev && st[0].st_ino == st[1].st_ino;
	R->pid = -1;
	tidy_init(&R->tidy);
	R->pfd = xcalloc(6 + (o->stdin_proc == LAUNCH_STDIN_ALL ? (size_t)R->n +
	    2 : 0), sizeof(*R->pfd));
	for (i = 0; i < 6; i++)
		R->pfd[i].fd = -1;
	R->phase = RUN_RUNNING;
	/* As long as Open MPI may take to start them, at a size's pace. */
	R->start_timeout = o->start_timeout > 0 ? o->start_timeout :
	    60 + R->n / 10;
}

/* Give SIGINT, SIGTERM and SIGCHLD back to whoever had them before the
 * run, and the signal mask. */
static void
run_unhandle(struct run *R)
{
	if (!R->handling)
		return;
	sigaction(SIGINT, &R->old_int, NULL);
	sigaction(SIGTERM, &R->old_term, NULL);
	sigaction(SIGCHLD, &R->old_chld, NULL);
	sigprocmask(SIG_SETMASK, &R->old_mask, NULL);
	R->handling = 0;
}

/* Release everything R holds, however far the run got: the one cleanup
 * of launch_run. */
static void
run_free(struct run *R)
{
	int	i, k;
	size_t	j;

	run_unhandle(R);
	for (i = 0; i < 3; i++)
		close_fd(&R->pfd[i].fd);
	alloc_clear(&R->alloc);
	free(R->placed);
	tidy_done(&R->tidy);
	free(R->workdir);
	free(R->shmdir);
	free(R->appfile);
	free(R->tracedir);
	for (i = 0; i < R->n; i++) {
		free(R->p[i].host);
		free(R->p[i].fail);
		free(R->p[i].cannot);
		free(R->p[i].state);
		free(R->p[i].forgood);
		for (k = 0; k < TAIL_LINES; k++)
			free(R->p[i].tail[k]);
		for (k = 0; k < 3; k++)
			buf_free(&R->p[i].part[k]);
		buf_free(&R->p[i].tline);
		for (k = 0; k < 2; k++)
			if (R->p[i].file[k] != NULL)
				fclose(R->p[i].file[k]);
	}
	for (j = 0; j < R->nmlines; j++)
		free(R->mlines[j]);
	free(R->mlines);
	free(R->p);
	for (k = 0; k < 2; k++) {
		buf_free(&R->rd[k].acc);
		buf_free(&R->rd[k].mline);
		free(R->oq[k].p);
	}
	free(R->bundle.p);
	fan_free(R->fan);
	free(R->fan_addrs);
	free(R->pfd);
}

/* Whether every host the processes may run on is this machine. */
static int
run_all_local(const struct run *R)
{
	int	i;

	for (i = 0; R->alloc.kind != ALLOC_LOCAL && i < R->alloc.nhosts; i++)
		if (!R->alloc.hosts[i].local)
			return 0;
	return 1;
}

/* Make the run's files: a private directory with the appfile; with
 * --trace, the directory beside the trace file where the processes write
 * their parts (made now, so that a bad name fails before anything runs);
 * then the plan.  0, or the exit status after saying what is wrong. */
static int
run_files(struct run *R)
{
	const struct launch_opts *o = R->o;
	struct plan_opts	 po;
	struct timespec		 ts;
	const char		*tmp = getenv("TMPDIR");
	char			*cause = NULL;

	xasprintf(&R->workdir, "%s/ensemble-run.XXXXXX",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp");
	if (mkdtemp(R->workdir) == NULL) {
		fprintf(stderr, "ensemble: cannot make a directory '%s': %s\n",
		    R->workdir, strerror(errno));
		free(R->workdir);
		R->workdir = NULL;
		return 2;
	}
	tidy_add(&R->tidy, R->workdir);
	xasprintf(&R->appfile, "%s/appfile", R->workdir);
	/* On this machine alone, Open MPI's shared-memory segments go in a
	 * directory of the run's on the same file system (/dev/shm), removed
	 * with it even when mpirun is killed (a remote host would not have
	 * it). */
	if (R->alloc.kind == ALLOC_LOCAL &&
	    !mca_set(o, "btl_vader_backing_directory", NULL)) {
		R->shmdir = xstrdup("/dev/shm/ensemble-run.XXXXXX");
		if (mkdtemp(R->shmdir) == NULL) {
			free(R->shmdir);
			R->shmdir = NULL;	/* Open MPI's default, then */
		} else
			tidy_add(&R->tidy, R->shmdir);
	}
	if (o->trace != NULL) {
		xasprintf(&R->tracedir, "%s.parts-XXXXXX", o->trace);
		if (mkdtemp(R->tracedir) == NULL) {
			fprintf(stderr, "ensemble: cannot create '%s': %s\n", o->trace,
			    strerror(errno));
			free(R->tracedir);
			R->tracedir = NULL;
			return 2;
		}
		tidy_add(&R->tidy, R->tracedir);
		/* The origin of the trace's times: now, just before mpirun. */
		clock_gettime(CLOCK_REALTIME, &ts);
		snprintf(R->origin, sizeof(R->origin), "%lld.%09ld",
		    (long long)ts.tv_sec, ts.tv_nsec);
	}
	if (o->stdin_proc == LAUNCH_STDIN_ALL) {
		R->fan = fan_new(R->n, run_all_local(R), R->secret,
		    R->workdir, &R->fan_addrs, &cause);
		if (R->fan == NULL) {
			fprintf(stderr, "ensemble: --stdin all: %s\n", cause);
			free(cause);
			return 2;
		}
	}
	memset(&po, 0, sizeof(po));
	po.exec = o->exec;
	po.paths = o->paths;
	po.stdin_proc = o->stdin_proc;
	po.stdin_net = R->fan_addrs;
	po.relay = R->secret;
	po.root = o->stdin_proc >= 0 ? o->stdin_proc : 0;
	po.flags = (o->check_protocol ? WIRE_CHECK_PROTOCOL : 0) |
	    (o->trace != NULL ? WIRE_TRACE : 0);
	po.origin = R->origin;
	po.tracedir = R->tracedir;
	po.alloc = &R->alloc;
	po.placed = R->placed;
	po.nplaced = R->nplaced;
	if (plan_make(R->g, &po, R->appfile, &R->bundle, &cause) != 0) {
		fprintf(stderr, "ensemble: %s: %s\n", R->g->name, cause);
		free(cause);
		return 2;
	}
	return 0;
}

/* Start 'mpirun --app APPFILE' with pipes for its standard streams, and
 * SIGINT, SIGTERM and SIGCHLD caught (SIGCHLD blocked but in ppoll).  An
 * exec failure comes back as an errno over a close-on-exec pipe.  0, or
 * -1 when it could not be started (said). */
static int
run_spawn(struct run *R)
{
	const struct launch_opts *o = R->o;
	struct sigaction	 sa;
	sigset_t		 chld;
	char			**argv = NULL, **owned, root[32];
	const char		*eq;
	size_t			 k, nowned = 0;
	int			 in[2] = { -1, -1 }, out[2] = { -1, -1 };
	int			 err[2] = { -1, -1 }, ex[2] = { -1, -1 };
	int			 argc = 0, exec_errno, rc = -1;
	ssize_t			 nr;
	pid_t			 self;

	argv = xcalloc(24 + 3 * o->nmca + 2 * o->nxenv + o->nrest, sizeof(*argv));
	owned = xcalloc(o->nxenv + 1, sizeof(*owned));
	argv[argc++] = (char *)o->mpirun;
	argv[argc++] = (char *)"--tag-output";
	/* Open MPI 4.1 reads no --hostfile with an appfile; it reads its
	 * default hostfile. */
	if (o->hostfile != NULL) {
		argv[argc++] = (char *)"--default-hostfile";
		argv[argc++] = (char *)o->hostfile;
	}
	if (o->oversubscribe)
		argv[argc++] = (char *)"--oversubscribe";
	/* On this machine alone, the session directory and the
	 * shared-memory segments in the run's directories (run_files). */
	if (R->alloc.kind == ALLOC_LOCAL && !mca_set(o, "orte_tmpdir_base", NULL)) {
		argv[argc++] = (char *)"--mca";
		argv[argc++] = (char *)"orte_tmpdir_base";
		argv[argc++] = R->workdir;
	}
	if (R->shmdir != NULL) {
		argv[argc++] = (char *)"--mca";
		argv[argc++] = (char *)"btl_vader_backing_directory";
		argv[argc++] = R->shmdir;
	}
	for (k = 0; k + 1 < o->nmca; k += 2) {
		argv[argc++] = (char *)"--mca";
		argv[argc++] = (char *)o->mca[k];
		argv[argc++] = (char *)o->mca[k + 1];
	}
	/* Components in Python find the package on every host. */
	if (o->pythondir != NULL) {
		argv[argc++] = (char *)"-x";
		argv[argc++] = (char *)"PYTHONPATH";
	}
	/* '-x VAR=VALUE' is lost for an appfile's processes: set VAR here,
	 * and '-x VAR' takes it to them as it does our own. */
	for (k = 0; k < o->nxenv; k++) {
		argv[argc++] = (char *)"-x";
		if ((eq = strchr(o->xenv[k], '=')) == NULL || eq == o->xenv[k]) {
			argv[argc++] = (char *)o->xenv[k];
			continue;
		}
		argv[argc] = xstrndup(o->xenv[k], (size_t)(eq - o->xenv[k]));
		setenv(argv[argc], eq + 1, 1);
		owned[nowned++] = argv[argc++];
	}
	for (k = 0; k < o->nrest; k++)
		argv[argc++] = (char *)o->rest[k];
	/* The tables go to the process that holds them, and so does our
	 * standard input with --stdin: Open MPI forwards it to one rank. */
	if (o->stdin_proc > 0) {
		snprintf(root, sizeof(root), "%d", o->stdin_proc);
		argv[argc++] = (char *)"--stdin";
		argv[argc++] = root;
	}
	argv[argc++] = (char *)"--app";
	argv[argc++] = R->appfile;
	argv[argc] = NULL;

	set_env(o);
	set_pythonpath(o->pythondir);
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	if (pipe(in) != 0 || pipe(out) != 0 || pipe(err) != 0 ||
	    pipe2(ex, O_CLOEXEC) != 0) {
		fprintf(stderr, "ensemble: pipe: %s\n", strerror(errno));
		goto out;
	}
	/* SIGCHLD from now on only wakes ppoll; mpirun gets the mask as it
	 * was. */
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_child;
	sigaction(SIGCHLD, &sa, &R->old_chld);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &R->old_mask);
	sa.sa_handler = on_interrupt;
	sigaction(SIGINT, &sa, &R->old_int);
	sigaction(SIGTERM, &sa, &R->old_term);
	R->handling = 1;
	fflush(stdout);
	fflush(stderr);
	R->t0 = clock_now();
	self = getpid();
	if ((R->pid = fork()) < 0) {
		fprintf(stderr, "ensemble: fork: %s\n", strerror(errno));
		goto out;
	}
	if (R->pid == 0) {
		sigaction(SIGINT, &R->old_int, NULL);
		sigaction(SIGTERM, &R->old_term, NULL);
		sigaction(SIGCHLD, &R->old_chld, NULL);
		signal(SIGXFSZ, SIG_DFL);	/* ignored by ensemble (main.c) */
		/* Killed with us, even by SIGKILL: mpirun stops its job on
		 * SIGTERM, and its processes die with it (exec.c). */
		prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0);
		if (getppid() != self)
			_exit(127);
		sigprocmask(SIG_SETMASK, &R->old_mask, NULL);
		dup2(in[0], STDIN_FILENO);
		dup2(out[1], STDOUT_FILENO);
		dup2(err[1], STDERR_FILENO);
		close(in[0]); close(in[1]);
		close(out[0]); close(out[1]);
		close(err[0]); close(err[1]);
		close(ex[0]);
		execv(o->mpirun, argv);
		/* ex[1] closes on a successful exec: the parent reads nothing. */
		exec_errno = errno;
		while (write(ex[1], &exec_errno, sizeof(exec_errno)) < 0 &&
		    errno == EINTR)
			;
		_exit(127);
	}
	R->pfd[0].fd = out[0];
	R->pfd[1].fd = err[0];
	R->pfd[2].fd = in[1];
	out[0] = err[0] = in[1] = -1;
	close_fd(&ex[1]);
	while ((nr = read(ex[0], &exec_errno, sizeof(exec_errno))) < 0 &&
	    errno == EINTR)
		;
	if (nr == (ssize_t)sizeof(exec_errno)) {
		while (waitpid(R->pid, NULL, 0) < 0 && errno == EINTR)
			;
		R->pid = -1;
		fprintf(stderr, "ensemble: cannot run '%s': %s\n", o->mpirun,
		    strerror(exec_errno));
		goto out;
	}
	/* Whatever becomes of us, the run's directories go (tidy.h). */
	tidy_watch(&R->tidy, R->pid);
	fcntl(R->pfd[2].fd, F_SETFL, O_NONBLOCK);
	signal(SIGPIPE, SIG_IGN);
	rc = 0;
out:
	close_fd(&ex[0]);
	close_fd(&ex[1]);
	close_fd(&err[0]);
	close_fd(&err[1]);
	close_fd(&out[0]);
	close_fd(&out[1]);
	close_fd(&in[0]);
	close_fd(&in[1]);
	for (k = 0; k < nowned; k++)
		free(owned[k]);
	free(owned);
	free(argv);
	return rc;
}

/* Whether all is written to mpirun's standard input. */
static int
stdin_written(const struct run *R)
{
	return R->sent == R->bundle.len &&
	    (R->o->stdin_proc < 0 || (R->in_eof && R->roff == R->rlen));
}

/* Whether mpirun's standard input may be closed now: mpirun has read all
 * of it, DRAIN_GRACE ago.  Open MPI 4.1's mpirun, reading the end of its
 * standard input while it still holds some for the process, ends the
 * process's input once that is written and then looks at its own input
 * again, through its record of the process, which the process's end may
 * have freed meanwhile: mpirun crashes (a segmentation fault in
 * orte_iof_hnp_read_local_handler; Open MPI issue 7483).  Closing only
 * once it has read and passed on all gives the end to a mpirun that holds
 * nothing (a pipe's unread bytes: FIONREAD; if that cannot be told, now). */
static int
stdin_drained(struct run *R)
{
	double	now = clock_now();
	int	n;

	if (R->drained_at == 0 && now < R->drain_next)
		return 0;
	if (ioctl(R->pfd[2].fd, FIONREAD, &n) != 0)
		return 1;
	if (n > 0) {
		/* Look again soon, then less often (a process that never
		 * reads its input must not keep the watch awake). */
		R->drained_at = 0;
		R->drain_wait = R->drain_wait == 0 ? DRAIN_POLL :
		    R->drain_wait * 2 < DRAIN_POLL_MOST ? R->drain_wait * 2 :
		    DRAIN_POLL_MOST;
		R->drain_next = now + R->drain_wait;
		return 0;
	}
	if (R->drained_at == 0)
		R->drained_at = now;
	return now >= R->drained_at + DRAIN_GRACE;
}

/* What to wait for on mpirun's standard input (pfd[2]) and ours (pfd[3]):
 * room to write the bundle, then with --stdin our input as it comes and
 * room to write it on; mpirun's is closed once all is written and read
 * (stdin_drained). */
static void
stdin_events(struct run *R)
{
	struct pollfd	*pfd = R->pfd;

	pfd[3].fd = -1;
	pfd[2].events = 0;
	if (pfd[2].fd < 0)
		return;
	if (R->sent < R->bundle.len) {
		pfd[2].events = POLLOUT;
		return;
	}
	if (stdin_written(R)) {
		/* All written: the end of it, for the process, once mpirun
		 * has it all (run_deadline wakes the watch to look). */
		if (stdin_drained(R))
			close_fd(&pfd[2].fd);
		return;
	}
	if (R->roff < R->rlen)
		pfd[2].events = POLLOUT;
	else {
		pfd[3].fd = STDIN_FILENO;
		pfd[3].events = POLLIN;
	}
}

/* Write on what is left of the bundle, or relay our standard input, as
 * ppoll said.  A process that closed its standard input gets no more. */
static void
stdin_relay(struct run *R)
{
	struct pollfd	*pfd = R->pfd;
	ssize_t		 n;

	if (pfd[3].fd >= 0 && (pfd[3].revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL))) {
		n = read(STDIN_FILENO, R->rbuf, sizeof(R->rbuf));
		if (n > 0) {
			R->roff = 0;
			R->rlen = (size_t)n;
		} else if (n == 0 || (errno != EINTR && errno != EAGAIN))
			R->in_eof = 1;
	}
	if (pfd[2].fd < 0 || !(pfd[2].revents & (POLLOUT | POLLERR | POLLHUP)))
		return;
	if (stdin_written(R)) {
		close_fd(&pfd[2].fd);	/* mpirun closed it: nothing to wait for */
		return;
	}
	if (R->sent < R->bundle.len) {
		n = write(pfd[2].fd, R->bundle.p + R->sent, R->bundle.len - R->sent);
		if (n > 0)
			R->sent += (size_t)n;
	} else {
		n = write(pfd[2].fd, R->rbuf + R->roff, R->rlen - R->roff);
		if (n > 0)
			R->roff += (size_t)n;
	}
	if (n < 0 && errno != EINTR && errno != EAGAIN)
		close_fd(&pfd[2].fd);
}

/* When the watch must next act, from its deadlines (a time of clock_now);
 * -1 when nothing but a line or a signal can move it. */
static double
run_deadline(const struct run *R)
{
	double	d = -1;

#define AT(x)	do { if (d < 0 || (x) < d) d = (x); } while (0)
	if (R->phase == RUN_EXITED) {
		AT(R->phase_at + KILL_GRACE);	/* run_linger */
		return d;
	}
	if (R->o->timeout > 0 && !R->timed_out && R->fail_at == 0)
		AT(R->t0 + R->o->timeout);
	if (R->pfd[2].fd >= 0 && stdin_written(R))
		AT(R->drained_at > 0 ? R->drained_at + DRAIN_GRACE :
		    R->drain_next);		/* stdin_drained */
	if (!R->stuck && R->nhello < R->n && !R->done)
		AT(R->t0 + R->start_timeout);
	if (R->stuck && !R->stuck_asked)
		AT(R->t0);
	if (R->fail_at > 0 && R->phase < RUN_TERMINATED)
		AT(R->fail_at + STOP_GRACE);
	if (R->final_at > 0 && !R->done && R->fail_at == 0 &&
	    R->nhello == R->n && R->phase == RUN_RUNNING && !R->timed_out)
		AT(R->final_asked > 0 ? R->final_asked + R->final_every :
		    R->final_at + FINAL_ASK);
	if (R->phase == RUN_ASKED)
		AT(R->phase_at + STATE_WAIT);
	if (R->phase == RUN_TERMINATED)
		AT(R->phase_at + KILL_GRACE);
	if (R->done)
		AT(R->ended_at + ORPHAN_GRACE > R->swept_at + 1.0 ?
		    R->ended_at + ORPHAN_GRACE : R->swept_at + 1.0);
#undef AT
	return d;
}

/* Sleep until mpirun writes, its standard input has room, ours has data,
 * a signal comes or the next deadline; handle each whole line that came,
 * and write on.  A pipe at its end is closed. */
static void
run_pump(struct run *R)
{
	struct pollfd	*pfd = R->pfd;
	struct timespec	 ts, *tp = NULL;
	sigset_t	 none;
	double		 d = run_deadline(R), left;
	int		 i, nfan;

	/* Not more from mpirun while ours is not taken (its pipe fills,
	 * and its processes wait to write), until the run is being stopped
	 * (then what does not fit is dropped: mpirun must not wait to end). */
	for (i = 0; i < 2; i++)
		pfd[i].events = outq_pending(&R->oq[i]) < OUTQ_SOFT ||
		    R->phase >= RUN_TERMINATED ? POLLIN : 0;
	for (i = 0; i < 2; i++) {
		pfd[4 + i].fd = outq_pending(&R->oq[i]) > 0 ? i + 1 : -1;
		pfd[4 + i].events = POLLOUT;
	}
	if (R->oq_same && pfd[4].fd >= 0)
		pfd[5].fd = -1;		/* one write a round to one pipe */
	stdin_events(R);
	nfan = R->fan != NULL ? fan_events(R->fan, pfd + 6) : 0;
	if (d >= 0) {
		left = d - clock_now();
		if (left < 0)
			left = 0;
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9) + 1000000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		tp = &ts;
	}
	sigemptyset(&none);
	if (ppoll(pfd, (nfds_t)(6 + nfan), tp, &none) <= 0)
		return;
	stdin_relay(R);
	if (R->fan != NULL)
		fan_handle(R->fan, pfd + 6, nfan);
	for (i = 0; i < 2; i++)
		if (pfd[4 + i].fd >= 0 && pfd[4 + i].revents != 0)
			outq_write(&R->oq[i]);
	for (i = 0; i < 2; i++)
		if (pfd[i].fd >= 0 && (pfd[i].revents & (POLLIN | POLLHUP | POLLERR)) &&
		    drain(R, i) < 0)
			close_fd(&pfd[i].fd);
}

/* Whether mpirun's stdout or stderr is still open: the watch goes on. */
static int
run_reading(const struct run *R)
{
	return R->pfd[0].fd >= 0 || R->pfd[1].fd >= 0;
}

/* Enter phase 'to' at time t, sending mpirun sig. */
static void
run_signal(struct run *R, int sig, enum run_phase to, double t)
{
	kill(R->pid, sig);
	R->phase = to;
	R->phase_at = t;
}

/* Reap mpirun if it has exited. */
static void
run_reap(struct run *R, double t)
{
	if (waitpid(R->pid, &R->wstatus, WNOHANG) == R->pid) {
		R->phase = RUN_EXITED;
		R->phase_at = t;
	}
}

/* After mpirun's exit, read what is left in its pipes; a process it left
 * behind may hold them open: after KILL_GRACE stop it and read the rest. */
static void
run_linger(struct run *R, double t)
{
	int	i;

	if (t - R->phase_at <= KILL_GRACE || !run_reading(R))
		return;
	sweep(getpid(), 0, R->tidy.janitor);
	for (i = 0; i < 2; i++)
		if (R->pfd[i].fd >= 0) {
			while (poll(&R->pfd[i], 1, 100) > 0 &&
			    drain(R, i) == 0)
				;
			close_fd(&R->pfd[i].fd);
		}
}

/* --output-dir: make the directory if it is not there, and an empty
 * NAME.out and NAME.err in it for every process.  0, or -1 (said). */
static int
out_create(struct run *R)
{
	const char	*dir = R->o->output_dir;
	struct stat	 st;
	int		 i, err;

	if (mkdir(dir, 0777) != 0 && (errno != EEXIST || stat(dir, &st) != 0 ||
	    !S_ISDIR(st.st_mode))) {
		fprintf(stderr, "ensemble: cannot make the directory '%s': %s\n", dir,
		    errno == EEXIST ? strerror(ENOTDIR) : strerror(errno));
		return -1;
	}
	for (i = 0; i < R->n; i++)
		for (err = 0; err < 2; err++) {
			if (out_open(R, i, err, "w") == NULL)
				return -1;
			out_close(R, i, err);
		}
	return 0;
}

/* Whether every process has answered SIGUSR1. */
static int
run_answered(const struct run *R)
{
	int	i;

	for (i = 0; i < R->n; i++)
		if (R->p[i].state == NULL)
			return 0;
	return 1;
}

/* Every process has ended, yet mpirun waits: for the output of processes
 * a component left behind, which are now ours.  Stop them, once a second
 * from ORPHAN_GRACE after the last process ended. */
static void
run_stop_strays(struct run *R, double t)
{
	int	k;

	if (!R->done || t - R->ended_at < ORPHAN_GRACE || t - R->swept_at < 1.0)
		return;
	k = sweep(getpid(), R->pid, R->tidy.janitor);
	R->swept_at = t;
	if (k > 0)
		fprintf(stderr, "ensemble: %s: stopped %d process%s the components"
		    " left behind\n", R->g->name, k, k == 1 ? "" : "es");
}

/* Take the stopping of the run a phase further when it is time: an
 * interrupt, or a failure STOP_GRACE old, sends SIGTERM; --timeout and
 * the start watchdog send SIGUSR1 first, and SIGTERM once everyone
 * answered or after STATE_WAIT; SIGKILL follows SIGTERM after KILL_GRACE. */
static void
run_escalate(struct run *R, double t)
{
	if (interrupted && R->phase < RUN_TERMINATED)
		run_signal(R, SIGTERM, RUN_TERMINATED, t);
	if (R->o->timeout > 0 && !R->timed_out && R->fail_at == 0 &&
	    t - R->t0 >= R->o->timeout) {
		/* Not after a failure: its report, naming the process, is the
		 * one that says what went wrong. */
		R->timed_out = 1;
		if (R->phase == RUN_RUNNING)
			run_signal(R, SIGUSR1, RUN_ASKED, t);
		else
			kill(R->pid, SIGUSR1);
	}
	if (!R->stuck && R->nhello < R->n && !R->done && R->fail_at == 0 &&
	    t - R->t0 >= R->start_timeout) {
		/* Not every process joined in time: ask each where it is. */
		R->stuck = 1;
		mark_failed(R, -1);
	}
	if (R->stuck && !R->stuck_asked && R->phase == RUN_RUNNING) {
		R->stuck_asked = 1;
		run_signal(R, SIGUSR1, RUN_ASKED, t);
	}
	if (R->phase == RUN_ASKED &&
	    (run_answered(R) || t - R->phase_at >= STATE_WAIT))
		run_signal(R, SIGTERM, RUN_TERMINATED, t);
	/* A process finalized and the run goes on: now and then ask the
	 * others where they are (blocked_for_good), without stopping it;
	 * only once all have joined (before ens_init, SIGUSR1 kills). */
	if (R->final_at > 0 && !R->done && R->fail_at == 0 &&
	    R->nhello == R->n && R->phase == RUN_RUNNING && !R->timed_out &&
	    t - R->final_at >= FINAL_ASK &&
	    (R->final_asked == 0 || t - R->final_asked >= R->final_every)) {
		R->final_every = R->final_asked == 0 ? FINAL_ASK_EVERY :
		    R->final_every * 2 < FINAL_ASK_MOST ? R->final_every * 2 :
		    FINAL_ASK_MOST;
		R->final_asked = t;
		kill(R->pid, SIGUSR1);
	}
	if (R->fail_at > 0 && R->phase < RUN_TERMINATED &&
	    t - R->fail_at >= STOP_GRACE)
		run_signal(R, SIGTERM, RUN_TERMINATED, t);
	if (R->phase == RUN_TERMINATED && t - R->phase_at >= KILL_GRACE)
		run_signal(R, SIGKILL, RUN_KILLED, t);
}

/* A realtime as ISO 8601 UTC (caller frees). */
static char *
run_iso(time_t t)
{
	struct tm	tm;
	char		buf[64];

	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return xstrdup(buf);
}

/* --trace: merge the processes' parts into the trace file, its header
 * from the script: written beside it and renamed, so that a file of that
 * name is replaced only by a whole trace.  0, or -1 (said). */
static int
run_trace(struct run *R)
{
	const struct pcg	*g = R->g;
	struct trace_hdr	*h = trace_hdr_new();
	char			*cause = NULL, *merged, pn[PCG_NAME_MAX];
	int			 i, t, k, slot, ci, rc = 0;
	size_t			 np = 0;

	h->script = xstrdup(g->script != NULL ? g->script : "?");
	h->application = xstrdup(g->name);
	h->date = run_iso(time(NULL));
	h->nparams = (size_t)g->nparams;
	h->params = xcalloc((size_t)g->nparams + 1, sizeof(*h->params));
	for (i = 0; i < g->nparams; i++) {
		h->params[i].name = xstrdup(g->params[i].name);
		h->params[i].value = pcg_param_text(&g->params[i]);
	}
	h->start = run_iso((time_t)strtoll(R->origin, NULL, 10));
	h->nprocs = g->nprocs;
	h->ncomms = 2;
	h->comms = xcalloc(2, sizeof(*h->comms));
	h->comms[0].name = xstrdup("world");
	h->comms[0].size = g->nprocs;
	h->comms[1].name = xstrdup("other");
	h->comms[1].size = 0;
	h->processes = xcalloc((size_t)g->nprocs, sizeof(*h->processes));
	for (i = 0; i < g->nprocs; i++) {
		const struct pcg_comp	*c = &g->comps[g->procs[i].comp];

		h->processes[i].name = xstrdup(pcg_proc_name(g, i, pn, sizeof(pn)));
		h->processes[i].component = xstrdup(c->name);
		for (t = 0; t < c->ntypes; t++)
			np += (size_t)g->procs[i].nports[t];
	}
	h->ports = xcalloc(np + 1, sizeof(*h->ports));
	for (i = 0; i < g->nprocs; i++) {
		const struct pcg_proc	*p = &g->procs[i];
		const struct pcg_comp	*c = &g->comps[p->comp];

		slot = p->portbase;
		for (t = 0; t < c->ntypes; t++)
			for (k = 0; k < p->nports[t]; k++, slot++) {
				struct trace_port *q = &h->ports[h->nports++];
				const struct pcg_chan *ch;

				q->rank = i;
				q->type = xstrdup(c->types[t]);
				q->index = k + 1;
				q->peer = -1;
				if ((ci = g->portchan[slot]) < 0)
					continue;
				ch = &g->chans[ci];
				q->peer = ch->e[1 - pcg_chan_end(ch, i, t, k + 1)].proc;
			}
	}
	xasprintf(&merged, "%s/merged", R->tracedir);
	if (ltrace_write(R->tracedir, g->nprocs, h, merged, &cause) != 0 ||
	    rename(merged, R->o->trace) != 0) {
		fprintf(stderr, "ensemble: cannot write the trace '%s': %s\n",
		    R->o->trace, cause != NULL ? cause : strerror(errno));
		free(cause);
		rc = -1;
	}
	free(merged);
	trace_hdr_free(h);
	return rc;
}

/* The end of the run's output: each frame line mpirun's end cut short,
 * then what is queued for our stdout and stderr, written while their
 * readers take it, for OUT_GRACE at most; what is left is dropped and
 * said, and stderr made non-blocking for the report if its reader takes
 * nothing (*stuck: its flags before). */
static void
run_flush_out(struct run *R, int *stuck)
{
	static const char	*what[] = { "stdout", "stderr" };
	struct pollfd		 pfd[2];
	double			 end = clock_now() + OUT_GRACE, left;
	int			 i, k, n, r;

	for (r = 0; r < R->n; r++)
		for (k = 0; k < 3; k++)
			if (R->p[r].part[k].len > 0) {
				proc_frame(R, r, k, R->p[r].part[k].s,
				    R->p[r].part[k].len, 1);
				buf_reset(&R->p[r].part[k]);
			}
	for (;;) {
		for (i = n = 0; i < 2; i++)
			if (outq_pending(&R->oq[i]) > 0 &&
			    (n == 0 || !R->oq_same)) {
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
				outq_write(&R->oq[pfd[i].fd - 1]);
	}
	*stuck = -1;
	if (outq_pending(&R->oq[1]) > 0 &&
	    (*stuck = fcntl(STDERR_FILENO, F_GETFL)) >= 0)
		fcntl(STDERR_FILENO, F_SETFL, *stuck | O_NONBLOCK);
	for (i = 0; i < 2; i++) {
		R->oq[i].dropped += outq_pending(&R->oq[i]);
		R->oq[i].off = R->oq[i].len = 0;
		if (R->oq[i].dropped > 0)
			fprintf(stderr, "ensemble: %s: %llu bytes of the processes'"
			    " output to %s were dropped: %s\n", R->g->name,
			    R->oq[i].dropped, what[i], R->oq[i].dead ?
			    "it could not be written" : "its reader did not take"
			    " them");
	}
}

/* The run is over: stop what is left, and say how it went.  The exit
 * status of launch_run; *stuck as run_flush_out says. */
static int
run_finish(struct run *R, int *stuck)
{
	int	st = R->wstatus, i;

	close_fd(&R->pfd[2].fd);
	/* mpirun is reaped: what is left is processes the components left
	 * behind (their trampolines no longer wait for them), said when the
	 * run went well, as run_stop_strays says them. */
	i = sweep(getpid(), 0, R->tidy.janitor);
	run_flush_out(R, stuck);
	if (i > 0 && R->done && R->fail_at == 0 && !interrupted &&
	    !R->timed_out)
		fprintf(stderr, "ensemble: %s: stopped %d process%s the components"
		    " left behind\n", R->g->name, i, i == 1 ? "" : "es");
	run_unhandle(R);
	fflush(stdout);
	for (i = 0; R->o->output_dir != NULL && i < R->n; i++) {
		out_close(R, i, 0);
		out_close(R, i, 1);
	}

	if (interrupted) {
		fprintf(stderr, "ensemble: %s: interrupted; stopped every process\n",
		    R->g->name);
		return 128 + interrupted;
	}
	if (R->timed_out) {
		report_timeout(R);
		return 3;
	}
	if (R->stuck_asked) {
		report_stuck(R);
		return 1;
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0 && R->done && R->fail_at == 0) {
		if (R->out_failed) {
			/* Every process ended well; their output did not. */
			fprintf(stderr, "ensemble: %s: %d process%s ran, but their"
			    " output under '%s' is not whole (said above)\n",
			    R->g->name, R->n, R->n == 1 ? "" : "es",
			    R->o->output_dir);
			return 1;
		}
		if (R->o->trace != NULL && run_trace(R) != 0)
			return 1;
		fprintf(stderr, "ensemble: %s: %d process%s ran in %.2f s (start %.3f s,"
		    " wiring %.3f s, run %.3f s)\n", R->g->name, R->n,
		    R->n == 1 ? "" : "es", clock_now() - R->t0,
		    R->inited_at - R->t0, R->joined_at - R->inited_at,
		    R->ended_at - R->joined_at);
		return 0;
	}
	report_failure(R, st);
	return 1;
}

/* The run's secret, which the trampolines put in their marker lines: 16
 * random bytes in hex (from the clock and the process if the kernel has
 * no randomness to give). */
static void
run_secret(struct run *R)
{
	unsigned char	b[16];
	size_t		i;
	double		t = clock_now();

	if (getrandom(b, sizeof(b), GRND_NONBLOCK) != (ssize_t)sizeof(b)) {
		memcpy(b, &t, sizeof(t));
		i = (size_t)getpid();
		memcpy(b + 8, &i, sizeof(i) < 8 ? sizeof(i) : 8);
	}
	for (i = 0; i < sizeof(b); i++)
		snprintf(R->secret + 2 * i, 3, "%02x", b[i]);
}

int
launch_run(const struct pcg *g, const struct launch_opts *o)
{
	struct run	 R;
	double		 t;
	int		 rc = 2, fd, stuck;

	/* A standard stream that is closed reads or takes nothing, as
	 * /dev/null: else the pipes to mpirun would be given its number. */
	for (fd = 0; fd < 3; fd++)
		if (fcntl(fd, F_GETFD) < 0 && open("/dev/null", O_RDWR) != fd) {
			fprintf(stderr, "ensemble: cannot open /dev/null: %s\n",
			    strerror(errno));
			return 2;
		}
	run_init(&R, g, o);
	run_secret(&R);
	if ((rc = run_fit(&R)) != 0 || (rc = run_files(&R)) != 0)
		goto out;
	rc = 2;
	if (o->output_dir != NULL && out_create(&R) != 0)
		goto out;
	if (run_spawn(&R) != 0)
		goto out;
	while (run_reading(&R) || R.phase != RUN_EXITED) {
		run_pump(&R);
		t = clock_now();
		if (R.phase != RUN_EXITED)
			run_reap(&R, t);
		if (R.phase == RUN_EXITED)
			run_linger(&R, t);
		else {
			run_stop_strays(&R, t);
			run_escalate(&R, t);
		}
	}
	rc = run_finish(&R, &stuck);
	if (stuck >= 0)
		fcntl(STDERR_FILENO, F_SETFL, stuck);
out:
	run_free(&R);
	return rc;
}
