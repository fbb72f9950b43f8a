/* tidy.c -- the directories of a run, removed when it ends, even when
 * ensemble run is killed by SIGKILL (tidy.h). */
#include "config.h"

#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "tidy.h"
#include "xmalloc.h"

/* Seconds the janitor gives mpirun to stop its job after run died. */
#define TIDY_GRACE	10.0
/* Times it removes the directories, 0.1 s apart, while some are left. */
#define TIDY_TRIES	20

/* nftw's callback: remove one entry, children first. */
static int
tidy_one(const char *path, const struct stat *st, int type, struct FTW *f)
{
	(void)st;
	(void)f;
	if (type == FTW_DP || type == FTW_D || type == FTW_DNR)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

void
tidy_rmdir(const char *dir)
{
	struct stat	 st;
	char		*lock;
	int		 fd;

	if (dir == NULL)
		return;
	nftw(dir, tidy_one, 16, FTW_DEPTH | FTW_PHYS);
	/* A file made meanwhile (by a process of the run still dying) kept
	 * dir, its lock perhaps removed: a lock no process holds, so that
	 * the next run's sweep removes dir, which it leaves alone without
	 * one. */
	if (lstat(dir, &st) == 0 && S_ISDIR(st.st_mode)) {
		xasprintf(&lock, "%s/%s", dir, TIDY_LOCK);
		fd = open(lock, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		    O_CLOEXEC, 0600);
		if (fd >= 0)
			close(fd);
		free(lock);
	}
}

void
tidy_init(struct tidy *t)
{
	int	i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < TIDY_MAX; i++)
		t->locks[i] = -1;
	t->life = -1;
}

/* Dir's lock: a file made nameless (O_TMPFILE), locked, then linked in
 * as TIDY_LOCK, so that no one sees it unlocked while we live.  Its
 * descriptor (close-on-exec: mpirun does not hold it), or -1. */
static int
tidy_lock(const char *dir)
{
	char	fdpath[64], *path;
	int	fd, rc;

	if ((fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600)) < 0)
		return -1;
	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", fd);
	xasprintf(&path, "%s/%s", dir, TIDY_LOCK);
	rc = flock(fd, LOCK_EX) != 0 ||
	    linkat(AT_FDCWD, fdpath, AT_FDCWD, path, AT_SYMLINK_FOLLOW) != 0;
	free(path);
	if (rc) {
		close(fd);
		return -1;
	}
	return fd;
}

void
tidy_add(struct tidy *t, const char *dir)
{
	if (dir != NULL && t->ndirs < TIDY_MAX) {
		t->locks[t->ndirs] = tidy_lock(dir);
		t->dirs[t->ndirs++] = xstrdup(dir);
	}
}

void
tidy_sweep(const char *base)
{
	DIR		*d;
	struct dirent	*de;
	struct stat	 st;
	char		*path;
	size_t		 pl = strlen(TIDY_PREFIX);
	int		 dfd, lfd;

	if ((d = opendir(base)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, TIDY_PREFIX, pl) != 0 ||
		    strlen(de->d_name) != pl + 6)
			continue;
		dfd = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY |
		    O_NOFOLLOW | O_CLOEXEC);
		if (dfd < 0)
			continue;
		lfd = -1;
		if (fstat(dfd, &st) == 0 && st.st_uid == geteuid() &&
		    (lfd = openat(dfd, TIDY_LOCK, O_RDONLY | O_NOFOLLOW |
		    O_CLOEXEC)) >= 0 && fstat(lfd, &st) == 0 &&
		    S_ISREG(st.st_mode) && flock(lfd, LOCK_EX | LOCK_NB) == 0) {
			/* No run holds it: its run and janitor are dead. */
			xasprintf(&path, "%s/%s", base, de->d_name);
			tidy_rmdir(path);
			free(path);
		}
		if (lfd >= 0)
			close(lfd);
		close(dfd);
	}
	closedir(d);
}

/* A handle on mpirun that names no other process after its end: its
 * pidfd, or -1 where the kernel has none (then its start time, in
 * *start, from /proc). */
static int
tidy_pidfd(pid_t pid, unsigned long long *start)
{
	char		 path[64], buf[1024], *rp;
	FILE		*f;
	int		 fd = -1;

#ifdef SYS_pidfd_open
	fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (fd >= 0)
		fcntl(fd, F_SETFD, FD_CLOEXEC);
#endif
	*start = 0;
	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	if (fd < 0 && (f = fopen(path, "r")) != NULL) {
		if (fgets(buf, sizeof(buf), f) != NULL &&
		    (rp = strrchr(buf, ')')) != NULL &&
		    sscanf(rp + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u"
		    " %*u %*u %*d %*d %*d %*d %*d %*d %llu", start) != 1)
			*start = 0;
		fclose(f);
	}
	return fd;
}

/* Without a pidfd: whether pid runs and is still mpirun (started at
 * start); a zombie (mpirun orphaned to an init that does not reap) has
 * stopped. */
static int
tidy_alive(pid_t pid, unsigned long long start)
{
	char			 path[64], buf[1024], *rp;
	unsigned long long	 s;
	FILE			*f;
	int			 alive = 0;

	if (start == 0 || kill(pid, 0) != 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	if (fgets(buf, sizeof(buf), f) != NULL &&
	    (rp = strrchr(buf, ')')) != NULL && rp[1] == ' ' && rp[2] != 'Z' &&
	    sscanf(rp + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u"
	    " %*u %*u %*d %*d %*d %*d %*d %*d %llu", &s) == 1 && s == start)
		alive = 1;
	fclose(f);
	return alive;
}

/* Wait up to 'wait' seconds for mpirun to end; kill it if it has not.
 * By its pidfd when there is one: a signal there reaches mpirun or
 * nothing. */
static void
tidy_stop(pid_t pid, int pidfd, unsigned long long start, double wait)
{
	struct pollfd	pfd;
	double		t0 = clock_now();

	if (pidfd >= 0) {
		pfd.fd = pidfd;
		pfd.events = POLLIN;
		while (poll(&pfd, 1, (int)(wait * 1000)) < 0 && errno == EINTR)
			;
		if (pfd.revents != 0)
			return;
#ifdef SYS_pidfd_send_signal
		if (syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, NULL, 0) == 0)
			poll(&pfd, 1, 1000);
#endif
		return;
	}
	while (tidy_alive(pid, start) && clock_now() - t0 < wait)
		usleep(50 * 1000);
	if (tidy_alive(pid, start)) {
		kill(pid, SIGKILL);
		usleep(200 * 1000);
	}
}

/* The janitor's life: wait for the pipe to close; then, if the
 * directories are still there (run died without removing them), wait for
 * mpirun and remove them. */
static void __attribute__((noreturn))
tidy_janitor(struct tidy *t, int fd, pid_t mpirun, int pidfd,
    unsigned long long start)
{
	struct stat	 st;
	char		 c;
	int		 i, k, left = 0;

	prctl(PR_SET_NAME, "ensemble-tidy", 0, 0, 0);
	/* A Ctrl-C, a hangup or a signal to run's process group is run's
	 * to handle: the janitor is in a session of its own. */
	setsid();
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	while (read(fd, &c, 1) < 0 && errno == EINTR)
		;
	for (i = 0; i < t->ndirs; i++)
		if (lstat(t->dirs[i], &st) == 0)
			left = 1;
	if (left) {
		tidy_stop(mpirun, pidfd, start, TIDY_GRACE);
		/* Again while something is left: a component that dies with
		 * mpirun may still make a file in them meanwhile. */
		for (k = 0; left && k < TIDY_TRIES; k++) {
			if (k > 0)
				usleep(100 * 1000);
			for (i = left = 0; i < t->ndirs; i++) {
				tidy_rmdir(t->dirs[i]);
				if (lstat(t->dirs[i], &st) == 0)
					left = 1;
			}
		}
	}
	_exit(0);
}

int
tidy_watch(struct tidy *t, pid_t mpirun)
{
	unsigned long long	 start;
	int			 p[2], fd, i, keep, pidfd;
	pid_t			 pid;

	t->life = -1;
	/* Now, while mpirun is our child not yet reaped: its pid is
	 * mpirun's. */
	pidfd = tidy_pidfd(mpirun, &start);
	if (pipe2(p, O_CLOEXEC) != 0) {
		if (pidfd >= 0)
			close(pidfd);
		return -1;
	}
	if ((pid = fork()) < 0) {
		close(p[0]);
		close(p[1]);
		if (pidfd >= 0)
			close(pidfd);
		return -1;
	}
	if (pid == 0) {
		/* Nothing of run's but the pipe, the handle on mpirun and
		 * the directories' locks: whoever reads run's output, or
		 * mpirun's, must see it end when theirs end. */
		for (fd = 0; fd < 1024; fd++) {
			keep = fd == p[0] || fd == pidfd;
			for (i = 0; i < t->ndirs; i++)
				keep |= fd == t->locks[i];
			if (!keep)
				close(fd);
		}
		if ((fd = open("/dev/null", O_RDWR)) == 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		tidy_janitor(t, p[0], mpirun, pidfd, start);
	}
	close(p[0]);
	if (pidfd >= 0)
		close(pidfd);
	t->life = p[1];
	t->janitor = pid;
	return 0;
}

void
tidy_done(struct tidy *t)
{
	int	i;

	for (i = 0; i < t->ndirs; i++) {
		tidy_rmdir(t->dirs[i]);
		free(t->dirs[i]);
		t->dirs[i] = NULL;
		if (t->locks[i] >= 0)
			close(t->locks[i]);
		t->locks[i] = -1;
	}
	t->ndirs = 0;
	if (t->life >= 0)
		close(t->life);
	t->life = -1;
	/* It finds nothing left to do and ends: wait for it, so that
	 * nothing of the run outlives run itself. */
	if (t->janitor > 0)
		while (waitpid(t->janitor, NULL, 0) < 0 && errno == EINTR)
			;
	t->janitor = 0;
}
