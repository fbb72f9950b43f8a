/* launcher-openmpi.c -- Open MPI's mpirun as a launcher (launch-int.h):
 * 'mpirun --tag-output --app APPFILE', its session directory and
 * shared-memory segments in the run's directories, its parameters (--mca)
 * and variables (-x) as the user gives them, our standard input to one
 * rank (--stdin N), the tags it puts before each line ("[1,3]<stderr>:")
 * and what its own lines say of the processes' ends. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "launch-int.h"

/* Whether v is true as Open MPI reads a boolean parameter. */
static int
openmpi_true(const char *v)
{
	return v != NULL && (strcmp(v, "1") == 0 || strcasecmp(v, "true") == 0 ||
	    strcasecmp(v, "yes") == 0 || strcasecmp(v, "t") == 0 ||
	    strcasecmp(v, "y") == 0);
}

/* Whether the user sets Open MPI's parameter key as mpirun takes it: by
 * --mca, by '--mca' (or '-mca') after '--', or in the environment
 * (OMPI_MCA_key); with 'ok', to a value ok says yes to, in any of them. */
static int
openmpi_mca_set(const struct launch_opts *o, const char *key,
    int (*ok)(const char *))
{
	const char	*v;
	char		 env[128];
	size_t		 k;

	for (k = 0; k + 1 < o->nmca; k += 2)
		if (strcmp(o->mca[k], key) == 0 && (ok == NULL || ok(o->mca[k + 1])))
			return 1;
	for (k = 0; k + 1 < o->nrest; k++) {
		if ((strcmp(o->rest[k], "--mca") != 0 &&
		    strcmp(o->rest[k], "-mca") != 0) ||
		    strcmp(o->rest[k + 1], key) != 0)
			continue;
		v = k + 2 < o->nrest ? o->rest[k + 2] : NULL;
		if (ok == NULL || (v != NULL && ok(v)))
			return 1;
	}
	snprintf(env, sizeof(env), "OMPI_MCA_%s", key);
	return (v = getenv(env)) != NULL && (ok == NULL || ok(v));
}

/* Whether processes may share slots, however the user said it as mpirun
 * takes it: --oversubscribe; after '--', '--oversubscribe' (or
 * '-oversubscribe') or a '--map-by' (or '-map-by') with ':OVERSUBSCRIBE';
 * the MCA parameter rmaps_base_oversubscribe true by --mca, '--mca' (or
 * '-mca') after '--', or the environment. */
static int
openmpi_oversubscribed(const struct launch_opts *o)
{
	size_t	k;

	if (o->oversubscribe ||
	    openmpi_mca_set(o, "rmaps_base_oversubscribe", openmpi_true))
		return 1;
	for (k = 0; k < o->nrest; k++) {
		if (strcmp(o->rest[k], "--oversubscribe") == 0 ||
		    strcmp(o->rest[k], "-oversubscribe") == 0)
			return 1;
		if (k + 1 < o->nrest && (strcmp(o->rest[k], "--map-by") == 0 ||
		    strcmp(o->rest[k], "-map-by") == 0) &&
		    strcasestr(o->rest[k + 1], ":OVERSUBSCRIBE") != NULL)
			return 1;
	}
	return 0;
}

/* Whether a binding policy is to a core or a hardware thread, each for
 * one process. */
static int
openmpi_core(const char *v)
{
	return (strncasecmp(v, "core", 4) == 0 ||
	    strncasecmp(v, "hwthread", 8) == 0) &&
	    strcasestr(v, "overload-allowed") == NULL;
}

/* Whether the user asks mpirun to bind each process to a core (or a
 * hardware thread), as mpirun takes it: '--bind-to core' (or '-bind-to',
 * or 'hwthread') after '--', or the MCA parameter
 * hwloc_base_binding_policy; not with its qualifier ':overload-allowed'. */
static int
openmpi_binds_cores(const struct launch_opts *o)
{
	const char	*v = NULL;
	size_t		 k;

	for (k = 0; k + 1 < o->nrest; k++)
		if (strcmp(o->rest[k], "--bind-to") == 0 ||
		    strcmp(o->rest[k], "-bind-to") == 0)
			v = o->rest[k + 1];
	if (v == NULL &&
	    !openmpi_mca_set(o, "hwloc_base_binding_policy", openmpi_core))
		return 0;
	if (v == NULL)
		return 1;
	return openmpi_core(v);
}

/* On this machine alone, Open MPI's shared-memory segments go in a
 * directory of the run's on the same file system (/dev/shm), removed with
 * it even when mpirun is killed (a remote host would not have it).  0. */
static int
openmpi_files(struct run *R)
{
	if (R->alloc.kind != ALLOC_LOCAL ||
	    openmpi_mca_set(R->o, "btl_vader_backing_directory", NULL))
		return 0;
	R->shmdir = xstrdup("/dev/shm/" TIDY_PREFIX "XXXXXX");
	if (mkdtemp(R->shmdir) == NULL) {
		free(R->shmdir);
		R->shmdir = NULL;	/* Open MPI's default, then */
	} else
		tidy_add(&R->tidy, R->shmdir);
	return 0;
}

/* Put the environment Open MPI needs for the user: running as root, and
 * on one machine more processes than cores, and only the transports one
 * machine uses (shared memory; TCP for anything else): probing UCX, OFI
 * and PSM costs every process a third of its start-up (bench/run.sh),
 * and the transports chosen are the ones a plain mpirun picks here.
 * What the user set is kept. */
static void
openmpi_env(const struct launch_opts *o)
{
	if (geteuid() == 0) {
		setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);
		setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
	}
	if (o->hostfile == NULL && getenv("SLURM_JOBID") == NULL) {
		setenv("OMPI_MCA_rmaps_base_oversubscribe", "1", 0);
		setenv("OMPI_MCA_pml", "ob1", 0);
		setenv("OMPI_MCA_btl", "self,vader,tcp", 0);
		setenv("OMPI_MCA_mtl", "^ofi,psm,psm2", 0);
		setenv("OMPI_MCA_osc", "^ucx", 0);
	}
}

/* 'mpirun --tag-output [options]', with Open MPI's parameters, the
 * user's, and the variables to pass on, and the environment it needs set
 * in ours: what comes before the processes (the appfile here;
 * launcher-spawn.c's hand). */
void
launcher_openmpi_head(struct run *R, struct launcher_argv *a)
{
	const struct launch_opts *o = R->o;
	char			*var;
	size_t			 k;

	launcher_arg(a, R->prog);
	launcher_arg(a, "--tag-output");
	/* Open MPI 4.1 reads no --hostfile with an appfile; it reads its
	 * default hostfile. */
	if (o->hostfile != NULL) {
		launcher_arg(a, "--default-hostfile");
		launcher_arg(a, o->hostfile);
	}
	if (o->oversubscribe)
		launcher_arg(a, "--oversubscribe");
	/* On this machine alone, the session directory and the
	 * shared-memory segments in the run's directories (openmpi_files). */
	if (R->alloc.kind == ALLOC_LOCAL &&
	    !openmpi_mca_set(o, "orte_tmpdir_base", NULL)) {
		launcher_arg(a, "--mca");
		launcher_arg(a, "orte_tmpdir_base");
		launcher_arg(a, R->workdir);
	}
	if (R->shmdir != NULL) {
		launcher_arg(a, "--mca");
		launcher_arg(a, "btl_vader_backing_directory");
		launcher_arg(a, R->shmdir);
	}
	for (k = 0; k + 1 < o->nmca; k += 2) {
		launcher_arg(a, "--mca");
		launcher_arg(a, o->mca[k]);
		launcher_arg(a, o->mca[k + 1]);
	}
	/* Components in Python find the package on every host. */
	if (o->pythondir != NULL) {
		launcher_arg(a, "-x");
		launcher_arg(a, "PYTHONPATH");
	}
	/* '-x VAR=VALUE' is lost for an appfile's processes: set VAR here,
	 * and '-x VAR' takes it to them as it does our own. */
	for (k = 0; k < o->nxenv; k++) {
		launcher_arg(a, "-x");
		if ((var = launcher_setenv(o->xenv[k])) == NULL)
			launcher_arg(a, o->xenv[k]);
		else
			launcher_arg_own(a, var);
	}
	for (k = 0; k < o->nrest; k++)
		launcher_arg(a, o->rest[k]);
	openmpi_env(o);
}

/* 'mpirun --tag-output [options] [--stdin N] --app APPFILE'. */
static void
openmpi_argv(struct run *R, struct launcher_argv *a)
{
	char	*var;

	launcher_openmpi_head(R, a);
	/* The tables go to the process that holds them, and so does our
	 * standard input with --stdin: Open MPI forwards it to one rank. */
	if (R->o->stdin_proc > 0) {
		launcher_arg(a, "--stdin");
		xasprintf(&var, "%d", R->o->stdin_proc);
		launcher_arg_own(a, var);
	}
	launcher_arg(a, "--app");
	launcher_arg(a, R->appfile);
}

/* "[J,R]<stdout>:" at the n bytes of s: its length, with *rank and *err
 * (0 stdout, 1 stderr, 2 stddiag) set; 0 when s does not start with a
 * tag; -1 when the n bytes may be the start of one.  The stream is the
 * tag's, whichever of mpirun's pipes it came on. */
static int
openmpi_tag(const char *s, size_t n, int pipe, int *rank, int *err)
{
	static const char	*names[] = { "<stdout>:", "<stderr>:",
				    "<stddiag>:" };
	long			 v[2];
	size_t			 i = 1, k, m;
	int			 f;

	(void)pipe;
	if (n == 0)
		return -1;
	if (s[0] != '[')
		return 0;
	for (f = 0; f < 2; f++) {
		v[f] = 0;
		for (k = 0; i < n && s[i] >= '0' && s[i] <= '9'; i++, k++) {
			if (k >= 9)
				return 0;
			v[f] = v[f] * 10 + (s[i] - '0');
		}
		if (i == n)
			return -1;
		if (k == 0 || s[i++] != (f == 0 ? ',' : ']'))
			return 0;
	}
	for (f = 0; f < 3; f++) {
		m = strlen(names[f]);
		k = n - i < m ? n - i : m;
		if (memcmp(s + i, names[f], k) != 0)
			continue;
		if (k < m)
			return -1;
		*rank = (int)v[1];
		*err = f;
		return (int)(i + m);
	}
	return 0;
}

/* One of mpirun's own lines: its report of a process's exit code, or of
 * a rank's end on a signal. */
static void
openmpi_own_line(struct run *R, const char *s)
{
	int	j, r, code, pid;
	char	node[256];

	while (*s == ' ')
		s++;
	if (sscanf(s, "Process name: [[%*d,%d],%d]", &j, &r) == 2)
		R->exit_proc = j >= 1 && r < R->n ? r : -1;
	else if (sscanf(s, "Exit code: %d", &code) == 1 && R->exit_proc >= 0) {
		R->p[R->exit_proc].exit_code = code;
		launch_mark_failed(R, R->exit_proc);
	} else if (sscanf(s, "mpirun noticed that process rank %d with PID %d on node"
	    " %255s exited on signal %d", &r, &pid, node, &code) == 4) {
		R->sig_rank = r;
		R->sig_num = code;
		launch_mark_failed(R, -1);
	}
}

const struct launcher launcher_openmpi = {
	.name = "openmpi",
	.title = "Open MPI's mpirun",
	.who = "Open MPI",
	.cmd = "mpirun",
	.apart = "the components are built on another MPI than Open MPI (see"
	    " which libmpi 'ldd' names)",
	.mpi = "openmpi",
	.stdin_tables = 1,
	.oversubscribed = openmpi_oversubscribed,
	.binds_cores = openmpi_binds_cores,
	.files = openmpi_files,
	.argv = openmpi_argv,
	.tag = openmpi_tag,
	.own_line = openmpi_own_line,
};
