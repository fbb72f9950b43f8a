/* alloc.h -- the slots a run may use, counted as Open MPI 4.1 counts them:
 * this machine's cores, a hostfile (read as orte/util/hostfile reads it),
 * or a Slurm allocation (as the ras/slurm component reads its
 * environment); and whether that allocation is still running.  'ensemble
 * run' compares a script's processes with these before it starts any, so
 * that a run that cannot fit is refused in ensemble's words, not mpirun's.
 * libc only. */
#ifndef ENS_ALLOC_H
#define ENS_ALLOC_H

enum alloc_kind {
	ALLOC_LOCAL,		/* no hostfile, no Slurm: this machine */
	ALLOC_HOSTFILE,
	ALLOC_SLURM,
};

/* A host and its slots.  Open MPI gives a host its number of cores when
 * nothing says how many slots it has (a hostfile line without slots=, or
 * the machine mpirun runs on); 'cores' says so, and 'slots' is then this
 * machine's cores for a local host and -1, not known before mpirun starts
 * a daemon there, for another. */
struct alloc_host {
	char		*name;	/* as Open MPI names it: without its domain
				 * (an address is kept whole); any name of
				 * this machine becomes its short host name */
	int		 slots;	/* -1: not known (see above) */
	int		 cores;	/* the slots are the host's cores */
	int		 local;	/* the host is this machine */
};

struct alloc {
	enum alloc_kind	 kind;
	char		*what;	/* for messages: "this machine", "the hostfile
				 * 'h.txt'", "the Slurm allocation 42" */
	char		*jobid;	/* ALLOC_SLURM: the job; else NULL */
	struct alloc_host *hosts;	/* in the order Open MPI lists them */
	int		 nhosts;
	int		 slots;	/* their sum; -1 when one of them is not known */
};

/* What alloc_slurm_alive found. */
enum alloc_job {
	ALLOC_JOB_RUNNING = 0,
	ALLOC_JOB_ENDED = -1,	/* ended, not running, or unknown to Slurm */
	ALLOC_JOB_NO_ANSWER = -2, /* Slurm did not answer, or could not be
				   * asked (no scontrol or squeue) */
};

/* This machine alone, with as many slots as mpirun without a hostfile
 * gives it: its cores, those with an online CPU in this process's cgroup
 * cpuset (hwloc's count; a core's hardware threads are one slot). */
void alloc_local(struct alloc *);

/* Read the hostfile at path as Open MPI 4.1 does: a host per line, with
 * slots=N (or its aliases cpu=, count=) and max_slots=M (slots-max,
 * max-slots, cpu_max, ...; without slots= it is the slots), port= and
 * username= allowed, '#' and '//' comments to the end of the line and
 * block comments; a host repeated adds one slot a line (and is then an
 * error with slots= on any of its lines); names of this machine are one
 * host.  0, or -1 with *cause ("h.txt:3: ...", file and line first) for a
 * file mpirun would refuse, that names no host, or that has what Open MPI
 * takes but this does not: a number past INT_MAX (which Open MPI
 * truncates), a rankfile line ("rank 0=host"), a relative host ("+n0"). */
int alloc_hostfile(struct alloc *, const char *path, char **cause);

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
 * ping', then 'squeue', each bounded in time (5 s, 10 s); with slurmctld
 * down it knows in milliseconds, with munged down in 2 s.
 * ALLOC_JOB_RUNNING (RUNNING or CONFIGURING), or the other two with
 * *cause a sentence for the user: "the Slurm allocation 42 has ended
 * (COMPLETED)", "... is not running (SUSPENDED)", "... is not known to
 * Slurm any more", "Slurm does not answer (scontrol ping: ...): is
 * slurmctld running?".  It waits for its own children only. */
enum alloc_job alloc_slurm_alive(const char *jobid, char **cause);

/* Whether name names this machine: "localhost", an address of 127.0.0.0/8
 * or ::1, the host name or its short form, an address of one of its
 * interfaces, or (tried last, as it may ask DNS) a name that resolves to
 * one of those.  A name under ".invalid" never does and asks no one. */
int alloc_is_local(const char *name);

/* The host of a that name names: one of that name (both taken without
 * their domain), or else, when name names this machine, a's host that is
 * this machine; NULL when a has none.  Borrowed from a. */
const struct alloc_host *alloc_find(const struct alloc *, const char *name);

/* The slots of the host of a that name names (alloc_find): -1 when a has
 * no such host, ALLOC_SLOTS_UNKNOWN when its slots are its cores and it
 * is not this machine. */
#define ALLOC_SLOTS_UNKNOWN	(-2)
int alloc_host_slots(const struct alloc *, const char *name);

/* Free what a holds (not a itself); a may then be filled again. */
void alloc_clear(struct alloc *);

#endif
