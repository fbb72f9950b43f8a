/* plan.c -- the appfile and the port tables of a run (plan.h), from the
 * expanded script: one appfile line per process in script order, which is
 * its rank, and one table per process, bundled for the process that
 * scatters them (runtime/wire.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plan.h"
#include "xmalloc.h"

/* Memory ran out in a wire buffer: as xmalloc does. */
static void __attribute__((noreturn))
plan_nomem(void)
{
	fprintf(stderr, "ensemble: out of memory\n");
	abort();
}

/* Open MPI's appfile, the default syntax. */
static const struct plan_syntax plan_openmpi = { "--host ", "-x ", "=", 0 };
const struct plan_syntax plan_by_rank = { NULL, NULL, NULL, 1 };

/* Whether s can be written into an appfile line as it is: Open MPI splits
 * the line at spaces and cuts it at '#' or "//". */
static int
plan_plain(const char *s)
{
	const unsigned char	*u = (const unsigned char *)s;

	for (; *u != '\0'; u++)
		if (*u <= ' ' || *u >= 0x7f || *u == '#' ||
		    (*u == '/' && u[1] == '/'))
			return 0;
	return *s != '\0';
}

/* Whether s is a host name Open MPI can be given: letters, digits and
 * ".-_:" (an IPv6 address has colons). */
static int
plan_host_ok(const char *s)
{
	if (*s == '\0' || *s == '-')
		return 0;
	for (; *s != '\0'; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || strchr(".-_:", *s) != NULL))
			return 0;
	return 1;
}

/* Whether process b continues the run of process a, the one before it:
 * the same component, both indexed, and b's index one above a's.  (A
 * process without an index is a run of its own; a[0] has an index.) */
static int
plan_same_run(const struct pcg *g, int a, int b)
{
	const struct pcg_proc	*pa = &g->procs[a], *pb = &g->procs[b];

	return pa->comp == pb->comp && g->comps[pa->comp].indexed == 1 &&
	    pb->index == pa->index + 1;
}

/* The runs of processes (wire.h), the same for every table. */
static struct wire_run *
plan_runs(const struct pcg *g, int *nruns)
{
	struct wire_run	*runs;
	int		 i, n = 0;

	runs = xcalloc((size_t)g->nprocs + 1, sizeof(*runs));
	for (i = 0; i < g->nprocs; i++) {
		if (i > 0 && plan_same_run(g, i - 1, i)) {
			runs[n - 1].count++;
			continue;
		}
		runs[n].comp = (char *)g->comps[g->procs[i].comp].name;
		runs[n].indexed = g->comps[g->procs[i].comp].indexed == 1;
		runs[n].rank = i;
		runs[n].index = (int32_t)g->procs[i].index;
		runs[n].count = 1;
		n++;
	}
	*nruns = n;
	return runs;
}

/* The groups of every process (wire.h): *out[r] process r's, *n[r] their
 * count, each group's runs shared (free the lists with plan_groups_free).
 * -1 and *cause when an index does not fit the table. */
static int
plan_proc_groups(const struct pcg *g, struct wire_group ***out, int **n,
    char **cause)
{
	struct wire_group	**lists, *w;
	struct wire_grun	 *runs;
	int			 *cnt, *fill, k, j, r, nr;

	cnt = xcalloc((size_t)g->nprocs + 1, sizeof(*cnt));
	fill = xcalloc((size_t)g->nprocs + 1, sizeof(*fill));
	for (k = 0; k < g->ngroups; k++) {
		if (g->groups[k].index < INT32_MIN || g->groups[k].index > INT32_MAX) {
			xasprintf(cause, "the group %s[%" PRId64 "]: its index is"
			    " out of range (%d to %d)", g->groups[k].name,
			    g->groups[k].index, INT32_MIN, INT32_MAX);
			free(cnt);
			free(fill);
			return -1;
		}
		for (j = 0; j < g->groups[k].nmembers; j++)
			cnt[g->groups[k].members[j]]++;
	}
	lists = xcalloc((size_t)g->nprocs + 1, sizeof(*lists));
	for (r = 0; r < g->nprocs; r++)
		lists[r] = xcalloc((size_t)cnt[r] + 1, sizeof(**lists));
	for (k = 0; k < g->ngroups; k++) {
		const struct pcg_group	*gr = &g->groups[k];
		const int		*m = gr->members;

		/* The members as runs of one step: a run goes on while the
		 * step between ranks stays that of its first two. */
		runs = xcalloc((size_t)gr->nmembers + 1, sizeof(*runs));
		for (nr = 0, j = 0; j < gr->nmembers; j++) {
			struct wire_grun	*u = nr > 0 ? &runs[nr - 1] : NULL;

			if (u != NULL && u->count == 1) {
				u->step = m[j] - u->first;
				u->count++;
			} else if (u != NULL && m[j] == u->first + u->count * u->step)
				u->count++;
			else {
				runs[nr].first = m[j];
				runs[nr].count = 1;
				runs[nr++].step = 1;
			}
		}
		for (j = 0; j < gr->nmembers; j++) {
			r = m[j];
			w = &lists[r][fill[r]++];
			w->id = k;
			w->name = (char *)gr->name;
			w->indexed = gr->indexed != 0;
			w->index = (int32_t)gr->index;
			w->rank = j;
			w->size = gr->nmembers;
			w->nruns = nr;
			w->runs = runs;
		}
		if (gr->nmembers == 0)
			free(runs);
	}
	free(fill);
	*out = lists;
	*n = cnt;
	return 0;
}

/* Free what plan_proc_groups made: each group's runs once, by its first
 * member's list. */
static void
plan_groups_free(const struct pcg *g, struct wire_group **lists, int *n)
{
	int	k, r, i;

	for (k = 0; lists != NULL && k < g->ngroups; k++)
		if (g->groups[k].nmembers > 0) {
			r = g->groups[k].members[0];
			for (i = 0; i < n[r]; i++)
				if (lists[r][i].id == k) {
					free(lists[r][i].runs);
					break;
				}
		}
	for (r = 0; lists != NULL && r < g->nprocs; r++)
		free(lists[r]);
	free(lists);
	free(n);
}

/* The distinct names of the script's groups that are no component's. */
static char **
plan_gnames(const struct pcg *g, int *n)
{
	char	**v = xcalloc((size_t)g->ngroups + 1, sizeof(*v));
	int	  k, i;

	*n = 0;
	for (k = 0; k < g->ngroups; k++) {
		if (g->groups[k].comp >= 0)
			continue;
		for (i = 0; i < *n && strcmp(v[i], g->groups[k].name) != 0; i++)
			;
		if (i == *n)
			v[(*n)++] = (char *)g->groups[k].name;
	}
	return v;
}

/* The tag each channel from a process to itself uses for its other
 * direction, one above every channel's tag (-1 for the others); -1 and
 * *cause when no tag is left. */
static int
plan_spare_tags(const struct pcg *g, int64_t *spare, char **cause)
{
	int64_t	next = 0;
	int	i;

	for (i = 0; i < g->nchans; i++) {
		if (g->chans[i].tag < 0 || g->chans[i].tag > INT32_MAX - 1) {
			xasprintf(cause, "the tag %" PRId64 " of a channel is out of"
			    " range (0 to %d)", g->chans[i].tag, INT32_MAX - 1);
			return -1;
		}
		if (g->chans[i].tag >= next)
			next = g->chans[i].tag + 1;
	}
	for (i = 0; i < g->nchans; i++) {
		spare[i] = -1;
		if (g->chans[i].e[0].proc != g->chans[i].e[1].proc)
			continue;
		if (next > INT32_MAX) {
			xasprintf(cause, "no tag left for a channel from a process"
			    " to itself (every tag up to %d is taken)", INT32_MAX);
			return -1;
		}
		spare[i] = next++;
	}
	return 0;
}

/* Fill t's ports for process r: each port's peer and tags. */
static void
plan_ports(const struct pcg *g, int r, const int64_t *spare, struct wire_table *t)
{
	const struct pcg_proc	*p = &g->procs[r];
	const struct pcg_comp	*c = &g->comps[p->comp];
	const struct pcg_chan	*ch;
	int			 ty, k, slot = p->portbase, ci, me;

	t->ntypes = c->ntypes;
	t->types = xcalloc((size_t)c->ntypes + 1, sizeof(*t->types));
	for (ty = 0; ty < c->ntypes; ty++) {
		struct wire_type	*w = &t->types[ty];

		w->name = (char *)c->types[ty];
		w->n = p->nports[ty];
		w->ports = xcalloc((size_t)w->n + 1, sizeof(*w->ports));
		for (k = 0; k < w->n; k++, slot++) {
			w->ports[k].rank = -1;
			if ((ci = g->portchan[slot]) < 0)
				continue;
			ch = &g->chans[ci];
			me = pcg_chan_end(ch, r, ty, k + 1);
			w->ports[k].rank = ch->e[1 - me].proc;
			/* The first end sends with the channel's tag; on a
			 * channel to itself the second sends with the spare. */
			w->ports[k].tag = (int32_t)(me == 1 && spare[ci] >= 0 ?
			    spare[ci] : ch->tag);
			w->ports[k].rtag = (int32_t)(me == 0 && spare[ci] >= 0 ?
			    spare[ci] : ch->tag);
		}
	}
}

/* Append host h of the slots as '--host' takes it: "NAME:N", "NAME:*"
 * when its slots are its cores. */
static int
plan_slots(struct wire_buf *line, const struct alloc_host *h)
{
	char	num[32];

	if (h->slots < 0)
		snprintf(num, sizeof(num), ":*");
	else
		snprintf(num, sizeof(num), ":%d", h->slots);
	return wire_put_bytes(line, h->name, strlen(h->name)) |
	    wire_put_bytes(line, num, strlen(num));
}

/* Append process r's '--host' to its line.  On this machine, the host a
 * process is placed on, if any.  With a hostfile or an allocation, every
 * line gets one when any process is placed, since Open MPI 4.1 then
 * places by '--host' alone and gives a host given bare one slot: a
 * placed process its host, the others every host, each with its slots. */
static int
plan_host(const struct pcg *g, const struct plan_opts *o, int r,
    struct wire_buf *line)
{
	const struct alloc	*a = o->alloc;
	const char		*host = g->procs[r].host;
	const char		*opt = o->syntax != NULL ? o->syntax->host :
				    plan_openmpi.host;
	int			 k, fail = 0;

	if (a == NULL || a->kind == ALLOC_LOCAL) {
		if (host == NULL)
			return 0;
		fail |= wire_put_bytes(line, opt, strlen(opt));
		fail |= wire_put_bytes(line, host, strlen(host));
		return fail | wire_put_bytes(line, " ", 1);
	}
	if (o->nplaced == 0)
		return 0;
	fail |= wire_put_bytes(line, opt, strlen(opt));
	if (o->placed[r] != NULL)
		fail |= plan_slots(line, o->placed[r]);
	else
		for (k = 0; k < a->nhosts; k++) {
			if (k > 0)
				fail |= wire_put_bytes(line, ",", 1);
			fail |= plan_slots(line, &a->hosts[k]);
		}
	return fail | wire_put_bytes(line, " ", 1);
}

/* Append "-x NAME=VALUE " (in the launcher's syntax) to a line (VALUE one
 * of the run's secrets, hex digits); nothing when VALUE is NULL. */
static int
plan_env(const struct plan_opts *o, struct wire_buf *line, const char *name,
    const char *value)
{
	const struct plan_syntax *sx = o->syntax != NULL ? o->syntax :
				    &plan_openmpi;

	if (value == NULL)
		return 0;
	return wire_put_bytes(line, sx->env, strlen(sx->env)) |
	    wire_put_bytes(line, name, strlen(name)) |
	    wire_put_bytes(line, sx->env_sep, strlen(sx->env_sep)) |
	    wire_put_bytes(line, value, strlen(value)) |
	    wire_put_bytes(line, " ", 1);
}

/* Append process r's appfile line to line (a buffer reset first). */
static int
plan_line(const struct pcg *g, const struct plan_opts *o, int r,
    struct wire_buf *line)
{
	const struct pcg_proc	*p = &g->procs[r];
	const struct pcg_strs	*args = pcg_annot(g, p, ANN_ARGS);
	const struct pcg_strs	*wdir = pcg_annot(g, p, ANN_WDIR);
	char			 pn[PCG_NAME_MAX], num[32], **env;
	int			 nenv, k, fail = 0;
	int			 net = o->stdin_net != NULL &&
				     (o->stdin_net_proc < 0 ||
				     o->stdin_net_proc == r);

	line->len = 0;
	if (o->syntax == NULL || !o->syntax->plan) {
		fail |= wire_put_bytes(line, "-np 1 ", 6);
		fail |= plan_host(g, o, r, line);
		/* The secrets: in the trampoline's environment, never in
		 * its command line (wire.h). */
		fail |= plan_env(o, line, WIRE_ENV_SECRET, o->relay);
		if (net)
			fail |= plan_env(o, line, WIRE_ENV_STDIN_KEY,
			    o->stdin_key);
		fail |= wire_put_bytes(line, o->exec, strlen(o->exec));
		fail |= wire_put_bytes(line, " ", 1);
	}
	/* The tokens (wire.h). */
#define TOKEN(s)	do { fail |= wire_put_bytes(line, " ", 1); \
			    fail |= wire_token_put(line, (s)); } while (0)
	fail |= wire_token_put(line, pcg_proc_name(g, r, pn, sizeof(pn)));
	snprintf(num, sizeof(num), "%d", o->root);
	TOKEN(num);
	if (o->relay != NULL)
		TOKEN(WIRE_FLAG_RELAY);
	if (r == o->root && o->tables_file != NULL) {
		TOKEN(WIRE_FLAG_TABLES_FILE);
		TOKEN(o->tables_file);
	} else if (r == o->root)
		TOKEN(WIRE_FLAG_TABLES);
	if (r == o->stdin_proc)
		TOKEN(WIRE_FLAG_STDIN);
	if (net) {
		TOKEN(WIRE_FLAG_STDIN_NET);
		TOKEN(o->stdin_net);
	}
	if (o->watch != NULL) {
		TOKEN(WIRE_FLAG_WATCH);
		TOKEN(o->watch);
	}
	if (wdir != NULL && wdir->n > 0 && wdir->v[0][0] != '\0') {
		TOKEN(WIRE_FLAG_WDIR);
		TOKEN(wdir->v[0]);
	}
	nenv = pcg_env(g, p, &env);
	snprintf(num, sizeof(num), "%d", nenv);
	TOKEN(num);
	for (k = 0; k < nenv; k++)
		TOKEN(env[k]);
	free(env);
	TOKEN(o->paths[r]);
	for (k = 0; args != NULL && k < args->n; k++)
		TOKEN(args->v[k]);
#undef TOKEN
	fail |= wire_put_bytes(line, "\n", 1);
	return fail ? -1 : 0;
}

int
plan_make(const struct pcg *g, const struct plan_opts *o, const char *path,
    struct wire_buf *bundle, char **cause)
{
	struct wire_buf		 line = { NULL, 0, 0 }, *tables;
	struct wire_table	 t;
	struct wire_run		*runs;
	int64_t			*spare;
	char			 pn[PCG_NAME_MAX], **pnames, **pv, **gnames;
	FILE			*f = NULL;
	struct wire_group	**groups = NULL;
	int			*ngroups = NULL, ngnames;
	int			 r, k, nruns, rc = -1, fd = -1;

	tables = xcalloc((size_t)g->nprocs + 1, sizeof(*tables));
	spare = xcalloc((size_t)g->nchans + 1, sizeof(*spare));
	runs = plan_runs(g, &nruns);
	gnames = plan_gnames(g, &ngnames);
	/* The parameters, the same in every table. */
	pnames = xcalloc((size_t)g->nparams + 1, sizeof(*pnames));
	pv = xcalloc((size_t)g->nparams + 1, sizeof(*pv));
	for (k = 0; k < g->nparams; k++) {
		pnames[k] = (char *)g->params[k].name;
		pv[k] = pcg_param_text(&g->params[k]);
	}
	if (!plan_plain(o->exec)) {
		xasprintf(cause, "cannot start processes through '%s': Open MPI's"
		    " appfile cannot hold a path with spaces, '#' or \"//\"",
		    o->exec);
		goto out;
	}
	if (plan_spare_tags(g, spare, cause) != 0 ||
	    plan_proc_groups(g, &groups, &ngroups, cause) != 0)
		goto out;
	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0600)) < 0 || (f = fdopen(fd, "w")) == NULL) {
		xasprintf(cause, "cannot write '%s': %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		goto out;
	}
	for (r = 0; r < g->nprocs; r++) {
		const struct pcg_proc	*p = &g->procs[r];
		const struct pcg_strs	*args = pcg_annot(g, p, ANN_ARGS);
		char			**locs = NULL;

		pcg_proc_name(g, r, pn, sizeof(pn));
		if (p->host != NULL && !plan_host_ok(p->host)) {
			xasprintf(cause, "%s: its host '%s' is not a host name Open"
			    " MPI can be given", pn, p->host);
			goto out;
		}
		if (p->index < INT32_MIN || p->index > INT32_MAX) {
			xasprintf(cause, "%s: its index is out of range (%d to %d)",
			    pn, INT32_MIN, INT32_MAX);
			goto out;
		}
		if (plan_line(g, o, r, &line) != 0)
			plan_nomem();
		if (line.len > WIRE_LINE_MAX) {
			xasprintf(cause, "%s: its executable, arguments and"
			    " environment take %zu bytes in Open MPI's appfile,"
			    " more than the %d of a line", pn, line.len,
			    WIRE_LINE_MAX);
			goto out;
		}
		fwrite(line.p, 1, line.len, f);

		memset(&t, 0, sizeof(t));
		t.rank = r;
		t.nprocs = g->nprocs;
		t.flags = o->flags;
		t.name = pn;
		t.component = (char *)g->comps[p->comp].name;
		t.indexed = g->comps[p->comp].indexed == 1;
		t.index = (int32_t)p->index;
		plan_ports(g, r, spare, &t);
		t.nparams = g->nparams;
		t.pnames = pnames;
		t.pvalues = pv;
		t.nargs = args != NULL ? args->n : 0;
		t.args = args != NULL ? args->v : NULL;
		t.nruns = nruns;
		t.runs = runs;
		t.ngroups = ngroups[r];
		t.groups = groups[r];
		t.ngnames = ngnames;
		t.gnames = gnames;
		if (o->flags & WIRE_CHECK_PROTOCOL) {
			t.behaviour = (char *)(p->behaviour != NULL ? p->behaviour : "");
			t.nlocs = pcg_behaviour_locs(g, r, &locs);
			t.locs = locs;
		}
		t.origin = (char *)o->origin;
		t.tracedir = (char *)o->tracedir;
		if (wire_table_put(&tables[r], &t) != 0)
			plan_nomem();
		for (k = 0; k < t.ntypes; k++)
			free(t.types[k].ports);
		free(t.types);
		for (k = 0; k < t.nlocs; k++)
			free(locs[k]);
		free(locs);
	}
	if (fflush(f) != 0 || ferror(f)) {
		xasprintf(cause, "cannot write '%s': %s", path, strerror(errno));
		goto out;
	}
	if (wire_bundle_put(bundle, tables, g->nprocs) != 0)
		plan_nomem();
	rc = 0;
out:
	if (f != NULL && fclose(f) != 0 && rc == 0) {
		xasprintf(cause, "cannot write '%s': %s", path, strerror(errno));
		rc = -1;
	}
	for (r = 0; r < g->nprocs; r++)
		free(tables[r].p);
	free(tables);
	for (k = 0; k < g->nparams; k++)
		free(pv[k]);
	free(pv);
	free(pnames);
	free(runs);
	plan_groups_free(g, groups, ngroups);
	free(gnames);
	free(spare);
	free(line.p);
	return rc;
}
