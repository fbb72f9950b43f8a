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

static void failure_lines_free(struct failure_lines *);

/* Write the lines gathered to b in style st, runs alike folded, and
 * free them. */
static void
failure_lines_write(struct failure_lines *l, const struct run *R,
    const struct fold_style *st, struct buf *b)
{
	fold_lines(b, R->g, l->it, (int)l->n, st, 1);
	failure_lines_free(l);
}

/* Forget the lines gathered. */
static void
failure_lines_free(struct failure_lines *l)
{
	size_t	k;

	for (k = 0; k < l->n; k++) {
		free((char *)l->it[k].tag);
		free((char *)l->it[k].what);
		free((char *)l->it[k].runwhat);
		free((int *)l->it[k].peers);
		free((char **)l->it[k].notes);
	}
	free(l->it);
	memset(l, 0, sizeof(*l));
}

/* Write the lines gathered to stderr, indented, runs of min or more
 * alike folded, and free them. */
static void
failure_lines_flush(struct failure_lines *l, const struct run *R,
    const char *indent, int min)
{
	struct fold_style	st = { indent, ": ", ": ", min };
	struct buf		b;

	buf_init(&b);
	buf_adds(&b, "");
	failure_lines_write(l, R, &st, &b);
	fputs(b.s, stderr);
	buf_free(&b);
}

/* The text of process r's blocked call, as the deadlock report says it:
 * "'ens_send Prop[1]' (dmax.pcg:36:32)", the call and its port (a
 * collective's group), and the statement of the behaviour it is at when
 * the protocol check knew it. */
static void
failure_call(const struct run *R, int r, const struct wire_slot *s,
    struct buf *b)
{
	const struct pcg	*g = R->g;
	const struct pcg_comp	*c = &g->comps[g->procs[r].comp];
	char			 gn[PCG_NAME_MAX], **locs = NULL;
	int			 nlocs, k;

	buf_printf(b, "'%s", wire_call_name(s->call));
	if (s->type >= 0 && s->type < c->ntypes && s->port > 0)
		buf_printf(b, " %s[%d]", c->types[s->type], s->port);
	else if (s->type >= 0 && s->type < c->ntypes)
		buf_printf(b, " %s", c->types[s->type]);
	else if (s->wait == WIRE_WAIT_COLL && s->comm == WIRE_COMM_COMP)
		buf_printf(b, " %s", c->name);
	else if (s->wait == WIRE_WAIT_COLL && s->comm >= WIRE_COMM_GROUP &&
	    s->comm - WIRE_COMM_GROUP < g->ngroups)
		buf_printf(b, " %s", pcg_group_name(g, s->comm - WIRE_COMM_GROUP,
		    gn, sizeof(gn)));
	buf_addc(b, '\'');
	nlocs = pcg_behaviour_locs(g, r, &locs);
	if (s->loc >= 0 && s->loc < nlocs && strcmp(locs[s->loc], "-") != 0)
		buf_printf(b, " (%s)", locs[s->loc]);
	for (k = 0; k < nlocs; k++)
		free(locs[k]);
	free(locs);
}

/* Process r's name, with its host when the run spans several. */
static void
failure_who(const struct run *R, int r, int hosts, struct buf *b)
{
	buf_adds(b, R->p[r].name);
	if (hosts)
		buf_printf(b, " (host %s)", launch_host_of(&R->p[r]));
}

/* The wait of d as a line about its process (pcg/fold.h): "waits in
 * 'ens_send Prop[1]' (...) for relay[2]", the ended ones marked, as the
 * verifier writes a wait (mpnet/report.c); with next >= 0, the wait for
 * that process alone (a cycle's next).  With hosts, the process's host
 * as its tag. */
static void
failure_wait_item(struct failure_lines *l, const struct run *R,
    const struct wdead *d, int next, int hosts)
{
	struct fold_item	*it;
	struct buf		 b;
	const char		**notes;
	int			*peers, n = next >= 0 ? 1 : d->nwaits, k;

	xgrow(&l->it, &l->alloc, l->n + 1, sizeof(*l->it));
	it = &l->it[l->n++];
	memset(it, 0, sizeof(*it));
	it->proc = d->proc;
	if (hosts)
		xasprintf((char **)&it->tag, " (host %s)",
		    launch_host_of(&R->p[d->proc]));
	buf_init(&b);
	buf_adds(&b, "waits in ");
	failure_call(R, d->proc, &d->slot, &b);
	buf_adds(&b, " for ");
	it->what = buf_steal(&b);
	buf_free(&b);
	peers = xcalloc((size_t)n + 1, sizeof(int));
	notes = xcalloc((size_t)n + 1, sizeof(*notes));
	for (k = 0; k < n; k++) {
		peers[k] = next >= 0 ? next : d->waits[k];
		if (R->ended_mask[peers[k]])
			notes[k] = " (ended)";
	}
	it->peers = peers;
	it->npeers = n;
	it->notes = notes;
	it->conj = d->any ? " or " : " and ";
}

/* The blocked-for-good entry of process r, or NULL. */
static const struct wdead *
failure_dead_of(const struct run *R, int r)
{
	int	i;

	for (i = 0; i < R->ndead; i++)
		if (R->dead[i].proc == r)
			return &R->dead[i];
	return NULL;
}

/* A cycle of waits among the processes blocked for good, into cyc (at
 * most R->ndead, from its least rank on): its length, 0 when every wait
 * ends at ended processes. */
static int
failure_cycle(const struct run *R, int *cyc)
{
	const struct wdead	*d;
	int			*at = xcalloc((size_t)R->n + 1, sizeof(int));
	int			 i, k, n, len = 0, least, start;

	for (i = 0; i < R->ndead && len == 0; i++) {
		memset(at, 0, (size_t)R->n * sizeof(int));
		for (n = 0, d = &R->dead[i]; d != NULL; ) {
			if (at[d->proc] > 0) {
				/* Back where it was: the cycle is from there. */
				start = at[d->proc] - 1;
				len = n - start;
				memmove(cyc, cyc + start, (size_t)len * sizeof(int));
				break;
			}
			at[d->proc] = n + 1;
			cyc[n++] = d->proc;
			for (k = 0; k < d->nwaits; k++)
				if (failure_dead_of(R, d->waits[k]) != NULL)
					break;
			d = k < d->nwaits ? failure_dead_of(R, d->waits[k]) : NULL;
		}
	}
	free(at);
	if (len == 0)
		return 0;
	for (least = 0, i = 1; i < len; i++)
		if (cyc[i] < cyc[least])
			least = i;
	for (i = 0; i < least; i++) {
		k = cyc[0];
		memmove(cyc, cyc + 1, (size_t)(len - 1) * sizeof(int));
		cyc[len - 1] = k;
	}
	return len;
}

/* The watch found processes blocked for good and stopped the run: say who
 * waits for whom, in the words of the verifier's report (mpnet/report.c)
 * and folded as it folds (pcg/fold.h): a cycle of waits as one sentence,
 * or its runs alike a line each ("ring[1..999]: each waits in ... for the
 * next one, a cycle of 999"), then each other process's wait; with no
 * cycle, those that wait only for ended processes, as an orphan receive,
 * an unmatched send or a collective others ended without. */
void
failure_deadlock(struct run *R)
{
	static const struct fold_style	st = { "  ", " ", ": each ", 0 };
	struct failure_lines		 l;
	struct buf			 msg, det, t;
	const struct wdead		*d;
	int		*cyc = xcalloc((size_t)R->ndead + 1, sizeof(int));
	int		*roots = xcalloc((size_t)R->ndead + 1, sizeof(int));
	int		*next = xcalloc((size_t)R->n + 1, sizeof(int));
	unsigned char	*said = xcalloc((size_t)R->n + 1, 1);
	int		 len, i, k, hosts = 0, nroots = 0, sends = 0, colls = 0;

	memset(&l, 0, sizeof(l));
	buf_init(&msg);
	buf_init(&det);
	buf_adds(&det, "");
	for (i = 1; i < R->n; i++)
		if (strcmp(launch_host_of(&R->p[i]), launch_host_of(&R->p[0])) != 0)
			hosts = 1;
	if ((len = failure_cycle(R, cyc)) > 0) {
		buf_adds(&msg, "deadlock: ");
		if (len == 1)
			buf_printf(&msg, "%s waits for itself", R->p[cyc[0]].name);
		else {
			fold_procs(&msg, R->g, cyc, len, " and ");
			buf_adds(&msg, " wait for each other");
		}
		/* The cycle in the script's order, each waiting for its next:
		 * folded when a run of it folds, else one sentence. */
		for (i = 0; i < R->n; i++)
			next[i] = -1;
		for (k = 0; k < len; k++) {
			next[cyc[k]] = cyc[(k + 1) % len];
			said[cyc[k]] = 1;
		}
		for (i = 0; i < R->n; i++)
			if (next[i] >= 0)
				failure_wait_item(&l, R, failure_dead_of(R, i),
				    next[i], hosts);
		buf_init(&t);
		buf_adds(&t, "");
		if (fold_lines(&t, R->g, l.it, len, &st, 1) < len)
			buf_adds(&det, t.s);
		else {
			for (k = 0; k < len; k++) {
				if (k == 0) {
					buf_adds(&det, "  ");
					failure_who(R, cyc[0], hosts, &det);
				} else
					buf_adds(&det, ", which");
				buf_adds(&det, " waits in ");
				failure_call(R, cyc[k],
				    &failure_dead_of(R, cyc[k])->slot, &det);
				buf_adds(&det, " for ");
				failure_who(R, cyc[(k + 1) % len], hosts, &det);
			}
			buf_addc(&det, '\n');
		}
		buf_free(&t);
		failure_lines_free(&l);
	} else {
		for (i = 0; i < R->ndead; i++) {
			d = &R->dead[i];
			for (k = 0; k < d->nwaits && R->ended_mask[d->waits[k]]; k++)
				;
			if (k < d->nwaits)
				continue;
			roots[nroots++] = d->proc;
			said[d->proc] = 1;
			sends += wire_call_sends(d->slot.call);
			colls += d->slot.wait == WIRE_WAIT_COLL;
			failure_wait_item(&l, R, d, -1, hosts);
		}
		buf_adds(&msg, colls == nroots ? "collective mismatch: " :
		    sends == nroots ? "unmatched send: " : "orphan receive: ");
		fold_procs(&msg, R->g, roots, nroots, " and ");
		buf_adds(&msg, nroots == 1 ? " waits" : " wait");
		buf_adds(&msg, colls == nroots ? " in a collective that processes"
		    " that ended never reach" : sends == nroots ? " forever to"
		    " send to processes that ended" : " forever for a message"
		    " from processes that ended");
		if (R->ndead > nroots)
			buf_printf(&msg, ", and %d other%s wait%s behind",
			    R->ndead - nroots, R->ndead - nroots == 1 ? "" : "s",
			    R->ndead - nroots == 1 ? "s" : "");
		failure_lines_write(&l, R, &st, &det);
	}
	for (i = 0; i < R->ndead; i++)
		if (!said[R->dead[i].proc])
			failure_wait_item(&l, R, &R->dead[i], -1, hosts);
	failure_lines_write(&l, R, &st, &det);
	fprintf(stderr, "ensemble: %s: %s; stopped the run\n%s", R->g->name,
	    msg.s, det.s);
	buf_free(&msg);
	buf_free(&det);
	free(cyc);
	free(roots);
	free(next);
	free(said);
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
				peer = watch_peer_of(R, i, type, port);
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
	else if (p->tramp_signal > 0)
		snprintf(buf, len, "its trampoline was killed by signal %d (%s)",
		    p->tramp_signal, strsignal(p->tramp_signal));
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
		R->p[R->culprit].tramp_signal = R->sig_num;
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
			fprintf(stderr, "ensemble: %s: %s was killed by signal %d (%s)\n",
			    R->g->name, R->L->cmd, WTERMSIG(status),
			    strsignal(WTERMSIG(status)));
		else
			fprintf(stderr, "ensemble: %s: %s exited with status %d\n",
			    R->g->name, R->L->cmd, WEXITSTATUS(status));
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
		else if (p->tramp_signal > 0)
			fprintf(stderr, "lost its trampoline: ensemble-exec, which ran"
			    " it, was killed by signal %d (%s), and the component"
			    " with it\n", p->tramp_signal,
			    strsignal(p->tramp_signal));
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
