/* alloc-slurm.h -- the Slurm allocation this process runs in, and whether
 * it is still running (alloc-slurm.c).  libc only. */
#ifndef ENS_ALLOC_SLURM_H
#define ENS_ALLOC_SLURM_H

#include "alloc.h"

/* What alloc_slurm_alive found. */
enum alloc_job {
	ALLOC_JOB_RUNNING = 0,
	ALLOC_JOB_ENDED = -1,	/* ended, not running, or unknown to Slurm */
	ALLOC_JOB_NO_ANSWER = -2, /* Slurm did not answer, or could not be
				   * asked (no scontrol or squeue) */
};

/* The allocation of the Slurm job this process runs in, from the
 * environment as Open MPI 4.1's ras/slurm reads it: the job SLURM_JOBID
 * (its being set is what makes mpirun read Slurm at all: call this then),
 * its hosts SLURM_NODELIST (a host list such as "node[01-03,7],gpu5"; not
 * SLURM_JOB_NODELIST) and their slots SLURM_TASKS_PER_NODE ("2(x3),1"; a
 * host past its end has none).  SLURM_CPUS_PER_TASK divides nothing in
 * Open MPI 4.1 (salloc -n 2 -c 2 gives 2 slots); it must only be a
 * positive number.  0, or -1 with *cause when a variable is missing or
 * malformed, or the host list has a form Open MPI 4.1 misreads. */
int alloc_slurm(struct alloc *, char **cause);

/* Ask Slurm whether job jobid (not empty) is still running: 'scontrol
 * ping' and 'squeue' at once, each bounded in time (5 s, 10 s), squeue's
 * answer taken when ping's says slurmctld is up; with slurmctld down it
 * knows in milliseconds, with munged down in 2 s.
 * ALLOC_JOB_RUNNING (RUNNING or CONFIGURING), or the other two with
 * *cause a sentence for the user: "the Slurm allocation 42 has ended
 * (COMPLETED)", "... is not running (SUSPENDED)", "... is not known to
 * Slurm any more", "Slurm does not answer (scontrol ping: ...): is
 * slurmctld running?".  It waits for its own children only. */
enum alloc_job alloc_slurm_alive(const char *jobid, char **cause);
/* Start alloc_slurm_alive's questions now (subproc_ahead), for it to
 * find answered later. */
void alloc_slurm_ahead(const char *jobid);

#endif
