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

/* Run argv (its program found in PATH) with /dev/null as its standard
 * input, for wait seconds at most; its output in *out and *err, its wait
 * status in *status.  0; 1 when it did not end in time (it is killed);
 * -1 with *cause when it could not be run. */
int
subproc_run(const char *const argv[], double wait, char **out, char **err,
    int *status, char **cause)
{
	struct pollfd	 pfd[3];
	struct buf	 b[2];
	char		 chunk[4096];
	int		 po[2] = { -1, -1 }, pe[2] = { -1, -1 };
	int		 px[2] = { -1, -1 };
	int		 i, n, open_fds, rc = -1, e, null;
	double		 end = clock_now() + wait, left;
	pid_t		 pid, w;
	ssize_t		 got;
	sigset_t	 mask;

	buf_init(&b[0]);
	buf_init(&b[1]);
	if (pipe2(po, O_CLOEXEC) != 0 || pipe2(pe, O_CLOEXEC) != 0 ||
	    pipe2(px, O_CLOEXEC) != 0) {
		xasprintf(cause, "cannot run '%s': %s", argv[0], strerror(errno));
		goto out;
	}
	if ((pid = fork()) < 0) {
		xasprintf(cause, "cannot run '%s': %s", argv[0], strerror(errno));
		goto out;
	}
	if (pid == 0) {
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
	po[1] = pe[1] = px[1] = -1;

	pfd[0].fd = po[0];
	pfd[1].fd = pe[0];
	pfd[2].fd = px[0];
	for (i = 0; i < 3; i++)
		pfd[i].events = POLLIN;
	open_fds = 3;
	e = 0;
	while (open_fds > 0) {
		if ((left = end - clock_now()) <= 0)
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
			close(pfd[i].fd);
			pfd[i].fd = -1;
			open_fds--;
		}
	}
	/* Its end, or the deadline. */
	for (;;) {
		w = waitpid(pid, status, WNOHANG);
		if (w < 0 && errno == EINTR)
			continue;
		if (w != 0 || clock_now() >= end)
			break;
		usleep(10000);
	}
	if (w == 0) {
		kill(pid, SIGKILL);
		open_fds = 1;		/* late, whatever it wrote */
		while ((w = waitpid(pid, status, 0)) < 0 && errno == EINTR)
			;
	}
	if (w < 0) {
		xasprintf(cause, "cannot tell how '%s' ended: %s", argv[0],
		    strerror(errno));
		goto out;
	}
	if (e != 0) {
		xasprintf(cause, "cannot run '%s': %s", argv[0], strerror(e));
		goto out;
	}
	*out = buf_steal(&b[0]);
	*err = buf_steal(&b[1]);
	rc = open_fds > 0 ? 1 : 0;
out:
	for (i = 0; i < 2; i++) {
		if (po[i] >= 0)
			close(po[i]);
		if (pe[i] >= 0)
			close(pe[i]);
		if (px[i] >= 0)
			close(px[i]);
	}
	buf_free(&b[0]);
	buf_free(&b[1]);
	return rc;
}
