/* report.c -- what a bad end state means, in the script's words: which
 * property it violates, who waits for whom in which statement (with its
 * file:line:col), and the actions that lead there. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "xmalloc.h"

/* Counterexamples longer than this keep their last REPORT_TAIL actions
 * (a few megabytes of text; the front end folds what repeats). */
#define REPORT_TAIL	100000

static const char *const vkinds[VK_COUNT] = {
	"deadlock", "unmatched-send", "orphan-receive", "collective-mismatch",
	"unwaited-request",
};

const char *
vkind_name(enum vkind k)
{
	return vkinds[k];
}

const char *
check_mode_name(enum check_mode m)
{
	return m == CHECK_BUFFERED ? "buffered" : "synchronous";
}

static const struct ins *
ins_at(const struct sem *m, const uint64_t *s, int p)
{
	return &m->p[p].pr->ins[sem_pc(m, s, p)];
}

/* "file:line:col" of an instruction, or "" */
static void
loc_text(struct buf *b, const struct ins *in)
{
	if (in == NULL || in->src == NULL || in->src->loc.src == NULL)
		return;
	buf_printf(b, "%s:%d:%d", in->src->loc.src->name, in->src->loc.first_line,
	    in->src->loc.first_column);
}

static void
name(struct buf *b, const struct sem *m, int p)
{
	char	pn[PCG_NAME_MAX];

	buf_adds(b, pcg_proc_name(m->net->pcg, p, pn, sizeof(pn)));
}

/* "'send Prop[1]' (dmax.pcg:31:17)" */
static void
stmt_text(struct buf *b, const struct sem *m, int p, const struct ins *in)
{
	char	t[PCG_NAME_MAX + 64];

	buf_printf(b, "'%s'", mpnet_ins_text(m->net, p, in, t, sizeof(t)));
	if (in->src != NULL) {
		buf_adds(b, " (");
		loc_text(b, in);
		buf_addc(b, ')');
	}
}

int
report_bad_end(const struct sem *m, const uint64_t *s)
{
	int	i;

	for (i = 0; i < m->nprocs; i++)
		if (!sem_ended(m, s, i))
			return 1;
	for (i = 0; i < m->net->ndc; i++)
		if (sem_count(m, s, i) > 0)
			return 1;
	for (i = 0; i < m->nprocs; i++)
		if (m->p[i].pr != NULL && ins_at(m, s, i)->nposted > 0)
			return 1;
	return sem_get(s, m->csig) != 0;	/* a collective some never came to */
}

static int
add_unique(int *w, int n, int q)
{
	int	j;

	for (j = 0; j < n; j++)
		if (w[j] == q)
			return n;
	if (q >= 0)
		w[n++] = q;
	return n;
}

/* The processes p waits for, into w (returns how many); *any says one of
 * them is enough (a wildcard), else all are needed. */
static int
waits_for(const struct sem *m, const uint64_t *s, int p, int *w, int *any)
{
	const struct sproc	*sp = &m->p[p];
	const struct ins	*in = ins_at(m, s, p);
	const struct mpnet	*net = m->net;
	int			 n = 0, lp, k, dc, i;

	*any = 0;
#define ADDW(q)	(n = add_unique(w, n, (q)))
	switch (in->op) {
	case OP_RECV:
		if ((dc = net->recv_dc[sp->portbase + in->lp]) >= 0)
			ADDW(net->dc[dc].from);
		break;
	case OP_RECVANY:
		*any = 1;
		for (lp = in->lo; lp < in->hi; lp++)
			if ((dc = net->recv_dc[sp->portbase + lp]) >= 0)
				ADDW(net->dc[dc].from);
		break;
	case OP_SEND:
		if ((dc = net->send_dc[sp->portbase + in->lp]) >= 0)
			ADDW(net->dc[dc].to);
		break;
	case OP_WAITALL:
		for (k = 0; k < in->nposted; k++) {
			const struct slotdesc	*d = &sp->pr->sd[in->sd + k];

			if (sem_slot(m, s, p, k) == 0)
				continue;
			if (d->kind == SD_SEND) {
				if ((dc = net->send_dc[sp->portbase + d->lp]) >= 0)
					ADDW(net->dc[dc].to);
			} else {
				int	lo = d->kind == SD_RECV ? d->lp : d->lo;
				int	hi = d->kind == SD_RECV ? d->lp + 1 : d->hi;

				for (lp = lo; lp < hi; lp++)
					if ((dc = net->recv_dc[sp->portbase + lp]) >= 0)
						ADDW(net->dc[dc].from);
			}
		}
		break;
	case OP_COLL:
		if (sem_get(s, m->p[p].cdone) != 0) {
			/* It left the open one: it waits for the rest to. */
			for (i = 0; i < m->nprocs; i++)
				if (i != p && m->p[i].pr != NULL &&
				    sem_get(s, m->p[i].cdone) == 0)
					ADDW(i);
			break;
		}
		for (i = 0; i < m->nprocs; i++) {
			const struct ins	*o;

			if (i == p || m->p[i].pr == NULL)
				continue;
			o = ins_at(m, s, i);
			if (o->op == OP_COLL && o->coll == in->coll)
				continue;
			if (sem_get(s, m->p[i].cdone) != 0)
				continue;
			ADDW(i);
		}
		break;
	default:
		break;
	}
#undef ADDW
	return n;
}

static void
add_proc(struct violation *v, int p)
{
	int	k;

	for (k = 0; k < v->nprocs; k++)
		if (v->procs[k] == p)
			return;
	v->procs = xreallocarray(v->procs, v->nprocs + 1, sizeof(int));
	v->procs[v->nprocs++] = p;
}

/* One process's wait, "relay[1] waits in 'recv Prop[1]' (...) for relay[2]"
 * with "(ended)" after each process that has ended. */
static void
wait_line(struct buf *b, const struct sem *m, const uint64_t *s, int p)
{
	int	*w = xcalloc(m->nprocs + 1, sizeof(int)), n, any, k;

	name(b, m, p);
	buf_adds(b, " waits in ");
	stmt_text(b, m, p, ins_at(m, s, p));
	n = waits_for(m, s, p, w, &any);
	if (n == 0)
		buf_adds(b, " for a message no channel can bring");
	else {
		buf_adds(b, " for ");
		for (k = 0; k < n; k++) {
			if (k > 0)
				buf_adds(b, k == n - 1 ? (any ? " or " : " and ") : ", ");
			name(b, m, w[k]);
			if (sem_ended(m, s, w[k]))
				buf_adds(b, " (ended)");
		}
	}
	free(w);
}

/* A cycle among blocked processes in the wait-for graph: its length, the
 * processes in order in cyc; 0 if none. */
static int
find_cycle(const struct sem *m, const uint64_t *s, int *cyc)
{
	int	 N = m->nprocs, *color = xcalloc(N, sizeof(int));
	int	*stack = xcalloc(N + 1, sizeof(int)), *it = xcalloc(N + 1, sizeof(int));
	int	**adj = xcalloc(N, sizeof(int *)), *nadj = xcalloc(N, sizeof(int));
	int	 i, any, len = 0, sp, k;

	for (i = 0; i < N; i++) {
		if (sem_ended(m, s, i))
			continue;
		adj[i] = xcalloc(N + 1, sizeof(int));
		nadj[i] = waits_for(m, s, i, adj[i], &any);
	}
	for (i = 0; i < N && len == 0; i++) {
		if (color[i] != 0 || sem_ended(m, s, i))
			continue;
		sp = 0;
		stack[sp] = i;
		it[sp] = 0;
		color[i] = 1;
		while (sp >= 0 && len == 0) {
			int	u = stack[sp];

			if (it[sp] < nadj[u]) {
				int	v = adj[u][it[sp]++];

				if (sem_ended(m, s, v))
					continue;
				if (color[v] == 1) {
					/* The cycle: from v up the stack to u. */
					for (k = 0; stack[k] != v; k++)
						;
					for (; k <= sp; k++)
						cyc[len++] = stack[k];
				} else if (color[v] == 0) {
					color[v] = 1;
					stack[++sp] = v;
					it[sp] = 0;
				}
			} else {
				color[u] = 2;
				sp--;
			}
		}
	}
	for (i = 0; i < N; i++)
		free(adj[i]);
	free(adj);
	free(nadj);
	free(color);
	free(stack);
	free(it);
	return len;
}

static void
message_list(struct buf *b, const struct sem *m, const int *p, int n)
{
	int	k;

	for (k = 0; k < n; k++) {
		if (k > 0)
			buf_adds(b, k == n - 1 ? " and " : ", ");
		name(b, m, p[k]);
	}
}

/* Messages still in channels, a line each, into b; returns how many
 * channels hold some. */
static int
leftover(struct buf *b, const struct sem *m, const uint64_t *s, struct violation *v)
{
	const struct mpnet	*net = m->net;
	char			 pa[PCG_NAME_MAX + 32];
	int			 i, n = 0;
	uint64_t		 c;

	for (i = 0; i < net->ndc; i++) {
		const struct dchan	*d = &net->dc[i];

		if (sem_pooled(m, i) && m->pool[i] != i)
			continue;	/* counted with its pool's first */
		if ((c = sem_count(m, s, i)) == 0)
			continue;
		n++;
		if (sem_pooled(m, i)) {
			int	j;

			for (j = i; j < net->ndc; j++)
				if (m->pool[j] == i && v != NULL)
					add_proc(v, net->dc[j].from);
			buf_printf(b, "%" PRIu64 " message%s sent to ", c,
			    c == 1 ? "" : "s");
			name(b, m, d->to);
			buf_adds(b, " never received by its wildcard receive on ");
			buf_printf(b, "%s and its like", mpnet_port_name(net, d->to,
			    d->to_lp, pa, sizeof(pa)));
			buf_addc(b, '\n');
			continue;
		}
		if (v != NULL)
			add_proc(v, d->from);
		buf_printf(b, "%" PRIu64 " message%s from ", c, c == 1 ? "" : "s");
		name(b, m, d->from);
		buf_printf(b, ".%s", mpnet_port_name(net, d->from, d->from_lp, pa, sizeof(pa)));
		buf_adds(b, " never received by ");
		name(b, m, d->to);
		buf_printf(b, ".%s", mpnet_port_name(net, d->to, d->to_lp, pa, sizeof(pa)));
		buf_addc(b, '\n');
	}
	return n;
}

/* Whether p waits only for its own messages to be taken: in a send, or in
 * a waitall whose incomplete requests are all sends. */
static int
waits_to_send(const struct sem *m, const uint64_t *s, int p)
{
	const struct ins	*in = ins_at(m, s, p);
	int			 k;

	if (in->op == OP_SEND)
		return 1;
	if (in->op != OP_WAITALL)
		return 0;
	for (k = 0; k < in->nposted; k++)
		if (sem_slot(m, s, p, k) != 0 &&
		    m->p[p].pr->sd[in->sd + k].kind != SD_SEND)
			return 0;
	return 1;
}

static void
classify(struct violation *v, const struct sem *m, const uint64_t *s)
{
	struct buf	 msg, det;
	int		 N = m->nprocs, i, k, nblocked = 0, nended = 0, ncoll = 0;
	int		 sig = -1, mixed = 0, *cyc, len;

	buf_init(&msg);
	buf_init(&det);
	buf_adds(&msg, "");
	buf_adds(&det, "");
	for (i = 0; i < N; i++) {
		if (sem_ended(m, s, i)) {
			nended++;
			continue;
		}
		nblocked++;
		if (ins_at(m, s, i)->op == OP_COLL) {
			ncoll++;
			if (sig >= 0 && sig != ins_at(m, s, i)->coll)
				mixed = 1;
			sig = ins_at(m, s, i)->coll;
		}
	}
	if (nblocked == 0 && sem_get(s, m->csig) != 0) {
		const struct coll	*c = &m->net->colls[sem_get(s, m->csig) - 1];
		char			 pn[PCG_NAME_MAX];

		v->kind = VK_COLL_MISMATCH;
		buf_adds(&msg, "collective mismatch: ");
		for (i = 0, k = 0; i < N; i++) {
			if (sem_get(s, m->p[i].cdone) != 0)
				continue;
			add_proc(v, i);
			if (k++ > 0)
				buf_adds(&det, ", ");
			name(&det, m, i);
		}
		buf_printf(&det, " ended without the collective the others took "
		    "part in\n");
		message_list(&msg, m, v->procs, v->nprocs);
		buf_printf(&msg, " ended without '%s %s'", c->kind == S_BCAST ?
		    "bcast from" : c->kind == S_SCATTER ? "scatter from" :
		    c->kind == S_REDUCE ? "reduce to" : "gather to",
		    pcg_proc_name(m->net->pcg, c->root, pn, sizeof(pn)));
		goto done;
	}
	if (nblocked == 0) {
		if (leftover(&det, m, s, v) > 0) {
			v->kind = VK_UNMATCHED_SEND;
			buf_adds(&msg, "unmatched send: every process ended with "
			    "messages left in channels");
		} else {
			v->kind = VK_UNWAITED;
			buf_adds(&msg, "unwaited request: ");
			for (i = 0, k = 0; i < N; i++) {
				const struct ins	*in = ins_at(m, s, i);
				int			 j;

				if (m->p[i].pr == NULL || in->nposted == 0)
					continue;
				add_proc(v, i);
				name(&det, m, i);
				buf_printf(&det, " ended with %d request%s never "
				    "completed by 'waitall':", in->nposted,
				    in->nposted == 1 ? "" : "s");
				for (j = 0; j < in->nposted; j++) {
					const struct slotdesc *d = &m->p[i].pr->sd[in->sd + j];

					buf_addc(&det, ' ');
					stmt_text(&det, m, i, &m->p[i].pr->ins[d->ins]);
					if (j + 1 < in->nposted)
						buf_addc(&det, ',');
				}
				buf_addc(&det, '\n');
				k++;
			}
			message_list(&msg, m, v->procs, v->nprocs);
			buf_printf(&msg, " ended with requests never completed by "
			    "'waitall'");
		}
		goto done;
	}
	if (ncoll > 0 && (mixed || nended > 0 || ncoll == nblocked)) {
		v->kind = VK_COLL_MISMATCH;
		buf_adds(&msg, "collective mismatch: ");
		for (i = 0; i < N; i++) {
			if (sem_ended(m, s, i))
				continue;
			add_proc(v, i);
			wait_line(&det, m, s, i);
			if (ins_at(m, s, i)->op == OP_COLL && nended > 0)
				buf_adds(&det, "; ended processes never reach it");
			buf_addc(&det, '\n');
		}
		if (mixed || nended == 0)
			buf_adds(&msg, "processes reach different collectives, or "
			    "the same ones in a different order");
		else
			buf_adds(&msg, "processes wait in a collective that others "
			    "ended without");
		goto done;
	}
	cyc = xcalloc(N + 1, sizeof(int));
	len = find_cycle(m, s, cyc);
	if (len > 0) {
		v->kind = VK_DEADLOCK;
		for (k = 0; k < len; k++)
			add_proc(v, cyc[k]);
		buf_adds(&msg, "deadlock: ");
		if (len == 1) {
			name(&msg, m, cyc[0]);
			buf_adds(&msg, " waits for itself");
		} else {
			message_list(&msg, m, cyc, len);
			buf_adds(&msg, " wait for each other");
		}
		/* The cycle as one sentence. */
		for (k = 0; k < len; k++) {
			if (k == 0)
				name(&det, m, cyc[0]);
			else
				buf_adds(&det, ", which");
			buf_adds(&det, " waits in ");
			stmt_text(&det, m, cyc[k], ins_at(m, s, cyc[k]));
			buf_adds(&det, " for ");
			name(&det, m, cyc[(k + 1) % len]);
		}
		buf_addc(&det, '\n');
		for (i = 0; i < N; i++) {
			for (k = 0; k < len && cyc[k] != i; k++)
				;
			if (k < len || sem_ended(m, s, i))
				continue;
			wait_line(&det, m, s, i);
			buf_addc(&det, '\n');
		}
	} else {
		/* No cycle: the processes at the bottom wait only for ended
		 * ones; the rest wait for them. */
		int	*w = xcalloc(N + 1, sizeof(int)), *roots = xcalloc(N + 1, sizeof(int));
		int	 nroots = 0, sends = 0, any, nw, j;

		for (i = 0; i < N; i++) {
			if (sem_ended(m, s, i))
				continue;
			nw = waits_for(m, s, i, w, &any);
			for (j = 0; j < nw && sem_ended(m, s, w[j]); j++)
				;
			if (j < nw)
				continue;
			roots[nroots++] = i;
			add_proc(v, i);
			if (waits_to_send(m, s, i))
				sends++;
		}
		for (k = 0; k < nroots; k++) {
			wait_line(&det, m, s, roots[k]);
			buf_addc(&det, '\n');
		}
		for (i = 0; i < N; i++) {
			for (k = 0; k < nroots && roots[k] != i; k++)
				;
			if (k < nroots || sem_ended(m, s, i))
				continue;
			add_proc(v, i);
			wait_line(&det, m, s, i);
			buf_addc(&det, '\n');
		}
		if (sends == nroots) {
			v->kind = VK_UNMATCHED_SEND;
			buf_adds(&msg, "unmatched send: ");
			message_list(&msg, m, roots, nroots);
			buf_adds(&msg, nroots == 1 ? " waits" : " wait");
			buf_adds(&msg, " forever to send to processes that ended");
		} else {
			v->kind = VK_ORPHAN_RECV;
			buf_adds(&msg, "orphan receive: ");
			message_list(&msg, m, roots, nroots);
			buf_adds(&msg, nroots == 1 ? " waits" : " wait");
			buf_adds(&msg, " forever for a message from processes that ended");
		}
		if (nblocked > nroots)
			buf_printf(&msg, ", and %d other%s wait%s behind", nblocked - nroots,
			    nblocked - nroots == 1 ? "" : "s",
			    nblocked - nroots == 1 ? "s" : "");
		free(w);
		free(roots);
	}
	free(cyc);
	/* Messages that never arrived say what went wrong, too. */
	leftover(&det, m, s, NULL);
done:
	v->message = buf_steal(&msg);
	v->detail = buf_steal(&det);
	buf_free(&msg);
	buf_free(&det);
}

/* One action of a counterexample, in the state s before it. */
static void
action_text(struct buf *b, const struct sem *m, const uint64_t *s, const struct trans *t)
{
	const struct mpnet	*net = m->net;
	const struct ins	*in = ins_at(m, s, t->proc);
	const struct dchan	*d = t->dc >= 0 ? &net->dc[t->dc] : NULL;

	if (t->kind == T_COLL) {
		buf_printf(b, "all %d processes: ", m->nprocs);
		stmt_text(b, m, t->proc, in);
		return;
	}
	name(b, m, t->proc);
	buf_adds(b, ": ");
	switch (t->kind) {
	case T_MATCH:
	case T_RECV:
		if (t->kind == T_MATCH) {
			const struct slotdesc *sd = &m->p[t->proc].pr->sd[in->sd + t->slot];

			buf_adds(b, "request ");
			stmt_text(b, m, t->proc, &m->p[t->proc].pr->ins[sd->ins]);
		} else
			stmt_text(b, m, t->proc, in);
		if (sem_pooled(m, t->dc))
			buf_adds(b, " takes one of the messages waiting for it");
		else {
			buf_adds(b, " takes a message from ");
			name(b, m, d->from);
		}
		break;
	case T_CHOOSE:
		stmt_text(b, m, t->proc, in);
		buf_printf(b, " takes branch %d", t->alt + 1);
		break;
	case T_LEAVE:
		stmt_text(b, m, t->proc, in);
		buf_adds(b, " done");
		break;
	default:
		stmt_text(b, m, t->proc, in);
		break;
	}
	if (t->rdv) {
		const struct ins	*si = ins_at(m, s, d->from);

		buf_adds(b, ", completing its synchronous ");
		stmt_text(b, m, d->from, si);
	}
}

void
report_violation(struct violation *v, const struct sem *m_, const uint64_t *final,
    const struct trans *trace, size_t ntrace)
{
	struct sem	*m = (struct sem *)m_;
	uint64_t	*s = xcalloc(m->words, sizeof(uint64_t));
	struct buf	 b;
	size_t		 k, first = ntrace > REPORT_TAIL ? ntrace - REPORT_TAIL : 0;

	memset(v, 0, sizeof(*v));
	classify(v, m, final);
	v->final = xcalloc(m->words, sizeof(uint64_t));
	memcpy(v->final, final, sizeof(uint64_t) * m->words);
	v->trace_total = ntrace;
	v->trace_first = first;
	v->trace = xcalloc(ntrace - first + 1, sizeof(char *));
	buf_init(&b);
	sem_initial(m, s);
	for (k = 0; k < ntrace; k++) {
		if (k >= first) {
			buf_reset(&b);
			buf_adds(&b, "");
			action_text(&b, m, s, &trace[k]);
			v->trace[v->ntrace++] = buf_steal(&b);
		}
		sem_fire(m, s, &trace[k]);
	}
	buf_free(&b);
	free(s);
}

void
violation_free(struct violation *v)
{
	int	k;

	if (v == NULL)
		return;
	free(v->message);
	free(v->detail);
	free(v->procs);
	for (k = 0; k < v->ntrace; k++)
		free(v->trace[k]);
	free(v->trace);
	free(v->final);
}
