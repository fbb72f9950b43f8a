/* alloc.h -- the slots a run may use, counted as Open MPI 4.1 counts them:
 * this machine's cores, a hostfile (read as orte/util/hostfile reads it),
 * or a Slurm allocation (as the ras/slurm component reads its
 * environment).  'ensemble run' compares a script's processes with these
 * before it starts any, so that a run that cannot fit is refused in
 * ensemble's words, not mpirun's.  This machine's is here (alloc_local;
 * its names and cores are alloc-machine.c's); a hostfile's and Slurm's
 * are read in files of their own (alloc-hostfile.h, alloc-slurm.h, which
 * also asks whether the allocation is still running).  libc only. */
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

/* This machine alone, with as many slots as mpirun without a hostfile
 * gives it: its cores, those with an online CPU in this process's cgroup
 * cpuset (hwloc's count; a core's hardware threads are one slot). */
void alloc_local(struct alloc *);

/* The host of a that name names: one of that name (both taken without
 * their domain), or else, when name names this machine, a's host that is
 * this machine; NULL when a has none.  Borrowed from a. */
const struct alloc_host *alloc_find(const struct alloc *, const char *name);

/* The slots of the host of a that name names (alloc_find): -1 when a has
 * no such host, ALLOC_SLOTS_UNKNOWN when its slots are its cores and it
 * is not this machine. */
#define ALLOC_SLOTS_UNKNOWN	(-2)
int alloc_host_slots(const struct alloc *, const char *name);

/* For the files that fill a struct alloc (alloc-hostfile.c,
 * alloc-slurm.c): */

/* Append host name (taken over) to a; its index. */
int alloc_add(struct alloc *, char *name, int slots, int cores, int local);

/* The host of a named exactly name, or -1. */
int alloc_index(const struct alloc *, const char *name);

/* Fill in what Open MPI works out itself (a local host's cores) and the
 * total. */
void alloc_total(struct alloc *);

/* Free what a holds (not a itself); a may then be filled again. */
void alloc_clear(struct alloc *);

#endif
