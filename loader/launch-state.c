/* launch-state.c -- what the four files of a run's watch (launch-int.h)
 * ask of its state: where a process runs, that the run has failed and who
 * failed it, the peer on a process's port and whether a process is blocked
 * for good, and closing a descriptor once.  Kept apart from launch.c so
 * that fit.c, runfiles.c, demux.c and failure.c need only this of the
 * watch. */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "launch-int.h"

/* Where process p runs, as reports name it. */
const char *
launch_host_of(const struct rproc *p)
{
	return p->host != NULL ? p->host : "unknown";
}

/* The run has failed, process who (-1: none of them) first if no one
 * was named before: the time of the first failure is kept. */
void
launch_mark_failed(struct run *R, int who)
{
	if (R->fail_at == 0)
		R->fail_at = clock_now();
	if (R->culprit < 0 && who >= 0)
		R->culprit = who;
}

/* The process at the other end of process r's port "Type index", or -1. */
int
launch_peer_of(const struct run *R, int r, const char *type, int index)
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
		return -1;
	if ((ci = g->portchan[slot + index - 1]) < 0)
		return -1;
	ch = &g->chans[ci];
	return ch->e[1 - pcg_chan_end(ch, r, t, index)].proc;
}

/* Process r said where it is (its answer to SIGUSR1): blocked in a call
 * on a port whose peer has called ens_finalize, and in the same call when
 * asked before, having run WIRE_WATCH_CPU between the two answers (so
 * polling for the message: not one taking a message the peer sent before
 * it finalized, nor one the machine gave no processor to), it is blocked
 * for good, which fails the run now, as a death does (a finalized process
 * takes and sends nothing more). */
void
launch_blocked_for_good(struct run *R, int r)
{
	struct rproc	*p = &R->p[r];
	char		 call[64], type[256], pn[PCG_NAME_MAX];
	int		 port, q;

	if (p->forgood != NULL || p->finalized || p->seq < 0 ||
	    p->seq != p->seq_before || p->ran_before == 0 ||
	    p->ran < p->ran_before + WIRE_WATCH_CPU ||
	    sscanf(p->state, "%63s %255s %d", call, type, &port) != 3 ||
	    port < 1 || (q = launch_peer_of(R, r, type, port)) < 0 ||
	    !R->p[q].finalized)
		return;
	xasprintf(&p->forgood, "%s (component %s, host %s) is blocked for good"
	    " in '%s %s[%d]': its peer %s has called ens_finalize", p->name,
	    p->component, launch_host_of(p), call, type, port,
	    pcg_proc_name(R->g, q, pn, sizeof(pn)));
	launch_mark_failed(R, r);
}

/* Close *fd if it is open, and mark it closed. */
void
launch_close_fd(int *fd)
{
	if (*fd >= 0) {
		close(*fd);
		*fd = -1;
	}
}

/* Whether every host the processes may run on is this machine. */
int
launch_all_local(const struct run *R)
{
	int	i;

	for (i = 0; R->alloc.kind != ALLOC_LOCAL && i < R->alloc.nhosts; i++)
		if (!R->alloc.hosts[i].local)
			return 0;
	return 1;
}
