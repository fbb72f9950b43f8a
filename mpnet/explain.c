/* explain.c -- a violation drawn (explain.h): the PCG as 'ensemble graph'
 * draws it, each process coloured by its state in the violation's end
 * state (ended grey, in the wait-for cycle red, blocked elsewhere orange)
 * with the statement it waits in, and the cycle's channels red and bold;
 * or (a .html name) the counterexample as a timeline (common/timeline.h):
 * a lane per process, a box per action, arrows from each send to the
 * receive that took its message, the blocked processes' last statements
 * marked and who waits for whom drawn.
 *
 * draw.c makes the drawing; this file takes its DOT, marks it and renders
 * it, so the drawing code knows nothing of violations. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "explain.h"
#include "graph.h"
#include "sem.h"
#include "timeline.h"
#include "xmalloc.h"

/* Graphviz 2.42's cgraph takes 'char *' for names and values it only
 * reads; the string literals this file passes it are safe. */
#ifdef __clang__
#pragma clang diagnostic ignored "-Wincompatible-pointer-types-discards-qualifiers"
#else
#pragma GCC diagnostic ignored "-Wdiscarded-qualifiers"
#endif

#define EXPLAIN_ENDED	"#cccccc"
#define EXPLAIN_CYCLE	"#ea9999"
#define EXPLAIN_BLOCKED	"#f9cb9c"

/* The layout the checker's states are in (mode_result says which). */
static int
explain_sem(struct sem *m, const struct mpnet *net, const struct mode_result *r)
{
	sem_init_layout(m, net, r->mode, &r->layout);
	if (m->bytes == r->state_bytes)
		return 0;
	sem_fini(m);
	return -1;
}

/* The channel p waits on for q, or -1 (a collective). */
static int
explain_chan(const struct sem *m, const uint64_t *s, int p, int q)
{
	const struct mpnet	*net = m->net;
	const struct ins	*in = &net->progs[p]->ins[sem_pc(m, s, p)];
	int			 base = net->pcg->procs[p].portbase, lp, dc, k, c;

	switch (in->op) {
	case OP_SEND:
		if ((dc = net->send_dc[base + in->lp]) >= 0 && net->dc[dc].to == q)
			return net->dc[dc].chan;
		break;
	case OP_RECVPROBED:
		if ((dc = net->recv_dc[base + sem_recv_lp(m, s, p, in)]) >= 0 &&
		    net->dc[dc].from == q)
			return net->dc[dc].chan;
		break;
	case OP_RECV:
	case OP_RECVANY:
	case OP_PROBE:
	case OP_PROBEANY:
		for (lp = in->op == OP_RECV || in->op == OP_PROBE ? in->lp : in->lo;
		    lp < (in->op == OP_RECV || in->op == OP_PROBE ? in->lp + 1 :
		    in->hi); lp++)
			if ((dc = net->recv_dc[base + lp]) >= 0 && net->dc[dc].from == q)
				return net->dc[dc].chan;
		break;
	case OP_WAITALL:
	case OP_WAIT:
	case OP_WAITANY:
	case OP_WAITSOME:
		for (k = 0; k < in->nposted; k++) {
			const struct slotdesc	*d = &net->progs[p]->sd[in->sd + k];

			if (sem_slot(m, s, p, k) == 0 || (in->op != OP_WAITALL &&
			    !(in->wmask >> k & 1)))
				continue;
			if (d->kind == SD_SEND) {
				dc = net->send_dc[base + d->lp];
				if (dc >= 0 && net->dc[dc].to == q)
					return net->dc[dc].chan;
				continue;
			}
			for (lp = d->kind == SD_RECV ? d->lp : d->lo;
			    lp < (d->kind == SD_RECV ? d->lp + 1 : d->hi); lp++)
				if ((dc = net->recv_dc[base + lp]) >= 0 &&
				    net->dc[dc].from == q)
					return net->dc[dc].chan;
		}
		break;
	default:
		break;
	}
	for (c = 0; c < net->pcg->nchans; c++) {
		const struct pcg_chan	*ch = &net->pcg->chans[c];

		if (in->op != OP_COLL && ((ch->e[0].proc == p && ch->e[1].proc == q) ||
		    (ch->e[0].proc == q && ch->e[1].proc == p)))
			return c;
	}
	return -1;
}

/* A process's node: the header cell in colour, the statement it waits in
 * below its component. */
static void
explain_node(Agraph_t *R, Agnode_t *v, const char *colour, const char *note)
{
	const char	*lab = agget(v, "label"), *td, *q, *it;
	struct buf	 b;
	char		*h;

	if (lab == NULL || (td = strstr(lab, "<TD BGCOLOR=\"")) == NULL ||
	    (it = strstr(td, "</I></FONT>")) == NULL)
		return;
	td += strlen("<TD BGCOLOR=\"");
	if ((q = strchr(td, '"')) == NULL)
		return;
	buf_init(&b);
	buf_add(&b, lab, (size_t)(td - lab));
	buf_adds(&b, colour);
	it += strlen("</I></FONT>");
	buf_add(&b, q, (size_t)(it - q));
	buf_adds(&b, "<BR/><FONT POINT-SIZE=\"9\">");
	draw_html_escape(&b, note);
	buf_adds(&b, "</FONT>");
	buf_adds(&b, it);
	h = agstrdup_html(R, b.s);
	agset(v, "label", h);
	agstrfree(R, h);
	buf_free(&b);
}

/* Mark the drawing R of the model: processes by their state in s, the
 * cycle's channels. */
static void
explain_mark(Agraph_t *R, const struct sem *m, const uint64_t *s,
    const struct mode_result *r, const int *cyc, int ncyc)
{
	const struct mpnet	*net = m->net;
	char			 pn[PCG_NAME_MAX], it[PCG_NAME_MAX + 64], key[32];
	char			*note, label[PCG_NAME_MAX + 128];
	Agnode_t		*v;
	Agedge_t		*e;
	int			 i, k, c, in_cycle;

	snprintf(label, sizeof(label), "%s: %s (%s mode)", net->pcg->name,
	    vkind_name(r->viol->kind), check_mode_name(r->mode));
	agsafeset(R, "label", label, "");
	for (i = 0; i < net->nprocs; i++) {
		const struct ins	*in = &net->progs[i]->ins[sem_pc(m, s, i)];

		if ((v = agnode(R, (char *)pcg_proc_name(net->pcg, i, pn,
		    sizeof(pn)), 0)) == NULL)
			continue;
		for (k = 0, in_cycle = 0; k < ncyc; k++)
			if (cyc[k] == i)
				in_cycle = 1;
		if (sem_ended(m, s, i)) {
			explain_node(R, v, EXPLAIN_ENDED, "ended");
			continue;
		}
		mpnet_ins_text(net, i, in, it, sizeof(it));
		if (in->src != NULL && in->src->loc.src != NULL)
			xasprintf(&note, "%s '%s' (line %d)", mpnet_op_polls(in->op) ?
			    "polls in" : "waits in", it, in->src->loc.first_line);
		else
			xasprintf(&note, "%s '%s'", mpnet_op_polls(in->op) ?
			    "polls in" : "waits in", it);
		explain_node(R, v, in_cycle ? EXPLAIN_CYCLE : EXPLAIN_BLOCKED, note);
		free(note);
	}
	for (k = 0; k < ncyc; k++) {
		int	p = cyc[k], q = cyc[(k + 1) % ncyc];

		if ((c = explain_chan(m, s, p, q)) < 0)
			continue;
		snprintf(key, sizeof(key), "c%d", c + 1);
		for (v = agfstnode(R); v != NULL; v = agnxtnode(R, v)) {
			for (e = agfstout(R, v); e != NULL; e = agnxtout(R, e)) {
				if (strcmp(agnameof(e), key) != 0)
					continue;
				agsafeset(e, "color", "red", "");
				agsafeset(e, "penwidth", "3.5", "");
				agsafeset(e, "style", "bold", "");
			}
		}
	}
}

int
explain_format(const char *path)
{
	const char	*ext = draw_suffix(path);

	if (ext != NULL && (strcasecmp(ext, "html") == 0 ||
	    strcasecmp(ext, "htm") == 0))
		return EXPLAIN_HTML;
	return ext == NULL ? -1 : draw_format_of(ext);
}

/* "'send Prop[1]' (dmax.pcg:31:17)": instruction in of process p. */
static void
explain_stmt(struct buf *b, const struct mpnet *net, int p, const struct ins *in)
{
	char	t[PCG_NAME_MAX + 64];

	buf_printf(b, "'%s'", mpnet_ins_text(net, p, in, t, sizeof(t)));
	if (in->src != NULL && in->src->loc.src != NULL)
		buf_printf(b, " (%s:%d:%d)", in->src->loc.src->name,
		    in->src->loc.first_line, in->src->loc.first_column);
}

/* The box of one action of process p (instruction in): its label the
 * statement, its tooltip the action as the report words it. */
static size_t
explain_box(struct timeline *tl, const struct mpnet *net, int p,
    const struct ins *in, double a, const char *kind, const char *action,
    const char *peer)
{
	struct buf	 tip, lab;
	char		 t[PCG_NAME_MAX + 64];
	size_t		 box;

	buf_init(&tip);
	buf_init(&lab);
	buf_adds(&lab, mpnet_ins_text(net, p, in, t, sizeof(t)));
	buf_printf(&tip, "action %.0f\nstatement: ", a);
	explain_stmt(&tip, net, p, in);
	if (peer != NULL)
		buf_printf(&tip, "\npeer: %s", peer);
	buf_printf(&tip, "\n%s", action);
	box = timeline_box(tl, p, a - 0.45, a + 0.45, kind, lab.s, tip.s);
	buf_free(&tip);
	buf_free(&lab);
	return box;
}

/* The counterexample r->viol as a timeline to f: the actions replayed from
 * the state before the first shown, each a box at its number; messages
 * matched to the receives that take them in the order each directed
 * channel (or pool) holds them; a rendezvous draws the synchronous send
 * it completes; then each process's end: blocked ones marked, waits drawn. */
static int
explain_timeline(const struct mpnet *net, struct sem *m,
    const struct mode_result *r, FILE *f, char **cause)
{
	const struct violation	*v = r->viol;
	struct timeline		*tl;
	struct buf		 b;
	uint64_t		*s;
	size_t			**q, *nq, *aq, *hq, box, from;
	char			 pn[PCG_NAME_MAX], pn2[PCG_NAME_MAX];
	double			 a = (double)v->trace_first;
	int			 i, k, key, rc;

	buf_init(&b);
	buf_printf(&b, "%s: %s (%s mode)", net->pcg->name, v->message,
	    check_mode_name(r->mode));
	tl = timeline_new(b.s, TIMELINE_STEPS);
	buf_reset(&b);
	buf_printf(&b, "counterexample: %zu action%s from the start, one box "
	    "each; arrows: messages; red: the blocked processes' last "
	    "statements and who waits for whom", v->trace_total,
	    v->trace_total == 1 ? "" : "s");
	if (v->trace_first > 0)
		buf_printf(&b, " (actions 1 to %zu left out)", v->trace_first);
	if (r->deep)
		buf_printf(&b, "; found depth first: a shorter one may exist");
	timeline_note(tl, b.s);
	timeline_note(tl, v->detail);
	for (i = 0; i < net->nprocs; i++)
		timeline_lane(tl, pcg_proc_name(net->pcg, i, pn, sizeof(pn)));
	q = xcalloc((size_t)net->ndc + 1, sizeof(*q));
	nq = xcalloc((size_t)net->ndc + 1, sizeof(*nq));
	aq = xcalloc((size_t)net->ndc + 1, sizeof(*aq));
	hq = xcalloc((size_t)net->ndc + 1, sizeof(*hq));
	s = xcalloc(m->words, sizeof(uint64_t));
	memcpy(s, v->start, sizeof(uint64_t) * m->words);
	for (k = 0; k < v->ntrace; k++) {
		const struct trans	*t = &v->steps[k];
		const struct ins	*in = &net->progs[t->proc]->ins[sem_pc(m, s,
					    t->proc)];
		const struct dchan	*d = t->dc >= 0 ? &net->dc[t->dc] : NULL;

		a += 1;
		key = t->dc >= 0 && sem_pooled(m, t->dc) ? m->pool[t->dc] : t->dc;
		switch (t->kind) {
		case T_COLL:	/* every member of its communicator */
			for (i = 0; i < net->nprocs; i++)
				if (mpnet_in_comm(net, sem_comm(m, in), i))
					explain_box(tl, net, i, &net->progs[i]->ins[
					    sem_pc(m, s, i)], a, "collective",
					    v->trace[k], NULL);
			break;
		case T_SEND:
		case T_ISEND:
			box = explain_box(tl, net, t->proc, in, a, t->kind == T_SEND ?
			    "send" : "isend", v->trace[k], pcg_proc_name(net->pcg,
			    d->to, pn, sizeof(pn)));
			xgrow(&q[key], &aq[key], nq[key] + 1, sizeof(**q));
			q[key][nq[key]++] = box;
			break;
		case T_RECV:
		case T_MATCH:
			if (t->kind == T_MATCH)
				in = &net->progs[t->proc]->ins[net->progs[t->proc]->sd[
				    in->sd + t->slot].ins];
			box = explain_box(tl, net, t->proc, in, a, t->kind == T_RECV ?
			    "recv" : "irecv", v->trace[k], pcg_proc_name(net->pcg,
			    d->from, pn, sizeof(pn)));
			if (t->rdv) {	/* the sender blocked in a synchronous send */
				from = explain_box(tl, net, d->from,
				    &net->progs[d->from]->ins[sem_pc(m, s, d->from)],
				    a, "send", v->trace[k], pcg_proc_name(net->pcg,
				    t->proc, pn2, sizeof(pn2)));
				timeline_arrow(tl, from, box);
			} else if (hq[key] < nq[key])
				timeline_arrow(tl, q[key][hq[key]++], box);
			break;
		case T_IPOST:
			explain_box(tl, net, t->proc, in, a, "post", v->trace[k], NULL);
			break;
		case T_WAIT:
			explain_box(tl, net, t->proc, in, a, "wait", v->trace[k], NULL);
			break;
		case T_CHOOSE:
			explain_box(tl, net, t->proc, in, a, "choose", v->trace[k], NULL);
			break;
		case T_LEAVE:
			explain_box(tl, net, t->proc, in, a, "leave", v->trace[k], NULL);
			break;
		case T_TEST:
		case T_IPROBE:
		case T_WAITANY:
			explain_box(tl, net, t->proc, in, a, "choose", v->trace[k], NULL);
			break;
		case T_PROBE:
			explain_box(tl, net, t->proc, in, a, "probe", v->trace[k], NULL);
			break;
		}
		sem_fire(m, s, t);
	}
	/* The end: each process's state in the violation's last state. */
	a += 1;
	for (i = 0; i < net->nprocs; i++) {
		const struct ins	*in = &net->progs[i]->ins[sem_pc(m, v->final,
					    i)];

		if (sem_ended(m, v->final, i)) {
			timeline_box(tl, i, a - 0.45, a + 0.45, "ended", "ended",
			    "ended: at the end of its behaviour");
			continue;
		}
		buf_reset(&b);
		/* (a livelock's pollers go round, not blocked) */
		buf_adds(&b, mpnet_op_polls(in->op) ? "polls in vain at " :
		    "blocked: waits in ");
		explain_stmt(&b, net, i, in);
		box = explain_box(tl, net, i, in, a, "blocked", b.s, NULL);
		timeline_mark(tl, box, b.s);
	}
	for (k = 0; k < v->nwaits; k++)
		timeline_wait(tl, v->waits[2 * k], v->waits[2 * k + 1], NULL);
	rc = timeline_write(tl, f, cause);
	for (i = 0; i < net->ndc; i++)
		free(q[i]);
	free(q);
	free(nq);
	free(aq);
	free(hq);
	free(s);
	buf_free(&b);
	timeline_free(tl);
	return rc;
}

/* Write the timeline of r's violation to path. */
static int
explain_html(const struct mpnet *net, const struct mode_result *r,
    const char *path, char **cause)
{
	struct sem	 m;
	FILE		*f;
	int		 rc;

	if (r->viol->steps == NULL || r->viol->start == NULL) {
		xasprintf(cause, "the counterexample's actions were not kept");
		return -1;
	}
	if (explain_sem(&m, net, r) != 0) {
		xasprintf(cause, "the end state's layout cannot be reproduced");
		return -1;
	}
	if ((f = fopen(path, "w")) == NULL) {
		xasprintf(cause, "%s", strerror(errno));
		sem_fini(&m);
		return -1;
	}
	rc = explain_timeline(net, &m, r, f, cause);
	if (fclose(f) != 0 && rc == 0) {
		xasprintf(cause, "%s", strerror(errno));
		rc = -1;
	}
	if (rc != 0)
		draw_remove_partial(path);
	sem_fini(&m);
	return rc;
}

int
explain_draw(const struct mpnet *net, const struct mode_result *r, const char *path,
    char **cause)
{
	const char	*layout;
	int		 fmt;
	struct sem	 m;
	Agraph_t	*G = NULL, *R = NULL;
	GVC_t		*gvc = NULL;
	FILE		*tf = NULL, *f = NULL;
	char		 tmpl[1024];
	int		 fd = -1, rc = -1, ncyc = 0, have_sem = 0;
	int		*cyc = NULL, status;
	pid_t		 pid;

	*cause = NULL;
	if (r->viol == NULL || r->viol->final == NULL) {
		xasprintf(cause, "no violation to explain");
		return -1;
	}
	if ((fmt = explain_format(path)) < 0) {
		xasprintf(cause, "cannot tell the format (name it .svg, .png, .pdf, "
		    ".dot or .html)");
		return -1;
	}
	if (fmt == EXPLAIN_HTML)
		return explain_html(net, r, path, cause);
	if (explain_sem(&m, net, r) != 0) {
		xasprintf(cause, "the end state's layout cannot be reproduced");
		return -1;
	}
	have_sem = 1;
	if (r->viol->kind == VK_DEADLOCK) {
		cyc = r->viol->procs;
		ncyc = r->viol->nprocs;
	}

	/* draw.c's drawing as DOT, read back to be marked. */
	snprintf(tmpl, sizeof(tmpl), "%s/ensemble-explain.XXXXXX",
	    getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
	if ((fd = mkstemp(tmpl)) < 0) {
		xasprintf(cause, "cannot make a scratch file: %s", strerror(errno));
		goto out;
	}
	close(fd);
	G = pcg_graph(net->pcg);
	layout = draw_layout_for(G);
	/*
	 * Graphviz 2.43's pango plugin remembers the last font name of a
	 * context after gvFreeContext frees it, and the next context reads
	 * it (a use after free).  draw_pcg makes and frees a context of its
	 * own, so it runs in a child: this process uses one context only.
	 */
	fflush(NULL);
	if ((pid = fork()) < 0) {
		xasprintf(cause, "cannot fork: %s", strerror(errno));
		goto out;
	}
	if (pid == 0) {
		char	*c2 = NULL;

		_exit(draw_pcg(G, DRAW_DOT, layout, tmpl, &c2) == 0 ? 0 : 1);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		xasprintf(cause, "Graphviz could not draw the graph");
		goto out;
	}
	if ((tf = fopen(tmpl, "r")) == NULL || (R = agread(tf, NULL)) == NULL) {
		xasprintf(cause, "cannot read the drawing back");
		goto out;
	}
	explain_mark(R, &m, r->viol->final, r, cyc, ncyc);

	if ((f = fopen(path, "w")) == NULL) {
		xasprintf(cause, "%s", strerror(errno));
		goto out;
	}
	gvc = gvContext();
	if (draw_render(gvc, R, fmt, layout, f, "graph", cause) != 0)
		goto out;	/* (rc stays -1) */
	rc = 0;
out:
	if (f != NULL && fclose(f) != 0 && rc == 0) {
		xasprintf(cause, "%s", strerror(errno));
		rc = -1;
	}
	if (f != NULL && rc != 0)
		draw_remove_partial(path);
	if (tf != NULL)
		fclose(tf);
	if (fd >= 0)
		remove(tmpl);
	if (R != NULL)
		agclose(R);
	if (G != NULL)
		agclose(G);
	if (gvc != NULL)
		gvFreeContext(gvc);
	if (have_sem)
		sem_fini(&m);
	return rc;
}
