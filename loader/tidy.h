/* tidy.h -- the directories a run keeps its files in (the appfile, Open
 * MPI's session directory and shared-memory segments, the parts of a
 * trace), removed when the run ends, however it ends: by ensemble run
 * itself, or by a janitor process when ensemble run dies first, or, when
 * both were killed, by the next run on this machine (tidy_sweep). */
#ifndef TIDY_H
#define TIDY_H

#include <sys/types.h>

#define TIDY_MAX	4
#define TIDY_PREFIX	"ensemble-run."	/* of a run's directories in TMPDIR
					 * and /dev/shm, then mkdtemp's six */
#define TIDY_LOCK	".lock"		/* in each: held while the run or
					 * its janitor lives */

struct tidy {
	char	*dirs[TIDY_MAX];	/* owned; NULL when none */
	int	 locks[TIDY_MAX];	/* each one's TIDY_LOCK, held; -1 none */
	int	 ndirs;
	int	 life;			/* the janitor's pipe; -1 when none */
	pid_t	 janitor;		/* 0 when none */
};

/* No directories and no janitor yet. */
void tidy_init(struct tidy *);
/* Remove dir and everything under it, however far it got; nothing when
 * dir is NULL or gone.  When a file made meanwhile keeps dir, dir is
 * left with a TIDY_LOCK no process holds, for the next run's sweep. */
void tidy_rmdir(const char *dir);
/* Keep dir (copied) to be removed, and hold its lock: a file TIDY_LOCK
 * in it, locked (flock) before it appears there, which the run and its
 * janitor hold while they live (where the file system cannot hold one,
 * none: then only they remove it). */
void tidy_add(struct tidy *, const char *dir);
/* Remove what dead runs left in base (TMPDIR, /dev/shm): each directory
 * TIDY_PREFIX... of this user's whose TIDY_LOCK no process holds. */
void tidy_sweep(const char *base);
/* Start the janitor, in a session of its own (a signal to the run's
 * process group or its terminal does not reach it): a process that waits
 * until ensemble run has ended (its pipe closes); if run died first, it
 * waits up to 10 s for mpirun (pid, run's child that has not been
 * reaped), which dies with run, kills it if it has not, and removes the
 * directories.  It knows mpirun by a handle that names no other process
 * once mpirun has ended (a pidfd; on a kernel without them, by its pid
 * and start time).  Call after mpirun is started.  0, or -1 (no janitor:
 * the run goes on without one). */
int tidy_watch(struct tidy *, pid_t mpirun);
/* Remove the directories now, let the janitor go and wait for it. */
void tidy_done(struct tidy *);

#endif
