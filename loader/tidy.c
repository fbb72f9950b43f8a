/* tidy.c -- the directories of a run, removed when it ends, even when
 * ensemble run is killed by SIGKILL (tidy.h). */
#include "config.h"

#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
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
	if (dir != NULL)
		nftw(dir, tidy_one, 16, FTW_DEPTH | FTW_PHYS);
}

void
tidy_init(struct tidy *t)
{
	memset(t, 0, sizeof(*t));
	t->life = -1;
}

void
tidy_add(struct tidy *t, const char *dir)
{
	if (dir != NULL && t->ndirs < TIDY_MAX)
		t->dirs[t->ndirs++] = xstrdup(dir);
}

/* Whether pid runs: a zombie (mpirun orphaned to an init that does not
 * reap) has stopped. */
static int
tidy_alive(pid_t pid)
{
	char	 path[64], buf[512], *rp;
	FILE	*f;
	int	 alive = 1;

	if (kill(pid, 0) != 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	if (fgets(buf, sizeof(buf), f) != NULL &&
	    (rp = strrchr(buf, ')')) != NULL && rp[1] == ' ' && rp[2] == 'Z')
		alive = 0;
	fclose(f);
	return alive;
}

/* The janitor's life: wait for the pipe to close; then, if the
 * directories are still there (run died without removing them), wait for
 * mpirun and remove them. */
static void __attribute__((noreturn))
tidy_janitor(struct tidy *t, int fd, pid_t mpirun)
{
	struct stat	 st;
	double		 t0;
	char		 c;
	int		 i, left = 0;

	prctl(PR_SET_NAME, "ensemble-tidy", 0, 0, 0);
	signal(SIGINT, SIG_IGN);	/* a Ctrl-C is run's to handle */
	signal(SIGTERM, SIG_IGN);
	while (read(fd, &c, 1) < 0 && errno == EINTR)
		;
	for (i = 0; i < t->ndirs; i++)
		if (lstat(t->dirs[i], &st) == 0)
			left = 1;
	if (left) {
		t0 = clock_now();
		while (tidy_alive(mpirun) && clock_now() - t0 < TIDY_GRACE)
			usleep(50 * 1000);
		if (tidy_alive(mpirun)) {
			kill(mpirun, SIGKILL);
			usleep(200 * 1000);
		}
		for (i = 0; i < t->ndirs; i++)
			tidy_rmdir(t->dirs[i]);
	}
	_exit(0);
}

int
tidy_watch(struct tidy *t, pid_t mpirun)
{
	int	 p[2], fd;
	pid_t	 pid;

	t->life = -1;
	if (pipe2(p, O_CLOEXEC) != 0)
		return -1;
	if ((pid = fork()) < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		/* Nothing of run's but the pipe: whoever reads run's output,
		 * or mpirun's, must see it end when theirs end. */
		for (fd = 0; fd < 1024; fd++)
			if (fd != p[0])
				close(fd);
		if ((fd = open("/dev/null", O_RDWR)) == 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		tidy_janitor(t, p[0], mpirun);
	}
	close(p[0]);
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
