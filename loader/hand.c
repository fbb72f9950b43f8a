/* hand.c -- the run of ens_launch (runtime/hand.h): 'ensemble run' with
 * HAND_ENV set, whose processes a running MPI program (the caller)
 * starts with MPI_Comm_spawn_multiple.  A launcher (launch-int.h) whose
 * program is no program: launcher_start forks the collector (hand_run)
 * in its place, which hands the caller the spawn request and stands in
 * for mpirun: the trampolines' output, each line tagged as Open MPI tags
 * a spawned job's ("[2,R]"), on its standard output and error, and
 * 'ensemble run''s signals passed on to them.  So everything else of the
 * run is --launcher spawn's (launcher-spawn.c): the tags, the processes
 * on this machine alone, no --stdin N. */
#include "config.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fdio.h"
#include "hand.h"
#include "launch-int.h"

#define HAND_SOCK	"hand.sock"	/* in the run's directory */
#define HAND_FILE	"hand.env"
#define HAND_HEAD_MAX	(AUTH_KEY + 32)	/* "SECRET RANK STREAM" */

/* The variables of ours the spawned processes need (the caller's
 * mpirun, not we, is their parent): set by launcher_plan_exec, spawn's
 * argv, launcher_start, and the user's '-x'. */
static const char *const hand_vars[] = {
	WIRE_ENV_SECRET, WIRE_ENV_STDIN_KEY, "PYTHONPATH",
	"OMPI_MCA_mpi_yield_when_idle", NULL
};

/* One of the collector's connections: a trampoline's stdout or stderr. */
struct hand_conn {
	int	 fd;		/* -1: ended */
	int	 rank;		/* -1: its first line not read yet */
	int	 stream;	/* 1 stdout, 2 stderr */
	pid_t	 pgid;		/* its trampoline's process group; 0 */
	char	*buf;
	size_t	 len, cap;
};

/* What launcher_start's hooks pass the collector. */
struct hand_start {
	int	 lsock;		/* its socket, listening */
	char	*file;		/* the trampolines' file */
};

static volatile sig_atomic_t	hand_pending[NSIG];

static void
hand_on_signal(int sig)
{
	hand_pending[sig] = 1;
}

/* --stdin N and other hosts: as spawn's; Open MPI's files are not ours to
 * make (the caller's mpirun has its own). */
static int
hand_files(struct run *R)
{
	const char	*what = NULL;

	if (R->o->stdin_proc >= 0)
		what = "--stdin N: the spawned processes' standard input is not"
		    " ours";
	else if (!launch_all_local(R))
		what = "MPI_Comm_spawn starts processes on this machine alone in"
		    " this version (the hosts given are others)";
	if (what != NULL) {
		fprintf(stderr, "ensemble: ens_launch: %s\n", what);
		return 2;
	}
	return 0;
}

/* No command line: the environment the processes need, set in ours
 * (hand_prepare writes it into the file they read). */
static void
hand_argv(struct run *R, struct launcher_argv *a)
{
	const struct launch_opts *o = R->o;
	long			 cores = sysconf(_SC_NPROCESSORS_ONLN);
	size_t			 k;

	(void)a;
	if (cores > 0 && R->n <= cores)
		setenv("OMPI_MCA_mpi_yield_when_idle", "0", 0);
	for (k = 0; k < o->nxenv; k++)
		free(launcher_setenv(o->xenv[k]));
	setenv(WIRE_ENV_SECRET, R->secret, 1);
	if (R->fan != NULL)
		setenv(WIRE_ENV_STDIN_KEY, R->stdin_key, 1);
}

/* A line "TOKEN\n" of s (wire_token_put) on b. */
static void
hand_put(struct wire_buf *b, const char *s)
{
	wire_token_put(b, s);
	wire_put_bytes(b, "\n", 1);
}

/* A line NAME=VALUE of ours on b, when NAME is set. */
static void
hand_put_var(struct wire_buf *b, const char *name)
{
	const char	*v = getenv(name);
	char		*e;

	if (v == NULL)
		return;
	xasprintf(&e, "%s=%s", name, v);
	hand_put(b, e);
	free(e);
}

/* Before the collector starts: its socket, listening, and the
 * trampolines' file, in the run's directory.  0, or -1 (said). */
static int
hand_prepare(struct run *R, int *lsock, char **file)
{
	const struct launch_opts *o = R->o;
	struct sockaddr_un	 sun;
	struct wire_buf		 b;
	char			*path, *e;
	size_t			 k;
	ssize_t			 w;
	int			 fd, rc = -1;

	*file = NULL;
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	xasprintf(&path, "%s/" HAND_SOCK, R->workdir);
	if (strlen(path) >= sizeof(sun.sun_path)) {
		fprintf(stderr, "ensemble: ens_launch: the run's directory '%s'"
		    " is too long a path for a socket (TMPDIR)\n", R->workdir);
		free(path);
		return -1;
	}
	strcpy(sun.sun_path, path);
	if ((*lsock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0 ||
	    bind(*lsock, (struct sockaddr *)&sun, sizeof(sun)) != 0 ||
	    listen(*lsock, 2 * R->n < 4096 ? 2 * R->n : 4096) != 0) {
		fprintf(stderr, "ensemble: ens_launch: socket '%s': %s\n", path,
		    strerror(errno));
		goto out;
	}
	memset(&b, 0, sizeof(b));
	xasprintf(&e, HAND_ENV_OUT "=%s", path);
	hand_put(&b, e);
	free(e);
	for (k = 0; hand_vars[k] != NULL; k++)
		hand_put_var(&b, hand_vars[k]);
	for (k = 0; k < o->nxenv; k++)
		if (strchr(o->xenv[k], '=') == NULL)
			hand_put_var(&b, o->xenv[k]);
		else if (strchr(o->xenv[k], '=') != o->xenv[k])
			hand_put(&b, o->xenv[k]);
	xasprintf(file, "%s/" HAND_FILE, R->workdir);
	if ((fd = open(*file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0600)) < 0 ||
	    (w = write(fd, b.p, b.len)) != (ssize_t)b.len) {
		fprintf(stderr, "ensemble: ens_launch: cannot write '%s': %s\n",
		    *file, fd < 0 || w < 0 ? strerror(errno) : "short write");
		if (fd >= 0)
			close(fd);
		free(b.p);
		goto out;
	}
	close(fd);
	free(b.p);
	rc = 0;
out:
	free(path);
	return rc;
}

/* The request (hand.h) on the caller's descriptor. */
static int
hand_request(struct run *R, int hand, const char *file)
{
	struct wire_buf	 b;
	char		 num[32];
	int		 rc;

	memset(&b, 0, sizeof(b));
	hand_put(&b, HAND_MAGIC);
	snprintf(num, sizeof(num), "%d", R->n);
	hand_put(&b, num);
	hand_put(&b, R->o->exec);
	hand_put(&b, "4");
	hand_put(&b, WIRE_FLAG_PLAN);
	hand_put(&b, R->appfile);
	hand_put(&b, HAND_FLAG);
	hand_put(&b, file);
	/* Whether the processes fit the cores is the run's check (fit.c),
	 * not Open MPI's count of slots, which counts the caller in. */
	hand_put(&b, "1");
	hand_put(&b, "map_by");
	hand_put(&b, ":OVERSUBSCRIBE");
	wire_put_bytes(&b, "\n", 1);
	rc = write_all(hand, b.p, b.len);
	free(b.p);
	return rc;
}

/* A trampoline's first line on c: "SECRET RANK STREAM", checked.  0, or
 * -1: not one of ours (dropped). */
static int
hand_head(struct run *R, struct hand_conn *c, const char *line, char *seen)
{
	struct ucred	cred;
	socklen_t	len = sizeof(cred);
	int		rank, stream, n = 0;

	if (strlen(line) < AUTH_KEY + 1 || line[AUTH_KEY] != ' ' ||
	    !auth_same(line, R->secret, AUTH_KEY) ||
	    sscanf(line + AUTH_KEY + 1, "%d %d%n", &rank, &stream, &n) != 2 ||
	    line[AUTH_KEY + 1 + n] != '\0' || rank < 0 || rank >= R->n ||
	    (stream != 1 && stream != 2) || seen[2 * rank + stream - 1])
		return -1;
	seen[2 * rank + stream - 1] = 1;
	c->rank = rank;
	c->stream = stream;
	if (getsockopt(c->fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0 &&
	    cred.pid > 0)
		c->pgid = getpgid(cred.pid);
	return 0;
}

/* The whole lines c holds, tagged, on our stdout or stderr; at its end
 * ('last'), the rest as a line. */
static void
hand_lines(struct hand_conn *c, int last)
{
	char	*p = c->buf, *nl, tag[48];
	size_t	 left = c->len, n;
	int	 k;

	while (left > 0) {
		if ((nl = memchr(p, '\n', left)) == NULL && !last &&
		    left < c->cap - 1)
			break;
		n = nl != NULL ? (size_t)(nl - p) : left;
		k = snprintf(tag, sizeof(tag), "[2,%d]<%s>:", c->rank,
		    c->stream == 1 ? "stdout" : "stderr");
		if (write_all(c->stream, tag, (size_t)k) != 0 ||
		    write_all(c->stream, p, n) != 0 ||
		    write_all(c->stream, "\n", 1) != 0)
			_exit(1);	/* 'ensemble run' is gone */
		n += nl != NULL;
		p += n;
		left -= n;
	}
	if (left > 0 && p != c->buf)
		memmove(c->buf, p, left);
	c->len = left;
}

/* The caller's answer, a line of a: 0 it spawned them; 1 it could not
 * (said). */
static int
hand_answer(const char *a)
{
	size_t	n = strlen(HAND_ERROR);

	if (strcmp(a, HAND_OK) == 0)
		return 0;
	if (strncmp(a, HAND_ERROR, n) == 0 && a[n] == ' ')
		fprintf(stderr, "ensemble: ens_launch: %s\n", a + n + 1);
	else
		fprintf(stderr, "ensemble: ens_launch: the caller answered"
		    " what is not an answer\n");
	return 1;
}

/* Read what c has and pass its whole lines on; its first line is its
 * head (hand_head).  0, or -1 when it has ended (closed, or dropped as
 * not one of ours: *good then tells which). */
static int
hand_read(struct run *R, struct hand_conn *c, char *seen, int *good)
{
	char	*nl;
	ssize_t	 r;

	*good = 1;
	r = read(c->fd, c->buf + c->len, c->cap - c->len - 1);
	if (r < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (r > 0)
		c->len += (size_t)r;
	if (c->rank < 0) {
		c->buf[c->len] = '\0';
		if ((nl = strchr(c->buf, '\n')) == NULL && r > 0 &&
		    c->len < HAND_HEAD_MAX)
			return 0;
		if (nl != NULL)
			*nl = '\0';
		if (nl == NULL || hand_head(R, c, c->buf, seen) != 0) {
			*good = 0;
			r = 0;
			c->len = 0;
		} else {
			c->len -= (size_t)(nl + 1 - c->buf);
			memmove(c->buf, nl + 1, c->len);
		}
	}
	if (*good)
		hand_lines(c, r <= 0);
	if (r > 0)
		return 0;
	close(c->fd);
	c->fd = -1;
	return -1;
}

/* The collector, in the child launcher_start forked: hand the caller the
 * request, then relay every trampoline's streams until each has ended,
 * passing our signals on to them.  Exit 0, or 1 when the caller did not
 * start them (said). */
static void __attribute__((noreturn))
hand_collect(struct run *R, int hand, int lsock, const char *file)
{
	static const int	 sigs[] = { SIGUSR1, SIGTERM, SIGINT, SIGHUP };
	struct sigaction	 sa;
	struct hand_conn	*c = NULL;
	struct pollfd		*pfd = NULL;
	sigset_t		 block, wake;
	char			*seen, ans[HAND_LINE_MAX];
	size_t			 alen = 0, cap = 0, pcap = 0;
	int			 nc = 0, good = 0, ended = 0, answered = 0;
	int			 i, k, n, fd, ok;
	ssize_t			 r;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = hand_on_signal;
	sigemptyset(&block);
	for (k = 0; k < (int)(sizeof(sigs) / sizeof(sigs[0])); k++) {
		sigaction(sigs[k], &sa, NULL);
		sigaddset(&block, sigs[k]);
	}
	sigprocmask(SIG_BLOCK, &block, &wake);
	for (k = 0; k < (int)(sizeof(sigs) / sizeof(sigs[0])); k++)
		sigdelset(&wake, sigs[k]);
	signal(SIGPIPE, SIG_IGN);
	if (hand_request(R, hand, file) != 0) {
		fprintf(stderr, "ensemble: ens_launch: cannot hand the caller"
		    " the request: %s\n", strerror(errno));
		_exit(1);
	}
	seen = xcalloc((size_t)(2 * R->n), 1);
	while (!answered || ended < 2 * R->n) {
		for (k = 1; k < NSIG; k++) {
			if (!hand_pending[k])
				continue;
			hand_pending[k] = 0;
			for (i = 0; i < nc; i++)
				if (c[i].pgid > 0 && c[i].stream == 1)
					kill(-c[i].pgid, k);
		}
		xgrow(&pfd, &pcap, (size_t)nc + 2, sizeof(*pfd));
		n = 0;
		pfd[n].fd = answered ? -1 : hand;
		pfd[n++].events = POLLIN;
		pfd[n].fd = good < 2 * R->n ? lsock : -1;
		pfd[n++].events = POLLIN;
		for (i = 0; i < nc; i++) {
			pfd[n].fd = c[i].fd;
			pfd[n++].events = POLLIN;
		}
		if (ppoll(pfd, (nfds_t)n, NULL, &wake) < 0)
			continue;
		if (pfd[0].revents != 0) {
			r = read(hand, ans + alen, sizeof(ans) - 1 - alen);
			if (r == 0 || (r < 0 && errno != EINTR)) {
				fprintf(stderr, "ensemble: ens_launch: the caller"
				    " ended without starting the processes\n");
				_exit(1);
			}
			alen += r > 0 ? (size_t)r : 0;
			ans[alen] = '\0';
			if (strchr(ans, '\n') != NULL ||
			    alen == sizeof(ans) - 1) {
				ans[strcspn(ans, "\n")] = '\0';
				if (hand_answer(ans) != 0)
					_exit(1);
				answered = 1;
			}
		}
		for (i = 0; i < nc; i++)
			if (c[i].fd >= 0 && pfd[2 + i].revents != 0 &&
			    hand_read(R, &c[i], seen, &ok) != 0) {
				ended += ok;
				good -= !ok;
				free(c[i].buf);
				c[i].buf = NULL;
			}
		if (pfd[1].revents != 0 && (fd = accept4(lsock, NULL, NULL,
		    SOCK_CLOEXEC)) >= 0) {
			xgrow(&c, &cap, (size_t)nc + 1, sizeof(*c));
			memset(&c[nc], 0, sizeof(c[nc]));
			c[nc].fd = fd;
			c[nc].rank = -1;
			c[nc].cap = WIRE_MARK_MAX + 4 * WIRE_PIECE;
			c[nc++].buf = xmalloc(WIRE_MARK_MAX + 4 * WIRE_PIECE);
			good++;
		}
	}
	_exit(0);
}

/* Open MPI's tags of a spawned job, as the collector writes them. */
static int
hand_tag(const char *s, size_t n, int pipe, int *rank, int *err)
{
	return launcher_spawn.tag(s, n, pipe, rank, err);
}

/* The collector's child side, from launcher_start. */
static void
hand_run(struct run *R, void *arg)
{
	struct hand_start	*h = arg;

	hand_collect(R, R->o->hand, h->lsock, h->file);
}

/* Before the fork: what the collector needs.  0, or -1 (said). */
static int
hand_before(struct run *R, void **arg)
{
	struct hand_start	*h = xcalloc(1, sizeof(*h));

	h->lsock = -1;
	*arg = h;
	return hand_prepare(R, &h->lsock, &h->file);
}

/* After the fork, in 'ensemble run': the caller's descriptor and the
 * socket are the collector's alone. */
static void
hand_after(struct run *R, void *arg)
{
	struct hand_start	*h = arg;

	close(R->o->hand);
	if (h == NULL)
		return;
	if (h->lsock >= 0)
		close(h->lsock);
	free(h->file);
	free(h);
}

const struct launcher launcher_hand = {
	.name = "spawn",
	.title = "MPI_Comm_spawn",
	.who = "Open MPI",
	.cmd = "ens_launch's collector",
	.apart = "Open MPI's MPI_Comm_spawn did not start them as one job",
	.mpi = "openmpi",
	.syntax = &plan_by_rank,
	.stdin_tables = 0,
	.oversubscribed = launcher_oversubscribe,
	.binds_cores = launcher_no,
	.files = hand_files,
	.argv = hand_argv,
	.tag = hand_tag,
	.own_line = launcher_no_line,
	.before = hand_before,
	.run = hand_run,
	.after = hand_after,
};
