/* cmd-run.c -- 'ensemble run': check the script (every executable must be
 * found), verify it unless told not to, then start its processes as one
 * MPI job under mpirun and report how the run went (loader/launch.c). */
#include "config.h"


#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc-machine.h"
#include "cmd.h"
#include "hand.h"
#include "launch.h"
#include "mpnet.h"
#include "xmalloc.h"

/* What run's options say. */
struct cmd_run_opts {
	struct cli_script	 script;
	struct cli_search	 search;
	const char		*hostfile;
	const char		*launcher;
	int			 oversubscribe;
	double			 timeout;
	double			 start_timeout;
	int			 no_verify;
	int			 no_code_check;
	struct cli_list		 sources;	/* --source COMP=FILE */
	int			 force;
	int			 check_protocol;
	int			 watch;
	int			 verbose;
	struct cli_list		 mca;		/* --mca: KEY, VALUE, KEY, VALUE... */
	struct cli_list		 xenv;		/* -x */
	struct cli_list		 rest;		/* after '--' */
	int			 tag_output;
	const char		*output_dir;
	const char		*stdin_proc;
	const char		*trace;		/* --trace FILE */
};

#define OFF(f)	offsetof(struct cmd_run_opts, f)

/* Say that the run is refused for 'why' and return rc, or, with --force,
 * that it runs anyway (with 'warn' before) and return 0. */
static int
refuse(const struct cmd_run_opts *o, const struct pcg *g, const char *why,
    const char *warn, int rc)
{
	if (o->force) {
		fprintf(stderr, "ensemble: %s: %s%s; running it anyway (--force)\n",
		    g->name, warn, why);
		return 0;
	}
	fprintf(stderr, "ensemble: %s: %s; not running it (--force runs it anyway)\n",
	    g->name, why);
	return rc;
}

/* Seconds of verification before run says that it goes on. */
#define RUN_NOTICE_S	5

/* What run's verification has said while it runs. */
struct run_notice {
	const char	*name;		/* the application's */
	int		 progress;	/* a progress line is on stderr */
	int		 said;
};

/* verify_opts.tick: once verification has taken RUN_NOTICE_S seconds,
 * one line (terminal or not) saying what it does and how to bound it. */
static void
run_tick(void *arg, const struct verify_tick *t)
{
	struct run_notice	*n = arg;

	if (n->said || t->seconds < RUN_NOTICE_S)
		return;
	n->said = 1;
	fprintf(stderr, "%sensemble: %s: still verifying before the run after "
	    "%.0f s (%s, %" PRIu64 " states, %" PRIu64 " MB so far); "
	    "'--max-time S' bounds it, '--no-verify' runs without it\n",
	    n->progress ? "\r\033[K" : "", n->name, t->seconds, t->label,
	    t->states, t->bytes >> 20);
}

/* After an incomplete verification, the modes that were verified: each
 * alone, asked for with --send-mode, lets the run go on. */
static void
say_verified_modes(const struct verify_result *res)
{
	int	i;

	for (i = 0; i < res->nmodes; i++)
		if (res->mode[i].verdict == V_VERIFIED)
			fprintf(stderr, "ensemble: %s: %s mode was verified: "
			    "'--send-mode=%s' runs it after that mode alone\n",
			    res->name, check_mode_name(res->mode[i].mode),
			    check_mode_name(res->mode[i].mode));
}

/* Verify in the send modes asked for (mpnet_verify).  A violation refuses
 * the run (unless --force), except a buffering hazard, which is said and
 * run, since Open MPI sends small standard messages eagerly.  A limit
 * that stops the check refuses the run too (exit 3), unless --force. */
static int
verify(const struct cmd_run_opts *o, struct frontend *fe, struct diag *d)
{
	struct verify_opts	 vo;
	struct verify_result	 res;
	struct run_notice	 notice;
	struct pcg		*g = fe->pcg;
	char			 pn[PCG_NAME_MAX];
	int64_t			 np;
	int			 i, rc = 0;

	if (cli_resume(fe, &o->script.pcg, FRONTEND_COMPILE, d) != 0) {
		fprintf(stderr, "ensemble: %s: cannot verify the script; 'ensemble run"
		    " --no-verify' runs it unverified\n", g->name);
		return EXIT_BADINPUT;
	}
	cli_verify_opts(&o->search, 0, &vo);
	memset(&notice, 0, sizeof(notice));
	notice.name = g->name;
	notice.progress = vo.progress && isatty(STDERR_FILENO);
	vo.tick = run_tick;
	vo.tick_arg = &notice;
	mpnet_verify(fe->net, &vo, &res);
	for (i = 0; i < res.nmodes; i++)
		cli_print_incomplete(res.name, &res.mode[i]);
	if (res.hazard)
		fprintf(stderr, "ensemble: %s: warning: buffering hazard: correct only"
		    " while MPI buffers %s (%s in synchronous mode; see 'ensemble"
		    " verify')\n", res.name, res.buffered,
		    vkind_name(res.mode[1].viol->kind));
	else if (res.verdict == V_VIOLATED) {
		cli_print_violations(stderr, &res, o->search.full);
		rc = refuse(o, g, "verification failed", "", res.status);
	} else if (res.verdict == V_INCOMPLETE) {
		rc = refuse(o, g, "verification incomplete", "warning: ", res.status);
		if (rc != 0)
			say_verified_modes(&res);
	}
	else if (pcg_np_differs(g, &np))
		fprintf(stderr, "ensemble: %s: verified (%s) in %.2f s\n",
		    res.name, pcg_nprocs_text(g, pn, sizeof(pn)), res.time_s);
	else
		fprintf(stderr, "ensemble: %s: verified in %.2f s\n", res.name,
		    res.time_s);
	verify_result_free(&res);
	mpnet_free(fe->net);
	fe->net = NULL;
	return rc;
}

/* The process --stdin names as in scripts ("relay[2]") or, as mpirun
 * takes it, by its rank (its index in script order): that index; -1 when
 * name is NULL or "none", -2 when no process has it, -3 for "all". */
static int
find_proc(const struct pcg *g, const char *name)
{
	char	pn[PCG_NAME_MAX], *end;
	long	r;
	int	i;

	if (name == NULL || strcmp(name, "none") == 0)
		return -1;
	if (strcmp(name, "all") == 0)
		return -3;
	if (name[0] >= '0' && name[0] <= '9') {
		errno = 0;
		r = strtol(name, &end, 10);
		return *end != '\0' || errno != 0 || r >= g->nprocs ? -2 : (int)r;
	}
	for (i = 0; i < g->nprocs; i++)
		if (strcmp(pcg_proc_name(g, i, pn, sizeof(pn)), name) == 0)
			return i;
	return -2;
}

/* Each process that runs on this machine (its host is this one, or it has
 * none and neither a hostfile nor a Slurm allocation gives others) must
 * have its wdir, relative to the current directory: an error at the
 * annotation, once for each, before anything starts.  Elsewhere the
 * trampoline reports it, as one that could not be started.  0 or -1. */
static int
check_wdirs(const struct pcg *g, const struct cmd_run_opts *o, struct diag *d)
{
	const struct pcg_strs	*w, *said = NULL;
	const char		*host, *jobid = getenv("SLURM_JOBID");
	struct stat		 st;
	char			 pn[PCG_NAME_MAX];
	int			 i, local, bad = 0;

	local = o->hostfile == NULL && (jobid == NULL || *jobid == '\0');
	for (i = 0; i < g->nprocs; i++) {
		w = pcg_annot(g, &g->procs[i], ANN_WDIR);
		if (w == NULL || w->n == 0 || w->v[0][0] == '\0' ||
		    (said != NULL && said->loc.src == w->loc.src &&
		    said->loc.first_line == w->loc.first_line &&
		    said->loc.first_column == w->loc.first_column &&
		    strcmp(said->v[0], w->v[0]) == 0))
			continue;	/* an annotation of several: said once */
		host = g->procs[i].host;
		if (host != NULL ? !alloc_is_local(host) : !local)
			continue;
		if (stat(w->v[0], &st) == 0 && S_ISDIR(st.st_mode))
			continue;
		diag_error(d, &w->loc, "cannot use working directory '%s' for "
		    "'%s': %s", w->v[0], pcg_proc_name(g, i, pn, sizeof(pn)),
		    strerror(stat(w->v[0], &st) == 0 ? ENOTDIR : errno));
		said = w;
		bad = 1;
	}
	return bad ? -1 : 0;
}

/* The number of processes of the script at scale value np, expanded again
 * without a word said; -1 when it does not expand. */
static int64_t
procs_at(const struct cli_script *s, int64_t np)
{
	struct frontend_src	 src;
	struct frontend		 fe;
	struct pcg_opts		 po = s->pcg;
	struct diag		*d = diag_new(stderr);
	int64_t			 n = -1;

	d->max_shown = 0;
	memset(&src, 0, sizeof(src));
	src.path = s->path;
	po.np = np;
	po.np_set = 1;
	po.exec_missing_is_error = 0;
	po.skip_exec_check = 1;
	if (frontend_compile(&src, &po, FRONTEND_EXPAND, d, &fe) == 0)
		n = fe.pcg->nprocs;
	frontend_free(&fe);
	diag_free(d);
	return n;
}

/* What scale_fit needs: the script, and its model as run. */
struct fit {
	const struct cli_script	*script;
	const struct pcg	*g;
};

/* launch_opts.scale_fit: the largest scale value below the one given whose
 * processes fit in slots, by bisection (a count that grows with the
 * scale, as scripts have); -1 when none does, as when the count does not
 * depend on the scale.  A value that does not expand does not fit. */
static int64_t
scale_fit(void *arg, int slots)
{
	const struct fit	*f = arg;
	const struct pcg_param	*sp = NULL;
	int64_t			 lo = 0, hi, mid, n;
	int			 k;

	for (k = 0; k < f->g->nparams; k++)
		if (f->g->params[k].scale)
			sp = &f->g->params[k];
	if (sp == NULL || sp->text != NULL || sp->value <= 1)
		return -1;
	for (hi = sp->value; hi - lo > 1; ) {
		mid = lo + (hi - lo) / 2;
		if ((n = procs_at(f->script, mid)) >= 0 && n <= slots)
			lo = mid;
		else
			hi = mid;
	}
	return lo > 0 ? lo : -1;
}

/* ens_launch's run (runtime/hand.h): the descriptor HAND_ENV names, into
 * *hand (0: none), taken out of the environment; its launcher is spawn.
 * 0, or 2 (said). */
static int
hand_take(const char *launcher, int *hand)
{
	const char	*v = getenv(HAND_ENV);
	char		*end;
	long		 fd;

	if (v == NULL)
		return 0;
	fd = strtol(v, &end, 10);
	if (*v == '\0' || *end != '\0' || fd < 3 || fd > INT_MAX ||
	    fcntl((int)fd, F_SETFD, FD_CLOEXEC) != 0) {
		fprintf(stderr, "ensemble: " HAND_ENV "='%s': not ens_launch's"
		    " descriptor\n", v);
		return EXIT_BADINPUT;
	}
	if (launcher != NULL && strcmp(launcher, "spawn") != 0) {
		fprintf(stderr, "ensemble: --launcher %s: ens_launch's"
		    " processes are spawned (--launcher spawn)\n", launcher);
		return EXIT_BADINPUT;
	}
	*hand = (int)fd;
	unsetenv(HAND_ENV);
	return 0;
}

static int
cmd_run_exec(const struct cmd_entry *self, int argc, char **argv)
{
	struct cmd_run_opts	 o;
	struct launch_opts	 lo;
	struct fit		 fit;
	struct frontend		 fe;
	struct diag		*d;
	struct pcg		*g = NULL;
	char			**paths = NULL, *trace = NULL, cwd[PATH_MAX];
	int			 rc, i, stdin_proc, hand = 0;

	if ((rc = cli_parse(self, argc, argv, &o, sizeof(o))) >= 0)
		return rc;
	if (o.launcher != NULL && !cli_known(launch_launchers, o.launcher)) {
		fprintf(stderr, "ensemble run: unknown launcher '%s' (openmpi,"
		    " mpich, srun or spawn)\n", o.launcher);
		cli_usage(stderr, self);
		cli_opts_free(self, &o);
		return cli_exit(EXIT_BADINPUT);
	}
	d = diag_new(stderr);
	if ((rc = hand_take(o.launcher, &hand)) != 0)
		goto out;
	o.script.pcg.exec_missing_is_error = 1;
	if (cli_load(&o.script, FRONTEND_EXPAND, d, &fe) != 0) {
		rc = EXIT_BADINPUT;
		goto out;
	}
	g = fe.pcg;
	if (check_wdirs(g, &o, d) != 0) {
		diag_summary(d);
		rc = EXIT_BADINPUT;
		goto out;
	}
	if ((stdin_proc = find_proc(g, o.stdin_proc)) == -3)
		stdin_proc = LAUNCH_STDIN_ALL;
	else if (stdin_proc < -1) {
		fprintf(stderr, "ensemble run: --stdin: no process '%s' in %s "
		    "(a name, or a rank from 0 to %d)\n", o.stdin_proc, g->name,
		    g->nprocs - 1);
		cli_usage(stderr, self);
		rc = EXIT_BADINPUT;
		goto out;
	}
	if (o.trace != NULL) {
		/* Absolute: the processes may work in other directories. */
		if (o.trace[0] == '/')
			trace = xstrdup(o.trace);
		else if (getcwd(cwd, sizeof(cwd)) != NULL)
			xasprintf(&trace, "%s/%s", cwd, o.trace);
		else {
			fprintf(stderr, "ensemble: getcwd: %s\n", strerror(errno));
			rc = EXIT_BADINPUT;
			goto out;
		}
	}
	/* What the launch will ask of Slurm, asked while the script is
	 * checked and verified. */
	launch_ahead(hand > 0 ? "spawn" : o.launcher, o.hostfile != NULL);
	/* The code held to the behaviour, where its sources are found. */
	if (!o.no_code_check && !o.no_verify && (rc = cli_codecheck(g,
	    &o.script.pcg, &o.sources, NULL, d, NULL, CLI_CC_RUN, NULL)) != 0) {
		diag_summary(d);
		if ((rc = refuse(&o, g, "a process's code makes calls its "
		    "behaviour does not allow", "", rc)) != 0)
			goto out;
	}
	if (!o.no_verify && (rc = verify(&o, &fe, d)) != 0)
		goto out;
	paths = xcalloc((size_t)g->nprocs + 1, sizeof(*paths));
	for (i = 0; i < g->nprocs; i++) {
		const struct loc	*where;
		const char		*exec = pcg_proc_exec(g, i, &where);

		/* Found when the script was checked; gone since is an error. */
		if ((paths[i] = pcg_find_exec(g, &o.script.pcg, exec,
		    where->src)) == NULL) {
			fprintf(stderr, "ensemble: cannot find executable '%s'\n", exec);
			rc = EXIT_BADINPUT;
			goto out;
		}
	}
	memset(&lo, 0, sizeof(lo));
	lo.launcher = o.launcher;
	lo.hand = hand;
	lo.mpirun = getenv("ENSEMBLE_MPIRUN");
	lo.exec = cli_exec();
	lo.paths = paths;
	lo.pythondir = cli_pythondir();
	if (access(lo.exec, X_OK) != 0) {
		fprintf(stderr, "ensemble: cannot run '%s': %s (is ensemble"
		    " installed?)\n", lo.exec, strerror(errno));
		rc = EXIT_BADINPUT;
		goto out;
	}
	lo.hostfile = o.hostfile;
	lo.oversubscribe = o.oversubscribe;
	lo.timeout = o.timeout;
	lo.start_timeout = o.start_timeout;
	/* On by default: what was verified is what runs.  Not without
	 * verification, where a component may have no behaviour. */
	lo.check_protocol = o.check_protocol < 0 ? !o.no_verify :
	    o.check_protocol;
	lo.watch = o.watch != 0;
	lo.trace = trace;
	lo.verbose = o.verbose;
	lo.stdin_proc = stdin_proc;
	lo.tag_output = o.tag_output;
	lo.output_dir = o.output_dir;
	lo.mca = o.mca.v;
	lo.nmca = o.mca.n;
	lo.xenv = o.xenv.v;
	lo.nxenv = o.xenv.n;
	lo.rest = o.rest.v;
	lo.nrest = o.rest.n;
	fit.script = &o.script;
	fit.g = g;
	lo.scale_fit = scale_fit;
	lo.scale_fit_arg = &fit;
	rc = launch_run(g, &lo);
out:
	launch_ahead_drop();
	for (i = 0; paths != NULL && i < g->nprocs; i++)
		free(paths[i]);
	free(paths);
	free(trace);
#ifdef ENS_FREE_AT_EXIT
	pcg_free(g);
#endif
	diag_free(d);
	cli_opts_free(self, &o);
	return cli_exit(rc);
}

static const struct cli_option cmd_run_options[] = {
	CLI_OPTIONS_SCRIPT(struct cmd_run_opts, script),
	{ .type = CLI_STRING, .name = "--hostfile", .arg = "FILE",
	  .off = OFF(hostfile), .needs = "a file name",
	  .help = "give Open MPI this hostfile (default: the Slurm\n"
	    "allocation, or this machine oversubscribed as\n"
	    "needed)" },
	{ .type = CLI_STRING, .name = "--launcher", .arg = "NAME",
	  .off = OFF(launcher), .needs = "a launcher",
	  .values = launch_launchers,
	  .help = "start the processes with this launcher: openmpi,\n"
	    "mpich, srun or spawn (default: what mpirun is)" },
	{ .type = CLI_FLAG, .name = "--oversubscribe",
	  .off = OFF(oversubscribe),
	  .help = "run more processes than the hostfile or the\n"
	    "allocation has slots" },
	{ .type = CLI_SECONDS, .name = "--timeout", .arg = "S",
	  .off = OFF(timeout), .needs = "a number of seconds",
	  .bad = "--timeout needs a positive number of seconds, not '%s'",
	  .most = 1e7,
	  .help = "stop the run after S seconds, saying where each\n"
	    "process was blocked (exit 3)" },
	{ .type = CLI_SECONDS, .name = "--start-timeout", .arg = "S",
	  .off = OFF(start_timeout), .needs = "a number of seconds",
	  .bad = "--start-timeout needs a positive number of seconds, not '%s'",
	  .most = 1e7,
	  .help = "stop the run when not every process has joined\n"
	    "(returned from ens_init) after S seconds, naming\n"
	    "those that never called it (default 60 + N/10)" },
	{ .type = CLI_FLAG, .name = "--check-protocol", .flags = CLI_NEG,
	  .off = OFF(check_protocol),
	  .help = "stop a process whose port calls leave its\n"
	    "declared behaviour, naming the expected statement\n"
	    "(default, unless --no-verify; --no-check-protocol:\n"
	    "never)" },
	{ .type = CLI_FLAG, .name = "--deadlock-watch", .flags = CLI_NEG,
	  .off = OFF(watch),
	  .help = "name processes blocked for good (a deadlock, an\n"
	    "orphan receive) as it happens and stop the run\n"
	    "(exit 4; default; --no-deadlock-watch: never)" },
	{ .type = CLI_STRING, .name = "--trace", .arg = "FILE",
	  .off = OFF(trace), .needs = "a file name",
	  .help = "record every port operation and raw MPI call of\n"
	    "the run into FILE (ensemble-trace(5)); read it\n"
	    "with 'ensemble trace'" },
	{ .type = CLI_FLAG, .name = "--verbose", .alias = "-v",
	  .off = OFF(verbose),
	  .help = "say which launcher runs it, and show its own\n"
	    "messages too" },
	{ .type = CLI_STRING, .name = "--stdin", .arg = "PROCESS",
	  .off = OFF(stdin_proc), .needs = "a process name or rank",
	  .help = "give PROCESS (named as in scripts: relay[2], or\n"
	    "by its rank, as mpirun: 0 is the first; 'all':\n"
	    "every process) this standard input (default, or\n"
	    "'none': every process reads /dev/null)" },
	{ .type = CLI_FLAG, .name = "--tag-output", .off = OFF(tag_output),
	  .help = "put the process's name and ': ' before each line\n"
	    "it writes (relay[2]: ...)" },
	{ .type = CLI_STRING, .name = "--output-dir", .arg = "DIR",
	  .off = OFF(output_dir), .needs = "a directory",
	  .help = "write each process's stdout and stderr to\n"
	    "DIR/NAME.out and DIR/NAME.err, not to ours, NAME\n"
	    "with '.' for '[' and no ']' (relay.2.out)" },
	{ .type = CLI_FLAG, .name = "--no-verify", .off = OFF(no_verify),
	  .help = "run without verifying the script first (nor\n"
	    "checking its code)" },
	{ .type = CLI_FLAG, .name = "--no-code-check", .off = OFF(no_code_check),
	  .help = "run without holding the processes' code to their\n"
	    "behaviour first (ensemble check --code)" },
	{ .type = CLI_LIST, .name = "--source", .arg = "COMP=FILE",
	  .off = OFF(sources), .needs = "COMPONENT=FILE",
	  .help = "the source of a component's processes, for the code\n"
	    "check (default: as check --code finds it)" },
	{ .type = CLI_FLAG, .name = "--force", .off = OFF(force),
	  .help = "run even when verification finds a violation or\n"
	    "stops at a limit, or the code differs from the\n"
	    "behaviour" },
	{ .type = CLI_GROUP,
	  .help = "Given to mpirun as they are, and by it to every process (the\n"
	    "arguments after '--' too, before the processes):" },
	{ .type = CLI_PAIR, .name = "--mca", .arg = "KEY VALUE",
	  .off = OFF(mca), .needs = "a key and a value",
	  .help = "set Open MPI's parameter KEY to VALUE" },
	{ .type = CLI_LIST, .name = "-x", .arg = "VAR|VAR=VALUE",
	  .off = OFF(xenv), .needs = "a variable",
	  .help = "export the variable VAR (this one's value, or\n"
	    "VALUE) to every process" },
	{ .type = CLI_GROUP,
	  .help = "Verification before the run, as by 'ensemble verify' (a violation, or\n"
	    "a limit reached, refuses the run unless --force):" },
	CLI_OPTION_SEND_MODE(struct cmd_run_opts, search.send_modes,
	    cli_send_modes,
	    "verify only this mode: buffered or synchronous\n"
	    "(default both: a violation in synchronous mode\n"
	    "alone is a warning, a buffering hazard)"),
	CLI_OPTIONS_SEARCH(struct cmd_run_opts, search),
	{ .type = CLI_REST, .arg = "MPIRUN-ARG...", .off = OFF(rest) },
	{ CLI_END }
};

const struct cmd_entry cmd_run_entry = {
	.name = "run",
	.args = "SCRIPT",
	.summary = "Verify the script, then start its processes as one MPI job, "
	    "wire their ports and wait for them.",
	.options = cmd_run_options,
	.help =
	    "Exit status: 0 every component succeeded, 1 a component failed or\n"
	    "verification failed, 2 bad input or usage, 3 verification incomplete\n"
	    "or --timeout stopped the run, 4 processes were blocked for good (a\n"
	    "deadlock) and the run was stopped.\n",
	.exec = cmd_run_exec,
};
