/* test-net.c -- the P/T net (mpnet/net.c) against the reference firing
 * rule (mpnet/sem.c), per model and send mode: both explored in full by a
 * plain breadth-first search, each sem.c state mapped to the marking it
 * stands for.  They agree when the maps hit every reachable marking once
 * and the edge counts are equal; 'ensemble verify --exact' (mpnet_check)
 * must report the same counts, also on a violation (it counts every
 * state).  TAP output.
 *
 * usage: test-net [-np K] [-D NAME=VALUE]... [--max N] FILE... [-- ...]
 * Options apply to the files after them; '--' forgets -np and -D. */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "compile.h"
#include "frontend.h"
#include "net.h"
#include "pcg.h"
#include "sem.h"
#include "xmalloc.h"

static int	tap_n;
static int	failures;

/* A set of fixed-width vectors: a store and an open-addressed table. */
struct vset {
	size_t		 width;		/* bytes per vector */
	unsigned char	*v;
	uint64_t	 n, valloc;
	uint64_t	*tab;		/* index + 1, 0 empty */
	uint64_t	 tsize;
};

static uint64_t
vset_hash(const void *p, size_t len)
{
	const unsigned char	*s = p;
	uint64_t		 h = 1469598103934665603ULL;
	size_t			 i;

	for (i = 0; i < len; i++) {
		h ^= s[i];
		h *= 1099511628211ULL;
	}
	return h ^ (h >> 29);
}

static void
vset_init(struct vset *s, size_t width)
{
	memset(s, 0, sizeof(*s));
	s->width = width;
	s->tsize = 1024;
	s->tab = xcalloc(s->tsize, sizeof(uint64_t));
}

static void
vset_free(struct vset *s)
{
	free(s->v);
	free(s->tab);
}

static const void *
vset_at(const struct vset *s, uint64_t i)
{
	return s->v + i * s->width;
}

/* Index of x; added when add is set (*isnew says so), else -1 if absent. */
static int64_t
vset_find(struct vset *s, const void *x, int add, int *isnew)
{
	uint64_t	h, i, k;

	if (isnew != NULL)
		*isnew = 0;
	if (add && 2 * (s->n + 1) > s->tsize) {
		uint64_t	*old = s->tab, osize = s->tsize;

		s->tsize *= 2;
		s->tab = xcalloc(s->tsize, sizeof(uint64_t));
		for (k = 0; k < osize; k++) {
			if (old[k] == 0)
				continue;
			h = vset_hash(vset_at(s, old[k] - 1), s->width);
			for (i = h & (s->tsize - 1); s->tab[i] != 0; i = (i + 1) & (s->tsize - 1))
				;
			s->tab[i] = old[k];
		}
		free(old);
	}
	h = vset_hash(x, s->width);
	for (i = h & (s->tsize - 1); s->tab[i] != 0; i = (i + 1) & (s->tsize - 1))
		if (memcmp(vset_at(s, s->tab[i] - 1), x, s->width) == 0)
			return (int64_t)s->tab[i] - 1;
	if (!add)
		return -1;
	if (s->n == s->valloc) {
		s->valloc = s->valloc ? 2 * s->valloc : 1024;
		s->v = xrealloc(s->v, s->valloc * s->width);
	}
	memcpy(s->v + s->n * s->width, x, s->width);
	s->tab[i] = ++s->n;
	if (isnew != NULL)
		*isnew = 1;
	return (int64_t)s->n - 1;
}

/* ---- the P/T net's reachability graph ---- */

struct ptres {
	uint64_t	 markings, edges, dead;
	int		 limit;
};

static void
pt_explore(const struct net *n, uint64_t max, struct vset *set, struct ptres *r)
{
	int64_t	*cur = xcalloc(n->nplaces + 1, sizeof(int64_t));
	int64_t	*nxt = xcalloc(n->nplaces + 1, sizeof(int64_t));
	uint64_t head;
	int	 i, t, k, en, isnew;

	memset(r, 0, sizeof(*r));
	vset_init(set, sizeof(int64_t) * (n->nplaces + 1));
	for (i = 0; i < n->nplaces; i++)
		cur[i] = n->places[i].init;
	vset_find(set, cur, 1, NULL);
	for (head = 0; head < set->n; head++) {
		memcpy(cur, vset_at(set, head), set->width);
		en = 0;
		for (t = 0; t < n->ntrans; t++) {
			const struct net_trans	*tr = &n->trans[t];

			for (k = 0; k < tr->npre; k++)
				if (cur[tr->pre[k].place] < tr->pre[k].w)
					break;
			if (k < tr->npre)
				continue;
			en++;
			memcpy(nxt, cur, set->width);
			for (k = 0; k < tr->npre; k++)
				nxt[tr->pre[k].place] -= tr->pre[k].w;
			for (k = 0; k < tr->npost; k++)
				nxt[tr->post[k].place] += tr->post[k].w;
			r->edges++;
			vset_find(set, nxt, 1, &isnew);
			if (set->n > max) {
				r->limit = 1;
				goto out;
			}
		}
		if (en == 0)
			r->dead++;
	}
out:
	r->markings = set->n;
	free(cur);
	free(nxt);
}

/* ---- sem.c's reachability graph ---- */

struct semres {
	uint64_t	 states, edges;
	int		 overflow, limit;
};

static void
sem_explore(struct sem *m, uint64_t max, struct vset *set, struct semres *r)
{
	int		 nmax = sem_max_trans(m), g, k, n;
	struct trans	*ts = xcalloc((size_t)nmax * (m->nprocs + 1), sizeof(*ts));
	uint64_t	*cur = xcalloc(m->words, sizeof(uint64_t));
	uint64_t	*nxt = xcalloc(m->words, sizeof(uint64_t));
	uint64_t	 head;

	memset(r, 0, sizeof(*r));
	m->want_safe = 0;
	vset_init(set, sizeof(uint64_t) * m->words);
	sem_initial(m, cur);
	vset_find(set, cur, 1, NULL);
	for (head = 0; head < set->n; head++) {
		memcpy(cur, vset_at(set, head), set->width);
		for (g = 0; g < m->nprocs; g++) {
			n = sem_enabled(m, cur, g, ts);
			for (k = 0; k < n; k++) {
				memcpy(nxt, cur, set->width);
				if (sem_fire(m, nxt, &ts[k]) != 0) {
					r->overflow = 1;
					goto out;
				}
				r->edges++;
				vset_find(set, nxt, 1, NULL);
				if (set->n > max) {
					r->limit = 1;
					goto out;
				}
			}
		}
	}
out:
	r->states = set->n;
	free(ts);
	free(cur);
	free(nxt);
}

/* The marking a sem.c state stands for; -1 when the net has no place for
 * a value the state holds (a pc it thought unreachable, a value beyond a
 * capacity). */
static int
to_marking(const struct net *n, const struct sem *m, const uint64_t *s, int64_t *mk)
{
	int		 i;
	int64_t		 v = 0;

	for (i = 0; i < n->nplaces; i++) {
		const struct net_place	*p = &n->places[i];
		const struct sproc	*sp = p->proc >= 0 ? &m->p[p->proc] : NULL;
		struct fld		 f;

		switch (p->kind) {
		case NP_CONTROL:
			v = sem_pc(m, s, p->proc) == p->pc;
			break;
		case NP_CHAN:
		case NP_CHAN_FREE:
			v = (int64_t)sem_count(m, s, p->index);
			break;
		case NP_CTR:
		case NP_CTR_FREE:
			f.off = sp->ctr + sp->ctroff[p->index];
			f.w = sp->ctrw[p->index];
			v = (int64_t)sem_get(s, f);
			break;
		case NP_SLOT:
		case NP_SLOT_FREE:
			v = (int64_t)sem_slot(m, s, p->proc, p->index);
			break;
		case NP_COLL_NONE:
			v = sem_coll_open(m, s, 0, 0) < 0;
			break;
		case NP_COLL_OPEN:
			v = sem_coll_open(m, s, 0, 0) == p->index;
			break;
		case NP_COLL_LEFT:
		case NP_COLL_LEFT_FREE:
			v = (int64_t)sem_coll_left(m, s, 0, 0);
			break;
		case NP_PROC_LEFT:
		case NP_PROC_IN:
			v = sem_coll_off(m, s, p->proc, 0);
			break;
		}
		if (net_is_complement(n, i))
			v = p->cap - v;
		if (v < 0 || (p->cap >= 0 && v > p->cap))
			return -1;
		mk[i] = v;
	}
	/* Every pc the state rests at has its place. */
	for (i = 0; i < m->nprocs; i++) {
		int	pc = sem_pc(m, s, i), k, found = 0;

		for (k = 0; k < n->nplaces; k++)
			if (n->places[k].kind == NP_CONTROL && n->places[k].proc == i &&
			    n->places[k].pc == pc)
				found = 1;
		if (!found)
			return -1;
	}
	return 0;
}

static void
print_marking(const struct net *n, const int64_t *mk)
{
	int	i;

	printf("#   marking:");
	for (i = 0; i < n->nplaces; i++)
		if (mk[i] != 0 && !net_is_complement(n, i))
			printf(" %s=%" PRId64, n->places[i].name, mk[i]);
	printf("\n");
}

static void
print_state(const struct mpnet *mp, const struct sem *m, const uint64_t *s)
{
	char	pn[PCG_NAME_MAX], it[PCG_NAME_MAX + 64];
	int	i;

	printf("#   sem state:");
	for (i = 0; i < m->nprocs; i++) {
		int	pc = sem_pc(m, s, i);

		printf(" %s@pc%d'%s'", pcg_proc_name(mp->pcg, i, pn, sizeof(pn)), pc,
		    mpnet_ins_text(mp, i, &mp->progs[i]->ins[pc], it, sizeof(it)));
	}
	for (i = 0; i < mp->ndc; i++)
		if (sem_count(m, s, i) != 0)
			printf(" dc%d=%" PRIu64, i, sem_count(m, s, i));
	printf("\n");
}

static void
ok(int good, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
ok(int good, const char *fmt, ...)
{
	va_list	ap;

	printf("%s %d - ", good ? "ok" : "not ok", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!good)
		failures++;
}

/* Compare the two graphs of one model in one mode. */
static void
check_mode(const struct mpnet *mp, const char *label, enum check_mode mode,
    uint64_t max)
{
	const char	*mn = check_mode_name(mode);
	struct net	*n;
	struct sem	 m;
	struct vset	 ps, ss;
	struct ptres	 pr;
	struct semres	 sr;
	struct verify_opts vo;
	struct mode_result res;
	char		*cause = NULL;
	int64_t		*mk;
	uint64_t	 i, hit = 0;
	int		 good;
	unsigned char	*seen;

	if ((n = net_build(mp, mode, &cause)) == NULL) {
		printf("ok %d - %s %s # SKIP no P/T net: %s\n", ++tap_n, label, mn, cause);
		free(cause);
		return;
	}
	sem_init(&m, mp, mode, 16);
	sem_explore(&m, max, &ss, &sr);
	if (sr.overflow || sr.limit) {
		printf("ok %d - %s %s # SKIP sem.c: %s\n", ++tap_n, label, mn,
		    sr.overflow ? "a channel overflowed" : "too many states");
		goto out_sem;
	}
	pt_explore(n, max > sr.states ? max : sr.states, &ps, &pr);
	good = !pr.limit && pr.markings == sr.states && pr.edges == sr.edges;
	ok(good, "%s %s: net %d places %d transitions; markings %" PRIu64
	    " edges %" PRIu64 " / sem.c states %" PRIu64 " edges %" PRIu64,
	    label, mn, n->nplaces, n->ntrans, pr.markings, pr.edges, sr.states,
	    sr.edges);

	/* Each state's marking is reachable, and no two share one. */
	mk = xcalloc(n->nplaces + 1, sizeof(int64_t));
	seen = xcalloc(ps.n + 1, 1);
	good = 1;
	for (i = 0; i < ss.n && good; i++) {
		const uint64_t	*s = vset_at(&ss, i);
		int64_t		 at;

		memset(mk, 0, sizeof(int64_t) * (n->nplaces + 1));
		if (to_marking(n, &m, s, mk) != 0) {
			printf("# state %" PRIu64 " has no marking\n", i);
			print_state(mp, &m, s);
			good = 0;
		} else if ((at = vset_find(&ps, mk, 0, NULL)) < 0) {
			printf("# state %" PRIu64 "'s marking is not reachable in the "
			    "net\n", i);
			print_state(mp, &m, s);
			print_marking(n, mk);
			good = 0;
		} else if (seen[at]++) {
			printf("# two states map to marking %" PRId64 "\n", at);
			print_state(mp, &m, s);
			good = 0;
		} else
			hit++;
	}
	for (i = 0; i < ps.n && good && hit < ps.n; i++) {
		if (!seen[i]) {
			printf("# a marking no state maps to:\n");
			print_marking(n, vset_at(&ps, i));
			good = 0;
		}
	}
	ok(good, "%s %s: states and markings correspond one to one", label, mn);
	free(seen);
	free(mk);

	memset(&vo, 0, sizeof(vo));
	vo.modes = 1 << mode;
	vo.exact = 1;
	vo.max_states = max;
	mpnet_check(mp, mode, &vo, &res);
	if (res.verdict == V_VERIFIED)
		ok(res.states == pr.markings && res.transitions == pr.edges,
		    "%s %s: verify --exact: %" PRIu64 " states %" PRIu64
		    " transitions", label, mn, res.states, res.transitions);
	else	/* A violation: all states counted, and a dead marking
		 * unless a process may run for ever (then processes stuck
		 * beside it are a violation too). */
		ok(res.verdict != V_VIOLATED || (res.states == pr.markings &&
		    res.transitions == pr.edges && (pr.dead > 0 || !mp->finite)),
		    "%s %s: verify --exact %s, %" PRIu64 " states %" PRIu64
		    " transitions; the net has %" PRIu64 " dead markings", label,
		    mn, res.verdict == V_VIOLATED ? vkind_name(res.viol->kind) :
		    "incomplete", res.states, res.transitions, pr.dead);
	mode_result_free(&res);
	vset_free(&ps);
out_sem:
	vset_free(&ss);
	sem_fini(&m);
	net_free(n);
}

static void
check_file(const char *path, const struct pcg_opts *po, const char *label,
    uint64_t max)
{
	struct frontend_src	 src = { .path = path };
	struct frontend		 fe;
	struct diag		*d = diag_new(stderr);

	switch (frontend_compile(&src, po, FRONTEND_COMPILE, d, &fe)) {
	case 0:
		check_mode(fe.net, label, CHECK_BUFFERED, max);
		check_mode(fe.net, label, CHECK_SYNC, max);
		break;
	case FRONTEND_READ:
	case FRONTEND_PARSE:
		ok(0, "%s: does not parse", label);
		break;
	case FRONTEND_EXPAND:
		ok(0, "%s: does not expand", label);
		break;
	default:
		printf("ok %d - %s # SKIP does not compile (an error test)\n",
		    ++tap_n, label);
		break;
	}
	frontend_free(&fe);
	diag_free(d);
}

int
main(int argc, char **argv)
{
	struct pcg_opts	 po;
	const char	*defs[64];
	char		 label[1024];
	uint64_t	 max = 2000000;
	int		 i;
	size_t		 l;

	memset(&po, 0, sizeof(po));
	po.defs = defs;
	po.skip_exec_check = 1;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-np") == 0 && i + 1 < argc) {
			po.np = strtoll(argv[++i], NULL, 10);
			po.np_set = 1;
		} else if (strcmp(argv[i], "-D") == 0 && i + 1 < argc) {
			if (po.ndefs < 64)
				defs[po.ndefs++] = argv[++i];
		} else if (strcmp(argv[i], "--max") == 0 && i + 1 < argc)
			max = strtoull(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--") == 0) {
			po.np_set = 0;
			po.ndefs = 0;
		} else {
			const char	*b = strrchr(argv[i], '/');

			l = (size_t)snprintf(label, sizeof(label), "%s", b ? b + 1 : argv[i]);
			if (po.np_set && l < sizeof(label))
				l += (size_t)snprintf(label + l, sizeof(label) - l,
				    " -np %" PRId64, po.np);
			for (size_t k = 0; k < po.ndefs && l < sizeof(label); k++)
				l += (size_t)snprintf(label + l, sizeof(label) - l,
				    " -D %s", defs[k]);
			check_file(argv[i], &po, label, max);
		}
	}
	printf("1..%d\n", tap_n);
	return failures > 0;
}
