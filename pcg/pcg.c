/* pcg.c -- the PCG model itself: making and freeing it, its index of
 * processes by (component, index), and the accessors every stage reads it
 * through (names, annotations, environments).  Expansion (expand.c) fills
 * it; behave.c, emit.c and the later stages only read it. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hmap.h"
#include "pcg.h"
#include "xmalloc.h"

struct pcg_index {
	struct hmap	*procs;		/* (comp, index) -> proc */
	size_t		 procalloc;
	size_t		 chanalloc;
	const char	**unknown;	/* component names already reported */
	size_t		 nunknown, unknownalloc;
	struct hmap	*groups;	/* (name, index) -> group */
	struct hmap	*members;	/* (group, proc) -> rank in it */
	size_t		 groupalloc;
	size_t		*memberalloc;	/* per group */
};

static uint64_t
key_index(int64_t i)
{
	return (uint64_t)i;
}

/* An empty model, owning its arena and the AST it will be built from. */
struct pcg *
pcg_new(struct ast *ast, struct diag *d)
{
	struct pcg	*g = xcalloc(1, sizeof(*g));

	g->arena = arena_new();
	g->ast = ast;
	g->diag = d;
	g->idx = xcalloc(1, sizeof(*g->idx));
	g->idx->procs = hmap_new();
	g->idx->groups = hmap_new();
	g->idx->members = hmap_new();
	return g;
}

/* A new zeroed process slot for (comp, index), entered in the index. */
struct pcg_proc *
pcg_add_proc(struct pcg *g, int comp, int64_t index, int *old)
{
	struct pcg_proc	*p;

	if (hmap_put(g->idx->procs, (uint64_t)comp, key_index(index), g->nprocs,
	    old) == HMAP_FOUND)
		return NULL;
	xgrow(&g->procs, &g->idx->procalloc, g->nprocs + 1, sizeof(*g->procs));
	p = &g->procs[g->nprocs++];
	memset(p, 0, sizeof(*p));
	return p;
}

/* A new zeroed channel. */
struct pcg_chan *
pcg_add_chan(struct pcg *g)
{
	struct pcg_chan	*ch;

	xgrow(&g->chans, &g->idx->chanalloc, g->nchans + 1, sizeof(*g->chans));
	ch = &g->chans[g->nchans++];
	memset(ch, 0, sizeof(*ch));
	return ch;
}

/* The group (name, index) (index 0 when unindexed), or -1. */
int
pcg_find_group(const struct pcg *g, const char *name, int64_t index)
{
	return hmap_get(g->idx->groups, (uint64_t)(uintptr_t)name, key_index(index));
}

/* The group (name, index), added with no members if new. */
int
pcg_add_group(struct pcg *g, const char *name, int64_t index, int indexed,
    int comp, const struct loc *l)
{
	struct pcg_index	*x = g->idx;
	struct pcg_group	*gr;
	size_t			 old = x->groupalloc;
	int			 id;

	if (hmap_put(x->groups, (uint64_t)(uintptr_t)name, key_index(index),
	    g->ngroups, &id) == HMAP_FOUND)
		return id;
	xgrow(&g->groups, &x->groupalloc, g->ngroups + 1, sizeof(*g->groups));
	if (x->groupalloc != old) {
		x->memberalloc = xreallocarray(x->memberalloc, x->groupalloc,
		    sizeof(*x->memberalloc));
		memset(x->memberalloc + old, 0, (x->groupalloc - old) *
		    sizeof(*x->memberalloc));
	}
	gr = &g->groups[id];
	memset(gr, 0, sizeof(*gr));
	gr->name = name;
	gr->index = index;
	gr->indexed = indexed;
	gr->comp = comp;
	gr->loc = *l;
	g->ngroups++;
	return id;
}

/* Add proc to the group, last in rank order; -1 if it is a member already. */
int
pcg_group_add_member(struct pcg *g, int group, int proc)
{
	struct pcg_group	*gr = &g->groups[group];
	int			 old;

	if (hmap_put(g->idx->members, (uint64_t)group, (uint64_t)proc,
	    gr->nmembers, &old) == HMAP_FOUND)
		return -1;
	xgrow(&gr->members, &g->idx->memberalloc[group], gr->nmembers + 1,
	    sizeof(*gr->members));
	gr->members[gr->nmembers++] = proc;
	return 0;
}

/* The process's rank in the group, or -1 when it is not a member. */
int
pcg_group_rank(const struct pcg *g, int group, int proc)
{
	return hmap_get(g->idx->members, (uint64_t)group, (uint64_t)proc);
}

/* "rows[2]", "workers": the group's name as scripts write it. */
const char *
pcg_group_name(const struct pcg *g, int group, char *buf, size_t len)
{
	const struct pcg_group	*gr = &g->groups[group];

	if (gr->indexed)
		snprintf(buf, len, "%s[%" PRId64 "]", gr->name, gr->index);
	else
		snprintf(buf, len, "%s", gr->name);
	return buf;
}

/* Whether an unknown component's name was already reported; remembers it. */
int
pcg_unknown_seen(struct pcg *g, const char *name)
{
	struct pcg_index	*x = g->idx;
	size_t			 i;

	for (i = 0; i < x->nunknown; i++)
		if (x->unknown[i] == name)
			return 1;
	xgrow(&x->unknown, &x->unknownalloc, x->nunknown + 1, sizeof(char *));
	x->unknown[x->nunknown++] = name;
	return 0;
}

/* The component of that interned name, by a linear search. */
int
pcg_find_comp(const struct pcg *g, const char *name)
{
	int	i;

	for (i = 0; i < g->ncomps; i++)
		if (g->comps[i].name == name)
			return i;
	return -1;
}

/* The parameter of that interned name, by a linear search. */
const struct pcg_param *
pcg_find_param(const struct pcg *g, const char *name)
{
	int	i;

	for (i = 0; i < g->nparams; i++)
		if (g->params[i].name == name)
			return &g->params[i];
	return NULL;
}

/* A parameter's value as text: a string's as it is, a number's in
 * decimal. */
char *
pcg_param_text(const struct pcg_param *p)
{
	char	*s;

	if (p->text != NULL)
		return xstrdup(p->text);
	xasprintf(&s, "%" PRId64, p->value);
	return s;
}

/* Which end of ch is process proc's port 'port' of its type 'type'. */
int
pcg_chan_end(const struct pcg_chan *ch, int proc, int type, int port)
{
	return ch->e[0].proc == proc && ch->e[0].type == type &&
	    ch->e[0].port == port ? 0 : 1;
}

/* The port type of that interned name in a component. */
int
pcg_find_type(const struct pcg_comp *c, const char *name)
{
	int	i;

	for (i = 0; i < c->ntypes; i++)
		if (c->types[i] == name)
			return i;
	return -1;
}

/* The process (comp, index), through the index. */
int
pcg_find_proc(const struct pcg *g, int comp, int64_t index)
{
	return hmap_get(g->idx->procs, (uint64_t)comp, key_index(index));
}

/* A process's name as scripts write it. */
const char *
pcg_proc_name(const struct pcg *g, int proc, char *buf, size_t len)
{
	const struct pcg_proc	*p = &g->procs[proc];
	const struct pcg_comp	*c = &g->comps[p->comp];

	if (c->indexed == 0)
		snprintf(buf, len, "%s", c->name);
	else
		snprintf(buf, len, "%s[%" PRId64 "]", c->name, p->index);
	return buf;
}

char *
pcg_source_path(const struct pcg_strs *s)
{
	char	*p;

	if (s->v[0][0] == '/' || s->loc.src == NULL || s->loc.src->dir == NULL)
		return xstrdup(s->v[0]);
	xasprintf(&p, "%s/%s", s->loc.src->dir, s->v[0]);
	return p;
}

const char *
pcg_did_you_mean(const struct pcg *g, enum pcg_names kind,
    const char *const *more, size_t nmore, const char *name, char *buf,
    size_t len)
{
	const char	**c;
	size_t		  n = 0, k;

	c = xcalloc((size_t)g->ncomps + (size_t)g->nparams + (size_t)g->ngroups +
	    nmore + 1, sizeof(*c));
	if (kind != PCG_NAMES_PARAMS)
		for (k = 0; k < (size_t)g->ncomps; k++)
			c[n++] = g->comps[k].name;
	if (kind == PCG_NAMES_PARAMS) {
		for (k = 0; k < (size_t)g->nparams; k++)
			c[n++] = g->params[k].name;
		for (k = 0; k < nmore; k++)
			c[n++] = more[k];
	}
	if (kind == PCG_NAMES_GROUPS)
		for (k = 0; k < (size_t)g->ngroups; k++)
			c[n++] = g->groups[k].name;
	diag_did_you_mean(buf, len, name, c, n);
	free(c);
	return buf;
}

/* The scale parameter's value when it is not the number of processes. */
int
pcg_np_differs(const struct pcg *g, int64_t *np)
{
	int	k;

	for (k = 0; k < g->nparams; k++)
		if (g->params[k].scale && g->params[k].text == NULL &&
		    g->params[k].value != g->nprocs) {
			*np = g->params[k].value;
			return 1;
		}
	return 0;
}

/* "5 processes", or "-np 4: 5 processes" when -np's value is not it. */
const char *
pcg_nprocs_text(const struct pcg *g, char *buf, size_t len)
{
	int64_t	np;

	if (pcg_np_differs(g, &np))
		snprintf(buf, len, "-np %" PRId64 ": %d process%s", np, g->nprocs,
		    g->nprocs == 1 ? "" : "es");
	else
		snprintf(buf, len, "%d process%s", g->nprocs,
		    g->nprocs == 1 ? "" : "es");
	return buf;
}

/* A process's annotation: its own line's, else its component's. */
const struct pcg_strs *
pcg_annot(const struct pcg *g, const struct pcg_proc *p, int kind)
{
	(void)g;
	return p->own[kind] != NULL ? p->own[kind] : p->dflt[kind];
}

/* Add an environment list to out, replacing entries of the same name. */
void
pcg_env_merge(char ***out, int *n, size_t *alloc, const struct pcg_strs *s)
{
	int	i, j;

	for (i = 0; s != NULL && i < s->n; i++) {
		size_t	klen = strcspn(s->v[i], "=");

		for (j = 0; j < *n; j++)
			if (strncmp((*out)[j], s->v[i], klen + 1) == 0)
				break;
		if (j == *n) {
			xgrow(out, alloc, *n + 1, sizeof(char *));
			(*n)++;
		}
		(*out)[j] = s->v[i];
	}
}

/* A process's environment, its own entries over its component's. */
int
pcg_env(const struct pcg *g, const struct pcg_proc *p, char ***out)
{
	size_t	alloc = 0;
	int	n = 0;

	(void)g;
	*out = NULL;
	pcg_env_merge(out, &n, &alloc, p->dflt[ANN_ENV]);
	pcg_env_merge(out, &n, &alloc, p->own[ANN_ENV]);
	return n;
}

/* Free the model with its AST (the diagnostics are the caller's). */
void
pcg_free(struct pcg *g)
{
	int	i;

	if (g == NULL)
		return;
	if (g->idx != NULL) {
		hmap_free(g->idx->procs);
		hmap_free(g->idx->groups);
		hmap_free(g->idx->members);
		free(g->idx->memberalloc);
		free(g->idx->unknown);
		free(g->idx);
	}
	free(g->procs);
	free(g->chans);
	for (i = 0; i < g->ngroups; i++)
		free(g->groups[i].members);
	free(g->groups);
	free(g->portchan);
	arena_free(g->arena);
	ast_free(g->ast);
	free(g);
}
