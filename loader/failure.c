/* failure.c -- what 'ensemble run' says when a run fails (launch-int.h):
 * which process failed and how, with its last lines on stderr and a
 * table of how every process ended; where each process was when
 * --timeout stopped the run; which processes never joined when the start
 * watchdog fired; and what mpirun said, when nothing else explains it. */
#include "config.h"

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "fold.h"
#include "launch-int.h"

/* Lines about the processes, gathered to be written folded (pcg/fold.h):
 * the items, and the strings and peers they own. */
struct failure_lines {
	struct fold_item	*it;
	size_t			 n, alloc;
};

/* Add a line about process r: its host as the tag (host: "unknown" when
 * not known; NULL: none), what (taken over), and with peer >= 0,
 * " (peer NAME)" after it. */
static void
failure_line(struct failure_lines *l, int r, const char *host, char *what,
    int peer)
{
	struct fold_item	*it;
	int			*pp;

	xgrow(&l->it, &l->alloc, l->n + 1, sizeof(*l->it));
	it = &l->it[l->n++];
	memset(it, 0, sizeof(*it));
	it->proc = r;
	if (host != NULL)
		xasprintf((char **)&it->tag, " (host %s)", host);
	it->what = what;
	if (peer >= 0) {
		pp = xcalloc(1, sizeof(int));
		*pp = peer;
		it->peers = pp;
		it->npeers = 1;
		xasprintf((char **)&it->runwhat, "%s: ", what);
		xasprintf((char **)&it->what, "%s ", what);
		free(what);
		it->post = ")";
	}
}

/* Write the lines gathered to stderr, indented, runs of min or more
 * alike folded, and free them. */
static void
failure_lines_flush(struct failure_lines *l, const struct run *R,
    const char *indent, int min)
{
	struct fold_style	st = { indent, ": ", ": ", min };
	struct buf		b;
	size_t			k;

	buf_init(&b);
	buf_adds(&b, "");
	fold_lines(&b, R->g, l->it, (int)l->n, &st, 1);
	fputs(b.s, stderr);
	buf_free(&b);
	for (k = 0; k < l->n; k++) {
		free((char *)l->it[k].tag);
		free((char *)l->it[k].what);
		free((char *)l->it[k].runwhat);
		free((int *)l->it[k].peers);
	}
	free(l->it);
	memset(l, 0, sizeof(*l));
}

/* Where each process was when --timeout stopped the run, those alike on
 * one line ("stencil[1..64] (host vm): blocked in 'ens_ssend Left[1]'
 * (peer: the previous one, a cycle of 64)"). */
void
failure_timeout(struct run *R)
{
	struct failure_lines	 l;
	char			 call[64], type[256], *what;
	int			 i, port, peer;

	memset(&l, 0, sizeof(l));
	fprintf(stderr, "ensemble: %s: the run did not end within %g s (--timeout);"
	    " stopped it\n", R->g->name, R->o->timeout);
	for (i = 0; i < R->n; i++) {
		struct rproc	*p = &R->p[i];
		int		 isdone = p->ended && p->finalized;

		peer = -1;
		if (p->state == NULL && !p->hello && p->entered)
			what = xstrdup("in ens_init, waiting for the other processes"
			    " to start");
		else if (p->state == NULL)
			what = xstrdup(isdone ? "finished" : p->hello ?
			    "did not answer" : "never called ens_init");
		else if (strcmp(p->state, WIRE_WORD_FINALIZE) == 0 || isdone)
			what = xstrdup("finished (in ens_finalize or after)");
		else if (strcmp(p->state, "-") == 0)
			what = xstrdup("running, not in a port call");
		else if (strcmp(p->state, "ens_init") == 0)
			what = xstrdup("in ens_init, waiting for the other processes"
			    " to start");
		else if (sscanf(p->state, "%63s %255s %d", call, type, &port) == 3) {
			if (port > 0) {
				xasprintf(&what, "blocked in '%s %s[%d]' (peer",
				    call, type, port);
				peer = launch_peer_of(R, i, type, port);
				if (peer < 0)
					what[strlen(what) - 6] = '\0';
			} else
				xasprintf(&what, "blocked in '%s %s'", call, type);
		} else
			xasprintf(&what, "blocked in '%s'", p->state);
		failure_line(&l, i, p->host, what, peer);
	}
	failure_lines_flush(&l, R, "  ", 0);
}

/* Show what mpirun said, held back until now. */
static void
failure_mpirun_said(const struct run *R)
{
	size_t	j;

	for (j = 0; j < R->nmlines; j++)
		fprintf(stderr, "%s\n", R->mlines[j]);
}

/* The start watchdog fired before every process joined: name each that
 * never called ens_init, from its "init" marker (or its answer to
 * SIGUSR1).  Not from the answer alone: the SIGUSR1 kills the processes
 * that never called ens_init (theirs is the default action), Open MPI
 * then stops the others with SIGTERM, and on a loaded machine that can
 * come before one in ens_init had the processor to answer. */
void
failure_stuck(struct run *R)
{
	struct failure_lines	 l;
	struct rproc		*p;
	int			 i, waiting = 0;

	memset(&l, 0, sizeof(l));
	fprintf(stderr, "ensemble: %s: not every process joined within %g s"
	    " (--start-timeout); stopped it\n", R->g->name, R->start_timeout);
	for (i = 0; i < R->n; i++) {
		p = &R->p[i];
		if (p->hello)
			continue;
		if (p->entered ||
		    (p->state != NULL && strcmp(p->state, "ens_init") == 0)) {
			waiting++;
			continue;
		}
		failure_line(&l, i, p->host, xstrdup("never called ens_init"), -1);
	}
	failure_lines_flush(&l, R, "  ", 0);
	if (waiting > 0)
		fprintf(stderr, "  %d other%s waited in ens_init\n", waiting,
		    waiting == 1 ? "" : "s");
	if (R->o->verbose)
		failure_mpirun_said(R);
}

/* How process r ended, as the failure summary says it: from the
 * trampoline's end marker, whether it joined, and whether the run was
 * already being stopped (a SIGTERM or SIGKILL then is ours). */
static void
failure_how(const struct run *R, int r, char *buf, size_t len)
{
	const struct rproc	*p = &R->p[r];
	const char		*where;

	where = !p->hello ? " before ens_init returned" :
	    p->finalized ? " in ens_finalize or after" : "";
	if (p->cannot != NULL)
		snprintf(buf, len, "could not be started");
	else if (p->loader_signal > 0)
		snprintf(buf, len, "its loader was killed by signal %d (%s)",
		    p->loader_signal, strsignal(p->loader_signal));
	else if (p->fail != NULL)
		snprintf(buf, len, "stopped the run (a misuse or an MPI error)");
	else if (p->forgood != NULL)
		snprintf(buf, len, "blocked for good on a peer that finalized");
	else if (p->ended && p->signal > 0 && r != R->culprit &&
	    (p->signal == SIGTERM || p->signal == SIGKILL))
		snprintf(buf, len, "stopped with the run%s (%s)", where,
		    p->signal == SIGTERM ? "SIGTERM" : "SIGKILL");
	else if (p->signal > 0)
		snprintf(buf, len, "killed by signal %d (%s)%s", p->signal,
		    strsignal(p->signal), where);
	else if (!p->ended && p->exit_code < 0)
		snprintf(buf, len, R->fail_at != 0 && r != R->culprit ?
		    "stopped with the run%s (how it ended was not reported)" :
		    "how it ended was not reported%s", where);
	else if (!p->hello)
		snprintf(buf, len, p->exit_code == 0 ?
		    "exited with status 0 without calling ens_init" :
		    "exited with status %d before ens_init returned", p->exit_code);
	else if (!p->finalized)
		snprintf(buf, len, "exited with status %d without calling "
		    "ens_finalize", p->exit_code < 0 ? 0 : p->exit_code);
	else if (p->exit_code == 0)
		snprintf(buf, len, "finished");
	else
		snprintf(buf, len, "exited with status %d after ens_finalize",
		    p->exit_code);
}
/* The failure summary's table of how every process ended, a run of
 * processes of one component with consecutive indices, one host and one
 * end on one line ("terminal[1..8] (host a): stopped with the run
 * (SIGTERM)"), so that a large run stays short; the first to fail has a
 * line of its own, which says so.  Said only for two processes or more. */
static void
failure_ends(const struct run *R)
{
	struct failure_lines	 l;
	char			 how[160];
	int			 i;

	if (R->n < 2)
		return;
	memset(&l, 0, sizeof(l));
	fputs("  how each process ended:\n", stderr);
	for (i = 0; i < R->n; i++) {
		failure_how(R, i, how, sizeof(how));
		failure_line(&l, i, launch_host_of(&R->p[i]), xstrdup(how), -1);
		if (i == R->culprit)
			l.it[l.n - 1].post = " (the first to fail)";
	}
	failure_lines_flush(&l, R, "    ", 2);
}
/* Say which process failed and how, with its last lines on stderr. */
void
failure_report(struct run *R, int status)
{
	struct rproc	*p;
	char		*path;
	int		 i, k, first;

	if (R->sig_num > 0 && R->sig_rank >= 0 && R->sig_rank < R->n &&
	    !R->p[R->sig_rank].ended && R->p[R->sig_rank].fail == NULL &&
	    (R->culprit < 0 || R->culprit == R->sig_rank ||
	    R->p[R->culprit].signal == SIGTERM ||
	    R->p[R->culprit].signal == SIGKILL)) {
		/* mpirun says the rank ended on a signal, and its trampoline,
		 * which says how its component ended before it ends the same
		 * way, said nothing: the trampoline itself was killed (its
		 * component dies with it).  That, not the processes Open MPI
		 * stopped then (SIGTERM, SIGKILL), is what went wrong; a
		 * failure of another kind known first stays the cause (Open
		 * MPI may drop a trampoline's last words as it stops the
		 * job). */
		R->culprit = R->sig_rank;
		R->p[R->culprit].loader_signal = R->sig_num;
	} else if (R->culprit < 0 && R->sig_num > 0 && R->sig_rank < R->n) {
		/* mpirun names the process by its rank. */
		R->culprit = R->sig_rank;
		R->p[R->culprit].signal = R->sig_num;
	}
	if (R->culprit < 0)
		for (i = 0; i < R->n; i++)
			if (R->p[i].exit_code > 0 || R->p[i].exited_early) {
				R->culprit = i;
				break;
			}
	if (R->culprit < 0) {
		/* Nothing explains it: show what mpirun said. */
		failure_mpirun_said(R);
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
	else if (p->forgood != NULL)
		fprintf(stderr, "ensemble: %s\n", p->forgood);
	else {
		fprintf(stderr, "ensemble: %s (component %s, host %s) ", p->name,
		    p->component, launch_host_of(p));
		if (p->cannot != NULL)
			fprintf(stderr, "could not be started: %s\n", p->cannot);
		else if (p->loader_signal > 0)
			fprintf(stderr, "lost its loader: ensemble-exec, which ran"
			    " it, was killed by signal %d (%s), and the component"
			    " with it\n", p->loader_signal,
			    strsignal(p->loader_signal));
		else if (!p->hello && p->ended && p->signal > 0)
			fprintf(stderr, "was killed by signal %d (%s) before ens_init"
			    " returned\n", p->signal, strsignal(p->signal));
		else if (!p->hello && p->ended && p->exit_code == 0)
			fputs("exited with status 0 without calling ens_init\n", stderr);
		else if (!p->hello && p->ended && p->exit_code > 0)
			fprintf(stderr, "exited with status %d before ens_init returned\n",
			    p->exit_code);
		else if (p->signal > 0)
			fprintf(stderr, "was killed by signal %d (%s)\n", p->signal,
			    strsignal(p->signal));
		else if (p->exit_code > 0)
			fprintf(stderr, "exited with status %d%s\n", p->exit_code,
			    p->exited_early ? " without calling ens_finalize" : "");
		else
			fputs("exited without calling ens_finalize\n", stderr);
	}
	/* The last lines it wrote on stderr, but those passed on to ours
	 * already (a traceback is said once). */
	first = p->ntail > TAIL_LINES ? p->ntail - TAIL_LINES : 0;
	while (first < p->ntail && p->shown[first % TAIL_LINES])
		first++;
	if (first < p->ntail) {
		if (R->o->output_dir != NULL) {
			path = demux_out_path(R, R->culprit, 1);
			fprintf(stderr, "  last lines of its stderr (%s):\n", path);
			free(path);
		} else
			fprintf(stderr, "  last lines of its stderr:\n");
		for (k = first; k < p->ntail; k++)
			if (!p->shown[k % TAIL_LINES])
				fprintf(stderr, "    %s\n",
				    p->tail[k % TAIL_LINES]);
	}
	failure_ends(R);
	if (R->o->verbose)
		failure_mpirun_said(R);
}
