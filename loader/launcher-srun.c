/* launcher-srun.c -- Slurm's srun as a launcher, inside an allocation
 * (launch-int.h): 'srun --mpi=PLUGIN -n N --input=... --label
 * ensemble-exec --plan PLAN', each process's trampoline reading its line
 * of the plan at its rank (SLURM_PROCID, or the PMI's), no mpirun at all.
 * The PMI plugin is the one the MPI ensemble is built on takes (pmix for
 * Open MPI, pmi2 for MPICH): another starts N jobs of one process each,
 * which the processes' ens_init finds (the "world" marker, wire.h) and
 * the run refuses.  srun passes our whole environment on (so -x
 * VAR=VALUE is set in ours, and the run's secrets), gives its standard
 * input to one task (--input) and, with --label, puts "R: " (R padded to
 * the width of the last rank) before each line a task writes, on the
 * stream it wrote it to.  Processes placed on a host go there by
 * SLURM_HOSTFILE (a file here, which srun reads) and
 * --distribution=arbitrary.  On this machine alone, the plan and the port
 * tables are files of the run's the trampolines read; when the allocation
 * has other hosts, whose /tmp is their own, 'ensemble-exec --plan-net
 * ADDRESSES' instead: each trampoline connects to 'ensemble run' over TCP,
 * proves it knows the run's key (srun passes it in the environment) and is
 * dealt its line, the root the tables too (runfiles.c, fan.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "launch-int.h"
#include "plan.h"

/* What slurmstepd's own lines in a task's output start with, after the
 * label ("slurmstepd-HOST: error: *** STEP 3.0 ON HOST CANCELLED ..."). */
#define SRUN_STEPD	"slurmstepd"

/* The PMI plugin srun must start the processes of ENS_MPI with. */
static const char *
srun_plugin(void)
{
	return strcmp(ENS_MPI, "mpich") == 0 ? "pmi2" : "pmix";
}

/* Whether processes may share the allocation's CPUs: --oversubscribe,
 * or srun's own '--overcommit' ('-O') after '--'. */
static int
srun_oversubscribed(const struct launch_opts *o)
{
	size_t	k;

	if (o->oversubscribe)
		return 1;
	for (k = 0; k < o->nrest; k++)
		if (strcmp(o->rest[k], "--overcommit") == 0 ||
		    strcmp(o->rest[k], "-O") == 0)
			return 1;
	return 0;
}

/* How long 'srun --mpi=list' may take (it asks no daemon). */
#define SRUN_LIST_WAIT	10.0

/* Ask srun for its PMI plugins ('srun --mpi=list') as soon as it is
 * picked: the answer is read by srun_files, the launch's other questions
 * to Slurm (fit_check's) asked meanwhile. */
static void
srun_ask(struct run *R)
{
	const char	*argv[] = { R->prog, "--mpi=list", NULL };

	R->asked = subproc_start(argv, SRUN_LIST_WAIT, &R->asked_why);
}

/* The same question asked of srun program prog before the run is
 * verified (launcher_ahead): srun_ask then takes its answer. */
static void
srun_ahead(const char *prog)
{
	const char	*argv[] = { prog, "--mpi=list", NULL };

	subproc_ahead(argv, SRUN_LIST_WAIT);
}

/* Whether plugin is among the plugins in srun's answer s: "srun: MPI
 * types are...", then "srun: pmix" or "	pmix" a line (Slurm 22 and 23
 * say it so). */
static int
srun_lists(const char *s, const char *plugin)
{
	size_t	n = strlen(plugin);

	while (*s != '\0') {
		if (strncmp(s, "srun:", 5) == 0)
			s += 5;
		s += strspn(s, " \t");
		if (strncmp(s, plugin, n) == 0 && strchr("\n \t", s[n]) != NULL)
			return 1;
		s += strcspn(s, "\n");
		if (*s == '\n')
			s++;
	}
	return 0;
}

/* Whether srun here has plugin among its PMI plugins (srun_ask's
 * answer): 1, 0, or -1 (with *why) when srun could not be asked. */
static int
srun_has_plugin(struct run *R, const char *plugin, char **why)
{
	char	*out = NULL, *err = NULL;
	int	 st, rc, found;

	if (R->asked == NULL) {
		*why = R->asked_why;
		R->asked_why = NULL;
		return -1;
	}
	rc = subproc_end(R->asked, &out, &err, &st, why);
	R->asked = NULL;
	if (rc != 0) {
		if (rc > 0)
			xasprintf(why, "no answer in %.0f s", SRUN_LIST_WAIT);
		found = -1;
	} else
		found = srun_lists(out, plugin) || srun_lists(err, plugin);
	free(out);
	free(err);
	return found;
}

/* Refuse what srun cannot do as asked (Open MPI's parameters, a
 * hostfile: the hosts are the allocation's), check the plugin is there, and write
 * SLURM_HOSTFILE's file when processes are placed: every process's host,
 * the unplaced ones filling the hosts' slots in order.  0, or 2
 * (said). */
static int
srun_files(struct run *R)
{
	const struct launch_opts *o = R->o;
	const struct alloc	*a = &R->alloc;
	const char		*what = NULL;
	char			*path = NULL, *why = NULL;
	int			*used = NULL, i, k, fd, rc = 2;
	FILE			*f = NULL;

	if (o->nmca > 0)
		what = "--mca sets Open MPI's parameters";
	else if (o->hostfile != NULL)
		what = "the hosts are the Slurm allocation's, not a hostfile's";
	else if (a->kind != ALLOC_SLURM)
		what = "not inside a Slurm allocation";
	if (what != NULL) {
		fprintf(stderr, "ensemble: --launcher srun: %s\n", what);
		return 2;
	}
	switch (srun_has_plugin(R, srun_plugin(), &why)) {
	case 1:
		break;
	case 0:
		fprintf(stderr, "ensemble: --launcher srun: '%s --mpi=list' has"
		    " no '%s', which %s's processes need to start as one job\n",
		    R->prog, srun_plugin(), strcmp(ENS_MPI, "mpich") == 0 ?
		    "MPICH" : "Open MPI");
		return 2;
	default:
		fprintf(stderr, "ensemble: --launcher srun: cannot run '%s"
		    " --mpi=list' (%s)\n", R->prog, why);
		free(why);
		return 2;
	}
	if (R->nplaced == 0)
		return 0;
	xasprintf(&path, "%s/hosts", R->workdir);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0600)) < 0 || (f = fdopen(fd, "w")) == NULL) {
		fprintf(stderr, "ensemble: cannot create '%s': %s\n", path,
		    strerror(errno));
		if (fd >= 0)
			close(fd);
		goto out;
	}
	used = xcalloc((size_t)a->nhosts + 1, sizeof(*used));
	for (i = 0; i < R->n; i++)
		if (R->placed[i] != NULL)
			used[R->placed[i] - a->hosts]++;
	for (i = 0, k = 0; i < R->n; i++) {
		if (R->placed[i] != NULL) {
			fprintf(f, "%s\n", R->placed[i]->name);
			continue;
		}
		/* The first host with a slot free; all full: the first. */
		while (k < a->nhosts && a->hosts[k].slots >= 0 &&
		    used[k] >= a->hosts[k].slots)
			k++;
		fprintf(f, "%s\n", a->hosts[k < a->nhosts ? k : 0].name);
		if (k < a->nhosts)
			used[k]++;
	}
	if (fclose(f) != 0) {
		fprintf(stderr, "ensemble: cannot write '%s': %s\n", path,
		    strerror(errno));
		goto out;
	}
	setenv("SLURM_HOSTFILE", path, 1);
	rc = 0;
out:
	free(used);
	free(path);
	return rc;
}

/* 'srun --mpi=PLUGIN -n N --input=none|R --label [--overcommit]
 * [--distribution=arbitrary] [srun-arg...] ensemble-exec --plan PLAN'
 * (or --plan-net ADDRESSES);
 * '-x VAR=VALUE' and the secrets set in our environment, which srun
 * passes on whole. */
static void
srun_argv(struct run *R, struct launcher_argv *a)
{
	const struct launch_opts *o = R->o;
	char			*s;

	launcher_arg(a, R->prog);
	xasprintf(&s, "--mpi=%s", srun_plugin());
	launcher_arg_own(a, s);
	xasprintf(&s, "--ntasks=%d", R->n);
	launcher_arg_own(a, s);
	if (o->stdin_proc >= 0) {
		xasprintf(&s, "--input=%d", o->stdin_proc);
		launcher_arg_own(a, s);
	} else
		launcher_arg(a, "--input=none");
	launcher_arg(a, "--label");
	/* A task's failure is told by its trampoline: srun must not stop
	 * the others first, nor say it. */
	launcher_arg(a, "--kill-on-bad-exit=0");
	launcher_arg(a, "--quiet");
	if (o->oversubscribe)
		launcher_arg(a, "--overcommit");
	if (R->nplaced > 0)
		launcher_arg(a, "--distribution=arbitrary");
	launcher_plan_tail(R, a, NULL);
}

/* "R: " (R after spaces that pad it) at the n bytes of s: its length,
 * with *rank and *err (the pipe it came on) set; 0 when s does not start
 * with a label, or when slurmstepd wrote the line (its own, as srun's
 * are); -1 when the n bytes may be the start of one. */
static int
srun_tag(const char *s, size_t n, int pipe, int *rank, int *err)
{
	long	v = 0;
	size_t	i = 0, d;

	while (i < n && s[i] == ' ' && i < 10)
		i++;
	for (d = i; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
		if (i - d > 9)
			return 0;
		v = v * 10 + (s[i] - '0');
	}
	if (i == n)
		return -1;
	if (i == d || s[i] != ':')
		return 0;
	if (i + 1 == n)
		return -1;
	if (s[i + 1] != ' ')
		return 0;
	i += 2;
	d = strlen(SRUN_STEPD);
	if (memcmp(s + i, SRUN_STEPD, n - i < d ? n - i : d) == 0)
		return n - i < d ? -1 : 0;
	*rank = (int)v;
	*err = pipe;
	return (int)i;
}

const struct launcher launcher_srun = {
	.name = "srun",
	.title = "Slurm's srun",
	.who = "Slurm's srun",
	.cmd = "srun",
	.apart = "its PMI plugin does not suit the MPI the components are"
	    " built on (Open MPI takes --mpi=pmix, MPICH --mpi=pmi2, which"
	    " ensemble gives; an '--mpi' after '--' overrides it)",
	.mpi = NULL,
	.syntax = &plan_by_rank,
	.stdin_tables = 0,
	.plan_net = 1,
	.oversubscribed = srun_oversubscribed,
	.binds_cores = launcher_no,	/* as Slurm's task plugin says */
	.ask = srun_ask,
	.ahead = srun_ahead,
	.files = srun_files,
	.argv = srun_argv,
	.tag = srun_tag,
	.own_line = launcher_no_line,	/* the markers say more */
};
