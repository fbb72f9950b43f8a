/* subproc.c -- a command run to its end or a deadline, its output taken
 * (see subproc.h).  libc only. */
#include "config.h"

#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "subproc.h"
#include "xmalloc.h"

struct subproc {
	char		*name;		/* argv[0] */
	char		*key;		/* argv, each ended by a NUL */
	size_t		 keylen;
	pid_t		 pid;
	int		 po, pe, px;	/* its stdout, stderr; exec's errno */
	double		 start;
	double		 end;		/* the deadline */
};

/* Commands started ahead of need (subproc_ahead), not yet taken. */
#define SUBPROC_AHEAD_MOST	4
static struct subproc	*subproc_aheads[SUBPROC_AHEAD_MOST];

static char *
subproc_key(const char *const argv[], size_t *len)
{
	size_t	n = 0, i;
	char	*k;

	for (i = 0; argv[i] != NULL; i++)
		n += strlen(argv[i]) + 1;
	k = xmalloc(n + 1);
	for (n = 0, i = 0; argv[i] != NULL; i++) {
		memcpy(k + n, argv[i], strlen(argv[i]) + 1);
		n += strlen(argv[i]) + 1;
	}
	*len = n;
	return k;
}

static void
subproc_close(struct subproc *sp)
{
	if (sp->po >= 0)
		close(sp->po);
	if (sp->pe >= 0)
		close(sp->pe);
	if (sp->px >= 0)
		close(sp->px);
	sp->po = sp->pe = sp->px = -1;
}

static void
subproc_free(struct subproc *sp)
{
	subproc_close(sp);
	free(sp->name);
	free(sp->key);
	free(sp);
}

/* Start argv; NULL with *cause (when cause is not NULL). */
static struct subproc *
subproc_fork(const char *const argv[], double wait, char **cause)
{
	struct subproc	*sp;
	int		 po[2] = { -1, -1 }, pe[2] = { -1, -1 };
	int		 px[2] = { -1, -1 }, i, e, null;
	sigset_t	 mask;

	if (pipe2(po, O_CLOEXEC) != 0 || pipe2(pe, O_CLOEXEC) != 0 ||
	    pipe2(px, O_CLOEXEC) != 0)
		goto fail;
	sp = xcalloc(1, sizeof(*sp));
	if ((sp->pid = fork()) < 0) {
		free(sp);
		goto fail;
	}
	if (sp->pid == 0) {
		if ((null = open("/dev/null", O_RDONLY)) >= 0)
			dup2(null, 0);
		dup2(po[1], 1);
		dup2(pe[1], 2);
		sigemptyset(&mask);
		sigprocmask(SIG_SETMASK, &mask, NULL);
		signal(SIGPIPE, SIG_DFL);
		signal(SIGXFSZ, SIG_DFL);	/* ignored by ensemble (main.c) */
		execvp(argv[0], (char *const *)argv);
		e = errno;
		(void)!write(px[1], &e, sizeof e);
		_exit(127);
	}
	close(po[1]);
	close(pe[1]);
	close(px[1]);
	sp->name = xstrdup(argv[0]);
	sp->key = subproc_key(argv, &sp->keylen);
	sp->po = po[0];
	sp->pe = pe[0];
	sp->px = px[0];
	sp->start = clock_now();
	sp->end = sp->start + wait;
	return sp;
fail:
	if (cause != NULL)
		xasprintf(cause, "cannot run '%s': %s", argv[0],
		    strerror(errno));
	for (i = 0; i < 2; i++) {
		if (po[i] >= 0)
			close(po[i]);
		if (pe[i] >= 0)
			close(pe[i]);
		if (px[i] >= 0)
			close(px[i]);
	}
	return NULL;
}

struct subproc *
subproc_start(const char *const argv[], double wait, char **cause)
{
	struct subproc	*sp;
	size_t		 len;
	char		*key = subproc_key(argv, &len);
	int		 i;

	/* The same command started ahead: its answer is this one's, its
	 * deadline counted from when it started. */
	for (i = 0; i < SUBPROC_AHEAD_MOST; i++) {
		sp = subproc_aheads[i];
		if (sp != NULL && sp->keylen == len &&
		    memcmp(sp->key, key, len) == 0) {
			subproc_aheads[i] = NULL;
			sp->end = sp->start + wait;
			free(key);
			return sp;
		}
	}
	free(key);
	return subproc_fork(argv, wait, cause);
}

void
subproc_ahead(const char *const argv[], double wait)
{
	int	i;

	for (i = 0; i < SUBPROC_AHEAD_MOST; i++)
		if (subproc_aheads[i] == NULL) {
			subproc_aheads[i] = subproc_fork(argv, wait, NULL);
			return;
		}
}

void
subproc_ahead_drop(void)
{
	int	i;

	for (i = 0; i < SUBPROC_AHEAD_MOST; i++) {
		subproc_drop(subproc_aheads[i]);
		subproc_aheads[i] = NULL;
	}
}

int
subproc_end(struct subproc *sp, char **out, char **err, int *status,
    char **cause)
{
	struct pollfd	 pfd[3];
	struct buf	 b[2];
	char		 chunk[4096];
	int		 i, n, open_fds, rc = -1, e;
	double		 left;
	pid_t		 w;
	ssize_t		 got;

	buf_init(&b[0]);
	buf_init(&b[1]);
	pfd[0].fd = sp->po;
	pfd[1].fd = sp->pe;
	pfd[2].fd = sp->px;
	for (i = 0; i < 3; i++)
		pfd[i].events = POLLIN;
	open_fds = 3;
	e = 0;
	while (open_fds > 0) {
		if ((left = sp->end - clock_now()) <= 0)
			break;
		n = poll(pfd, 3, (int)(left * 1000) + 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		for (i = 0; i < 3; i++) {
			if (pfd[i].fd < 0 || pfd[i].revents == 0)
				continue;
			got = read(pfd[i].fd, chunk, sizeof chunk);
			if (got < 0 && errno == EINTR)
				continue;
			if (got > 0 && i < 2) {
				buf_add(&b[i], chunk, got);
				continue;
			}
			if (got == (ssize_t)sizeof e && i == 2)
				memcpy(&e, chunk, sizeof e);
			pfd[i].fd = -1;
			open_fds--;
		}
	}
	/* Its end, or the deadline. */
	for (;;) {
		w = waitpid(sp->pid, status, WNOHANG);
		if (w < 0 && errno == EINTR)
			continue;
		if (w != 0 || clock_now() >= sp->end)
			break;
		usleep(10000);
	}
	if (w == 0) {
		kill(sp->pid, SIGKILL);
		open_fds = 1;		/* late, whatever it wrote */
		while ((w = waitpid(sp->pid, status, 0)) < 0 && errno == EINTR)
			;
	}
	if (w < 0) {
		xasprintf(cause, "cannot tell how '%s' ended: %s", sp->name,
		    strerror(errno));
		goto out;
	}
	if (e != 0) {
		xasprintf(cause, "cannot run '%s': %s", sp->name, strerror(e));
		goto out;
	}
	*out = buf_steal(&b[0]);
	*err = buf_steal(&b[1]);
	rc = open_fds > 0 ? 1 : 0;
out:
	subproc_free(sp);
	buf_free(&b[0]);
	buf_free(&b[1]);
	return rc;
}

void
subproc_drop(struct subproc *sp)
{
	if (sp == NULL)
		return;
	kill(sp->pid, SIGKILL);
	while (waitpid(sp->pid, NULL, 0) < 0 && errno == EINTR)
		;
	subproc_free(sp);
}

int
subproc_run(const char *const argv[], double wait, char **out, char **err,
    int *status, char **cause)
{
	struct subproc	*sp;

	if ((sp = subproc_start(argv, wait, cause)) == NULL)
		return -1;
	return subproc_end(sp, out, err, status, cause);
}
