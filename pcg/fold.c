/* fold.c -- reports about many processes, folded (fold.h): lists of
 * processes as ranges in the script's order, and runs of lines alike as
 * one line, their peers said by their distance. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "xmalloc.h"

/* Whether two borrowed strings (NULL: none) are the same. */
static int
fold_same(const char *a, const char *b)
{
	return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* For qsort: process numbers ascending, the script's order. */
static int
fold_cmp(const void *a, const void *b)
{
	int	x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

/* Whether process q is the next of one component after p, by index. */
static int
fold_next(const struct pcg *g, int p, int q)
{
	const struct pcg_proc	*pp = &g->procs[p], *qp = &g->procs[q];

	return pp->comp == qp->comp && g->comps[pp->comp].indexed == 1 &&
	    qp->index == pp->index + 1;
}

/* "comp[a..b]" of the processes first .. last of one component. */
static void
fold_range(struct buf *b, const struct pcg *g, int first, int last)
{
	buf_printf(b, "%s[%" PRId64 "..%" PRId64 "]",
	    g->comps[g->procs[first].comp].name, g->procs[first].index,
	    g->procs[last].index);
}

/* The end of the part of the sorted list p that starts at i: a run of
 * FOLD_MIN or more, or the process alone. */
static int
fold_part(const struct pcg *g, const int *p, int i, int n)
{
	int	j;

	for (j = i + 1; j < n && fold_next(g, p[j - 1], p[j]); j++)
		;
	return j - i < FOLD_MIN ? i + 1 : j;
}

void
fold_procs(struct buf *b, const struct pcg *g, const int *procs, int n,
    const char *conj)
{
	int	*p = xcalloc((size_t)n + 1, sizeof(int)), i, j, k = 0, parts = 0;
	char	 pn[PCG_NAME_MAX];

	memcpy(p, procs, sizeof(int) * (size_t)n);
	qsort(p, (size_t)n, sizeof(int), fold_cmp);
	/* The parts first, to know which is the last. */
	for (i = 0; i < n; i = fold_part(g, p, i, n), parts++)
		;
	for (i = 0; i < n; i = j, k++) {
		j = fold_part(g, p, i, n);
		if (k > 0)
			buf_adds(b, k == parts - 1 ? conj : ", ");
		if (j - i > 1)
			fold_range(b, g, p[i], p[j - 1]);
		else
			buf_adds(b, pcg_proc_name(g, p[i], pn, sizeof(pn)));
	}
	free(p);
}

/* How a run's items name their m-th peer. */
struct fold_rel {
	int	abs_ok;		/* the same process for every item: abs */
	int	abs;
	int	rel_ok;		/* at distance d by index, same component */
	int64_t	d;
	int	wrap_first;	/* the first item's peer is the run's last
				 * (d = -1 around the cycle) */
};

/* Whether items a and b may be in one run, but for their peers. */
static int
fold_alike(const struct pcg *g, const struct fold_item *a,
    const struct fold_item *b)
{
	int	m;

	if (!fold_same(a->tag, b->tag) || !fold_same(a->what, b->what) ||
	    !fold_same(a->runwhat, b->runwhat) ||
	    !fold_same(a->post, b->post) || !fold_same(a->conj, b->conj) ||
	    a->npeers != b->npeers)
		return 0;
	for (m = 0; m < a->npeers; m++)
		if (!fold_same(a->notes != NULL ? a->notes[m] : NULL,
		    b->notes != NULL ? b->notes[m] : NULL))
			return 0;
	return g->procs[a->proc].comp == g->procs[b->proc].comp;
}

/* The distance by index from p to q of one component, in *d; 0 when they
 * are of different components. */
static int
fold_dist(const struct pcg *g, int p, int q, int64_t *d)
{
	if (g->procs[p].comp != g->procs[q].comp)
		return 0;
	*d = g->procs[q].index - g->procs[p].index;
	return 1;
}

/* The run that starts at items[i] (fold.h): its length, each peer's
 * relation in rel, and whether it wraps around (*cycle).  1 when no run
 * of min or more starts there. */
static int
fold_run(const struct pcg *g, const struct fold_item *it, int i, int n,
    int min, struct fold_rel *rel, int *cycle)
{
	const struct fold_item	*a = &it[i];
	int64_t			 d, last = -1;
	int			 j, m, end = 0, wrap = 0;

	*cycle = 0;
	if (i + 1 >= n || !fold_next(g, a->proc, it[i + 1].proc) ||
	    !fold_alike(g, a, &it[i + 1]))
		return 1;
	/* The relations as the second item has them (the first may wrap). */
	for (m = 0; m < a->npeers; m++) {
		memset(&rel[m], 0, sizeof(rel[m]));
		rel[m].abs_ok = 1;
		rel[m].abs = it[i + 1].peers[m];
		rel[m].rel_ok = fold_dist(g, it[i + 1].proc, it[i + 1].peers[m],
		    &rel[m].d);
		if (a->peers[m] != rel[m].abs)
			rel[m].abs_ok = 0;
		if (rel[m].rel_ok && (!fold_dist(g, a->proc, a->peers[m], &d) ||
		    d != rel[m].d)) {
			/* Around the cycle: the first waits for the last. */
			if (rel[m].d == -1 && fold_dist(g, a->proc, a->peers[m], &d) &&
			    d > 0 && (last < 0 || last == g->procs[a->peers[m]].index)) {
				rel[m].wrap_first = 1;
				last = g->procs[a->peers[m]].index;
			} else
				rel[m].rel_ok = 0;
		}
		if (!rel[m].abs_ok && !rel[m].rel_ok)
			return 1;
	}
	for (j = i + 2; j < n && !end; j++) {
		const struct fold_item	*b = &it[j];
		int			 ok = 1, ends = 0;

		if (!fold_next(g, it[j - 1].proc, b->proc) || !fold_alike(g, a, b))
			break;
		for (m = 0; m < a->npeers && ok; m++) {
			int	abs_ok = rel[m].abs_ok && b->peers[m] == rel[m].abs;
			int	rel_ok = rel[m].rel_ok &&
				    fold_dist(g, b->proc, b->peers[m], &d) &&
				    d == rel[m].d;

			/* Around the cycle: the last waits for the first. */
			if (!abs_ok && !rel_ok && rel[m].rel_ok && rel[m].d == 1 &&
			    b->peers[m] == a->proc)
				rel_ok = ends = 1;
			ok = abs_ok || rel_ok;
			if (ok && !abs_ok)
				rel[m].abs_ok = 0;
			if (ok && !rel_ok)
				rel[m].rel_ok = 0;
		}
		if (!ok)
			break;
		if (ends) {
			wrap = 1;
			end = 1;
		}
		if (last >= 0 && g->procs[b->proc].index == last) {
			j++;
			break;
		}
	}
	if (last >= 0) {
		/* The run must end at the process the first waits for. */
		if (g->procs[it[j - 1].proc].index != last)
			return 1;
		wrap = 1;
	}
	if (j - i < min)
		return 1;
	*cycle = wrap;
	return j - i;
}

/* A peer of a run, by its relation: "master", "the previous one". */
static void
fold_rel_text(struct buf *b, const struct pcg *g, const struct fold_rel *r)
{
	char	pn[PCG_NAME_MAX];

	if (r->rel_ok && r->d == 0)
		buf_adds(b, "itself");
	else if (r->rel_ok && r->d == -1)
		buf_adds(b, "the previous one");
	else if (r->rel_ok && r->d == 1)
		buf_adds(b, "the next one");
	else if (r->rel_ok)
		buf_printf(b, "the one %" PRId64 " %s", r->d < 0 ? -r->d : r->d,
		    r->d < 0 ? "before" : "after");
	else
		buf_adds(b, pcg_proc_name(g, r->abs, pn, sizeof(pn)));
}

/* The peers of item a (rel: a run's relations; NULL: a's own peers). */
static void
fold_peers(struct buf *b, const struct pcg *g, const struct fold_item *a,
    const struct fold_rel *rel)
{
	char	pn[PCG_NAME_MAX];
	int	m;

	for (m = 0; m < a->npeers; m++) {
		if (m > 0)
			buf_adds(b, m == a->npeers - 1 && a->conj != NULL ?
			    a->conj : ", ");
		if (rel != NULL)
			fold_rel_text(b, g, &rel[m]);
		else
			buf_adds(b, pcg_proc_name(g, a->peers[m], pn, sizeof(pn)));
		if (a->notes != NULL && a->notes[m] != NULL)
			buf_adds(b, a->notes[m]);
	}
}

int
fold_lines(struct buf *b, const struct pcg *g, const struct fold_item *it,
    int n, const struct fold_style *st, int fold)
{
	struct fold_rel	*rel = NULL;
	char		 pn[PCG_NAME_MAX];
	int		 i, len, cycle, lines = 0, most = 0;

	for (i = 0; i < n; i++)
		if (it[i].npeers > most)
			most = it[i].npeers;
	rel = xcalloc((size_t)most + 1, sizeof(*rel));
	for (i = 0; i < n; i += len, lines++) {
		const struct fold_item	*a = &it[i];

		len = fold ? fold_run(g, it, i, n, st->min > 0 ? st->min :
		    FOLD_MIN, rel, &cycle) : 1;
		buf_adds(b, st->indent);
		if (len > 1)
			fold_range(b, g, a->proc, it[i + len - 1].proc);
		else
			buf_adds(b, pcg_proc_name(g, a->proc, pn, sizeof(pn)));
		if (a->tag != NULL)
			buf_adds(b, a->tag);
		buf_adds(b, len > 1 ? st->runsep : st->sep);
		buf_adds(b, len > 1 && a->runwhat != NULL ? a->runwhat : a->what);
		fold_peers(b, g, a, len > 1 ? rel : NULL);
		if (len > 1 && cycle)
			buf_printf(b, ", a cycle of %d", len);
		if (a->post != NULL)
			buf_adds(b, a->post);
		buf_addc(b, '\n');
	}
	free(rel);
	return lines;
}
