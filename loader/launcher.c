/* launcher.c -- which launcher starts a run (launch-int.h): the one
 * --launcher names, or the one found from the launcher program (what
 * 'mpirun' is: Open MPI's orterun, MPICH's hydra) and the environment
 * (SLURM_JOB_ID), with its program; and the command line a launcher's
 * file builds.  Each launcher is a file of its own (launcher-openmpi.c,
 * launcher-mpich.c); a launcher named here that is not there, or does
 * not suit this build of ensemble or where it runs, is refused before
 * anything is made.  And the launcher started: its command line (the
 * launcher's file builds it) run with pipes for its standard streams. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "alloc-slurm.h"
#include "clock.h"
#include "launch-int.h"

const char *const launch_launchers[] = {
	"openmpi", "mpich", "srun", "spawn", NULL
};

/* What ensemble knows of each name --launcher takes. */
struct launcher_known {
	const char		*name;
	const char		*title;		/* "MPICH's mpiexec" */
	const char		*mpi;		/* the MPI it starts (ENS_MPI's
						 * words); NULL: any */
	const char *const	*progs;		/* its program's names on PATH */
	const struct launcher	*impl;		/* its file */
};

static const char *const launcher_openmpi_progs[] = {
	"mpirun.openmpi", "orterun", NULL
};
static const char *const launcher_mpich_progs[] = {
	"mpiexec.hydra", "mpiexec.mpich", "mpirun.mpich", NULL
};
static const char *const launcher_srun_progs[] = { "srun", NULL };

static const struct launcher_known launcher_known[] = {
	{ "openmpi", "Open MPI's mpirun", "openmpi", launcher_openmpi_progs,
	  &launcher_openmpi },
	{ "mpich", "MPICH's mpiexec", "mpich", launcher_mpich_progs,
	  &launcher_mpich },
	{ "srun", "Slurm's srun", NULL, launcher_srun_progs, &launcher_srun },
	{ "spawn", "MPI_Comm_spawn", "openmpi", launcher_openmpi_progs,
	  &launcher_spawn },
};

/* The name of the MPI whose word is mpi, in messages. */
static const char *
launcher_mpi_name(const char *mpi)
{
	if (strcmp(mpi, "openmpi") == 0)
		return "Open MPI";
	if (strcmp(mpi, "mpich") == 0)
		return "MPICH";
	return "an MPI configure could not name";
}

/* Which MPI's launcher the program at path is, from the name it has
 * once its links are followed (Debian's mpirun is a link to orterun or to
 * mpiexec.hydra): its entry, or NULL when the name does not say. */
static const struct launcher_known *
launcher_kind_of(const char *path, char **real)
{
	const char	*base;
	char		 buf[PATH_MAX];

	*real = NULL;
	if (realpath(path, buf) == NULL)
		return NULL;
	*real = xstrdup(buf);
	base = strrchr(buf, '/') != NULL ? strrchr(buf, '/') + 1 : buf;
	if (strstr(base, "orterun") != NULL || strstr(base, "prterun") != NULL ||
	    strstr(base, "openmpi") != NULL)
		return &launcher_known[0];
	if (strstr(base, "hydra") != NULL || strstr(base, "mpich") != NULL)
		return &launcher_known[1];
	return NULL;
}

/* The first of names that is an executable on PATH, absolute (a new
 * string), or NULL. */
static char *
launcher_on_path(const char *const *names)
{
	const char	*path = getenv("PATH"), *p, *e;
	char		*full;
	int		 k;

	if (path == NULL || *path == '\0')
		path = "/usr/local/bin:/usr/bin:/bin";
	for (k = 0; names != NULL && names[k] != NULL; k++)
		for (p = path; *p != '\0'; p = *e != '\0' ? e + 1 : e) {
			e = p + strcspn(p, ":");
			if (e == p)
				continue;
			xasprintf(&full, "%.*s/%s", (int)(e - p), p, names[k]);
			if (access(full, X_OK) == 0)
				return full;
			free(full);
		}
	return NULL;
}

/* The names of k's programs, for a message: "a, b or c". */
static void
launcher_say_progs(const struct launcher_known *k)
{
	int	i;

	for (i = 0; k->progs[i] != NULL; i++)
		fprintf(stderr, "%s'%s'", i == 0 ? "" :
		    k->progs[i + 1] == NULL ? " or " : ", ", k->progs[i]);
}

/* Which launcher a run takes, by the one rule launcher_pick follows and
 * launch_ahead asks ahead: the one name (--launcher's word) names; for
 * ens_launch's run (hand), spawn; else the default: srun inside a Slurm
 * allocation when there is no launcher program (none at mpirun, the
 * program ENSEMBLE_MPIRUN names or configure's, and ENSEMBLE_MPIRUN not
 * set), else what the launcher program is (by its name), else the MPI
 * ensemble is built on.  Its entry, with *why (static) and *real (the
 * launcher program with its links followed, caller frees; NULL: none
 * there) and *is (what that program is; NULL: its name does not say);
 * NULL when name is no launcher, or none is for the MPI ensemble is
 * built on. */
static const struct launcher_known *
launcher_choose(const char *name, int hand, const char *mpirun,
    const struct launcher_known **is, char **real, const char **why)
{
	const char	*job = getenv("SLURM_JOB_ID");
	size_t		 i, n = sizeof(launcher_known) / sizeof(launcher_known[0]);

	*is = launcher_kind_of(mpirun != NULL ? mpirun : ENS_MPIRUN, real);
	if (name != NULL) {
		*why = "--launcher";
		for (i = 0; i < n; i++)
			if (strcmp(name, launcher_known[i].name) == 0)
				return &launcher_known[i];
		return NULL;
	}
	if (hand) {
		*why = "ens_launch";
		return &launcher_known[3];
	}
	if (*real == NULL && mpirun == NULL && job != NULL && *job != '\0') {
		*why = "no mpirun, inside a Slurm allocation";
		return &launcher_known[2];
	}
	if (*is != NULL) {
		*why = "what the launcher program is";
		return *is;
	}
	*why = "the MPI ensemble is built on";
	for (i = 0; i < n; i++)
		if (launcher_known[i].mpi != NULL &&
		    strcmp(launcher_known[i].mpi, ENS_MPI) == 0)
			return &launcher_known[i];
	return NULL;
}

/* The program of launcher k as launcher_choose chose it (its other
 * arguments the same): ENSEMBLE_MPIRUN (mpirun), or configure's when it
 * is this launcher's (or the launcher is found from it), else its names
 * on PATH; "ens_launch" for its run (its caller spawns).  A new string,
 * or NULL when it is not found. */
static char *
launcher_prog(const struct launcher_known *k, const char *name, int hand,
    const char *mpirun, const struct launcher_known *is, const char *real)
{
	if (hand)
		return xstrdup("ens_launch");
	if (mpirun != NULL && k->progs != launcher_srun_progs)
		return xstrdup(mpirun);
	if (k->progs == launcher_srun_progs || k->progs == NULL)
		return launcher_on_path(k->progs);
	if (real != NULL && (is == k || name == NULL ||
	    (is != NULL && is->progs == k->progs)))
		return xstrdup(ENS_MPIRUN);
	return launcher_on_path(k->progs);
}

/* Pick the run's launcher and its program into R->L and R->prog: the one
 * launcher_choose chooses.  Said with --verbose.  0, or 2 after saying
 * why it cannot be (a one-line error naming what was looked for). */
int
launcher_pick(struct run *R)
{
	const struct launch_opts	*o = R->o;
	const struct launcher_known	*k, *is;
	const char			*job = getenv("SLURM_JOB_ID");
	const char			*why;
	char				*real = NULL;
	int				 inslurm = job != NULL && *job != '\0';

	k = launcher_choose(o->launcher, o->hand > 0, o->mpirun, &is, &real,
	    &why);
	if (k == NULL && o->launcher != NULL) {
		/* The options' table lists the names: not reached from the
		 * command line. */
		fprintf(stderr, "ensemble: --launcher: no launcher '%s'\n",
		    o->launcher);
		goto bad;
	}
	if (k == NULL) {
		fprintf(stderr, "ensemble: no launcher for %s, which ensemble is"
		    " built on (give one with --launcher)\n",
		    launcher_mpi_name(ENS_MPI));
		goto bad;
	}
	if (strcmp(k->name, "srun") == 0 && !inslurm) {
		fprintf(stderr, "ensemble: --launcher srun: not inside a Slurm"
		    " allocation (SLURM_JOB_ID is not set: run it under salloc"
		    " or sbatch)\n");
		goto bad;
	}
	if (strcmp(k->name, "spawn") == 0 && strcmp(ENS_MPI, "mpich") == 0) {
		fprintf(stderr, "ensemble: --launcher spawn: MPICH's"
		    " MPI_Comm_spawn cannot start the processes (MPICH 4.0.2:"
		    " 'Error in spawn call'); use --launcher mpich\n");
		goto bad;
	}
	if (k->mpi != NULL && strcmp(k->mpi, ENS_MPI) != 0) {
		fprintf(stderr, "ensemble: --launcher %s: ensemble is built on"
		    " %s, whose processes %s cannot start as one job (configure"
		    " a build on %s)\n", k->name, launcher_mpi_name(ENS_MPI),
		    k->title, launcher_mpi_name(k->mpi));
		goto bad;
	}
	free(R->prog);
	R->prog = launcher_prog(k, o->launcher, o->hand > 0, o->mpirun, is,
	    real);
	if (k->progs != NULL && R->prog == NULL) {
		/* spawn's hand is an Open MPI job of one: srun cannot spawn
		 * (MPI_Comm_spawn fails under srun --mpi=pmix). */
		fprintf(stderr, "ensemble: --launcher %s: %s%s is not installed"
		    " (looked for ", k->name, k->impl == &launcher_spawn ?
		    "MPI_Comm_spawn needs Open MPI's mpirun (srun cannot spawn),"
		    " which" : "", k->impl == &launcher_spawn ? "" : k->title);
		launcher_say_progs(k);
		fprintf(stderr, " on PATH)\n");
		goto bad;
	}
	R->L = o->hand > 0 ? &launcher_hand : k->impl;
	if (R->L->ask != NULL)
		R->L->ask(R);
	if (o->verbose)
		fprintf(stderr, "ensemble: %s: launcher %s: %s '%s' (by %s)\n",
		    R->g->name, k->name, k->title, R->prog, why);
	free(real);
	return 0;
bad:
	free(real);
	return 2;
}

void
launch_ahead(const char *launcher, int hostfile)
{
	const char			*job = getenv("SLURM_JOB_ID");
	const char			*jobid = getenv("SLURM_JOBID");
	const struct launcher_known	*k, *is;
	const char			*mpirun = getenv("ENSEMBLE_MPIRUN");
	const char			*why;
	char				*real = NULL, *prog;

	/* What fit_check asks of Slurm, and the launcher launcher_pick
	 * will pick (srun's, which it refuses outside an allocation) of the
	 * same program: the same conditions. */
	if (!hostfile && jobid != NULL && *jobid != '\0')
		alloc_slurm_ahead(jobid);
	if (job == NULL || *job == '\0')
		return;
	k = launcher_choose(launcher, 0, mpirun, &is, &real, &why);
	if (k != NULL && k->impl->ahead != NULL && (prog = launcher_prog(k,
	    launcher, 0, mpirun, is, real)) != NULL) {
		k->impl->ahead(prog);
		free(prog);
	}
	free(real);
}

/* For a launcher that reads none of the user's options for
 * oversubscription or binding. */
int
launcher_no(const struct launch_opts *o)
{
	(void)o;
	return 0;
}

/* For a launcher that reads no option of the user's for oversubscription
 * but ours, --oversubscribe (it starts as many processes as it is asked
 * wherever it places them). */
int
launcher_oversubscribe(const struct launch_opts *o)
{
	return o->oversubscribe;
}

/* For a launcher whose own lines say nothing the trampolines' markers do
 * not. */
void
launcher_no_line(struct run *R, const char *s)
{
	(void)R;
	(void)s;
}

/* A '-x' of the user's, VAR or VAR=VALUE: with a value, VAR is set to it
 * in our environment (which the launcher passes on), and its name is
 * returned (a new string); NULL for VAR alone. */
char *
launcher_setenv(const char *x)
{
	const char	*eq = strchr(x, '=');
	char		*var;

	if (eq == NULL || eq == x)
		return NULL;
	var = xstrndup(x, (size_t)(eq - x));
	setenv(var, eq + 1, 1);
	return var;
}

/* The end of the command line of a launcher whose processes inherit
 * our environment: the run's secrets, which the trampolines take out of
 * their environment (wire.h), set in ours, and 'ensemble-exec --plan
 * PLAN' (or --plan-net ADDRESSES, the key in ours too). */
void
launcher_plan_exec(struct run *R, struct launcher_argv *a)
{
	setenv(WIRE_ENV_SECRET, R->secret, 1);
	if (R->fan != NULL)
		setenv(WIRE_ENV_STDIN_KEY, R->stdin_key, 1);
	launcher_arg(a, R->o->exec);
	if (R->deal != NULL) {
		setenv(WIRE_ENV_PLAN_KEY, R->deal_key, 1);
		launcher_arg(a, WIRE_FLAG_PLAN_NET);
		launcher_arg(a, R->deal_addrs);
	} else {
		launcher_arg(a, WIRE_FLAG_PLAN);
		launcher_arg(a, R->appfile);
	}
}

/* The end of the command line of a launcher that starts one command for
 * every process and passes our whole environment on (mpiexec, srun): the
 * user's '-x VAR=VALUE' set in ours; the user's arguments after '--';
 * 'count' and the number of processes, unless NULL; and
 * launcher_plan_exec's. */
void
launcher_plan_tail(struct run *R, struct launcher_argv *a, const char *count)
{
	const struct launch_opts *o = R->o;
	char			*s;
	size_t			 k;

	for (k = 0; k < o->nxenv; k++)
		free(launcher_setenv(o->xenv[k]));
	for (k = 0; k < o->nrest; k++)
		launcher_arg(a, o->rest[k]);
	if (count != NULL) {
		launcher_arg(a, count);
		xasprintf(&s, "%d", R->n);
		launcher_arg_own(a, s);
	}
	launcher_plan_exec(R, a);
}

/* Append s (borrowed; NULL ends argv) to a command line. */
void
launcher_arg(struct launcher_argv *a, const char *s)
{
	xgrow(&a->v, &a->cap, a->n + 1, sizeof(*a->v));
	a->v[a->n++] = (char *)s;
}

/* Append s, which a takes over. */
void
launcher_arg_own(struct launcher_argv *a, char *s)
{
	launcher_arg(a, s);
	xgrow(&a->owned, &a->aowned, a->nowned + 1, sizeof(*a->owned));
	a->owned[a->nowned++] = s;
}

/* Free a command line and what it took over. */
void
launcher_argv_free(struct launcher_argv *a)
{
	size_t	k;

	for (k = 0; k < a->nowned; k++)
		free(a->owned[k]);
	free(a->owned);
	free(a->v);
	memset(a, 0, sizeof(*a));
}

/* SIGCHLD only wakes ppoll (it is blocked but there): mpirun or a
 * process left behind has ended. */
static void
launcher_on_child(int sig)
{
	(void)sig;
}

/* Put dir first on PYTHONPATH, for the components in Python that mpirun
 * starts ('-x PYTHONPATH' takes it to every host), unless it is there
 * already. */
static void
launcher_pythonpath(const char *dir)
{
	const char	*old = getenv("PYTHONPATH");
	char		*v;
	size_t		 n;

	if (dir == NULL)
		return;
	if (old == NULL || *old == '\0') {
		setenv("PYTHONPATH", dir, 1);
		return;
	}
	n = strlen(dir);
	if (strncmp(old, dir, n) == 0 && (old[n] == ':' || old[n] == '\0'))
		return;
	xasprintf(&v, "%s:%s", dir, old);
	setenv("PYTHONPATH", v, 1);
	free(v);
}

/* Start the launcher (its argv: 'mpirun --app APPFILE') with pipes for
 * its standard streams, and SIGCHLD caught (blocked but in ppoll;
 * launch_catch has the others).  With nothing to write on its standard
 * input (the tables in a file, our input to no process or through the
 * fan), it reads /dev/null:
 * its input ends before any process starts, never as one ends (MPICH
 * 4.0.2's mpiexec, told of the end of its input just as a process's
 * proxy exits, writes to the closed socket and dies of SIGPIPE).  An
 * exec failure comes back as an errno over a close-on-exec pipe.  0, or
 * -1 when it could not be started (said). */
int
launcher_start(struct run *R)
{
	const struct launch_opts *o = R->o;
	struct sigaction	 sa;
	sigset_t		 chld;
	struct launcher_argv	 a;
	int			 in[2] = { -1, -1 }, out[2] = { -1, -1 };
	int			 err[2] = { -1, -1 }, ex[2] = { -1, -1 };
	int			 exec_errno, quiet, rc = -1;
	void			*harg = NULL;
	ssize_t			 nr;
	pid_t			 self;

	memset(&a, 0, sizeof(a));
	R->L->argv(R, &a);
	launcher_arg(&a, NULL);
	launcher_pythonpath(o->pythondir);
	if (R->L->before != NULL && R->L->before(R, &harg) != 0)
		goto out;
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	if ((quiet = R->bundle.len == 0 && !launch_stdin_relayed(R)) &&
	    (in[0] = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0) {
		fprintf(stderr, "ensemble: /dev/null: %s\n", strerror(errno));
		goto out;
	}
	if ((!quiet && pipe(in) != 0) || pipe(out) != 0 || pipe(err) != 0 ||
	    pipe2(ex, O_CLOEXEC) != 0) {
		fprintf(stderr, "ensemble: pipe: %s\n", strerror(errno));
		goto out;
	}
	/* SIGCHLD from now on only wakes ppoll; mpirun gets the mask as it
	 * was. */
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = launcher_on_child;
	sigaction(SIGCHLD, &sa, &R->old_chld);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &R->old_mask);
	R->chld = 1;
	fflush(stdout);
	fflush(stderr);
	R->t0 = clock_now();
	self = getpid();
	if ((R->pid = fork()) < 0) {
		fprintf(stderr, "ensemble: fork: %s\n", strerror(errno));
		goto out;
	}
	if (R->pid == 0) {
		sigaction(SIGINT, &R->old_int, NULL);
		sigaction(SIGTERM, &R->old_term, NULL);
		sigaction(SIGHUP, &R->old_hup, NULL);
		sigaction(SIGCHLD, &R->old_chld, NULL);
		signal(SIGXFSZ, SIG_DFL);	/* ignored by ensemble (main.c) */
		/* Killed with us, even by SIGKILL: mpirun stops its job on
		 * SIGTERM, and its processes die with it (the trampoline). */
		prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0);
		if (getppid() != self)
			_exit(127);
		sigprocmask(SIG_SETMASK, &R->old_mask, NULL);
		dup2(in[0], STDIN_FILENO);
		dup2(out[1], STDOUT_FILENO);
		dup2(err[1], STDERR_FILENO);
		close(in[0]);
		if (in[1] >= 0)
			close(in[1]);
		close(out[0]); close(out[1]);
		close(err[0]); close(err[1]);
		close(ex[0]);
		if (R->L->run != NULL) {
			close(ex[1]);
			R->L->run(R, harg);
		}
		execv(R->prog, a.v);
		/* ex[1] closes on a successful exec: the parent reads nothing. */
		exec_errno = errno;
		while (write(ex[1], &exec_errno, sizeof(exec_errno)) < 0 &&
		    errno == EINTR)
			;
		_exit(127);
	}
	R->pfd[0].fd = out[0];
	R->pfd[1].fd = err[0];
	R->pfd[2].fd = in[1];
	out[0] = err[0] = in[1] = -1;
	launch_close_fd(&ex[1]);
	while ((nr = read(ex[0], &exec_errno, sizeof(exec_errno))) < 0 &&
	    errno == EINTR)
		;
	if (nr == (ssize_t)sizeof(exec_errno)) {
		while (waitpid(R->pid, NULL, 0) < 0 && errno == EINTR)
			;
		R->pid = -1;
		fprintf(stderr, "ensemble: cannot run '%s': %s\n", R->prog,
		    strerror(exec_errno));
		goto out;
	}
	/* Whatever becomes of us, the run's directories go (tidy.h). */
	tidy_watch(&R->tidy, R->pid);
	if (R->pfd[2].fd >= 0)
		fcntl(R->pfd[2].fd, F_SETFL, O_NONBLOCK);
	signal(SIGPIPE, SIG_IGN);
	rc = 0;
out:
	if (R->L->after != NULL)
		R->L->after(R, harg);
	launch_close_fd(&ex[0]);
	launch_close_fd(&ex[1]);
	launch_close_fd(&err[0]);
	launch_close_fd(&err[1]);
	launch_close_fd(&out[0]);
	launch_close_fd(&out[1]);
	launch_close_fd(&in[0]);
	launch_close_fd(&in[1]);
	launcher_argv_free(&a);
	return rc;
}
