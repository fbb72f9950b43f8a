/* launcher-spawn.c -- MPI_Comm_spawn as a launcher (launch-int.h), under
 * Open MPI: 'mpirun --tag-output [options] -np 1 ensemble-spawn N
 * ensemble-exec --plan PLAN'.  The hand, ensemble-spawn (spawn.c), is an
 * MPI process of one; it starts the N processes with
 * MPI_Comm_spawn_multiple as a world of their own, each trampoline
 * reading its line of the plan at its rank (PMIX_RANK), disconnects from
 * them (as each does from it in ens_init) and ends; mpirun waits for the
 * spawned job, puts "[2,R]" before its processes' lines (the hand's are
 * "[1,0]", mpirun's own here) and stops it on a failure, as it does an
 * appfile's.  Everything else is Open MPI's launcher's: its options, its
 * session directory and segments, its own lines.  The processes inherit
 * mpirun's environment (the run's secrets, -x VAR=VALUE); their standard
 * input is not mpirun's, so only --stdin all reaches them; they run on
 * this machine alone in this version (the tables are a file here).  Open
 * MPI counts the hand among the processes and makes the spawned ones
 * yield when the hand and they outnumber the cores: while they alone fit
 * (N at most the cores online), OMPI_MCA_mpi_yield_when_idle=0 unless the
 * user set it, so that they run as 'mpirun -np N' would. */
#include "config.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "launch-int.h"
#include "plan.h"

#define SPAWN_HAND	"ensemble-spawn"	/* beside ensemble-exec */

/* Refuse what the spawned processes cannot have (our standard input at
 * one of them, hosts other than this machine), then Open MPI's files.  0,
 * or 2 (said). */
static int
spawn_files(struct run *R)
{
	const char	*what = NULL;

	if (R->o->stdin_proc >= 0)
		what = "--stdin N: the spawned processes' standard input is not"
		    " mpirun's (--stdin all reaches them)";
	else if (!launch_all_local(R))
		what = "MPI_Comm_spawn starts processes on this machine alone in"
		    " this version (the hosts given are others)";
	if (what != NULL) {
		fprintf(stderr, "ensemble: --launcher spawn: %s\n", what);
		return 2;
	}
	return launcher_openmpi.files(R);
}

/* 'mpirun ... -np 1 HAND N EXEC --plan PLAN', HAND beside EXEC; the
 * run's secrets, and the yielding, in our environment, which the spawned
 * processes inherit through mpirun. */
static void
spawn_argv(struct run *R, struct launcher_argv *a)
{
	const struct launch_opts *o = R->o;
	char			*dir, *s;
	long			 cores = sysconf(_SC_NPROCESSORS_ONLN);

	launcher_openmpi_head(R, a);
	if (cores > 0 && R->n <= cores)
		setenv("OMPI_MCA_mpi_yield_when_idle", "0", 0);
	launcher_arg(a, "-np");
	launcher_arg(a, "1");
	dir = xstrdup(o->exec);
	xasprintf(&s, "%s/" SPAWN_HAND, dirname(dir));
	free(dir);
	launcher_arg_own(a, s);
	xasprintf(&s, "%d", R->n);
	launcher_arg_own(a, s);
	launcher_plan_exec(R, a);
}

/* The user's options are Open MPI's mpirun's. */
static int
spawn_oversubscribed(const struct launch_opts *o)
{
	return launcher_openmpi.oversubscribed(o);
}

static int
spawn_binds_cores(const struct launch_opts *o)
{
	return launcher_openmpi.binds_cores(o);
}

/* The job ("[J,R]") of a tag of Open MPI's at s. */
static long
spawn_job(const char *s)
{
	return strtol(s + 1, NULL, 10);
}

/* Open MPI's tag of a spawned process; the hand's (job 1) is not one:
 * its lines are mpirun's own. */
static int
spawn_tag(const char *s, size_t n, int pipe, int *rank, int *err)
{
	int	k = launcher_openmpi.tag(s, n, pipe, rank, err);

	return k > 0 && spawn_job(s) == 1 ? 0 : k;
}

/* Open MPI's own lines, but one that names the hand's end (job 1) names
 * no process of the run. */
static void
spawn_own_line(struct run *R, const char *s)
{
	int	j, r;

	launcher_openmpi.own_line(R, s);
	s += strspn(s, " ");
	if (sscanf(s, "Process name: [[%*d,%d],%d]", &j, &r) == 2 && j == 1)
		R->exit_proc = -1;
}

const struct launcher launcher_spawn = {
	.name = "spawn",
	.title = "MPI_Comm_spawn",
	.who = "Open MPI",
	.cmd = "mpirun",
	.apart = "Open MPI's MPI_Comm_spawn did not start them as one job",
	.mpi = "openmpi",
	.syntax = &plan_by_rank,
	.stdin_tables = 0,
	.oversubscribed = spawn_oversubscribed,
	.binds_cores = spawn_binds_cores,
	.files = spawn_files,
	.argv = spawn_argv,
	.tag = spawn_tag,
	.own_line = spawn_own_line,
};
