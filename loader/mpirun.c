/* mpirun.c -- what 'ensemble run' starts (launch-int.h): the check that
 * the processes fit the slots they are given, the run's files (its
 * private directory, the appfile and the port tables, plan.h), and the
 * launcher's command ('mpirun --app APPFILE' for Open MPI: the launcher's
 * file builds it) with pipes for its standard streams; our SIGINT,
 * SIGTERM, SIGHUP and SIGCHLD are caught while it runs. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "alloc-hostfile.h"
#include "alloc-machine.h"
#include "alloc-slurm.h"
#include "clock.h"
#include "launch-int.h"
#include "plan.h"

volatile sig_atomic_t mpirun_interrupted;

static void
mpirun_on_interrupt(int sig)
{
	mpirun_interrupted = sig;
}

/* From before the run's files are made to the end of the run: SIGINT,
 * SIGTERM and SIGHUP (a terminal's hangup) stop the run and are said
 * (mpirun_interrupted), whatever phase it is in. */
void
mpirun_catch(struct run *R)
{
	struct sigaction	sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = mpirun_on_interrupt;
	sigaction(SIGINT, &sa, &R->old_int);
	sigaction(SIGTERM, &sa, &R->old_term);
	sigaction(SIGHUP, &sa, &R->old_hup);
	R->handling = 1;
}

/* SIGCHLD only wakes ppoll (it is blocked but there): mpirun or a
 * process left behind has ended. */
static void
mpirun_on_child(int sig)
{
	(void)sig;
}

/* Put dir first on PYTHONPATH, for the components in Python that mpirun
 * starts ('-x PYTHONPATH' takes it to every host), unless it is there
 * already. */
static void
mpirun_pythonpath(const char *dir)
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

/* The largest -np whose processes fit in slots (launch_opts.scale_fit),
 * or -1: none, or no way to tell. */
static int64_t
mpirun_fit_np(const struct launch_opts *o, int slots)
{
	return o->scale_fit != NULL && slots > 0 ?
	    o->scale_fit(o->scale_fit_arg, slots) : -1;
}

/* Check, before anything starts, that the processes fit the slots they
 * are given, and keep those slots in R->alloc for the plan, with the host
 * each placed process goes to in R->placed: a hostfile's, a Slurm
 * allocation's (which must still be running), or this machine's, where
 * the processes share its cores as they like.  Every host a process is
 * placed on must be one of them; each name is looked up once, as the
 * look-up may ask the resolver.  0, or the exit status after saying what
 * is wrong and what to do. */
int
mpirun_fit(struct run *R)
{
	const struct launch_opts *o = R->o;
	const struct pcg	*g = R->g;
	struct alloc		*a = &R->alloc;
	const struct alloc_host	*h = NULL;
	const char		*jobid = getenv("SLURM_JOBID");
	const char		*host, *last = NULL;
	char			*cause = NULL, pn[PCG_NAME_MAX];
	int64_t			 np;
	int			*pinned = NULL, i, k, rc = 2;

	if (o->hostfile != NULL) {
		if (alloc_hostfile(a, o->hostfile, &cause) != 0)
			goto bad;
	} else if (jobid != NULL && *jobid != '\0') {
		/* The launcher takes the allocation from the environment, even
		 * one that has ended (Open MPI's does): ask Slurm first. */
		if ((k = alloc_slurm_alive(jobid, &cause)) != ALLOC_JOB_RUNNING) {
			rc = k == ALLOC_JOB_ENDED ? 2 : 1;
			goto bad;
		}
		if (alloc_slurm(a, &cause) != 0)
			goto bad;
	} else
		alloc_local(a);
	for (i = 0; i < g->nprocs; i++) {
		if ((host = g->procs[i].host) == NULL)
			continue;
		R->nplaced++;
		if (last != NULL && strcmp(host, last) == 0) {
			/* Placed where the one before was. */
			if (a->kind != ALLOC_LOCAL)
				R->placed[i] = h;
			continue;
		}
		last = host;
		if (a->kind == ALLOC_LOCAL) {
			/* This machine; a host it is not would have the
			 * launcher try ssh. */
			if (!alloc_is_local(host))
				break;
			continue;
		}
		if ((h = R->placed[i] = alloc_find(a, host)) == NULL)
			break;
	}
	if (i < g->nprocs && a->kind == ALLOC_LOCAL) {
		xasprintf(&cause, "%s is placed on host '%s', which is not this"
		    " machine: %s runs processes only on hosts it knows (give"
		    " them with --hostfile, or run inside a Slurm allocation)",
		    pcg_proc_name(g, i, pn, sizeof(pn)), g->procs[i].host,
		    R->L->who);
		goto bad;
	}
	if (i < g->nprocs) {
		xasprintf(&cause, "%s is placed on host '%s', which %s does not"
		    " have: %s runs processes only on hosts it knows",
		    pcg_proc_name(g, i, pn, sizeof(pn)), g->procs[i].host, a->what,
		    R->L->who);
		goto bad;
	}
	/* This machine: processes share its cores as they like, but bound
	 * to cores two share one (where mpirun alone, by its own mapping,
	 * refuses): said, and they run. */
	if (a->kind == ALLOC_LOCAL && a->slots > 0 && g->nprocs > a->slots &&
	    R->L->binds_cores(o)) {
		fprintf(stderr, "ensemble: %s: %s bound to the %d"
		    " core%s of %s: up to %d share one", g->name,
		    pcg_nprocs_text(g, pn, sizeof(pn)), a->slots,
		    a->slots == 1 ? "" : "s", a->what,
		    (g->nprocs + a->slots - 1) / a->slots);
		if ((np = mpirun_fit_np(o, a->slots)) > 0)
			fprintf(stderr, " (-np %" PRId64 " gives each its own)", np);
		fputc('\n', stderr);
	}
	if (a->kind == ALLOC_LOCAL || R->L->oversubscribed(o))
		return 0;
	/* (Slots of -1: a host's cores, which only mpirun learns.) */
	if (a->slots >= 0 && g->nprocs > a->slots) {
		fprintf(stderr, "ensemble: %s: %s need %d slots, and %s"
		    " has %d\n", g->name, pcg_nprocs_text(g, pn, sizeof(pn)),
		    g->nprocs, a->what, a->slots);
		if (a->kind == ALLOC_SLURM)
			fprintf(stderr, "  ask for %d (salloc -n %d, sbatch -n %d)",
			    g->nprocs, g->nprocs, g->nprocs);
		else
			fprintf(stderr, "  give the hostfile %d slots (slots=N after"
			    " a host)", g->nprocs);
		if ((np = mpirun_fit_np(o, a->slots)) > 0)
			fprintf(stderr, ", run fewer (-np %" PRId64 ")", np);
		fprintf(stderr, ", or let processes share slots"
		    " (--oversubscribe)\n");
		return 2;
	}
	/* Every host with more processes placed on it than it has slots,
	 * named as the first of them names it. */
	pinned = xcalloc((size_t)a->nhosts + 1, sizeof(*pinned));
	for (i = 0; i < g->nprocs; i++)
		if (R->placed[i] != NULL)
			pinned[R->placed[i] - a->hosts]++;
	for (k = 0; k < a->nhosts; k++) {
		h = &a->hosts[k];
		if (h->slots < 0 || pinned[k] <= h->slots)
			continue;
		for (i = 0; R->placed[i] != h; i++)
			;
		fprintf(stderr, "ensemble: %s: %d processes are placed on host"
		    " '%s', which has %d slot%s in %s\n", g->name, pinned[k],
		    g->procs[i].host, h->slots, h->slots == 1 ? "" : "s", a->what);
		fprintf(stderr, "  place fewer there, give it more slots, or let"
		    " processes share slots (--oversubscribe)\n");
		free(pinned);
		return 2;
	}
	free(pinned);
	return 0;
bad:
	fprintf(stderr, "ensemble: %s: %s\n", g->name, cause);
	free(cause);
	return rc;
}

/* Whether every host the processes may run on is this machine. */
int
mpirun_all_local(const struct run *R)
{
	int	i;

	for (i = 0; R->alloc.kind != ALLOC_LOCAL && i < R->alloc.nhosts; i++)
		if (!R->alloc.hosts[i].local)
			return 0;
	return 1;
}

/* Write the bundle of port tables to path, a new file in the run's
 * private directory that only the user can read, not through a link,
 * and send none on the launcher's standard input.  0, or -1 (said). */
static int
mpirun_tables(struct run *R, const char *path)
{
	size_t	off = 0;
	ssize_t	n;
	int	fd, e = 0;

	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0600)) < 0) {
		fprintf(stderr, "ensemble: cannot create '%s': %s\n", path,
		    strerror(errno));
		return -1;
	}
	while (off < R->bundle.len && e == 0) {
		if ((n = write(fd, R->bundle.p + off, R->bundle.len - off)) > 0)
			off += (size_t)n;
		else if (n < 0 && errno != EINTR)
			e = errno;
	}
	if (close(fd) != 0 && e == 0)
		e = errno;
	if (e != 0) {
		fprintf(stderr, "ensemble: cannot write '%s': %s\n", path,
		    strerror(e));
		return -1;
	}
	R->bundle.len = 0;
	return 0;
}

/* Make the run's files: a private directory with the appfile; with
 * --trace, the directory beside the trace file where the processes write
 * their parts (made now, so that a bad name fails before anything runs);
 * then the plan.  0, or the exit status after saying what is wrong. */
int
mpirun_files(struct run *R)
{
	const struct launch_opts *o = R->o;
	struct plan_opts	 po;
	struct timespec		 ts;
	struct stat		 st;
	const char		*tmp = getenv("TMPDIR");
	char			*cause = NULL, *tables = NULL;
	int			 rc;

	if (tmp == NULL || *tmp == '\0')
		tmp = "/tmp";
	/* What runs killed with their janitors left (tidy.h). */
	tidy_sweep(tmp);
	tidy_sweep("/dev/shm");
	xasprintf(&R->workdir, "%s/" TIDY_PREFIX "XXXXXX", tmp);
	if (mkdtemp(R->workdir) == NULL) {
		fprintf(stderr, "ensemble: cannot make a directory '%s': %s\n",
		    R->workdir, strerror(errno));
		free(R->workdir);
		R->workdir = NULL;
		return 2;
	}
	tidy_add(&R->tidy, R->workdir);
	xasprintf(&R->appfile, "%s/appfile", R->workdir);
	if ((rc = R->L->files(R)) != 0)
		return rc;
	if (o->trace != NULL) {
		/* A directory there would be found only by the rename of the
		 * merged trace, after the run. */
		if (stat(o->trace, &st) == 0 && S_ISDIR(st.st_mode)) {
			fprintf(stderr, "ensemble: cannot create '%s': %s\n",
			    o->trace, strerror(EISDIR));
			return 2;
		}
		xasprintf(&R->tracedir, "%s.parts-XXXXXX", o->trace);
		if (mkdtemp(R->tracedir) == NULL) {
			fprintf(stderr, "ensemble: cannot create '%s': %s\n", o->trace,
			    strerror(errno));
			free(R->tracedir);
			R->tracedir = NULL;
			return 2;
		}
		tidy_add(&R->tidy, R->tracedir);
		/* The origin of the trace's times: now, just before mpirun. */
		clock_gettime(CLOCK_REALTIME, &ts);
		snprintf(R->origin, sizeof(R->origin), "%lld.%09ld",
		    (long long)ts.tv_sec, ts.tv_nsec);
	}
	if (o->stdin_proc == LAUNCH_STDIN_ALL) {
		R->fan = fan_new(R->n, mpirun_all_local(R), R->stdin_key,
		    R->workdir, &R->fan_addrs, &cause);
		if (R->fan == NULL) {
			fprintf(stderr, "ensemble: --stdin all: %s\n", cause);
			free(cause);
			return 2;
		}
	}
	memset(&po, 0, sizeof(po));
	po.syntax = R->L->syntax;
	po.exec = o->exec;
	po.paths = o->paths;
	po.stdin_proc = o->stdin_proc;
	po.stdin_net = R->fan_addrs;
	po.stdin_key = R->stdin_key;
	po.relay = R->secret;
	po.watch = watch_token(R);
	po.root = o->stdin_proc >= 0 ? o->stdin_proc : 0;
	po.flags = (o->check_protocol ? WIRE_CHECK_PROTOCOL : 0) |
	    (o->trace != NULL ? WIRE_TRACE : 0);
	po.origin = R->origin;
	po.tracedir = R->tracedir;
	po.alloc = &R->alloc;
	po.placed = R->placed;
	po.nplaced = R->nplaced;
	/* The tables in a file of the run's wherever every process can
	 * read it (this machine alone), so that no launcher's limit on its
	 * standard input, nor the rank it gives it to, matters; else on the
	 * launcher's standard input, where it carries them. */
	if (mpirun_all_local(R) || !R->L->stdin_tables)
		xasprintf(&tables, "%s/tables", R->workdir);
	po.tables_file = tables;
	rc = 0;
	if (plan_make(R->g, &po, R->appfile, &R->bundle, &cause) != 0) {
		fprintf(stderr, "ensemble: %s: %s\n", R->g->name, cause);
		free(cause);
		rc = 2;
	} else if (tables != NULL && mpirun_tables(R, tables) != 0)
		rc = 2;
	free(tables);
	return rc;
}

/* Start the launcher (its argv: 'mpirun --app APPFILE') with pipes for its standard streams, and
 * SIGCHLD caught (blocked but in ppoll; mpirun_catch has the others).  An
 * exec failure comes back as an errno over a close-on-exec pipe.  0, or
 * -1 when it could not be started (said). */
int
mpirun_spawn(struct run *R)
{
	const struct launch_opts *o = R->o;
	struct sigaction	 sa;
	sigset_t		 chld;
	struct launcher_argv	 a;
	int			 in[2] = { -1, -1 }, out[2] = { -1, -1 };
	int			 err[2] = { -1, -1 }, ex[2] = { -1, -1 };
	int			 exec_errno, rc = -1;
	ssize_t			 nr;
	pid_t			 self;

	memset(&a, 0, sizeof(a));
	R->L->argv(R, &a);
	launcher_arg(&a, NULL);
	mpirun_pythonpath(o->pythondir);
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	if (pipe(in) != 0 || pipe(out) != 0 || pipe(err) != 0 ||
	    pipe2(ex, O_CLOEXEC) != 0) {
		fprintf(stderr, "ensemble: pipe: %s\n", strerror(errno));
		goto out;
	}
	/* SIGCHLD from now on only wakes ppoll; mpirun gets the mask as it
	 * was. */
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = mpirun_on_child;
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
		 * SIGTERM, and its processes die with it (exec.c). */
		prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0);
		if (getppid() != self)
			_exit(127);
		sigprocmask(SIG_SETMASK, &R->old_mask, NULL);
		dup2(in[0], STDIN_FILENO);
		dup2(out[1], STDOUT_FILENO);
		dup2(err[1], STDERR_FILENO);
		close(in[0]); close(in[1]);
		close(out[0]); close(out[1]);
		close(err[0]); close(err[1]);
		close(ex[0]);
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
	fcntl(R->pfd[2].fd, F_SETFL, O_NONBLOCK);
	signal(SIGPIPE, SIG_IGN);
	rc = 0;
out:
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
