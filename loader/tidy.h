/* tidy.h -- the directories a run keeps its files in (the appfile, Open
 * MPI's session directory and shared-memory segments, the parts of a
 * trace), removed when the run ends, however it ends: by ensemble run
 * itself, or by a janitor process when ensemble run dies first. */
#ifndef TIDY_H
#define TIDY_H

#include <sys/types.h>

#define TIDY_MAX	4

struct tidy {
	char	*dirs[TIDY_MAX];	/* owned; NULL when none */
	int	 ndirs;
	int	 life;			/* the janitor's pipe; -1 when none */
	pid_t	 janitor;		/* 0 when none */
};

/* No directories and no janitor yet. */
void tidy_init(struct tidy *);
/* Remove dir and everything under it, however far it got; nothing when
 * dir is NULL or gone. */
void tidy_rmdir(const char *dir);
/* Keep dir (copied) to be removed. */
void tidy_add(struct tidy *, const char *dir);
/* Start the janitor: a process that waits until ensemble run has ended
 * (its pipe closes); if run died first, it waits up to 10 s for mpirun
 * (pid), which dies with run, kills it if it has not, and removes the
 * directories.  Call after mpirun is started.  0, or -1 (no janitor: the
 * run goes on without one). */
int tidy_watch(struct tidy *, pid_t mpirun);
/* Remove the directories now, let the janitor go and wait for it. */
void tidy_done(struct tidy *);

#endif
