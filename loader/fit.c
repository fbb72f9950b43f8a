/* fit.c -- whether a run's processes fit the slots they are given
 * (launch-int.h): the allocation read (a hostfile, Slurm's, this
 * machine: alloc.h), every placed process's host found in it, and a run
 * that cannot fit refused in ensemble's words, before anything starts. */
#include "config.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc-hostfile.h"
#include "alloc-machine.h"
#include "alloc-slurm.h"
#include "launch-int.h"

/* The largest -np whose processes fit in slots (launch_opts.scale_fit),
 * or -1: none, or no way to tell. */
static int64_t
fit_np(const struct launch_opts *o, int slots)
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
fit_check(struct run *R)
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
		if ((np = fit_np(o, a->slots)) > 0)
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
		if ((np = fit_np(o, a->slots)) > 0)
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
