/* launcher-mpich.c -- MPICH's mpiexec (hydra) as a launcher
 * (launch-int.h): 'mpiexec -prepend-pattern [%r]<hydra>: -n N
 * ensemble-exec --plan PLAN', each process's trampoline reading its line
 * of the plan at its PMI_RANK (wire.h); hydra passes our whole
 * environment on (so -x VAR=VALUE is set in ours, and the run's secrets)
 * and tags each line of a process's output, on the stream it wrote it
 * to, with "[RANK]<hydra>:".  Nothing travels on its standard input,
 * which reads /dev/null: hydra gives its own to rank 0 alone, loses what
 * passes 64 KiB of it, and (4.0.2) may die of SIGPIPE when it ends just
 * as a process does.  The port tables are a file (the processes must run
 * on this machine), and --stdin of any process goes through ensemble's
 * own fan (fan.h), as --stdin all does. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "launch-int.h"
#include "plan.h"

/* After the rank in hydra's tag: what makes "[R]" in a marker's text
 * (a process name, misbehave[1]) no tag (the trampolines escape every '['
 * of a component's output, not of the markers). */
#define MPICH_TAG_END	"<hydra>:"


/* Refuse what hydra cannot do as asked: Open MPI's parameters,
 * processes on other hosts (the tables are a file here; a hostfile or a
 * Slurm allocation of this machine alone is taken, its slots counted by
 * fit.c, and hydra runs every process here).  0, or 2 (said). */
static int
mpich_files(struct run *R)
{
	const struct launch_opts *o = R->o;
	const char		*what = NULL;

	if (o->nmca > 0)
		what = "--mca sets Open MPI's parameters";
	else if (!launch_all_local(R))
		what = o->hostfile != NULL ? "MPICH's mpiexec runs processes on"
		    " this machine alone in this version (the hostfile names"
		    " other hosts)" : "MPICH's mpiexec runs processes on this"
		    " machine alone in this version (the allocation has other"
		    " hosts)";
	if (what == NULL)
		return 0;
	fprintf(stderr, "ensemble: --launcher mpich: %s\n", what);
	return 2;
}

/* 'mpiexec -prepend-pattern [%r]<hydra>: [mpiexec-arg...] -n N
 * ensemble-exec --plan PLAN';
 * '-x VAR=VALUE' set in our environment, which hydra passes on whole. */
static void
mpich_argv(struct run *R, struct launcher_argv *a)
{
	launcher_arg(a, R->prog);
	launcher_arg(a, "-prepend-pattern");
	launcher_arg(a, "[%r]" MPICH_TAG_END);
	launcher_plan_tail(R, a, "-n");
}

/* "[R]<hydra>:" at the n bytes of s: its length, with *rank and *err (the pipe it
 * came on: hydra tags both streams alike) set; 0 when s does not start
 * with a tag; -1 when the n bytes may be the start of one. */
static int
mpich_tag(const char *s, size_t n, int pipe, int *rank, int *err)
{
	long	v = 0;
	size_t	i, k, m;

	if (n == 0)
		return -1;
	if (s[0] != '[')
		return 0;
	for (i = 1; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
		if (i > 9)
			return 0;
		v = v * 10 + (s[i] - '0');
	}
	if (i == n)
		return -1;
	if (i == 1 || s[i++] != ']')
		return 0;
	m = strlen(MPICH_TAG_END);
	k = n - i < m ? n - i : m;
	if (memcmp(s + i, MPICH_TAG_END, k) != 0)
		return 0;
	if (k < m)
		return -1;
	*rank = (int)v;
	*err = pipe;
	return (int)(i + m);
}

const struct launcher launcher_mpich = {
	.name = "mpich",
	.title = "MPICH's mpiexec",
	.who = "MPICH's mpiexec",
	.cmd = "mpiexec",
	.apart = "the components are built on another MPI than MPICH (see"
	    " which libmpi 'ldd' names)",
	.mpi = "mpich",
	/* A line of tokens per process, which each process's 'ensemble-exec
	 * --plan' reads at its PMI_RANK: one command for all (a configfile's
	 * lines are MPMD sections, and hydra 4.0.2 crashes past about a
	 * thousand of their words). */
	.syntax = &plan_by_rank,
	.stdin_tables = 0,
	.stdin_fan = 1,
	/* Nothing the user says to mpiexec is read for oversubscription
	 * or binding: hydra starts as many processes as it is asked on a
	 * host, once --oversubscribe lets them share slots. */
	.oversubscribed = launcher_oversubscribe,
	.binds_cores = launcher_no,
	.files = mpich_files,
	.argv = mpich_argv,
	.tag = mpich_tag,
	.own_line = launcher_no_line,	/* hydra's say nothing more */
};
