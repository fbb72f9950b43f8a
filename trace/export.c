/* export.c -- the exporters' table and its front (export.h), and the
 * writers of GXL, Chrome's trace-event JSON and the timeline viewer's
 * page; OTF2 is export-otf2.c's, which the table names (export-int.h).
 *
 * Messages: MTF's Message is the pair of a send (send, isend) and the
 * receive that took it (recv, or the wait completing an irecv), paired as
 * match.h does it: the table holds only messages one end of which was
 * seen. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "export-int.h"
#include "json.h"
#include "match.h"
#include "timeline.h"
#include "xmalloc.h"

/* ---- the walk over the events, shared by the writers ---- */

struct xp;

/* An end of a message as the writers see it: its event's rank, times
 * and handle. */
struct xp_end {
	int		 rank;
	double		 t0, t1;
	uint64_t	 id;		/* the writer's handle of the event */
};

/* What a format does with each event and each message. */
struct xp_ops {
	int	(*start)(struct xp *);
	/* The event's handle, for its messages. */
	uint64_t (*event)(struct xp *, const struct trace_event *);
	void	(*message)(struct xp *, const struct xp_end *send,
		    const struct xp_end *recv, int tag, uint64_t bytes);
	int	(*finish)(struct xp *);
};

struct xp {
	const struct export_opts *o;
	struct trace_reader	*r;
	const struct trace_hdr	*h;
	FILE			*f;
	struct export_stats	*st;
	struct match		*ends;		/* data: the event's handle */
	struct timeline		*tl;
	int			 first;		/* Chrome: no comma yet */
	uint64_t		 bytes;		/* of the message being matched */
	/* The page: time zero (ns from the origin), its operation
	 * ("node[1]: send Right[1]"), the operations shown and the end of
	 * the last. */
	int64_t			 zero;
	char			*zero_op;
	int			 ops;
	double			 ops_end;
	/* The page: the call drawn last, whose further lines join its box
	 * (trace_same_call): its first line, box, lines, each line's part
	 * of its tooltip, and the rest of it (times, statement). */
	struct trace_event	 call;
	int			 in_call;
	size_t			 call_box;
	int			 call_lines;
	struct buf		 call_parts;
	struct buf		 call_rest;
};

/* The writers' view of an end. */
static void
xp_end_of(const struct match_end *m, uint64_t id, struct xp_end *e)
{
	e->rank = m->side == TRACE_SIDE_SEND ? m->from : m->to;
	e->t0 = (double)m->t0ns / 1e9;
	e->t1 = (double)m->t1ns / 1e9;
	e->id = id;
}

/* An event that may be an end of a message: matched with the other, or
 * kept for it. */
static void
xp_end(struct xp *x, const struct xp_ops *ops, const struct trace_event *ev,
    uint64_t id)
{
	struct match_end mine;
	const struct match_end *other;
	struct xp_end	 e, o;
	uint64_t	 oid;

	if (!match_end_of(ev, &mine))
		return;
	mine.data = &id;
	if ((other = match_take(x->ends, &mine)) == NULL)
		return;
	memcpy(&oid, other->data, sizeof(oid));
	xp_end_of(&mine, id, &e);
	xp_end_of(other, oid, &o);
	x->st->messages++;
	if (mine.side == TRACE_SIDE_SEND)
		ops->message(x, &e, &o, ev->tag, ev->sbytes);
	else
		ops->message(x, &o, &e, ev->tag, ev->rbytes);
}

/* Walk the events: each to the format, then its message ends. */
static int
xp_walk(struct xp *x, const struct xp_ops *ops, char **cause)
{
	struct trace_event	 ev;
	uint64_t		 id;
	int			 rc;

	if (ops->start != NULL && ops->start(x) != 0)
		goto werr;
	while ((rc = trace_next(x->r, &ev, cause)) == 1) {
		x->st->events++;
		id = ops->event(x, &ev);
		xp_end(x, ops, &ev, id);
	}
	if (rc < 0)
		return -1;
	if (ops->finish != NULL && ops->finish(x) != 0)
		goto werr;
	if (fflush(x->f) != 0 || ferror(x->f))
		goto werr;
	return 0;
werr:
	xasprintf(cause, "cannot write '%s': %s", x->o->path,
	    strerror(errno != 0 ? errno : EIO));
	return -1;
}

/* ---- names ---- */

/* "send Prop[1]", "bcast", "MPI_Send" (a raw call): an event's short name. */
static void
xp_label(struct buf *b, const struct trace_event *ev)
{
	if (ev->raw) {
		buf_adds(b, trace_mpi_name(ev));
		return;
	}
	buf_adds(b, trace_op_name(ev->op));
	if (ev->op == TRACE_SEND && ev->mode == TRACE_MODE_SYNC)
		buf_adds(b, " (sync)");
	else if (ev->op == TRACE_SEND && ev->mode == TRACE_MODE_BUF)
		buf_adds(b, " (buffered)");
	if (ev->port != NULL)
		buf_printf(b, " %s", ev->port);
}

/* A process's name, or "rank N" when the header has none. */
static const char *
xp_proc(const struct trace_hdr *h, int rank, char *tmp, size_t len)
{
	if (rank >= 0 && rank < h->nprocs && h->processes[rank].name != NULL)
		return h->processes[rank].name;
	snprintf(tmp, len, "rank %d", rank);
	return tmp;
}

/* ---- XML and JSON strings ---- */

static void
xml_str(FILE *f, const char *s)
{
	unsigned char	c;

	for (; (c = (unsigned char)*s) != '\0'; s++) {
		switch (c) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default:
			if (c < 0x20 && c != '\t' && c != '\n')
				fprintf(f, "?");	/* (no XML 1.0 character) */
			else
				putc(c, f);
		}
	}
}

/* ---- GXL: MTF's nodes and edges (Alawneh and Hamou-Lhadj, figure 2) ---- */

static void
gxl_attr_s(FILE *f, const char *name, const char *v)
{
	fprintf(f, "<attr name=\"%s\"><string>", name);
	xml_str(f, v != NULL ? v : "");
	fputs("</string></attr>", f);
}

/* An integer attribute of a node. */
static void
gxl_attr_i(FILE *f, const char *name, long long v)
{
	fprintf(f, "<attr name=\"%s\"><int>%lld</int></attr>", name, v);
}

/* A typed edge from node 'from' to node 'to'. */
static void
gxl_edge(FILE *f, const char *from, const char *to, const char *type)
{
	fprintf(f, "<edge from=\"%s\" to=\"%s\"><type xlink:href=\"MTF#%s\"/></edge>\n",
	    from, to, type);
}

/* The document's head and the nodes of the header: the scenario and
 * its parameters, the trace, processors, processes, communicators. */
static int
gxl_start(struct xp *x)
{
	const struct trace_hdr	*h = x->h;
	FILE			*f = x->f;
	char			 a[32], b[32];
	size_t			 k;
	int			 i;

	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<!DOCTYPE gxl SYSTEM \"http://www.gupro.de/GXL/gxl-1.0.dtd\">\n"
	    "<gxl xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n"
	    "<graph id=\"mtf\" edgeids=\"false\" edgemode=\"directed\">\n", f);
	fputs("<node id=\"scen1\"><type xlink:href=\"MTF#Scenario\"/>", f);
	gxl_attr_s(f, "description", h->script);
	gxl_attr_s(f, "application", h->application);
	gxl_attr_s(f, "date", h->date);
	if (h->nparams > 0) {
		fputs("<attr name=\"parameters\"><seq>", f);
		for (k = 0; k < h->nparams; k++) {
			fputs("<tup><string>", f);
			xml_str(f, h->params[k].name);
			fputs("</string><string>", f);
			xml_str(f, h->params[k].value);
			fputs("</string></tup>", f);
		}
		fputs("</seq></attr>", f);
	}
	fputs("</node>\n<node id=\"trace1\"><type xlink:href=\"MTF#MPITrace\"/>", f);
	gxl_attr_s(f, "startTime", h->start);
	gxl_attr_i(f, "processes", h->nprocs);
	fputs("</node>\n", f);
	gxl_edge(f, "scen1", "trace1", "hasTrace");
	for (k = 0; k < h->nprocessors; k++) {
		fprintf(f, "<node id=\"prcr%zu\"><type xlink:href=\"MTF#Processor\"/>", k);
		gxl_attr_s(f, "ProcessorName", h->processors[k].host);
		fputs("</node>\n", f);
	}
	for (i = 0; i < h->nprocs; i++) {
		const struct trace_process *p = &h->processes[i];

		fprintf(f, "<node id=\"prc%d\"><type xlink:href=\"MTF#Process\"/>", i);
		gxl_attr_i(f, "rank", i);
		gxl_attr_s(f, "ProcessName", p->name);
		gxl_attr_s(f, "component", p->component);
		fputs("</node>\n", f);
		snprintf(a, sizeof(a), "prc%d", i);
		snprintf(b, sizeof(b), "prcr%d", p->processor);
		if (p->processor >= 0 && (size_t)p->processor < h->nprocessors)
			gxl_edge(f, a, b, "runsOn");
		gxl_edge(f, "trace1", a, "hasProcess");
	}
	for (k = 0; k < h->ncomms; k++) {
		fprintf(f, "<node id=\"comm%zu\"><type xlink:href=\"MTF#Communicator\"/>", k);
		gxl_attr_s(f, "COMMName", h->comms[k].name);
		gxl_attr_i(f, "size", h->comms[k].size);
		fputs("</node>\n", f);
		/* A group's members, each with its rank in it. */
		for (i = 0; h->comms[k].members != NULL &&
		    i < h->comms[k].size; i++) {
			fprintf(f, "<edge from=\"comm%zu\" to=\"prc%d\"><type "
			    "xlink:href=\"MTF#hasMember\"/>", k,
			    h->comms[k].members[i]);
			gxl_attr_i(f, "rank", i);
			fputs("</edge>\n", f);
		}
	}
	return ferror(f) ? -1 : 0;
}

/* MTF's class of an operation. */
static const char *
gxl_class(enum trace_op op)
{
	switch (op) {
	case TRACE_INIT: return "MPI_Init";
	case TRACE_FIN: return "MPI_Finalize";
	case TRACE_SEND: return "Send";
	case TRACE_RECV: return "Receive";
	case TRACE_ISEND: return "NonBlockingSend";
	case TRACE_IRECV: return "NonBlockingReceive";
	case TRACE_WAIT: return "Wait";
	case TRACE_SENDRECV:
	case TRACE_SENDRECVREPLACE: return "SendReceive";
	case TRACE_WAITONE:
	case TRACE_WAITANY:
	case TRACE_WAITSOME: return "Wait";
	case TRACE_TEST:
	case TRACE_TESTFALSE: return "Test";
	case TRACE_PROBE:
	case TRACE_IPROBE:
	case TRACE_IPROBEFALSE: return "Probe";
	default: return "CollectiveOperation";
	}
}

/* An operation node with its fields, and its edges from the trace and
 * to its process and communicator. */
static uint64_t
gxl_event(struct xp *x, const struct trace_event *ev)
{
	FILE		*f = x->f;
	uint64_t	 id = x->st->events;
	char		 a[32], b[32];

	fprintf(f, "<node id=\"trc%" PRIu64 "\"><type xlink:href=\"MTF#%s\"/>", id,
	    gxl_class(ev->op));
	gxl_attr_s(f, "MPOperationName", trace_mpi_name(ev));
	fprintf(f, "<attr name=\"startTime\"><float>%.9f</float></attr>"
	    "<attr name=\"endTime\"><float>%.9f</float></attr>", ev->t0, ev->t1);
	if (ev->mode != TRACE_MODE_NONE)
		gxl_attr_s(f, "mode", trace_mode_name(ev->mode));
	if (ev->port != NULL)
		gxl_attr_s(f, "port", ev->port);
	if (ev->peer >= 0)
		gxl_attr_i(f, trace_side(ev) == TRACE_SIDE_SEND ?
		    "destination" : traceline_is_coll(ev->op) ? "root" : "source",
		    ev->peer);
	else if (ev->peer == TRACE_ANY)
		gxl_attr_s(f, "source", "MPI_ANY_SOURCE");
	if (ev->tag >= 0)
		gxl_attr_i(f, "tag", ev->tag);
	if (ev->dtype != NULL)
		gxl_attr_s(f, "dataType", ev->dtype);
	if (ev->count >= 0)
		gxl_attr_i(f, "count", ev->count);
	gxl_attr_i(f, "bytesSent", (long long)ev->sbytes);
	gxl_attr_i(f, "bytesReceived", (long long)ev->rbytes);
	if (ev->req >= 0)
		gxl_attr_i(f, "request", ev->req);
	if (ev->seq >= 0)
		gxl_attr_i(f, "sequence", ev->seq);
	gxl_attr_s(f, "via", ev->raw ? "raw" : "port");
	fputs("</node>\n", f);
	snprintf(a, sizeof(a), "trc%" PRIu64, id);
	gxl_edge(f, "trace1", a, "contains");
	snprintf(b, sizeof(b), "prc%d", ev->rank);
	gxl_edge(f, a, b, "executedBy");
	snprintf(b, sizeof(b), "comm%d", ev->comm);
	if (ev->comm >= 0 && (size_t)ev->comm < x->h->ncomms)
		gxl_edge(f, a, b, "inCommunicator");
	x->st->shown++;
	return id;
}

/* A message's node, and its edges from its send and to its receive. */
static void
gxl_message(struct xp *x, const struct xp_end *s, const struct xp_end *r,
    int tag, uint64_t bytes)
{
	FILE	*f = x->f;
	char	 m[32], a[32];

	snprintf(m, sizeof(m), "msg%lu", x->st->messages);
	fprintf(f, "<node id=\"%s\"><type xlink:href=\"MTF#Message\"/>", m);
	gxl_attr_i(f, "sender", s->rank);
	gxl_attr_i(f, "receiver", r->rank);
	gxl_attr_i(f, "tag", tag);
	gxl_attr_i(f, "size", (long long)bytes);
	fputs("</node>\n", f);
	snprintf(a, sizeof(a), "trc%" PRIu64, s->id);
	gxl_edge(f, a, m, "sends");
	snprintf(a, sizeof(a), "trc%" PRIu64, r->id);
	gxl_edge(f, m, a, "receivedBy");
}

/* The document's end. */
static int
gxl_finish(struct xp *x)
{
	fputs("</graph>\n</gxl>\n", x->f);
	return ferror(x->f) ? -1 : 0;
}

static const struct xp_ops gxl_ops = {
	gxl_start, gxl_event, gxl_message, gxl_finish
};

/* ---- Chrome's trace-event JSON: a process per rank, an "X" event per
 * call, a flow ("s" to "f") per message; times in microseconds ---- */

static void
chrome_sep(struct xp *x)
{
	fputs(x->first ? "\n" : ",\n", x->f);
	x->first = 0;
}

/* The head and each process's metadata: its name as in the script, its
 * rank as sort index, its component as its thread's name. */
static int
chrome_start(struct xp *x)
{
	const struct trace_hdr	*h = x->h;
	int			 i;

	fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"script\":", x->f);
	json_str(x->f, h->script != NULL ? h->script : "", 0);
	fputs(",\"application\":", x->f);
	json_str(x->f, h->application != NULL ? h->application : "", 0);
	fputs(",\"start\":", x->f);
	json_str(x->f, h->start != NULL ? h->start : "", 0);
	fputs("},\n\"traceEvents\":[", x->f);
	x->first = 1;
	for (i = 0; i < h->nprocs; i++) {
		chrome_sep(x);
		fprintf(x->f, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,"
		    "\"tid\":0,\"args\":{\"name\":", i);
		json_str(x->f, h->processes[i].name != NULL ?
		    h->processes[i].name : "", 0);
		fputs("}}", x->f);
		chrome_sep(x);
		fprintf(x->f, "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":%d,"
		    "\"tid\":0,\"args\":{\"sort_index\":%d}}", i, i);
		chrome_sep(x);
		fprintf(x->f, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%d,"
		    "\"tid\":0,\"args\":{\"name\":", i);
		json_str(x->f, h->processes[i].component != NULL ?
		    h->processes[i].component : "", 0);
		fputs("}}", x->f);
	}
	return ferror(x->f) ? -1 : 0;
}

/* A call as a complete event, its fields as args. */
static uint64_t
chrome_event(struct xp *x, const struct trace_event *ev)
{
	struct buf	 b;

	buf_init(&b);
	xp_label(&b, ev);
	chrome_sep(x);
	fputs("{\"ph\":\"X\",\"name\":", x->f);
	json_str(x->f, b.s, 0);
	fprintf(x->f, ",\"cat\":\"%s\",\"pid\":%d,\"tid\":0,\"ts\":%.3f,"
	    "\"dur\":%.3f,\"args\":{\"call\":\"%s\"", ev->raw ? "raw" : "port",
	    ev->rank, ev->t0 * 1e6, (ev->t1 - ev->t0) * 1e6, trace_mpi_name(ev));
	if (ev->port != NULL) {
		fputs(",\"port\":", x->f);
		json_str(x->f, ev->port, 0);
	}
	if (ev->peer >= 0)
		fprintf(x->f, ",\"peer\":%d", ev->peer);
	if (ev->tag >= 0)
		fprintf(x->f, ",\"tag\":%d", ev->tag);
	if (ev->dtype != NULL) {
		fputs(",\"dtype\":", x->f);
		json_str(x->f, ev->dtype, 0);
	}
	if (ev->count >= 0)
		fprintf(x->f, ",\"count\":%ld", ev->count);
	fprintf(x->f, ",\"bytes_sent\":%" PRIu64 ",\"bytes_received\":%" PRIu64,
	    ev->sbytes, ev->rbytes);
	if (ev->req >= 0)
		fprintf(x->f, ",\"request\":%ld", ev->req);
	if (ev->seq >= 0)
		fprintf(x->f, ",\"seq\":%ld", ev->seq);
	fprintf(x->f, ",\"comm\":%d}}", ev->comm);
	buf_free(&b);
	x->st->shown++;
	return x->st->events;
}

/* A message as a flow from its send's event to its receive's. */
static void
chrome_message(struct xp *x, const struct xp_end *s, const struct xp_end *r,
    int tag, uint64_t bytes)
{
	/* Each end in the middle of its call, so that it binds to it. */
	chrome_sep(x);
	fprintf(x->f, "{\"ph\":\"s\",\"name\":\"message\",\"cat\":\"message\","
	    "\"id\":%lu,\"pid\":%d,\"tid\":0,\"ts\":%.3f,\"args\":{\"tag\":%d,"
	    "\"bytes\":%" PRIu64 "}}", x->st->messages, s->rank,
	    (s->t0 + s->t1) / 2 * 1e6, tag, bytes);
	chrome_sep(x);
	fprintf(x->f, "{\"ph\":\"f\",\"bp\":\"e\",\"name\":\"message\","
	    "\"cat\":\"message\",\"id\":%lu,\"pid\":%d,\"tid\":0,\"ts\":%.3f}",
	    x->st->messages, r->rank, (r->t0 + r->t1) / 2 * 1e6);
}

/* The end of the event list and the document. */
static int
chrome_finish(struct xp *x)
{
	fputs("\n]}\n", x->f);
	return ferror(x->f) ? -1 : 0;
}

static const struct xp_ops chrome_ops = {
	chrome_start, chrome_event, chrome_message, chrome_finish
};

/* ---- the timeline viewer's page ---- */

/* The handle of an event the page does not show. */
#define HTML_NONE	UINT64_MAX

/* The timeline: its title and note, a lane per process. */
static int
html_start(struct xp *x)
{
	const struct trace_hdr	*h = x->h;
	struct buf		 b;
	char			 tmp[32];
	int			 i;

	buf_init(&b);
	buf_printf(&b, "%s: trace of %s", h->application != NULL ?
	    h->application : "?", h->script != NULL ? h->script : "?");
	x->tl = timeline_new(b.s, TIMELINE_SECONDS);
	buf_reset(&b);
	buf_printf(&b, "started %s, %d process%s", h->start != NULL ? h->start :
	    "?", h->nprocs, h->nprocs == 1 ? "" : "es");
	timeline_note(x->tl, b.s);
	for (i = 0; i < h->nprocs; i++)
		timeline_lane(x->tl, xp_proc(h, i, tmp, sizeof(tmp)));
	buf_free(&b);
	return 0;
}

/* The viewer's kind (its colour) of an operation. */
static const char *
html_kind(enum trace_op op)
{
	switch (op) {
	case TRACE_INIT: return "init";
	case TRACE_FIN: return "fin";
	case TRACE_SEND: return "send";
	case TRACE_RECV: return "recv";
	case TRACE_ISEND: return "isend";
	case TRACE_IRECV: return "irecv";
	case TRACE_WAIT: return "wait";
	case TRACE_SENDRECV:
	case TRACE_SENDRECVREPLACE: return "send";
	case TRACE_WAITONE:
	case TRACE_TEST:
	case TRACE_TESTFALSE:
	case TRACE_WAITANY:
	case TRACE_WAITSOME: return "wait";
	case TRACE_PROBE:
	case TRACE_IPROBE:
	case TRACE_IPROBEFALSE: return "probe";
	default: return "collective";
	}
}

/* Whether ev completes a request (whose mode says a send's or not). */
static int
html_completes(const struct trace_event *ev)
{
	return ev->op == TRACE_WAIT || ev->op == TRACE_WAITONE ||
	    ev->op == TRACE_TEST || ev->op == TRACE_WAITANY ||
	    ev->op == TRACE_WAITSOME;
}

/* An event's part of its call's tooltip: its port, peer, tag, data,
 * bytes, request and message, a line each. */
static void
html_part(struct buf *b, const struct xp *x, const struct trace_event *ev)
{
	char	tmp[32];

	if (ev->port != NULL)
		buf_printf(b, "port: %s\n", ev->port);
	if (ev->peer >= 0)
		buf_printf(b, "%s: %s\n", trace_side(ev) == TRACE_SIDE_SEND ||
		    (html_completes(ev) && ev->mode != TRACE_MODE_NONE) ?
		    "to" : traceline_is_coll(ev->op) ? "root" : "from",
		    xp_proc(x->h, ev->peer, tmp, sizeof(tmp)));
	else if (ev->peer == TRACE_ANY)
		buf_adds(b, "from: any\n");
	if (ev->tag >= 0)
		buf_printf(b, "tag: %d\n", ev->tag);
	if (ev->dtype != NULL && ev->count >= 0)
		buf_printf(b, "data: %ld %s\n", ev->count, ev->dtype);
	if (ev->sbytes > 0 || ev->rbytes > 0)
		buf_printf(b, "bytes: %" PRIu64 " sent, %" PRIu64 " received\n",
		    ev->sbytes, ev->rbytes);
	if (ev->req >= 0)
		buf_printf(b, "request: %ld\n", ev->req);
	if (ev->seq >= 0)
		buf_printf(b, "%s: %ld\n", traceline_is_coll(ev->op) ?
		    "collective" : "message", ev->seq);
}

/* The label and tooltip of the call x->call of x->call_lines lines:
 * "waitall (4 requests)", "sendrecv Right[1], Left[1]", each line's part
 * under the call. */
static void
html_call(struct xp *x, const struct trace_event *last, struct buf *lab,
    struct buf *tip)
{
	const struct trace_event *ev = &x->call;
	int			  n = x->call_lines;

	if (ev->op == TRACE_WAIT && n > 1)
		buf_printf(lab, "%s (%d requests)", ev->raw ? "MPI_Waitall" :
		    "waitall", n);
	else if (ev->op == TRACE_WAIT && !ev->raw)
		buf_printf(lab, "waitall%s%s", ev->port != NULL ? " " : "",
		    ev->port != NULL ? ev->port : "");
	else if (ev->op == TRACE_WAITSOME && n > 1)
		buf_printf(lab, "%s (%d completed)", ev->raw ? "MPI_Waitsome" :
		    "waitsome", n);
	else if ((ev->op == TRACE_SENDRECV || ev->op == TRACE_SENDRECVREPLACE) &&
	    n > 1 && !ev->raw)
		buf_printf(lab, "%s %s, %s", trace_op_name(ev->op),
		    ev->port != NULL ? ev->port : "?", last->port != NULL ?
		    last->port : "?");
	else
		xp_label(lab, ev);
	buf_printf(tip, "call: %s%s", ev->op == TRACE_WAIT && n > 1 ?
	    "MPI_Waitall" : trace_mpi_name(ev), ev->raw ? " (raw)" : "");
	if (n > 1)
		buf_printf(tip, ", %d %s", n, ev->op == TRACE_SENDRECV ||
		    ev->op == TRACE_SENDRECVREPLACE ? "parts" :
		    ev->op == TRACE_WAITSOME ? "requests completed" : "requests");
	buf_printf(tip, "\n%s%s", x->call_parts.s, x->call_rest.s);
}

/* A call as a box with its tooltip, unless the page is full; a further
 * line of the call drawn last (a waitall's next request) joins its box. */
static uint64_t
html_event(struct xp *x, const struct trace_event *ev)
{
	struct buf	 lab, tip;
	char		 tmp[32];
	const char	*stmt;
	size_t		 box;

	if (x->in_call && trace_same_call(&x->call, ev)) {
		x->call_lines++;
		buf_adds(&x->call_parts, "--\n");
		html_part(&x->call_parts, x, ev);
		buf_init(&lab);
		buf_init(&tip);
		html_call(x, ev, &lab, &tip);
		timeline_box_relabel(x->tl, x->call_box, lab.s, tip.s);
		buf_free(&lab);
		buf_free(&tip);
		x->st->shown++;
		return (uint64_t)x->call_box;
	}
	x->in_call = 0;
	if (ev->rank < 0 || ev->rank >= x->h->nprocs || (x->o->max_events > 0 &&
	    x->st->shown >= x->o->max_events))
		return HTML_NONE;
	x->call = *ev;
	x->call_lines = 1;
	buf_reset(&x->call_parts);
	buf_adds(&x->call_parts, "");
	html_part(&x->call_parts, x, ev);
	buf_reset(&x->call_rest);
	buf_printf(&x->call_rest, "times: %.9f to %.9f s (%.3f us)", ev->t0,
	    ev->t1, (ev->t1 - ev->t0) * 1e6);
	if (x->o->stmt != NULL && (stmt = x->o->stmt(x->o->stmt_arg, x->h, ev)) !=
	    NULL)
		buf_printf(&x->call_rest, "\nstatement: %s", stmt);
	buf_init(&lab);
	buf_init(&tip);
	html_call(x, ev, &lab, &tip);
	if (ev->op != TRACE_INIT && ev->op != TRACE_FIN) {
		if (x->ops++ == 0)
			xasprintf(&x->zero_op, "%s: %s", xp_proc(x->h, ev->rank,
			    tmp, sizeof(tmp)), lab.s);
		if (ev->t1 > x->ops_end)
			x->ops_end = ev->t1;
	}
	box = timeline_box(x->tl, ev->rank, ev->t0, ev->t1, html_kind(ev->op),
	    lab.s, tip.s);
	buf_free(&lab);
	buf_free(&tip);
	x->st->shown++;
	x->in_call = 1;
	x->call_box = box;
	return (uint64_t)box;
}

/* A message as an arrow, when the page shows both its ends. */
static void
html_message(struct xp *x, const struct xp_end *s, const struct xp_end *r,
    int tag, uint64_t bytes)
{
	(void)tag;
	(void)bytes;
	if (s->id != HTML_NONE && r->id != HTML_NONE)
		timeline_arrow(x->tl, (size_t)s->id, (size_t)r->id);
}

/* What time 0 is, the span of the operations the page opens on, the
 * note of what was left out, then the page. */
static int
html_finish(struct xp *x)
{
	char	*cause = NULL, *note, *zero;

	if (x->zero_op != NULL) {
		xasprintf(&note, "time 0: the first operation (%s), %.3f ms "
		    "after ensemble run started the processes; the inits come "
		    "before it", x->zero_op, (double)x->zero / 1e6);
		timeline_note(x->tl, note);
		free(note);
		xasprintf(&zero, "the first operation (%s)", x->zero_op);
		timeline_open(x->tl, 0, x->ops_end, zero);
		free(zero);
	} else
		timeline_note(x->tl, "time 0: ensemble run starting the "
		    "processes (the trace has no operation)");

	if (x->st->shown < x->st->events) {
		xasprintf(&note, "showing the first %lu of the trace's %lu events "
		    "(--max-events)", x->st->shown, x->st->events);
		timeline_note(x->tl, note);
		free(note);
	}
	if (timeline_write(x->tl, x->f, &cause) != 0) {
		free(cause);
		return -1;
	}
	return 0;
}

static const struct xp_ops html_ops = {
	html_start, html_event, html_message, html_finish
};

/* ---- the front ---- */

/* Remove what a failed export left at path, if a regular file. */
static void
xp_remove(const char *path)
{
	struct stat	sb;

	if (strcmp(path, "-") != 0 && lstat(path, &sb) == 0 && S_ISREG(sb.st_mode))
		remove(path);
}

/* Write r's events to o->path as ops writes them (export_trace's
 * contract). */
static int
xp_text(struct trace_reader *r, const struct export_opts *o,
    const struct xp_ops *ops, struct export_stats *st, char **cause)
{
	struct xp		 x;
	int			 rc, tostdout = strcmp(o->path, "-") == 0;

	memset(&x, 0, sizeof(x));
	x.o = o;
	x.r = r;
	x.h = trace_header(r);
	x.st = st;
	/* The page counts from time zero; the others keep the origin. */
	if (o->format == EXPORT_HTML)
		x.zero = trace_rebase(r);
	if (tostdout)
		x.f = stdout;
	else if ((x.f = fopen(o->path, "w")) == NULL) {
		xasprintf(cause, "cannot open '%s': %s", o->path, strerror(errno));
		return -1;
	}
	x.ends = match_new(sizeof(uint64_t));
	errno = 0;
	rc = xp_walk(&x, ops, cause);
	if (!tostdout && fclose(x.f) != 0 && rc == 0) {
		xasprintf(cause, "cannot write '%s': %s", o->path, strerror(errno));
		rc = -1;
	}
	if (rc != 0 && !tostdout)
		xp_remove(o->path);
	match_free(x.ends);
	free(x.zero_op);
	buf_free(&x.call_parts);
	buf_free(&x.call_rest);
	timeline_free(x.tl);
	return rc;
}

/* The GXL exporter's writer. */
static int
gxl_write(struct trace_reader *r, const struct export_opts *o,
    struct export_stats *st, char **cause)
{
	return xp_text(r, o, &gxl_ops, st, cause);
}

/* The Chrome exporter's writer. */
static int
chrome_write(struct trace_reader *r, const struct export_opts *o,
    struct export_stats *st, char **cause)
{
	return xp_text(r, o, &chrome_ops, st, cause);
}

/* The page's writer. */
static int
html_write(struct trace_reader *r, const struct export_opts *o,
    struct export_stats *st, char **cause)
{
	return xp_text(r, o, &html_ops, st, cause);
}

static const struct exporter gxl_exporter = {
	"gxl", { "gxl", NULL }, NULL, gxl_write
};
static const struct exporter chrome_exporter = {
	"chrome", { "json", NULL }, NULL, chrome_write
};
static const struct exporter html_exporter = {
	"html", { "html", "htm", NULL }, NULL, html_write
};

/* The exporters, by enum export_format. */
static const struct exporter *const exporters[] = {
	[EXPORT_OTF2] = &export_otf2,
	[EXPORT_GXL] = &gxl_exporter,
	[EXPORT_CHROME] = &chrome_exporter,
	[EXPORT_HTML] = &html_exporter,
};

#define NEXPORTERS	(sizeof(exporters) / sizeof(exporters[0]))

int
export_format_of(const char *s)
{
	size_t	k;

	for (k = 0; k < NEXPORTERS; k++)
		if (strcmp(s, exporters[k]->name) == 0)
			return (int)k;
	return -1;
}

int
export_format_of_path(const char *path)
{
	const char	*ext = strrchr(path, '.');
	size_t		 k, i;

	if (ext == NULL || strchr(ext, '/') != NULL)
		return -1;
	for (k = 0; k < NEXPORTERS; k++)
		for (i = 0; exporters[k]->exts[i] != NULL; i++)
			if (strcasecmp(ext + 1, exporters[k]->exts[i]) == 0)
				return (int)k;
	return -1;
}

int
export_available(enum export_format fmt)
{
	return (size_t)fmt < NEXPORTERS && (exporters[fmt]->available == NULL ||
	    exporters[fmt]->available());
}

int
export_trace(struct trace_reader *r, const struct export_opts *o,
    struct export_stats *st, char **cause)
{
	*cause = NULL;
	memset(st, 0, sizeof(*st));
	return exporters[o->format]->write(r, o, st, cause);
}
