/* launch.h -- the side of 'ensemble run' that starts the processes under
 * mpirun and watches the run: it checks that they fit their slots, writes
 * the plan (plan.h), passes the processes' output through, reads the
 * marker lines libensemble and the trampoline write (runtime/wire.h) and
 * Open MPI's own reports, and says in one place which process failed,
 * how, and what it said last. */
#ifndef ENS_LAUNCH_H
#define ENS_LAUNCH_H

#include <stddef.h>
#include <stdint.h>

#include "pcg.h"

#define LAUNCH_STDIN_ALL	(-2)	/* --stdin all (fan.h) */

/* The launchers --launcher names, NULL-terminated (launcher.c). */
extern const char *const launch_launchers[];

struct launch_opts {
	const char	*launcher;	/* one of launch_launchers; NULL: found
					 * from the launcher program and the
					 * environment */
	const char	*mpirun;	/* the launcher program: ENSEMBLE_MPIRUN,
					 * else NULL (configure's, or found
					 * by the launcher's names) */
	const char	*exec;		/* ensemble-exec, absolute */
	char *const	*paths;		/* each process's executable, absolute */
	const char	*pythondir;	/* put first on the components'
					 * PYTHONPATH; NULL: none */
	const char	*hostfile;	/* NULL: a Slurm allocation, or this
					 * machine */
	int		 oversubscribe;	/* more processes than slots */
	double		 timeout;	/* seconds; 0: none */
	double		 start_timeout;	/* for every process to join; 0: by
					 * the size */
	int		 check_protocol;
	int		 watch;		/* name deadlocks as they form (watch.c) */
	const char	*trace;		/* --trace: the file (absolute); NULL */
	int		 verbose;	/* show mpirun's own messages too */
	int		 stdin_proc;	/* --stdin: the process (script order)
					 * given our stdin; -1: none;
					 * LAUNCH_STDIN_ALL: every one */
	int		 tag_output;	/* "NAME: " before each line of a process */
	const char	*output_dir;	/* non-NULL: each process's output to
					 * DIR/NAME.out and DIR/NAME.err */
	/* Given to mpirun as they are, before the appfile: */
	const char	**mca;		/* --mca: KEY, VALUE, KEY, VALUE... */
	size_t		 nmca;		/* its length (twice the pairs) */
	const char	**xenv;		/* -x VAR or VAR=VALUE */
	size_t		 nxenv;
	const char	**rest;		/* arguments after '--' */
	size_t		 nrest;
	int		 hand;		/* ens_launch's descriptor: the
					 * processes are its caller's to
					 * spawn (runtime/hand.h); 0: none */
	/* The largest value of the scale parameter (-np) whose processes
	 * fit in 'slots' (found by expanding the script again), for the
	 * advice when they do not fit; -1 when none does (no scale
	 * parameter, a count that does not depend on it, too few slots even
	 * for the smallest).  NULL: no advice. */
	int64_t		(*scale_fit)(void *arg, int slots);
	void		*scale_fit_arg;
};

/* Run g's processes and wait for them: 0 every one succeeded; 1 the run
 * failed (reported); 3 --timeout stopped it; 4 the watch found processes
 * blocked for good and stopped it (reported); 2 it could not be started
 * (reported: they do not fit their slots, a file cannot be made, mpirun
 * cannot be run). */
int launch_run(const struct pcg *g, const struct launch_opts *);

/* Start now, while the script is checked and verified, the questions
 * launch_run will ask of the system (is the Slurm allocation still
 * running; which PMI plugins srun has), for launcher (--launcher's
 * word, or NULL) and whether a hostfile is given: launch_run takes their
 * answers.  launch_ahead_drop ends those it did not take (a run refused
 * before it started). */
void launch_ahead(const char *launcher, int hostfile);
void launch_ahead_drop(void);

#endif
