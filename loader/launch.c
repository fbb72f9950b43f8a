/* launch.c -- 'ensemble run' after verification: start 'mpirun -np 1
 * ensemble-loader -' with the graph on its standard input, pass every
 * component's output through, and watch.  Open MPI tags each forwarded
 * line with its writer's job and rank ("[2,3]<stderr>:"), so a line is
 * known to come from the loader (job 1) or from process 3 (the spawned
 * job); marker lines (runtime/wire.h) are consumed, the rest passed on.
 * When something fails the report names the process and how it ended,
 * with its last lines on stderr, and holds back the noise of the others
 * being stopped; --timeout asks every process where it is (SIGUSR1, which
 * mpirun forwards) before stopping them.  Open MPI's own messages are
 * read for exit codes and signals and otherwise shown only when nothing
 * else explains a failure.  No process is left behind: this process is a
 * child subreaper, so whatever mpirun leaves is ours to stop. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>

#include "launch.h"
#include "pcgdot.h"
#include "wire.h"
#include "xmalloc.h"

#define TAIL_LINES	10
#define STOP_GRACE	4.0	/* seconds from a failure to SIGTERM */
#define KILL_GRACE	3.0	/* from SIGTERM to SIGKILL */
#define STATE_WAIT	2.0	/* for the answers to SIGUSR1 */
#define ORPHAN_GRACE	2.0	/* from the loader's "done" to stopping strays */

/* A process of the application as the run sees it. */
struct rproc {
	char		 name[PCG_NAME_MAX];
	const char	*component;
	char		*host;		/* from its hello */
	int		 hello;
	char		*fail;		/* its fail marker's message */
	int		 signal;
	int		 exited_early;	/* without ens_finalize */
	int		 exit_code;	/* from mpirun; -1 unknown */
	char		*state;		/* its answer to SIGUSR1 */
	char		*tail[TAIL_LINES];
	int		 ntail;		/* lines seen */
	struct buf	 part[2];	/* a line in pieces: stdout, stderr */
};

struct run {
	const struct pcg	*g;
	const struct launch_opts *o;
	struct rproc		*p;
	int			 n;
	struct buf		 lpart[2];	/* the loader's */
	double			 spawned, wired, ran;
	int			 done;
	double			 done_at;
	char			*status;	/* the loader's answer to SIGUSR1 */
	int			 loader_failed;
	char			**mlines;	/* mpirun's own lines */
	size_t			 nmlines, amlines;
	int			 culprit;	/* the first process that failed */
	int			 exit_proc;	/* mpirun's "Process name" */
	int			 sig_rank, sig_num;
	double			 fail_at;	/* when a failure was first seen */
	int			 timed_out;
};

static volatile sig_atomic_t interrupted;

static double
now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void
on_interrupt(int sig)
{
	interrupted = sig;
}

Agraph_t *
launch_graph(const struct pcg *g, char *const *paths)
{
	Agraph_t	*G = pcg_graph(g);
	Agsym_t		*a_rank, *a_path, *a_at;
	Agnode_t	*v;
	struct buf	 b, t;
	char		 pn[PCG_NAME_MAX], num[32];
	int		 i;

	a_rank = agattr(G, AGNODE, (char *)PCGDOT_RANK, (char *)"");
	a_path = agattr(G, AGNODE, (char *)PCGDOT_PATH, (char *)"");
	a_at = agattr(G, AGNODE, (char *)PCGDOT_BEHAVIOUR_AT, (char *)"");
	buf_init(&b);
	buf_init(&t);
	for (i = 0; i < g->nprocs; i++) {
		v = agnode(G, (char *)pcg_proc_name(g, i, pn, sizeof(pn)), 0);
		snprintf(num, sizeof(num), "%d", i);
		agxset(v, a_rank, num);
		buf_reset(&t);
		pcgdot_put_text(&t, paths[i]);
		agxset(v, a_path, t.s);
		pcg_behaviour_locs(g, i, &b);
		buf_reset(&t);
		pcgdot_put_text(&t, b.s);
		agxset(v, a_at, t.s);
	}
	buf_free(&t);
	buf_reset(&b);
	buf_adds(&b, "");
	for (i = 0; i < g->nparams; i++)
		buf_printf(&b, "%s%s=%" PRId64, i ? " " : "", g->params[i].name,
		    g->params[i].value);
	agattr(G, AGRAPH, (char *)PCGDOT_PARAMS, b.s);
	buf_free(&b);
	return G;
}

/* "[J,R]<stdout>:" at s: its length, with *job, *rank and *err (stderr or
 * stddiag) set; 0 when s does not start with a tag. */
static size_t
tag_at(const char *s, int *job, int *rank, int *err)
{
	const char	*p = s;
	long		 j, r;
	char		*end;

	if (*p++ != '[')
		return 0;
	j = strtol(p, &end, 10);
	if (end == p || *end != ',')
		return 0;
	p = end + 1;
	r = strtol(p, &end, 10);
	if (end == p || *end != ']' || j < 0 || r < 0 || j > 1000000 || r > 100000000)
		return 0;
	p = end + 1;
	if (strncmp(p, "<stdout>:", 9) == 0)
		*err = 0;
	else if (strncmp(p, "<stderr>:", 9) == 0 || strncmp(p, "<stddiag>:", 10) == 0)
		*err = 1;
	else
		return 0;
	*job = (int)j;
	*rank = (int)r;
	return (size_t)(p - s) + (p[4] == 'd' && p[5] == 'i' ? 10 : 9);
}

static const char *
host_of(const struct rproc *p)
{
	return p->host != NULL ? p->host : "unknown";
}

static void
mark_failed(struct run *R, int who)
{
	if (R->fail_at == 0)
		R->fail_at = now();
	if (R->culprit < 0 && who >= 0)
		R->culprit = who;
}

/* A marker line from process r. */
static void
proc_marker(struct run *R, int r, const char *m)
{
	struct rproc	*p = &R->p[r];

	if (strncmp(m, "hello ", 6) == 0) {
		p->hello = 1;
		free(p->host);
		p->host = xstrdup(m + 6);
	} else if (strncmp(m, "fail ", 5) == 0) {
		if (p->fail == NULL)
			p->fail = xstrdup(m + 5);
		mark_failed(R, r);
	} else if (strncmp(m, "signal ", 7) == 0) {
		p->signal = atoi(m + 7);
		mark_failed(R, r);
	} else if (strcmp(m, "exit") == 0) {
		p->exited_early = 1;
		mark_failed(R, r);
	} else if (strncmp(m, "state ", 6) == 0) {
		free(p->state);
		p->state = xstrdup(m + 6);
	}
}

/* A whole line from the application's process r. */
static void
proc_line(struct run *R, int r, int err, const char *s)
{
	struct rproc	*p;

	if (r >= R->n)
		return;
	p = &R->p[r];
	if (strncmp(s, WIRE_MARK, strlen(WIRE_MARK)) == 0) {
		proc_marker(R, r, s + strlen(WIRE_MARK));
		return;
	}
	if (!err) {
		fputs(s, stdout);
		fputc('\n', stdout);
		return;
	}
	free(p->tail[p->ntail % TAIL_LINES]);
	p->tail[p->ntail % TAIL_LINES] = xstrdup(s);
	p->ntail++;
	/* Once one process failed, the others' last words are collateral. */
	if (R->fail_at == 0 || R->culprit == r || R->timed_out) {
		fputs(s, stderr);
		fputc('\n', stderr);
	}
}

/* A whole line from the loader. */
static void
loader_line(struct run *R, int err, const char *s)
{
	const char	*m;

	if (strncmp(s, WIRE_MARK, strlen(WIRE_MARK)) == 0) {
		m = s + strlen(WIRE_MARK);
		if (strncmp(m, "spawned ", 8) == 0)
			R->spawned = atof(m + 8);
		else if (strncmp(m, "wired ", 6) == 0)
			R->wired = atof(m + 6);
		else if (strncmp(m, "done ", 5) == 0) {
			R->ran = atof(m + 5);
			R->done = 1;
			R->done_at = now();
		} else if (strncmp(m, "status ", 7) == 0) {
			free(R->status);
			R->status = xstrdup(m + 7);
		}
		return;
	}
	if (err) {
		R->loader_failed = 1;
		mark_failed(R, -1);
	}
	fputs(s, err ? stderr : stdout);
	fputc('\n', err ? stderr : stdout);
}

/* One of mpirun's own lines: keep it, and learn what it says of exits. */
static void
mpirun_line(struct run *R, const char *s)
{
	int	j, r, code, pid;
	char	node[256];

	xgrow(&R->mlines, &R->amlines, R->nmlines + 1, sizeof(char *));
	R->mlines[R->nmlines++] = xstrdup(s);
	while (*s == ' ')
		s++;
	if (sscanf(s, "Process name: [[%*d,%d],%d]", &j, &r) == 2)
		R->exit_proc = j >= 2 && r < R->n ? r : -1;
	else if (sscanf(s, "Exit code: %d", &code) == 1 && R->exit_proc >= 0) {
		R->p[R->exit_proc].exit_code = code;
		mark_failed(R, R->exit_proc);
	} else if (sscanf(s, "mpirun noticed that process rank %d with PID %d on node"
	    " %255s exited on signal %d", &r, &pid, node, &code) == 4) {
		R->sig_rank = r;
		R->sig_num = code;
		mark_failed(R, -1);
	}
}

/* Split one line of mpirun's output into its tagged pieces. */
static void
on_line(struct run *R, char *line)
{
	char	*p = line, *q, *seg;
	int	 job, rank, err, j2, r2, e2;
	size_t	 len, len2 = 0;

	if ((len = tag_at(p, &job, &rank, &err)) == 0) {
		mpirun_line(R, line);
		return;
	}
	while (len > 0) {
		seg = p + len;
		/* A piece without a newline is followed by the next tag. */
		for (q = seg; (q = strchr(q, '[')) != NULL; q++)
			if ((len2 = tag_at(q, &j2, &r2, &e2)) > 0)
				break;
		struct buf *part = job == 1 ? &R->lpart[err] :
		    rank < R->n ? &R->p[rank].part[err] : NULL;
		if (part != NULL)
			buf_add(part, seg, q != NULL ? (size_t)(q - seg) : strlen(seg));
		if (q == NULL && part != NULL) {
			buf_adds(part, "");
			if (job == 1)
				loader_line(R, err, part->s);
			else
				proc_line(R, rank, err, part->s);
			buf_reset(part);
		}
		if (q == NULL)
			break;
		p = q;
		len = len2;
		job = j2;
		rank = r2;
		err = e2;
	}
}

/* Read what is there on fd into acc and handle each whole line; at EOF
 * the rest too.  0, or -1 at EOF. */
static int
drain(struct run *R, int fd, struct buf *acc)
{
	char	 chunk[65536], *nl, *start;
	ssize_t	 n;
	size_t	 used;

	n = read(fd, chunk, sizeof(chunk));
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (n <= 0) {
		if (acc->len > 0) {
			buf_adds(acc, "");
			on_line(R, acc->s);
			buf_reset(acc);
		}
		return -1;
	}
	buf_add(acc, chunk, (size_t)n);
	buf_adds(acc, "");
	start = acc->s;
	while ((nl = strchr(start, '\n')) != NULL) {
		*nl = '\0';
		on_line(R, start);
		start = nl + 1;
	}
	used = (size_t)(start - acc->s);
	memmove(acc->s, start, acc->len - used + 1);
	acc->len -= used;
	return 0;
}

/* The peer of process r's port "Type index", or NULL. */
static const char *
peer_name(const struct run *R, int r, const char *type, int index, char *buf, size_t len)
{
	const struct pcg	*g = R->g;
	const struct pcg_proc	*p = &g->procs[r];
	const struct pcg_comp	*c = &g->comps[p->comp];
	const struct pcg_chan	*ch;
	int			 t, slot = p->portbase, ci;

	for (t = 0; t < c->ntypes; t++) {
		if (strcmp(c->types[t], type) == 0)
			break;
		slot += p->nports[t];
	}
	if (t == c->ntypes || index < 1 || index > p->nports[t])
		return NULL;
	if ((ci = g->portchan[slot + index - 1]) < 0)
		return NULL;
	ch = &g->chans[ci];
	return pcg_proc_name(g, ch->e[0].proc == r && ch->e[0].type == t &&
	    ch->e[0].port == index ? ch->e[1].proc : ch->e[0].proc, buf, len);
}

/* Where each process was when --timeout stopped the run. */
static void
report_timeout(struct run *R)
{
	char	 call[64], type[256], pn[PCG_NAME_MAX];
	int	 i, port, n;
	const char *ph = R->status != NULL ? R->status : NULL;
	size_t	 plen = ph != NULL ? strcspn(ph, " ") : 0;
	const char *chars = ph != NULL && ph[plen] == ' ' ? ph + plen + 1 : "";

	fprintf(stderr, "ensemble: %s: the run did not end within %g s (--timeout);"
	    " stopped it\n", R->g->name, R->o->timeout);
	if (ph != NULL && plen > 0 && strncmp(ph, "running", plen) != 0)
		fprintf(stderr, "  the loader was %.*s\n", (int)plen, ph);
	for (i = 0; i < R->n; i++) {
		struct rproc	*p = &R->p[i];
		int		 isdone = (int)strlen(chars) > i && chars[i] == 'd';

		fprintf(stderr, "  %s", p->name);
		if (p->host != NULL)
			fprintf(stderr, " (host %s)", p->host);
		fputs(": ", stderr);
		if (p->state == NULL)
			fputs(isdone ? "finished\n" : p->hello ? "did not answer\n" :
			    "never called ens_init\n", stderr);
		else if (strcmp(p->state, "finalize") == 0 || isdone)
			fputs("finished (in ens_finalize or after)\n", stderr);
		else if (strcmp(p->state, "-") == 0)
			fputs("running, not in a port call\n", stderr);
		else if (strcmp(p->state, "ens_init") == 0)
			fputs("in ens_init, waiting for the other processes to start\n",
			    stderr);
		else if ((n = sscanf(p->state, "%63s %255s %d", call, type, &port)) == 3) {
			const char *peer = port > 0 ?
			    peer_name(R, i, type, port, pn, sizeof(pn)) : NULL;

			if (port > 0)
				fprintf(stderr, "blocked in '%s %s[%d]'", call, type, port);
			else
				fprintf(stderr, "blocked in '%s %s'", call, type);
			if (peer != NULL)
				fprintf(stderr, " (peer %s)", peer);
			fputc('\n', stderr);
		} else
			fprintf(stderr, "blocked in '%s'\n", p->state);
	}
}

/* Say which process failed and how, with its last lines on stderr. */
static void
report_failure(struct run *R, int status)
{
	struct rproc	*p;
	int		 i, k, first;
	size_t		 j;

	if (R->culprit < 0 && R->sig_num > 0) {
		/* mpirun names a rank, not a job: the process with that rank,
		 * unless the loader failed. */
		if (!R->loader_failed && R->sig_rank < R->n) {
			R->culprit = R->sig_rank;
			R->p[R->culprit].signal = R->sig_num;
		}
	}
	if (R->culprit < 0)
		for (i = 0; i < R->n; i++)
			if (R->p[i].exit_code > 0 || R->p[i].exited_early) {
				R->culprit = i;
				break;
			}
	if (R->culprit < 0) {
		if (R->loader_failed) {
			/* It said why; before the spawn ended, Open MPI may say
			 * more (a host it does not know). */
			if (R->o->verbose || R->spawned == 0)
				for (j = 0; j < R->nmlines; j++)
					fprintf(stderr, "%s\n", R->mlines[j]);
			return;
		}
		/* Nothing explains it: show what mpirun said. */
		for (j = 0; j < R->nmlines; j++)
			fprintf(stderr, "%s\n", R->mlines[j]);
		if (WIFSIGNALED(status))
			fprintf(stderr, "ensemble: %s: mpirun was killed by signal %d (%s)\n",
			    R->g->name, WTERMSIG(status), strsignal(WTERMSIG(status)));
		else
			fprintf(stderr, "ensemble: %s: mpirun exited with status %d\n",
			    R->g->name, WEXITSTATUS(status));
		return;
	}
	p = &R->p[R->culprit];
	if (p->fail != NULL)
		fprintf(stderr, "ensemble: %s\n", p->fail);
	else if (p->signal > 0)
		fprintf(stderr, "ensemble: %s (component %s, host %s) was killed by signal"
		    " %d (%s)\n", p->name, p->component, host_of(p), p->signal,
		    strsignal(p->signal));
	else if (p->exit_code > 0)
		fprintf(stderr, "ensemble: %s (component %s, host %s) exited with status"
		    " %d%s\n", p->name, p->component, host_of(p), p->exit_code,
		    p->exited_early ? " without calling ens_finalize" : "");
	else
		fprintf(stderr, "ensemble: %s (component %s, host %s) exited without"
		    " calling ens_finalize\n", p->name, p->component, host_of(p));
	if (p->ntail > 0) {
		first = p->ntail > TAIL_LINES ? p->ntail - TAIL_LINES : 0;
		fprintf(stderr, "  last lines of its stderr:\n");
		for (k = first; k < p->ntail; k++)
			fprintf(stderr, "    %s\n", p->tail[k % TAIL_LINES]);
	}
	if (R->o->verbose)
		for (j = 0; j < R->nmlines; j++)
			fprintf(stderr, "%s\n", R->mlines[j]);
}

/* Stop and reap our children but 'keep' (mpirun while it runs, else 0):
 * what the run left behind, reparented to us, its subreaper.  The number
 * of processes stopped. */
static int
sweep(pid_t self, pid_t keep)
{
	DIR		*d;
	struct dirent	*de;
	char		 path[300], buf[512], *rp;
	FILE		*f;
	int		 round, found, n = 0;
	long		 ppid;
	pid_t		 pid;

	for (round = 0; round < 40; round++) {
		found = 0;
		if ((d = opendir("/proc")) == NULL)
			return n;
		while ((de = readdir(d)) != NULL) {
			if (de->d_name[0] < '1' || de->d_name[0] > '9')
				continue;
			snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
			if ((f = fopen(path, "r")) == NULL)
				continue;
			pid = (pid_t)atol(de->d_name);
			if (fgets(buf, sizeof(buf), f) != NULL &&
			    (rp = strrchr(buf, ')')) != NULL &&
			    sscanf(rp + 2, "%*c %ld", &ppid) == 1 && ppid == (long)self &&
			    pid != keep) {
				kill(pid, SIGKILL);
				waitpid(pid, NULL, 0);
				found = 1;
				n++;
			}
			fclose(f);
		}
		closedir(d);
		if (!found)
			break;
	}
	return n;
}

/* Close one of mpirun's output pipes, which leaves the loop one fewer to
 * read. */
static void
close_pipe(struct pollfd *p, int *open_fds)
{
	close(p->fd);
	p->fd = -1;
	(*open_fds)--;
}

/* Put the environment Open MPI needs for the user: running as root, and
 * on one machine more processes than cores, and only the transports one
 * machine uses (shared memory, and TCP between the loader and the
 * components): probing UCX, OFI and PSM costs every process a third of
 * its start-up (bench/run.sh).  What the user set is kept. */
static void
set_env(const struct launch_opts *o)
{
	if (geteuid() == 0) {
		setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);
		setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
	}
	if (o->hostfile == NULL && getenv("SLURM_JOB_ID") == NULL) {
		setenv("OMPI_MCA_rmaps_base_oversubscribe", "1", 0);
		setenv("OMPI_MCA_pml", "ob1", 0);
		setenv("OMPI_MCA_btl", "self,vader,tcp", 0);
		setenv("OMPI_MCA_mtl", "^ofi,psm,psm2", 0);
		setenv("OMPI_MCA_osc", "^ucx", 0);
	}
}

int
launch_run(const struct pcg *g, Agraph_t *G, const struct launch_opts *o)
{
	struct run	 R;
	struct buf	 acc[2];
	struct pollfd	 pfd[3];
	struct sigaction sa, old_int, old_term;
	char		*dot = NULL, *argv[16];
	size_t		 dotlen = 0, sent = 0;
	FILE		*mem;
	int		 in[2], out[2], err[2], status = 0, argc = 0, open_fds, i, rc;
	int		 reaped = 0, usr1_sent = 0, term_sent = 0, kill_sent = 0;
	pid_t		 pid;
	double		 t0, usr1_at = 0, term_at = 0, reaped_at = 0, swept_at = 0;

	memset(&R, 0, sizeof(R));
	R.g = g;
	R.o = o;
	R.n = g->nprocs;
	R.culprit = -1;
	R.exit_proc = -1;
	R.p = xcalloc((size_t)R.n, sizeof(*R.p));
	for (i = 0; i < R.n; i++) {
		pcg_proc_name(g, i, R.p[i].name, sizeof(R.p[i].name));
		R.p[i].component = g->comps[g->procs[i].comp].name;
		R.p[i].exit_code = -1;
		buf_init(&R.p[i].part[0]);
		buf_init(&R.p[i].part[1]);
	}
	buf_init(&R.lpart[0]);
	buf_init(&R.lpart[1]);
	buf_init(&acc[0]);
	buf_init(&acc[1]);

	if ((mem = open_memstream(&dot, &dotlen)) == NULL || agwrite(G, mem) != 0 ||
	    fclose(mem) != 0) {
		fprintf(stderr, "ensemble: cannot write the graph for the loader\n");
		return 2;
	}

	argv[argc++] = (char *)o->mpirun;
	argv[argc++] = (char *)"-np";
	argv[argc++] = (char *)"1";
	argv[argc++] = (char *)"--tag-output";
	if (o->hostfile != NULL) {
		argv[argc++] = (char *)"--hostfile";
		argv[argc++] = (char *)o->hostfile;
	}
	argv[argc++] = (char *)o->loader;
	if (o->check_protocol)
		argv[argc++] = (char *)"--check-protocol";
	argv[argc++] = (char *)"-";
	argv[argc] = NULL;

	set_env(o);
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	if (pipe(in) != 0 || pipe(out) != 0 || pipe(err) != 0) {
		fprintf(stderr, "ensemble: pipe: %s\n", strerror(errno));
		return 2;
	}
	fflush(stdout);
	fflush(stderr);
	t0 = now();
	if ((pid = fork()) < 0) {
		fprintf(stderr, "ensemble: fork: %s\n", strerror(errno));
		return 2;
	}
	if (pid == 0) {
		dup2(in[0], STDIN_FILENO);
		dup2(out[1], STDOUT_FILENO);
		dup2(err[1], STDERR_FILENO);
		close(in[0]); close(in[1]);
		close(out[0]); close(out[1]);
		close(err[0]); close(err[1]);
		execv(o->mpirun, argv);
		fprintf(stderr, "ensemble: cannot run '%s': %s\n", o->mpirun, strerror(errno));
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	close(err[1]);
	fcntl(in[1], F_SETFL, O_NONBLOCK);
	signal(SIGPIPE, SIG_IGN);
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_interrupt;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);

	pfd[0].fd = out[0];
	pfd[1].fd = err[0];
	pfd[2].fd = in[1];
	open_fds = 2;
	while (open_fds > 0 || !reaped) {
		double	t;
		int	nfds = pfd[2].fd >= 0 ? 3 : 2;

		pfd[0].events = pfd[1].events = POLLIN;
		pfd[2].events = POLLOUT;
		rc = poll(pfd, (nfds_t)nfds, 100);
		if (rc > 0) {
			for (i = 0; i < 2; i++)
				if (pfd[i].fd >= 0 && (pfd[i].revents & (POLLIN | POLLHUP | POLLERR)) &&
				    drain(&R, pfd[i].fd, &acc[i]) < 0)
					close_pipe(&pfd[i], &open_fds);
			if (pfd[2].fd >= 0 && (pfd[2].revents & (POLLOUT | POLLERR | POLLHUP))) {
				ssize_t	w = write(pfd[2].fd, dot + sent, dotlen - sent);

				if (w > 0)
					sent += (size_t)w;
				if ((w < 0 && errno != EAGAIN && errno != EINTR) || sent == dotlen) {
					close(pfd[2].fd);
					pfd[2].fd = -1;
				}
			}
		}
		t = now();
		if (!reaped && waitpid(pid, &status, WNOHANG) == pid) {
			reaped = 1;
			reaped_at = t;
		}
		if (reaped) {
			/* Read what is left in the pipes; a process mpirun left
			 * behind may hold them open: stop it after a while. */
			if (t - reaped_at > KILL_GRACE && open_fds > 0) {
				sweep(getpid(), 0);
				for (i = 0; i < 2; i++)
					if (pfd[i].fd >= 0) {
						while (poll(&pfd[i], 1, 100) > 0 &&
						    drain(&R, pfd[i].fd, &acc[i]) == 0)
							;
						close_pipe(&pfd[i], &open_fds);
					}
			}
			continue;
		}
		/* Every component has finished, yet mpirun waits: for the
		 * output of processes a component left behind, which are now
		 * ours.  Stop them. */
		if (R.done && t - R.done_at >= ORPHAN_GRACE && t - swept_at >= 1.0) {
			int	k = sweep(getpid(), pid);

			swept_at = t;
			if (k > 0)
				fprintf(stderr, "ensemble: %s: stopped %d process%s the"
				    " components left behind\n", g->name, k,
				    k == 1 ? "" : "es");
		}
		if (interrupted && !term_sent) {
			kill(pid, SIGTERM);
			term_sent = 1;
			term_at = t;
		}
		if (o->timeout > 0 && !usr1_sent && t - t0 >= o->timeout) {
			R.timed_out = 1;
			kill(pid, SIGUSR1);
			usr1_sent = 1;
			usr1_at = t;
		}
		if (usr1_sent && !term_sent) {
			int	answered = R.status != NULL;

			for (i = 0; i < R.n && answered; i++)
				answered = R.p[i].state != NULL;
			if (answered || t - usr1_at >= STATE_WAIT) {
				kill(pid, SIGTERM);
				term_sent = 1;
				term_at = t;
			}
		}
		if (R.fail_at > 0 && !term_sent && t - R.fail_at >= STOP_GRACE) {
			kill(pid, SIGTERM);
			term_sent = 1;
			term_at = t;
		}
		if (term_sent && !kill_sent && t - term_at >= KILL_GRACE) {
			kill(pid, SIGKILL);
			kill_sent = 1;
		}
	}
	if (pfd[2].fd >= 0)
		close(pfd[2].fd);
	sweep(getpid(), 0);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	fflush(stdout);

	if (interrupted) {
		fprintf(stderr, "ensemble: %s: interrupted; stopped every process\n", g->name);
		rc = 128 + interrupted;
	} else if (R.timed_out) {
		report_timeout(&R);
		rc = 3;
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && R.done &&
	    R.fail_at == 0) {
		fprintf(stderr, "ensemble: %s: %d process%s ran in %.2f s (spawn %.3f s,"
		    " wiring %.3f s, run %.3f s)\n", g->name, R.n, R.n == 1 ? "" : "es",
		    now() - t0, R.spawned, R.wired, R.ran);
		rc = 0;
	} else {
		if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && R.nmlines > 0 &&
		    strncmp(R.mlines[0], "ensemble: cannot run", 20) == 0) {
			fprintf(stderr, "%s\n", R.mlines[0]);
			rc = 2;
		} else if (R.loader_failed && R.culprit < 0 && R.spawned == 0 &&
		    WIFEXITED(status) && WEXITSTATUS(status) == 2) {
			/* The loader refused the graph before spawning (it said
			 * why): bad input, like a missing executable. */
			rc = 2;
		} else {
			report_failure(&R, status);
			rc = 1;
		}
	}

	for (i = 0; i < R.n; i++) {
		int	k;

		free(R.p[i].host);
		free(R.p[i].fail);
		free(R.p[i].state);
		for (k = 0; k < TAIL_LINES; k++)
			free(R.p[i].tail[k]);
		buf_free(&R.p[i].part[0]);
		buf_free(&R.p[i].part[1]);
	}
	for (size_t j = 0; j < R.nmlines; j++)
		free(R.mlines[j]);
	free(R.mlines);
	free(R.p);
	free(R.status);
	buf_free(&R.lpart[0]);
	buf_free(&R.lpart[1]);
	buf_free(&acc[0]);
	buf_free(&acc[1]);
	free(dot);
	return rc;
}
