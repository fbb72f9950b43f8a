/* loader.c -- ensemble-loader, the MPI program 'ensemble run' starts under
 * 'mpirun -np 1'.  It reads the annotated PCG (DOT, from a file or stdin;
 * common/pcgdot.h), spawns every process with one MPI_Comm_spawn_multiple,
 * so all components share one MPI_COMM_WORLD, then visits the processes
 * once more to send each its port table (the paper's two visits:
 * MakePorts, SetInterface), waits for them and disconnects.  Every process
 * is started through ensemble-exec (exec.c), beside the loader, which says
 * how the component ended if it never joins, gives it its standard input
 * and sets an environment Open MPI's 'env' info key cannot carry (an entry
 * with a newline, or too long).  Every MPI
 * error is returned, not fatal, and spawn, wiring and disconnect each have
 * a watchdog: a hang becomes a message and an exit, never a stuck run.
 * Progress goes to stdout as marker lines (runtime/wire.h) for 'ensemble
 * run'.  With --trace FILE, the processes send their traces before they
 * say they are done, and the loader writes FILE (ltrace.c). */
#include "config.h"

#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <graphviz/cgraph.h>
#include <mpi.h>

#include "asan.h"
#include "clock.h"
#include "ltrace.h"
#include "pcgdot.h"
#include "trace.h"
#include "wire.h"
#include "xmalloc.h"

/* The program spawn starts in each process's place, beside the loader:
 * EXEC_NAME NAME [--stdin PATH] COUNT NAME=VALUE... PATH [ARG...] (exec.c). */
#define EXEC_NAME	"ensemble-exec"

/* Seconds from the "stuck" marker to giving up (on_alarm). */
#define STUCK_GRACE	15

/* One process of the application, in rank (script) order. */
struct lproc {
	char		 *name;
	const char	 *component;
	int		  indexed;	/* 1: it has an index, which may be 0 */
	int		  index;	/* its index, when indexed */
	char		 *path;
	char		**argv;
	int		  argc;
	char		**env;
	int		  nenv;
	int		  exec_env;	/* env set by EXEC_NAME, not the info key */
	const char	 *stdin_path;	/* its stdin (EXEC_NAME); NULL: /dev/null */
	char		 *wdir;
	char		 *host;
	char		 *behaviour;
	char		**locs;		/* each statement's location */
	int		  nlocs;
	int		  ntypes;
	char		**types;
	int		 *nports;
	int		 *portbase;	/* first slot of each type in ports[] */
	int		 *peer;		/* per port slot: peer rank, -1 */
	int		 *tag;		/* the tag it sends with */
	int		 *rtag;		/* the tag it receives with */
};

/* What the loader is doing: the status line names it on SIGUSR1, and a
 * watchdog says which call hung. */
enum phase {
	PHASE_READING,
	PHASE_SPAWNING,
	PHASE_WIRING,
	PHASE_RUNNING,
	PHASE_DISCONNECTING,
};
static const char *const phase_names[] = {
	[PHASE_READING] = "reading",
	[PHASE_SPAWNING] = "spawning",
	[PHASE_WIRING] = "wiring",
	[PHASE_RUNNING] = "running",
	[PHASE_DISCONNECTING] = "disconnecting",
};
static const char *const watch_what[] = {
	[PHASE_READING] = "",
	[PHASE_SPAWNING] = "MPI_Comm_spawn_multiple",
	[PHASE_WIRING] = "wiring the port interfaces",
	[PHASE_RUNNING] = "",
	[PHASE_DISCONNECTING] = "MPI_Comm_disconnect",
};

/* The loader's state, from its options to the run's end. */
struct loader {
	/* The options. */
	const char	 *graph;	/* the DOT file, "-": stdin */
	int		  flags;	/* WIRE_CHECK_PROTOCOL */
	int		  spawn_timeout;	/* seconds; -1: by the size */
	int		  wire_timeout;
	int		  stdin_rank;	/* --stdin: this process's stdin is */
	const char	 *stdin_path;	/* this FIFO ('ensemble run' writes it) */
	const char	 *trace_path;	/* --trace: the file to write */

	/* The application, from the graph. */
	Agraph_t	 *G;
	struct lproc	 *procs;
	int		  nprocs;
	char		**pnames, **pvalues;	/* the script's parameters */
	int		  nparams;

	/* The run. */
	volatile sig_atomic_t phase;	/* enum phase */
	volatile sig_atomic_t watch_seconds;
	volatile sig_atomic_t stuck;	/* the "stuck" marker said */
	char		 *status;	/* per process: '.', 'h' or 'd' */
	MPI_Info	 *infos;	/* per process, for the spawn */
	MPI_Comm	  inter;	/* to the spawned processes */
	double		  t0, t1, t2;	/* start, spawned, wired */
	struct timespec	  origin;	/* --trace: realtime before the spawn */
	char		  origin_s[64];	/* the same, "S.N" (wire.h) */
	struct ltrace	 *trace;
};

/* One loader per process; the signal handlers read it. */
static struct loader	L;

static void
usage(void)
{
	fprintf(stderr, "usage: ensemble-loader [--check-protocol] [--spawn-timeout S]"
	    " [--wire-timeout S] [--stdin RANK FIFO] [--trace FILE] GRAPH.dot|-\n");
	exit(2);
}

static void
say(const char *s)
{
	size_t	n = strlen(s);
	ssize_t	w;

	while (n > 0 && (w = write(STDOUT_FILENO, s, n)) > 0) {
		s += w;
		n -= (size_t)w;
	}
}

/* SIGUSR1 ('ensemble run --timeout'): say the phase and each process's
 * progress, as one marker line. */
static void
on_usr1(int sig)
{
	char	head[64];
	int	saved = errno;

	(void)sig;
	snprintf(head, sizeof(head), "%sstatus %s ", WIRE_MARK, phase_names[L.phase]);
	say(head);
	if (L.status != NULL)
		say(L.status);
	say("\n");
	errno = saved;
}

/* SIGALRM: a watchdog fired.  Open MPI cannot be interrupted.  While
 * processes are still joining (spawning, wiring), first say so in a
 * marker line, so that 'ensemble run' asks each where it is and names
 * those that never called ens_init, and wait STUCK_GRACE more; then, or
 * in any other phase, say what hung and leave: mpirun then stops every
 * process. */
static void
on_alarm(int sig)
{
	char	msg[256];

	(void)sig;
	if ((L.phase == PHASE_SPAWNING || L.phase == PHASE_WIRING) && !L.stuck) {
		L.stuck = 1;
		snprintf(msg, sizeof(msg), "%sstuck %d\n", WIRE_MARK,
		    (int)L.watch_seconds);
		say(msg);
		alarm(STUCK_GRACE);
		return;
	}
	snprintf(msg, sizeof(msg), "ensemble-loader: %s did not finish within %d s;"
	    " giving up (Open MPI 4.1 with an external PMIx is known to hang here"
	    " now and then: run again)\n", watch_what[L.phase], (int)L.watch_seconds);
	if (write(STDERR_FILENO, msg, strlen(msg)) < 0)
		_exit(4);
	_exit(4);
}

/* Enter phase p with a watchdog of that many seconds (0: none). */
static void
watch(struct loader *l, enum phase p, int seconds)
{
	l->phase = p;
	l->watch_seconds = seconds;
	alarm(seconds > 0 ? (unsigned)seconds : 0);
}

static void
unwatch(void)
{
	alarm(0);
}

static void
die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* A user error: say it, and leave with exit 2 before anything is spawned. */
static void
die(const char *fmt, ...)
{
	va_list	ap;

	fputs("ensemble-loader: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	MPI_Finalize();
	exit(2);
}

/* An MPI call failed after processes were spawned: say which, and abort
 * them all. */
static void
mpi_check(int rc, const char *what)
{
	char	s[MPI_MAX_ERROR_STRING];
	int	n;

	if (rc == MPI_SUCCESS)
		return;
	if (MPI_Error_string(rc, s, &n) != MPI_SUCCESS)
		snprintf(s, sizeof(s), "error %d", rc);
	fprintf(stderr, "ensemble-loader: %s failed: %s\n", what, s);
	MPI_Abort(MPI_COMM_WORLD, 4);
	exit(4);
}

/* The value of an attribute (pcgdot.h) of a graph, node or edge, "" when
 * it has none. */
static const char *
attr(void *obj, const char *name)
{
	char	*v = agget(obj, (char *)name);

	return v != NULL ? v : "";
}

/* An int attribute of node v in [min, max].  A bad one is said, naming
 * the attribute and the node. */
static int
node_int(Agnode_t *v, const char *name, long long min, long long max)
{
	const char	*s = attr(v, name);
	long long	 n;

	if (pcgdot_int(s, min, max, &n) != 0)
		die("bad '%s' of node '%s': '%s'", name, agnameof(v), s);
	return (int)n;
}

/* A text attribute of node v, decoded (caller frees). */
static char *
node_text(Agnode_t *v, const char *name)
{
	char	*t;

	if ((t = pcgdot_text(attr(v, name))) == NULL)
		die("bad '%s' of node '%s': '%s'", name, agnameof(v), attr(v, name));
	return t;
}

/* A list attribute of node v, decoded: its count, *out the strings. */
static int
node_list(Agnode_t *v, const char *name, char ***out)
{
	int	n;

	if ((n = pcgdot_list(attr(v, name), out)) < 0)
		die("bad '%s' of node '%s': '%s'", name, agnameof(v), attr(v, name));
	return n;
}

/* The port slot the "Type[k]" attribute 'name' of edge e names at process
 * p, the process at that end of the edge. */
static int
edge_port(Agedge_t *e, const char *name, const struct lproc *p)
{
	const char	*s = attr(e, name), *br = strchr(s, '[');
	char		*k;
	long long	 n;
	int		 t;

	if (br == NULL || s[strlen(s) - 1] != ']')
		goto bad;
	k = xstrndup(br + 1, strlen(br + 1) - 1);
	for (t = 0; t < p->ntypes; t++)
		if (strlen(p->types[t]) == (size_t)(br - s) &&
		    strncmp(p->types[t], s, (size_t)(br - s)) == 0)
			break;
	if (t == p->ntypes || pcgdot_int(k, 1, p->nports[t], &n) != 0) {
		free(k);
		goto bad;
	}
	free(k);
	return p->portbase[t] + (int)n - 1;
bad:
	die("bad '%s' of edge '%s' (%s -- %s): '%s'", name, agnameof(e),
	    agnameof(agtail(e)), agnameof(aghead(e)), s);
}

/* The tag of edge e. */
static int
edge_tag(Agedge_t *e)
{
	const char	*s = attr(e, PCGDOT_TAG);
	long long	 n;

	if (pcgdot_int(s, 0, INT_MAX - 1, &n) != 0)
		die("bad '%s' of edge '%s' (%s -- %s): '%s'", PCGDOT_TAG, agnameof(e),
		    agnameof(agtail(e)), agnameof(aghead(e)), s);
	return (int)n;
}

/* Read "Client:2 Prop:2" into the process's types and port slots. */
static void
read_ports(struct lproc *p, Agnode_t *v)
{
	const char	*s = attr(v, PCGDOT_PORTS);
	char		*copy = xstrdup(s), *w, *save = NULL, *colon;
	long long	 n;
	int		 total = 0, i;

	for (w = strtok_r(copy, " ", &save); w != NULL; w = strtok_r(NULL, " ", &save)) {
		if ((colon = strchr(w, ':')) == NULL || colon == w ||
		    pcgdot_int(colon + 1, 0, INT_MAX - total, &n) != 0)
			die("bad '%s' of node '%s': '%s'", PCGDOT_PORTS, p->name, s);
		*colon = '\0';
		p->types = xreallocarray(p->types, (size_t)p->ntypes + 1, sizeof(char *));
		p->nports = xreallocarray(p->nports, (size_t)p->ntypes + 1, sizeof(int));
		p->portbase = xreallocarray(p->portbase, (size_t)p->ntypes + 1, sizeof(int));
		p->types[p->ntypes] = xstrdup(w);
		p->nports[p->ntypes] = (int)n;
		p->portbase[p->ntypes] = total;
		total += (int)n;
		p->ntypes++;
	}
	free(copy);
	p->peer = xcalloc((size_t)total + 1, sizeof(int));
	p->tag = xcalloc((size_t)total + 1, sizeof(int));
	p->rtag = xcalloc((size_t)total + 1, sizeof(int));
	for (i = 0; i < total; i++)
		p->peer[i] = -1;
}

/* Read the graph 'ensemble run' wrote (pcgdot.h) into l: processes by
 * their 'rank', and the script's parameters. */
static void
read_graph(struct loader *l)
{
	Agnode_t	*v;
	Agedge_t	*e;
	FILE		*f;
	char		**params, *eq;
	int		 r, k, n, spare = 0;

	if (strcmp(l->graph, "-") == 0)
		f = stdin;
	else if ((f = fopen(l->graph, "r")) == NULL)
		die("cannot open '%s': %s", l->graph, strerror(errno));
	l->G = agread(f, NULL);
	if (f != stdin)
		fclose(f);
	if (l->G == NULL)
		die("cannot read the graph from '%s'", l->graph);
	l->nprocs = agnnodes(l->G);
	if (l->nprocs == 0)
		die("the application has no processes");
	l->procs = xcalloc((size_t)l->nprocs, sizeof(*l->procs));
	for (v = agfstnode(l->G); v != NULL; v = agnxtnode(l->G, v)) {
		struct lproc	*p;

		r = node_int(v, PCGDOT_RANK, 0, l->nprocs - 1);
		if (l->procs[r].name != NULL)
			die("repeated '%s' of node '%s': '%s'", PCGDOT_RANK, agnameof(v),
			    attr(v, PCGDOT_RANK));
		p = &l->procs[r];
		p->name = xstrdup(agnameof(v));
		p->component = attr(v, PCGDOT_COMPONENT);
		if (*attr(v, PCGDOT_INDEX) != '\0') {	/* (empty: no index) */
			p->indexed = 1;
			p->index = node_int(v, PCGDOT_INDEX, INT_MIN, INT_MAX);
		}
		p->path = node_text(v, PCGDOT_PATH);
		p->argc = node_list(v, PCGDOT_ARGS, &p->argv);
		p->nenv = node_list(v, PCGDOT_ENV, &p->env);
		for (k = 0; k < p->nenv; k++)
			if (p->env[k][0] == '=' || strchr(p->env[k], '=') == NULL)
				die("bad '%s' of node '%s': '%s'", PCGDOT_ENV, agnameof(v),
				    attr(v, PCGDOT_ENV));
		p->wdir = node_text(v, PCGDOT_WDIR);
		p->host = node_text(v, PCGDOT_HOST);
		p->behaviour = node_text(v, PCGDOT_BEHAVIOUR);
		p->nlocs = node_list(v, PCGDOT_BEHAVIOUR_AT, &p->locs);
		read_ports(p, v);
	}
	/* A channel from a process to itself needs a second tag, for its
	 * other direction: one above every channel's tag. */
	for (v = agfstnode(l->G); v != NULL; v = agnxtnode(l->G, v))
		for (e = agfstout(l->G, v); e != NULL; e = agnxtout(l->G, e))
			if (edge_tag(e) >= spare)
				spare = edge_tag(e) + 1;
	for (v = agfstnode(l->G); v != NULL; v = agnxtnode(l->G, v))
		for (e = agfstout(l->G, v); e != NULL; e = agnxtout(l->G, e)) {
			struct lproc	*a = &l->procs[node_int(agtail(e), PCGDOT_RANK, 0,
			    l->nprocs - 1)];
			struct lproc	*b = &l->procs[node_int(aghead(e), PCGDOT_RANK, 0,
			    l->nprocs - 1)];
			int		 sa = edge_port(e, PCGDOT_TAIL_PORT, a);
			int		 sb = edge_port(e, PCGDOT_HEAD_PORT, b);
			int		 tag = edge_tag(e);

			if (a == b && spare == INT_MAX)
				die("no tag left for the channel '%s' (%s -- %s)",
				    agnameof(e), a->name, b->name);
			a->peer[sa] = (int)(b - l->procs);
			b->peer[sb] = (int)(a - l->procs);
			a->tag[sa] = b->rtag[sb] = tag;
			b->tag[sb] = a->rtag[sa] = a == b ? spare++ : tag;
		}
	/* 'N=4' 'input=mesh.dat': the value is all after the first '='. */
	if ((n = pcgdot_list(attr(l->G, PCGDOT_PARAMS), &params)) < 0)
		die("bad '%s' of the graph: '%s'", PCGDOT_PARAMS,
		    attr(l->G, PCGDOT_PARAMS));
	l->pnames = xcalloc((size_t)n + 1, sizeof(char *));
	l->pvalues = xcalloc((size_t)n + 1, sizeof(char *));
	for (k = 0; k < n; k++) {
		if ((eq = strchr(params[k], '=')) == NULL || eq == params[k])
			die("bad '%s' of the graph: '%s'", PCGDOT_PARAMS,
			    attr(l->G, PCGDOT_PARAMS));
		l->pnames[k] = xstrndup(params[k], eq - params[k]);
		l->pvalues[k] = xstrdup(eq + 1);
		l->nparams++;
	}
	for (k = 0; k < n; k++)
		free(params[k]);
	free(params);
}

/* Every executable must be an absolute path to an executable file: Open
 * MPI would resolve anything else inside 'wdir', and a missing one is
 * best said before anything starts. */
static void
check_execs(const struct loader *l)
{
	int	i;

	for (i = 0; i < l->nprocs; i++) {
		const struct lproc	*p = &l->procs[i];

		if (p->path[0] != '/')
			die("%s: the executable '%s' is not an absolute path", p->name, p->path);
		if (access(p->path, X_OK) != 0)
			die("%s: cannot execute '%s': %s", p->name, p->path, strerror(errno));
	}
}

/* Set an info key, within MPI's limit on a value's length. */
static void
info_set(MPI_Info info, const struct lproc *p, const char *key, const char *value)
{
	if (strlen(value) >= MPI_MAX_INFO_VAL)
		die("%s: its %s is %zu characters, more than the %d an MPI info value"
		    " holds", p->name, key, strlen(value), MPI_MAX_INFO_VAL - 1);
	if (MPI_Info_set(info, (char *)key, (char *)value) != MPI_SUCCESS)
		die("%s: cannot set the info key '%s'", p->name, key);
}

/* Does process b continue the run of process a, the one before it: the
 * same component, both indexed, and b's index one above a's?  (A process
 * without an index is a run of its own; a[0] has an index.) */
static int
same_run(const struct lproc *a, const struct lproc *b)
{
	return strcmp(a->component, b->component) == 0 && a->indexed && b->indexed &&
	    (long long)b->index == (long long)a->index + 1;
}

/* The port table of process r (wire.h). */
static void
table(const struct loader *l, struct wire_buf *b, int r)
{
	const struct lproc	*p = &l->procs[r];
	const struct lproc	*procs = l->procs;
	int			 t, k, i, n, start;
	int			 fail = 0;

	b->len = 0;
	fail |= wire_put_int(b, WIRE_MAGIC);
	fail |= wire_put_int(b, r);
	fail |= wire_put_int(b, l->nprocs);
	fail |= wire_put_int(b, l->flags);
	fail |= wire_put_str(b, p->name);
	fail |= wire_put_str(b, p->component);
	fail |= wire_put_int(b, p->indexed);
	fail |= wire_put_int(b, p->index);
	fail |= wire_put_int(b, p->ntypes);
	for (t = 0; t < p->ntypes; t++) {
		fail |= wire_put_str(b, p->types[t]);
		fail |= wire_put_int(b, p->nports[t]);
		for (k = 0; k < p->nports[t]; k++) {
			fail |= wire_put_int(b, p->peer[p->portbase[t] + k]);
			fail |= wire_put_int(b, p->tag[p->portbase[t] + k]);
			fail |= wire_put_int(b, p->rtag[p->portbase[t] + k]);
		}
	}
	fail |= wire_put_int(b, l->nparams);
	for (i = 0; i < l->nparams; i++) {
		fail |= wire_put_str(b, l->pnames[i]);
		fail |= wire_put_str(b, l->pvalues[i]);
	}
	fail |= wire_put_int(b, p->argc);
	for (i = 0; i < p->argc; i++)
		fail |= wire_put_str(b, p->argv[i]);
	/* Runs of processes with one component and consecutive indices. */
	for (n = 0, i = 0; i < l->nprocs; i++)
		if (i == 0 || !same_run(&procs[i - 1], &procs[i]))
			n++;
	fail |= wire_put_int(b, n);
	for (start = 0, i = 1; i <= l->nprocs; i++) {
		if (i < l->nprocs && same_run(&procs[i - 1], &procs[i]))
			continue;
		fail |= wire_put_str(b, procs[start].component);
		fail |= wire_put_int(b, procs[start].indexed);
		fail |= wire_put_int(b, start);
		fail |= wire_put_int(b, procs[start].index);
		fail |= wire_put_int(b, i - start);
		start = i;
	}
	fail |= wire_put_str(b, l->flags & WIRE_CHECK_PROTOCOL ? p->behaviour : "");
	n = l->flags & WIRE_CHECK_PROTOCOL ? p->nlocs : 0;
	fail |= wire_put_int(b, n);
	for (i = 0; i < n; i++)
		fail |= wire_put_str(b, p->locs[i]);
	if (l->flags & WIRE_TRACE)
		fail |= wire_put_str(b, l->origin_s);
	if (fail) {
		fprintf(stderr, "ensemble-loader: out of memory for a port table\n");
		MPI_Abort(MPI_COMM_WORLD, 4);
	}
}

/* Wait for one message of 'tag' from each process that has not sent it,
 * polling gently (a blocking receive would spin a core the components
 * need); mark each sender with c. */
static void
gather(struct loader *l, int tag, char c)
{
	MPI_Request	req;
	MPI_Status	st;
	int		got = 0, flag, who, rc;
	long		sleep_ns = 20000;

	while (got < l->nprocs) {
		mpi_check(MPI_Irecv(&who, 1, MPI_INT, MPI_ANY_SOURCE, tag, l->inter, &req),
		    "MPI_Irecv");
		for (;;) {
			rc = MPI_Test(&req, &flag, &st);
			mpi_check(rc, "MPI_Test");
			if (flag)
				break;
			struct timespec	ts = { 0, sleep_ns };
			nanosleep(&ts, NULL);
			if (sleep_ns < 2000000)
				sleep_ns += sleep_ns / 4;
		}
		sleep_ns = 20000;
		if (st.MPI_SOURCE >= 0 && st.MPI_SOURCE < l->nprocs &&
		    l->status[st.MPI_SOURCE] != c) {
			l->status[st.MPI_SOURCE] = c;
			got++;
		}
	}
}

/* The command line into l's options. */
static void
parse_options(struct loader *l, int argc, char **argv)
{
	int	i;

	l->spawn_timeout = -1;
	l->wire_timeout = 60;
	l->stdin_rank = -1;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--check-protocol") == 0)
			l->flags |= WIRE_CHECK_PROTOCOL;
		else if (strcmp(argv[i], "--spawn-timeout") == 0 && i + 1 < argc)
			l->spawn_timeout = atoi(argv[++i]) > 0 ? atoi(argv[i]) : 0;
		else if (strcmp(argv[i], "--wire-timeout") == 0 && i + 1 < argc)
			l->wire_timeout = atoi(argv[++i]);
		else if (strcmp(argv[i], "--trace") == 0 && i + 1 < argc) {
			l->trace_path = argv[++i];
			l->flags |= WIRE_TRACE;
		} else if (strcmp(argv[i], "--stdin") == 0 && i + 2 < argc) {
			l->stdin_rank = atoi(argv[++i]);
			l->stdin_path = argv[++i];
		}
		else if (l->graph == NULL && (argv[i][0] != '-' || strcmp(argv[i], "-") == 0))
			l->graph = argv[i];
		else
			usage();
	}
	if (l->graph == NULL || l->spawn_timeout == 0 || l->wire_timeout <= 0)
		usage();
}

/* SIGUSR1 says where the loader is, SIGALRM is the watchdog. */
static void
set_signals(void)
{
	struct sigaction	sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
}

/* Whether p's environment can travel in Open MPI's 'env' info key: its
 * entries joined by newlines, so none may hold a newline, and within
 * MPI's limit on a value's length. */
static int
env_fits(const struct lproc *p)
{
	size_t	len = 0;
	int	k;

	for (k = 0; k < p->nenv; k++) {
		if (strchr(p->env[k], '\n') != NULL)
			return 0;
		len += strlen(p->env[k]) + (k > 0);
	}
	return len < MPI_MAX_INFO_VAL;
}

/* Each process's MPI_Info for the spawn: its host, wdir and env; an env
 * the key cannot carry is set by ensemble-exec instead (spawn). */
static void
make_infos(struct loader *l)
{
	struct buf	b;
	int		i, k;

	l->infos = xcalloc((size_t)l->nprocs, sizeof(*l->infos));
	for (i = 0; i < l->nprocs; i++) {
		struct lproc	*p = &l->procs[i];

		MPI_Info_create(&l->infos[i]);
		if (p->host[0] != '\0')
			info_set(l->infos[i], p, "host", p->host);
		if (p->wdir[0] != '\0')
			info_set(l->infos[i], p, "wdir", p->wdir);
		/* Every process starts through ensemble-exec, which puts
		 * /dev/null on its standard input (Open MPI 4.1 gives the
		 * spawned job's first process one that never ends: the stdin
		 * of mpirun goes to the loader, and the 'ompi_stdin_target'
		 * info key crashes mpirun), or --stdin's FIFO. */
		if (i == l->stdin_rank)
			p->stdin_path = l->stdin_path;
		if (p->nenv > 0 && !env_fits(p))
			p->exec_env = 1;
		if (p->nenv > 0 && !p->exec_env) {
			buf_init(&b);
			for (k = 0; k < p->nenv; k++)
				buf_printf(&b, "%s%s", k ? "\n" : "", p->env[k]);
			info_set(l->infos[i], p, "env", b.s);
			buf_free(&b);
		}
	}
}

/* The argv (without argv[0]) that starts process p through the
 * EXEC_NAME: its name, "--stdin" and its stdin's path if it
 * has one, the count of the environment entries it sets (those the 'env'
 * info key cannot carry), the entries, its executable and its arguments; a
 * new array, the count a new string (caller frees both, not the other
 * strings). */
static char **
exec_argv(const struct lproc *p)
{
	char	**v;
	int	  n = 0, k, nenv = p->exec_env ? p->nenv : 0;

	v = xcalloc((size_t)nenv + (size_t)p->argc + 6, sizeof(*v));
	v[n++] = p->name;
	if (p->stdin_path != NULL) {
		v[n++] = (char *)"--stdin";
		v[n++] = (char *)p->stdin_path;
	}
	xasprintf(&v[n++], "%d", nenv);
	for (k = 0; k < nenv; k++)
		v[n++] = p->env[k];
	v[n++] = p->path;
	for (k = 0; k < p->argc; k++)
		v[n++] = p->argv[k];
	return v;
}

/* The first visit: spawn every process, with its argv and info, in one
 * MPI_Comm_spawn_multiple.  0; or -1, said, when it failed. */
static int
spawn(struct loader *l)
{
	char		**cmds, ***argvs, buf[64], self[PATH_MAX], *slash, *exec;
	int		 *maxprocs, *errs, i, n, rc;
	ssize_t		  len;

	len = readlink("/proc/self/exe", self, sizeof(self));
	if (len <= 0 || (size_t)len == sizeof(self))
		die("cannot find my own executable: %s", len <= 0 ?
		    strerror(errno) : strerror(ENAMETOOLONG));
	self[len] = '\0';
	if ((slash = strrchr(self, '/')) != NULL)
		*slash = '\0';
	xasprintf(&exec, "%s/%s", self, EXEC_NAME);
	if (access(exec, X_OK) != 0)
		die("cannot run '%s': %s", exec, strerror(errno));
	cmds = xcalloc((size_t)l->nprocs, sizeof(*cmds));
	argvs = xcalloc((size_t)l->nprocs, sizeof(*argvs));
	maxprocs = xcalloc((size_t)l->nprocs, sizeof(*maxprocs));
	errs = xcalloc((size_t)l->nprocs, sizeof(*errs));
	for (i = 0; i < l->nprocs; i++) {
		const struct lproc	*p = &l->procs[i];

		cmds[i] = exec;
		argvs[i] = exec_argv(p);
		maxprocs[i] = 1;
	}
	if (l->spawn_timeout < 0)
		l->spawn_timeout = 60 + l->nprocs / 10;
	clock_gettime(CLOCK_REALTIME, &l->origin);
	snprintf(l->origin_s, sizeof(l->origin_s), "%lld.%09ld",
	    (long long)l->origin.tv_sec, l->origin.tv_nsec);
	watch(l, PHASE_SPAWNING, l->spawn_timeout);
	rc = MPI_Comm_spawn_multiple(l->nprocs, cmds, argvs, maxprocs, l->infos, 0,
	    MPI_COMM_SELF, &l->inter, errs);
	unwatch();
	if (rc != MPI_SUCCESS) {
		char	s[MPI_MAX_ERROR_STRING];

		MPI_Error_string(rc, s, &n);
		for (i = 0; i < l->nprocs && errs[i] != MPI_SUCCESS; i++)
			;
		fprintf(stderr, "ensemble-loader: MPI_Comm_spawn_multiple failed: %s\n", s);
		if (i < l->nprocs)
			for (i = 0; i < l->nprocs; i++)
				if (errs[i] != MPI_SUCCESS)
					fprintf(stderr, "ensemble-loader: %s ('%s') did not"
					    " start\n", l->procs[i].name, l->procs[i].path);
		for (i = 0, n = 0; i < l->nprocs; i++)
			if (l->procs[i].host[0] != '\0' && n++ < 5)
				fprintf(stderr, "ensemble-loader: %s is placed on host '%s';"
				    " Open MPI must know every such host (from"
				    " --hostfile or the allocation)\n", l->procs[i].name,
				    l->procs[i].host);
	} else {
		MPI_Comm_set_errhandler(l->inter, MPI_ERRORS_RETURN);
		l->t1 = clock_now();
		snprintf(buf, sizeof(buf), "%sspawned %.6f\n", WIRE_MARK, l->t1 - l->t0);
		say(buf);
	}
	for (i = 0; i < l->nprocs; i++) {
		free(argvs[i][l->procs[i].stdin_path != NULL ? 3 : 1]);
		free(argvs[i]);
	}
	free(exec);
	free(cmds);
	free(argvs);
	free(maxprocs);
	free(errs);
	return rc == MPI_SUCCESS ? 0 : -1;
}

/* The second visit: send each process its port table, and wait until
 * every one has set its interface. */
static void
wire(struct loader *l)
{
	MPI_Request	*reqs;
	struct wire_buf	*tables;
	char		 buf[64];
	int		 i;

	watch(l, PHASE_WIRING, l->wire_timeout);
	tables = xcalloc((size_t)l->nprocs, sizeof(*tables));
	reqs = xcalloc((size_t)l->nprocs, sizeof(*reqs));
	for (i = 0; i < l->nprocs; i++) {
		table(l, &tables[i], i);
		mpi_check(MPI_Isend(tables[i].p, (int)tables[i].len, MPI_BYTE, i,
		    WIRE_TAG_TABLE, l->inter, &reqs[i]), "sending a port table");
	}
	gather(l, WIRE_TAG_HELLO, 'h');
	mpi_check(MPI_Waitall(l->nprocs, reqs, MPI_STATUSES_IGNORE),
	    "sending the port tables");
	unwatch();
	l->t2 = clock_now();
	snprintf(buf, sizeof(buf), "%swired %.6f\n", WIRE_MARK, l->t2 - l->t1);
	say(buf);
	for (i = 0; i < l->nprocs; i++)
		free(tables[i].p);
	free(tables);
	free(reqs);
}

/* The run with --trace: receive each process's trace chunks and its done
 * message, polling gently as gather does, until every process is done. */
static void
gather_traced(struct loader *l)
{
	MPI_Status	 st;
	char		*chunk = xmalloc(WIRE_TRACE_CHUNK), *cause = NULL;
	int		 got = 0, flag, n, who, src;
	long		 sleep_ns = 20000;

	while (got < l->nprocs) {
		mpi_check(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, l->inter, &flag,
		    &st), "MPI_Iprobe");
		if (!flag) {
			struct timespec	ts = { 0, sleep_ns };

			nanosleep(&ts, NULL);
			if (sleep_ns < 2000000)
				sleep_ns += sleep_ns / 4;
			continue;
		}
		sleep_ns = 20000;
		src = st.MPI_SOURCE;
		if (st.MPI_TAG == WIRE_TAG_TRACE) {
			mpi_check(MPI_Get_count(&st, MPI_BYTE, &n), "MPI_Get_count");
			if (n < 0 || n > WIRE_TRACE_CHUNK)
				n = WIRE_TRACE_CHUNK;
			mpi_check(MPI_Recv(chunk, n, MPI_BYTE, src, WIRE_TAG_TRACE,
			    l->inter, MPI_STATUS_IGNORE), "receiving a trace");
			if (ltrace_chunk(l->trace, src, chunk, (size_t)n,
			    &cause) != 0) {
				fprintf(stderr, "ensemble-loader: %s\n", cause);
				MPI_Abort(MPI_COMM_WORLD, 4);
				exit(4);
			}
		} else {
			mpi_check(MPI_Recv(&who, 1, MPI_INT, src, st.MPI_TAG,
			    l->inter, MPI_STATUS_IGNORE), "MPI_Recv");
			if (st.MPI_TAG == WIRE_TAG_DONE && src >= 0 &&
			    src < l->nprocs && l->status[src] != 'd') {
				l->status[src] = 'd';
				got++;
			}
		}
	}
	free(chunk);
}

/* Format a realtime as ISO 8601 UTC. */
static char *
iso(time_t t)
{
	struct tm	tm;
	char		buf[64];

	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return xstrdup(buf);
}

/* Write the trace file: the header from the graph, the streams merged. */
static void
write_trace(struct loader *l)
{
	struct trace_hdr	*h = trace_hdr_new();
	char			*cause = NULL;
	int			 i, t, k;
	size_t			 np = 0;

	if ((h->script = pcgdot_text(attr(l->G, PCGDOT_SCRIPT))) == NULL)
		h->script = xstrdup("?");
	h->application = xstrdup(attr(l->G, PCGDOT_APPLICATION));
	h->date = iso(time(NULL));
	h->nparams = (size_t)l->nparams;
	h->params = xcalloc((size_t)l->nparams + 1, sizeof(*h->params));
	for (i = 0; i < l->nparams; i++) {
		h->params[i].name = xstrdup(l->pnames[i]);
		h->params[i].value = xstrdup(l->pvalues[i]);
	}
	h->start = iso(l->origin.tv_sec);
	h->nprocs = l->nprocs;
	h->ncomms = 2;
	h->comms = xcalloc(2, sizeof(*h->comms));
	h->comms[0].name = xstrdup("world");
	h->comms[0].size = l->nprocs;
	h->comms[1].name = xstrdup("other");
	h->comms[1].size = 0;
	h->processes = xcalloc((size_t)l->nprocs, sizeof(*h->processes));
	for (i = 0; i < l->nprocs; i++) {
		h->processes[i].name = xstrdup(l->procs[i].name);
		h->processes[i].component = xstrdup(l->procs[i].component);
		for (t = 0; t < l->procs[i].ntypes; t++)
			np += (size_t)l->procs[i].nports[t];
	}
	h->ports = xcalloc(np + 1, sizeof(*h->ports));
	for (i = 0; i < l->nprocs; i++) {
		const struct lproc	*p = &l->procs[i];

		for (t = 0; t < p->ntypes; t++)
			for (k = 0; k < p->nports[t]; k++) {
				struct trace_port *q = &h->ports[h->nports++];

				q->rank = i;
				q->type = xstrdup(p->types[t]);
				q->index = k + 1;
				q->peer = p->peer[p->portbase[t] + k];
			}
	}
	if (ltrace_write(l->trace, h, l->trace_path, &cause) != 0) {
		fprintf(stderr, "ensemble-loader: cannot write the trace '%s': "
		    "%s\n", l->trace_path, cause);
		free(cause);
		trace_hdr_free(h);
		ltrace_free(l->trace);
		l->trace = NULL;
		MPI_Finalize();
		exit(4);
	}
	trace_hdr_free(h);
	ltrace_free(l->trace);
	l->trace = NULL;
}

/* The run: until every process has said it is done; then disconnect. */
static void
run(struct loader *l)
{
	char	buf[64];

	l->phase = PHASE_RUNNING;
	if (l->trace != NULL)
		gather_traced(l);
	else
		gather(l, WIRE_TAG_DONE, 'd');
	watch(l, PHASE_DISCONNECTING, 60);
	mpi_check(MPI_Comm_disconnect(&l->inter), "MPI_Comm_disconnect");
	unwatch();
	if (l->trace != NULL)
		write_trace(l);
	snprintf(buf, sizeof(buf), "%sdone %.6f\n", WIRE_MARK, clock_now() - l->t2);
	say(buf);
}

/* Free what l holds. */
static void
loader_free(struct loader *l)
{
	struct lproc	*p;
	int		 i, k;

	for (i = 0; i < l->nprocs; i++) {
		p = &l->procs[i];
		if (l->infos != NULL)
			MPI_Info_free(&l->infos[i]);
		for (k = 0; k < p->argc; k++)
			free(p->argv[k]);
		free(p->argv);
		for (k = 0; k < p->nenv; k++)
			free(p->env[k]);
		free(p->env);
		for (k = 0; k < p->ntypes; k++)
			free(p->types[k]);
		free(p->types);
		free(p->nports);
		free(p->portbase);
		free(p->peer);
		free(p->tag);
		free(p->rtag);
		free(p->name);
		free(p->path);
		free(p->wdir);
		free(p->host);
		free(p->behaviour);
		for (k = 0; k < p->nlocs; k++)
			free(p->locs[k]);
		free(p->locs);
	}
	for (i = 0; i < l->nparams; i++) {
		free(l->pnames[i]);
		free(l->pvalues[i]);
	}
	free(l->pnames);
	free(l->pvalues);
	free(l->procs);
	free(l->infos);
	free(l->status);
	if (l->G != NULL)
		agclose(l->G);
}

int
main(int argc, char **argv)
{
	struct loader	*l = &L;
	int		 size;

	parse_options(l, argc, argv);
	set_signals();
	if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
		fprintf(stderr, "ensemble-loader: MPI_Init failed\n");
		return 4;
	}
	MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size != 1)
		die("run me as one process ('mpirun -np 1'), not %d", size);
	l->t0 = clock_now();
	read_graph(l);
	check_execs(l);
	l->status = xmalloc((size_t)l->nprocs + 1);
	memset(l->status, '.', (size_t)l->nprocs);
	l->status[l->nprocs] = '\0';
	make_infos(l);
	if (l->trace_path != NULL) {
		char	*cause = NULL;

		if ((l->trace = ltrace_new(l->nprocs, &cause)) == NULL)
			die("%s", cause);
	}
	if (spawn(l) != 0) {
		MPI_Finalize();
		return 4;
	}
	wire(l);
	run(l);
	loader_free(l);
	MPI_Finalize();
	return 0;
}
