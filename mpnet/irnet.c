/* irnet.c -- the thesis's net of an IR model (irnet.h) as a model of
 * model.h, explored by explore.c's breadth-first search with every
 * interleaving (irn_check), so its limits, progress, the memory watch
 * and the verdict's ranking of kinds are the scripts'.  A marking is packed in a few bytes:
 * Start's and End's tokens, each process's marker (the operation it
 * holds, or none), its request bits when the model has non-blocking
 * operations, and the count of each kind of message in the multiset.  A
 * message's kind is its source, destination, tag and type, and for a
 * synchronous send the operation whose sender waits for it. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "explore.h"
#include "irnet.h"
#include "violation.h"
#include "xmalloc.h"
#include "xopts.h"

/* A message's kind. */
struct irn_kind {
	int		 src, dst, type;
	int64_t		 tag;
	int		 origin;	/* synchronous: the sending operation; -1 */
	int		 op;		/* an operation that sends it (reports) */
};

/* The net of one mode. */
struct irn {
	const struct ir	*ir;
	enum check_mode	 mode;
	struct irn_kind	*kinds;
	int		 nkinds;
	int		*mk;		/* per op: the kind a send puts; -1 */
	int		**acc;		/* per op: the kinds a receive takes, -1 ended */
	size_t		 off_req;	/* offsets in a state */
	size_t		 off_msg;
	size_t		 size;		/* bytes of a state */
	unsigned char	*fired;		/* per op */
	int		 overflow;	/* a message kind past 255 */
	int		 has_coll;	/* a collective is used */
	struct irnet_thesis *th;	/* what the judge counts */
};

/* What a transition does (struct trans.kind): its group is the process
 * that fires it, or the last group, nprocs, for the steps every process
 * takes at once; 'pc' is the operation it fires (MPI_Init's, process 0's
 * for those of every process), 'dc' the message kind it takes, or -1. */
enum {
	IK_START,	/* MPI_Init: every process takes its first operation */
	IK_DONE,	/* a posted MPI_Irecv's request takes a message */
	IK_OP,		/* the process fires the operation it holds */
	IK_COLL,	/* every process fires the same collective */
	IK_FIN,		/* every process fires MPI_Finalize: a token in End */
};

static int
irn_sync(const struct irn *n, enum ir_kind k)
{
	return k == IR_SSEND || k == IR_ISSEND ||
	    ((k == IR_SEND || k == IR_ISEND) && n->mode == CHECK_SYNC);
}

/* Each send's message kind and each receive's, for the mode. */
static void
irn_kinds(struct irn *n)
{
	const struct ir	*ir = n->ir;
	size_t		 alloc = 0;
	int		 i, k, c;

	n->mk = xcalloc((size_t)ir->nops, sizeof(*n->mk));
	n->acc = xcalloc((size_t)ir->nops, sizeof(*n->acc));
	for (i = 0; i < ir->nops; i++) {
		const struct ir_op	*op = &ir->ops[i];
		int			 origin;

		n->mk[i] = -1;
		if (op->kind != IR_SEND && op->kind != IR_BSEND &&
		    op->kind != IR_SSEND && op->kind != IR_ISEND &&
		    op->kind != IR_IBSEND && op->kind != IR_ISSEND)
			continue;
		origin = irn_sync(n, op->kind) ? i : -1;
		for (k = 0; k < n->nkinds; k++) {
			const struct irn_kind	*m = &n->kinds[k];

			if (m->src == op->proc && m->dst == op->peer &&
			    m->tag == op->tag && m->type == op->type &&
			    m->origin == origin)
				break;
		}
		if (k == n->nkinds) {
			xgrow(&n->kinds, &alloc, (size_t)n->nkinds + 1,
			    sizeof(*n->kinds));
			n->kinds[k].src = op->proc;
			n->kinds[k].dst = op->peer;
			n->kinds[k].tag = op->tag;
			n->kinds[k].type = op->type;
			n->kinds[k].origin = origin;
			n->kinds[k].op = i;
			n->nkinds++;
		}
		n->mk[i] = k;
	}
	for (i = 0; i < ir->nops; i++) {
		const struct ir_op	*op = &ir->ops[i];

		if (op->kind != IR_RECV && op->kind != IR_IRECV)
			continue;
		n->acc[i] = xcalloc((size_t)n->nkinds + 1, sizeof(**n->acc));
		for (k = c = 0; k < n->nkinds; k++) {
			const struct irn_kind	*m = &n->kinds[k];

			if (m->src == op->peer && m->dst == op->proc &&
			    m->tag == op->tag && m->type == op->type)
				n->acc[i][c++] = k;
		}
		n->acc[i][c] = -1;
	}
}

/* A state's fields. */
static inline int
irn_pc(const struct irn *n, const unsigned char *s, int p)
{
	uint16_t	v;

	(void)n;
	memcpy(&v, s + 2 + 2 * (size_t)p, sizeof(v));
	return (int)v - 1;
}

static inline void
irn_set_pc(const struct irn *n, unsigned char *s, int p, int op)
{
	uint16_t	v = (uint16_t)(op + 1);

	(void)n;
	memcpy(s + 2 + 2 * (size_t)p, &v, sizeof(v));
}

/* Request bits: w 0 pending (not complete), 1 not waited for. */
static inline uint32_t
irn_req(const struct irn *n, const unsigned char *s, int p, int w)
{
	uint32_t	v;

	memcpy(&v, s + n->off_req + 8 * (size_t)p + 4 * (size_t)w, sizeof(v));
	return v;
}

static inline void
irn_set_req(const struct irn *n, unsigned char *s, int p, int w, uint32_t v)
{
	memcpy(s + n->off_req + 8 * (size_t)p + 4 * (size_t)w, &v, sizeof(v));
}

/* Take one message of kind k from t for the receive of process p: a
 * synchronous sender's marker reappears, or its request completes. */
static void
irn_take(struct irn *n, unsigned char *t, int k)
{
	const struct irn_kind	*m = &n->kinds[k];

	t[n->off_msg + (size_t)k]--;
	if (m->origin >= 0) {
		const struct ir_op	*o = &n->ir->ops[m->origin];

		if (o->kind == IR_ISSEND || o->kind == IR_ISEND)
			irn_set_req(n, t, o->proc, 0,
			    irn_req(n, t, o->proc, 0) & ~(1u << o->slot));
		else
			irn_set_pc(n, t, o->proc, o->next);
	}
}

/* Put one message of kind k; 0 when its count would pass 255. */
static int
irn_put(struct irn *n, unsigned char *t, int k)
{
	if (t[n->off_msg + (size_t)k] == 255) {
		n->overflow = k;
		return 0;
	}
	t[n->off_msg + (size_t)k]++;
	return 1;
}

/* Add a transition to out[n]. */
static int
irn_add(struct trans *out, int n, int kind, int g, int op, int k)
{
	memset(&out[n], 0, sizeof(out[n]));
	out[n].kind = (uint8_t)kind;
	out[n].role = kind == IK_COLL ? TR_ALL : TR_STEP;
	out[n].proc = g;
	out[n].pc = op;
	out[n].dc = k;
	out[n].slot = -1;
	return n + 1;
}

/* Group g's enabled transitions in s (model.h), in the order the
 * thesis's net lists them: Start's; per process, its posted receives
 * taking messages, then the operation it holds; then the collective
 * every process holds, and MPI_Finalize.  None is safe: the stubborn
 * sets are not used on IR nets (irn_check says why). */
static int
irn_enabled(void *arg, const uint64_t *sw, int g, struct trans *out)
{
	struct irn		*n = arg;
	const struct ir		*ir = n->ir;
	const unsigned char	*s = (const unsigned char *)sw;
	const struct ir_op	*op;
	int			 i, k, c = 0, pc, op0, p, allfin, allcoll;
	uint32_t		 pend;

	if (s[0])
		return g == 0 ? irn_add(out, 0, IK_START, 0, 0, -1) : 0;
	if (g == ir->nprocs) {
		op0 = irn_pc(n, s, 0);
		allfin = allcoll = 1;
		for (p = 0; p < ir->nprocs && (allfin || allcoll); p++) {
			if ((pc = irn_pc(n, s, p)) < 0) {
				allfin = allcoll = 0;
				break;
			}
			op = &ir->ops[pc];
			if (op->kind != IR_FINALIZE)
				allfin = 0;
			if (!ir_is_coll(op->kind) || op0 < 0 ||
			    ir->ops[op0].kind != op->kind ||
			    ir->ops[op0].root != op->root)
				allcoll = 0;
		}
		if (allcoll)
			c = irn_add(out, c, IK_COLL, g, op0, -2);
		if (allfin)
			c = irn_add(out, c, IK_FIN, g, op0, -1);
		return c;
	}
	if ((pc = irn_pc(n, s, g)) < 0)
		return 0;
	op = &ir->ops[pc];
	if (ir->has_requests) {
		/* A posted receive completes when a message comes. */
		pend = irn_req(n, s, g, 0);
		for (i = 0; pend != 0 && i < ir->nops; i++) {
			const struct ir_op	*r = &ir->ops[i];

			if (r->proc != g || r->kind != IR_IRECV ||
			    !(pend & 1u << r->slot))
				continue;
			for (k = 0; n->acc[i][k] >= 0; k++)
				if (s[n->off_msg + (size_t)n->acc[i][k]] != 0)
					c = irn_add(out, c, IK_DONE, g, i,
					    n->acc[i][k]);
		}
	}
	switch (op->kind) {
	case IR_SEND:
	case IR_BSEND:
	case IR_SSEND:
	case IR_ISEND:
	case IR_IBSEND:
	case IR_ISSEND:
	case IR_IRECV:
		c = irn_add(out, c, IK_OP, g, pc, -1);
		break;
	case IR_RECV:
		for (k = 0; n->acc[pc][k] >= 0; k++)
			if (s[n->off_msg + (size_t)n->acc[pc][k]] != 0)
				c = irn_add(out, c, IK_OP, g, pc, n->acc[pc][k]);
		break;
	case IR_WAIT:
		if (!(irn_req(n, s, g, 0) & 1u << ir->ops[op->req].slot))
			c = irn_add(out, c, IK_OP, g, pc, -1);
		break;
	case IR_WAITALL:
		if (irn_req(n, s, g, 0) == 0)
			c = irn_add(out, c, IK_OP, g, pc, -1);
		break;
	default:
		break;
	}
	return c;
}

/* The most transitions of one group: a process's posted receives taking
 * each kind they accept and its operation, or the two of every process
 * at once. */
static int
irn_max_trans(const struct irn *n)
{
	const struct ir	*ir = n->ir;
	int		*c = xcalloc((size_t)ir->nprocs, sizeof(int));
	int		 i, k, most = 2, one = 1;

	for (i = 0; i < ir->nops; i++) {
		if (n->acc[i] == NULL)
			continue;
		for (k = 0; n->acc[i][k] >= 0; k++)
			;
		if (ir->ops[i].kind == IR_IRECV)
			c[ir->ops[i].proc] += k;
		else if (k > one)
			one = k;
	}
	for (i = 0; i < ir->nprocs; i++)
		if (c[i] + one > most)
			most = c[i] + one;
	free(c);
	return most;
}

/* Fire t in s (model.h); -1 when a message count would pass 255
 * (n->overflow says which).  Marks the operations it fires. */
static int
irn_fire(void *arg, uint64_t *sw, const struct trans *t)
{
	struct irn		*n = arg;
	const struct ir		*ir = n->ir;
	unsigned char		*s = (unsigned char *)sw;
	const struct ir_op	*op = &ir->ops[t->pc];
	int			 p, g = t->proc;
	uint32_t		 pend;

	switch (t->kind) {
	case IK_START:
		s[0] = 0;
		for (p = 0; p < ir->nprocs; p++)
			irn_set_pc(n, s, p, ir->first[p]);
		break;
	case IK_DONE:
		pend = irn_req(n, s, g, 0);
		irn_take(n, s, t->dc);
		irn_set_req(n, s, g, 0, pend & ~(1u << op->slot));
		break;
	case IK_COLL:
	case IK_FIN:
		for (p = 0; p < ir->nprocs; p++) {
			n->fired[irn_pc(n, s, p)] = 1;
			irn_set_pc(n, s, p, t->kind == IK_FIN ? -1 :
			    ir->ops[irn_pc(n, s, p)].next);
		}
		if (t->kind == IK_FIN && s[1] < 255)
			s[1]++;
		break;
	default:
		switch (op->kind) {
		case IR_SEND:
		case IR_BSEND:
		case IR_SSEND:
			if (!irn_put(n, s, n->mk[t->pc]))
				return -1;
			irn_set_pc(n, s, g, irn_sync(n, op->kind) ? -1 : op->next);
			break;
		case IR_ISEND:
		case IR_IBSEND:
		case IR_ISSEND:
			if (!irn_put(n, s, n->mk[t->pc]))
				return -1;
			irn_set_pc(n, s, g, op->next);
			if (irn_sync(n, op->kind))
				irn_set_req(n, s, g, 0, irn_req(n, s, g, 0) |
				    1u << op->slot);
			irn_set_req(n, s, g, 1, irn_req(n, s, g, 1) | 1u << op->slot);
			break;
		case IR_IRECV:
			irn_set_pc(n, s, g, op->next);
			irn_set_req(n, s, g, 0, irn_req(n, s, g, 0) | 1u << op->slot);
			irn_set_req(n, s, g, 1, irn_req(n, s, g, 1) | 1u << op->slot);
			break;
		case IR_RECV:
			irn_take(n, s, t->dc);
			irn_set_pc(n, s, g, op->next);
			break;
		case IR_WAIT:
			irn_set_req(n, s, g, 1, irn_req(n, s, g, 1) &
			    ~(1u << ir->ops[op->req].slot));
			irn_set_pc(n, s, g, op->next);
			break;
		case IR_WAITALL:
			irn_set_req(n, s, g, 1, 0);
			irn_set_pc(n, s, g, op->next);
			break;
		default:
			break;
		}
	}
	n->fired[t->pc] = 1;
	return 0;
}

/* The initial marking: Start's token, no process holding an operation. */
static void
irn_initial(void *arg, uint64_t *sw)
{
	struct irn	*n = arg;
	unsigned char	*s = (unsigned char *)sw;
	int		 p;

	memset(sw, 0, 8 * ((n->size + 7) / 8));
	s[0] = 1;
	for (p = 0; p < n->ir->nprocs; p++)
		irn_set_pc(n, s, p, -1);
}

/* A process has ended when it holds no operation; the last group never
 * holds one. */
static int
irn_ended(void *arg, const uint64_t *sw, int g)
{
	const struct irn	*n = arg;

	return g == n->ir->nprocs || irn_pc(n, (const unsigned char *)sw, g) < 0;
}

/* Whether a marking has tokens outside End. */
static int
irn_outside(const struct irn *n, const unsigned char *s)
{
	int	p, k;

	if (s[0])
		return 1;
	for (p = 0; p < n->ir->nprocs; p++)
		if (irn_pc(n, s, p) >= 0)
			return 1;
	for (k = 0; k < n->nkinds; k++)
		if (s[n->off_msg + (size_t)k] != 0)
			return 1;
	return 0;
}

/* "0x0003 MPI_Recv (file:4:1)". */
static void
irn_opname(struct buf *b, const struct ir *ir, int i)
{
	const struct ir_op	*op = &ir->ops[i];

	buf_printf(b, "0x%04" PRIx64 " %s (%s:%d:%d)", op->id,
	    ir_kind_name(op->kind), ir->file, op->loc.first_line,
	    op->loc.first_column);
}

/* A message kind as written: "from process 0 to process 1, tag 0, 'MPI_INT'". */
static void
irn_msgname(struct buf *b, const struct irn *n, int k)
{
	const struct irn_kind	*m = &n->kinds[k];

	buf_printf(b, "from process %d to process %d, tag %" PRId64, m->src,
	    m->dst, m->tag);
	if (m->type >= 0)
		buf_printf(b, ", '%s'", n->ir->types[m->type]);
}

/* The marking in the thesis's terms. */
static char *
irn_marking(const struct irn *n, const unsigned char *s)
{
	struct buf	b;
	int		p, k, any = 0;

	buf_init(&b);
	if (s[0])
		buf_adds(&b, "Start holds its token; ");
	for (p = 0; p < n->ir->nprocs; p++) {
		int	pc = irn_pc(n, s, p);

		if (pc < 0)
			continue;
		buf_printf(&b, "%sprocess %d holds ", any++ ? ", " : "", p);
		irn_opname(&b, n->ir, pc);
	}
	for (k = 0; k < n->nkinds; k++)
		if (s[n->off_msg + (size_t)k] != 0) {
			buf_printf(&b, "%s%u message%s ", any++ ? ", " : "",
			    s[n->off_msg + (size_t)k],
			    s[n->off_msg + (size_t)k] == 1 ? "" : "s");
			irn_msgname(&b, n, k);
		}
	buf_printf(&b, "; End holds %u token%s", s[1], s[1] == 1 ? "" : "s");
	return buf_steal(&b);
}

/* Transition t, as a counterexample's line. */
static char *
irn_action(const struct irn *n, const struct trans *t)
{
	const struct ir	*ir = n->ir;
	int		 a = t->pc, aux = t->dc;
	struct buf	 b;

	buf_init(&b);
	if (ir->ops[a].kind == IR_INIT)
		buf_adds(&b, "MPI_Init fires: every process takes its first operation");
	else if (ir->ops[a].kind == IR_FINALIZE)
		buf_adds(&b, "MPI_Finalize fires: a token in End");
	else if (aux == -2) {
		buf_printf(&b, "%s fires in every process, as ",
		    ir_kind_name(ir->ops[a].kind));
		irn_opname(&b, ir, a);
		buf_adds(&b, " in process 0");
	} else {
		buf_printf(&b, "process %d: ", ir->ops[a].proc);
		irn_opname(&b, ir, a);
		if (aux >= 0) {
			buf_adds(&b, " takes the message of ");
			irn_opname(&b, ir, n->kinds[aux].op);
		}
	}
	return buf_steal(&b);
}

/* Violation v's trace: the actions from the initial marking. */
static void
irn_trace(const struct irn *n, const struct trans *ts, size_t nts,
    struct violation *v)
{
	size_t	k;

	v->trace = xcalloc(nts ? nts : 1, sizeof(*v->trace));
	v->ntrace = (int)nts;
	v->trace_total = nts;
	for (k = 0; k < nts; k++)
		v->trace[k] = irn_action(n, &ts[k]);
}

/* Whom process p waits for in state s: bits in w (nprocs), and where. */
static int
irn_waits(const struct irn *n, const unsigned char *s, int p, unsigned char *w)
{
	const struct ir	*ir = n->ir;
	int		 pc = irn_pc(n, s, p), q, k, any = 0;

	memset(w, 0, (size_t)ir->nprocs);
	if (pc < 0) {
		for (k = 0; k < n->nkinds; k++)
			if (n->kinds[k].origin >= 0 &&
			    ir->ops[n->kinds[k].origin].proc == p &&
			    s[n->off_msg + (size_t)k] != 0 &&
			    (ir->ops[n->kinds[k].origin].kind == IR_SSEND ||
			    ir->ops[n->kinds[k].origin].kind == IR_SEND))
				w[n->kinds[k].dst] = any = 1;
		return any;
	}
	switch (ir->ops[pc].kind) {
	case IR_RECV:
		w[ir->ops[pc].peer] = 1;
		return 1;
	case IR_WAIT:
	case IR_WAITALL:
		for (k = 0; k < ir->nops; k++)
			if (ir->ops[k].proc == p && ir->ops[k].slot >= 0 &&
			    (irn_req(n, s, p, 0) & 1u << ir->ops[k].slot) &&
			    (ir->ops[pc].kind == IR_WAITALL || ir->ops[pc].req == k))
				w[ir->ops[k].peer] = any = 1;
		return any;
	default:
		if (!ir_is_coll(ir->ops[pc].kind))
			return 0;
		for (q = 0; q < ir->nprocs; q++) {
			int	qc = irn_pc(n, s, q);

			if (qc < 0 || ir->ops[qc].kind != ir->ops[pc].kind ||
			    ir->ops[qc].root != ir->ops[pc].root)
				w[q] = any = 1;
		}
		return any;
	}
}

/* The synchronous send process p, holding no marker, waits in. */
static int
irn_sending(const struct irn *n, const unsigned char *s, int p)
{
	int	k;

	for (k = 0; k < n->nkinds; k++)
		if (n->kinds[k].origin >= 0 && n->kinds[k].src == p &&
		    s[n->off_msg + (size_t)k] != 0 &&
		    (n->ir->ops[n->kinds[k].origin].kind == IR_SSEND ||
		    n->ir->ops[n->kinds[k].origin].kind == IR_SEND))
			return n->kinds[k].origin;
	return 0;
}

/* "process 0 waits in 0x0001 MPI_Recv (f:2:1) for process 1" lines. */
static char *
irn_detail(const struct irn *n, const unsigned char *s)
{
	const struct ir	*ir = n->ir;
	unsigned char	*w = xcalloc((size_t)ir->nprocs, 1);
	struct buf	 b;
	int		 p, q, c;

	buf_init(&b);
	for (p = 0; p < ir->nprocs; p++) {
		int	pc = irn_pc(n, s, p);

		if (!irn_waits(n, s, p, w)) {
			if (pc >= 0 && ir->ops[pc].kind == IR_FINALIZE) {
				buf_printf(&b, "process %d waits in ", p);
				irn_opname(&b, ir, pc);
				buf_adds(&b, "\n");
			}
			continue;
		}
		buf_printf(&b, "process %d waits in ", p);
		if (pc < 0)
			pc = irn_sending(n, s, p);
		irn_opname(&b, ir, pc);
		buf_adds(&b, " for ");
		for (q = c = 0; q < ir->nprocs; q++)
			if (w[q])
				buf_printf(&b, "%sprocess %d", c++ ? ", " : "", q);
		buf_adds(&b, "\n");
	}
	free(w);
	return buf_steal(&b);
}

/* A cycle of waiting processes in s (not through MPI_Finalize): its
 * processes into procs, how many (0: none). */
static int
irn_cycle(const struct irn *n, const unsigned char *s, int *procs)
{
	const struct ir	*ir = n->ir;
	int		 np = ir->nprocs, p, q, len;
	unsigned char	*w = xcalloc((size_t)np * (size_t)np, 1);
	int		*state = xcalloc((size_t)np, sizeof(int));
	int		*stack = xcalloc((size_t)np, sizeof(int));
	int		*it = xcalloc((size_t)np, sizeof(int));
	int		 found = 0;

	for (p = 0; p < np; p++)
		irn_waits(n, s, p, w + (size_t)p * (size_t)np);
	for (p = 0; p < np && !found; p++) {
		int	sp = 0;

		if (state[p] != 0)
			continue;
		stack[sp++] = p;
		state[p] = 1;
		it[p] = 0;
		while (sp > 0 && !found) {
			int	u = stack[sp - 1];

			for (q = it[u]; q < np && !w[(size_t)u * (size_t)np + q]; q++)
				;
			it[u] = q + 1;
			if (q >= np) {
				state[u] = 2;
				sp--;
			} else if (state[q] == 1) {
				for (len = 0; stack[sp - 1 - len] != q; len++)
					;
				len++;
				for (p = 0; p < len; p++)
					procs[p] = stack[sp - len + p];
				found = len;
			} else if (state[q] == 0) {
				state[q] = 1;
				it[q] = 0;
				stack[sp++] = q;
			}
		}
	}
	free(w);
	free(state);
	free(stack);
	free(it);
	return found;
}

/* The violation a terminal marking (or, unwaited, a finalizing one) is. */
static struct violation *
irn_judge(const struct irn *n, const unsigned char *s, int unwaited)
{
	const struct ir		*ir = n->ir;
	struct violation	*v = xcalloc(1, sizeof(*v));
	struct buf		 b;
	int			 p, q, k, np = ir->nprocs, c0 = -1;

	buf_init(&b);
	v->procs = xcalloc((size_t)np, sizeof(*v->procs));
	if (unwaited) {
		v->kind = VK_UNWAITED;
		for (p = 0; p < np; p++)
			if (irn_req(n, s, p, 1) != 0) {
				v->procs[v->nprocs++] = p;
				for (k = 0; k < ir->nops; k++)
					if (ir->ops[k].proc == p && ir->ops[k].slot >= 0 &&
					    (irn_req(n, s, p, 1) & 1u << ir->ops[k].slot))
						break;
				buf_printf(&b, "non-blocking request never waited "
				    "for: process %d's ", p);
				irn_opname(&b, ir, k);
				break;
			}
		v->message = buf_steal(&b);
		v->detail = irn_detail(n, s);
		return v;
	}
	/* Collectives: two different ones held, or one against a process
	 * that finalizes. */
	for (p = 0; p < np; p++) {
		int	pc = irn_pc(n, s, p);

		if (pc >= 0 && ir_is_coll(ir->ops[pc].kind)) {
			c0 = p;
			break;
		}
	}
	if (c0 >= 0) {
		const struct ir_op	*a = &ir->ops[irn_pc(n, s, c0)];

		for (q = 0; q < np; q++) {
			int	qc = irn_pc(n, s, q);

			if (qc < 0)
				continue;
			if ((ir_is_coll(ir->ops[qc].kind) &&
			    (ir->ops[qc].kind != a->kind || ir->ops[qc].root != a->root)) ||
			    ir->ops[qc].kind == IR_FINALIZE) {
				v->kind = VK_COLL_MISMATCH;
				v->procs[v->nprocs++] = c0;
				v->procs[v->nprocs++] = q;
				buf_printf(&b, "collective mismatch: process %d calls "
				    "%s (0x%04" PRIx64 ") while process %d calls %s "
				    "(0x%04" PRIx64 ")", c0, ir_kind_name(a->kind),
				    a->id, q, ir_kind_name(ir->ops[qc].kind),
				    ir->ops[qc].id);
				v->message = buf_steal(&b);
				v->detail = irn_detail(n, s);
				return v;
			}
		}
	}
	if ((k = irn_cycle(n, s, v->procs)) > 0) {
		v->kind = VK_DEADLOCK;
		v->nprocs = k;
		buf_adds(&b, "deadlock: ");
		for (p = 0; p < k; p++)
			buf_printf(&b, "%sprocess %d", p == 0 ? "" : p == k - 1 ?
			    " and " : ", ", v->procs[p]);
		buf_adds(&b, k == 2 ? " wait for each other" : k == 1 ?
		    " waits for itself" : " wait in a cycle");
		v->message = buf_steal(&b);
		v->detail = irn_detail(n, s);
		return v;
	}
	for (p = 0; p < np; p++) {
		int	pc = irn_pc(n, s, p);

		if (pc >= 0 && (ir->ops[pc].kind == IR_RECV ||
		    ((ir->ops[pc].kind == IR_WAIT || ir->ops[pc].kind == IR_WAITALL) &&
		    irn_req(n, s, p, 0) != 0))) {
			v->kind = VK_ORPHAN_RECV;
			v->procs[v->nprocs++] = p;
			buf_printf(&b, "orphan receive: process %d waits in ", p);
			irn_opname(&b, ir, pc);
			buf_adds(&b, " for a message that never comes");
			v->message = buf_steal(&b);
			v->detail = irn_detail(n, s);
			return v;
		}
	}
	for (k = 0; k < n->nkinds; k++)
		if (s[n->off_msg + (size_t)k] != 0) {
			v->kind = VK_UNMATCHED_SEND;
			v->procs[v->nprocs++] = n->kinds[k].src;
			buf_printf(&b, "unmatched send: the message of process "
			    "%d's ", n->kinds[k].src);
			irn_opname(&b, ir, n->kinds[k].op);
			buf_adds(&b, " is never received (");
			irn_msgname(&b, n, k);
			buf_adds(&b, ")");
			v->message = buf_steal(&b);
			v->detail = irn_detail(n, s);
			return v;
		}
	/* Nothing we name: the processes hold operations that wait. */
	v->kind = VK_DEADLOCK;
	for (p = 0; p < np; p++)
		if (irn_pc(n, s, p) >= 0)
			v->procs[v->nprocs++] = p;
	buf_adds(&b, "deadlock: no operation can fire");
	v->message = buf_steal(&b);
	v->detail = irn_detail(n, s);
	return v;
}

/* Whether every process holds MPI_Finalize (where a request never waited
 * for shows). */
static int
irn_finalizing(const struct irn *n, const unsigned char *s)
{
	int	p, pc;

	for (p = 0; p < n->ir->nprocs; p++)
		if ((pc = irn_pc(n, s, p)) < 0 || n->ir->ops[pc].kind != IR_FINALIZE)
			return 0;
	return 1;
}

/* The model's judge (model.h): a terminal marking with tokens outside End
 * is the violation irn_judge names (and the thesis counts it), one where
 * every process finalizes with a request never waited for is
 * VK_UNWAITED; vkind_prio ranks them, as it does scripts' kinds. */
static int
irn_judge_state(void *arg, const uint64_t *sw, const unsigned char *ps)
{
	struct irn		*n = arg;
	const unsigned char	*s = (const unsigned char *)sw;
	struct violation	*v;
	int			 p, bad;

	for (p = 0; p <= n->ir->nprocs && ps[p] != PS_RUNS; p++)
		;
	if (p <= n->ir->nprocs) {
		if (!n->ir->has_requests || !irn_finalizing(n, s))
			return 0;
		for (p = 0; p < n->ir->nprocs; p++)
			if (irn_req(n, s, p, 1) != 0)
				return vkind_prio(VK_UNWAITED);
		return 0;
	}
	if (!irn_outside(n, s))
		return 0;
	if (n->th->nterminal++ == 0)
		n->th->terminal = irn_marking(n, s);
	v = irn_judge(n, s, 0);
	bad = vkind_prio(v->kind);
	violation_free(v);
	free(v);
	return bad;
}

/* Explore one mode's net with explore_bfs, every interleaving.  No
 * stubborn sets: explore.c's reduction needs to know which transitions
 * are independent of every other group's now and later (sem.c works
 * that out for scripts' nets), and here they seldom are: a receive of a
 * synchronous message moves its sender, a posted MPI_Irecv and the
 * MPI_Recv of one process compete for a kind, and which request a
 * message completes is a choice the thesis's net leaves open; nor the
 * one run, which needs each process to have one way on.  The thesis's
 * counts (states, and transitions as distinct pairs of markings) are
 * those of every interleaving: two transitions enabled in one marking
 * never lead to the same marking (each changes what its own process
 * holds or its request bits, or takes a different message), so the
 * explorer's count of firings is theirs. */
static void
irn_check(const struct ir *ir, enum check_mode mode, const struct verify_opts *vo,
    struct mode_result *r, struct irnet_thesis *th)
{
	struct irn	 n;
	struct model	 md;
	struct xopts	 xo;
	struct xresult	 x;
	double		 t0 = clock_now();
	char		 label[64];
	int		 k;

	memset(&n, 0, sizeof(n));
	memset(r, 0, sizeof(*r));
	memset(th, 0, sizeof(*th));
	n.ir = ir;
	n.mode = mode;
	n.overflow = -1;
	n.th = th;
	irn_kinds(&n);
	n.off_req = 2 + 2 * (size_t)ir->nprocs;
	n.off_msg = n.off_req + (ir->has_requests ? 8 * (size_t)ir->nprocs : 0);
	n.size = n.off_msg + (size_t)n.nkinds;
	n.fired = xcalloc((size_t)ir->nops, 1);
	for (k = 0; k < ir->nops; k++)
		n.has_coll |= ir_is_coll(ir->ops[k].kind);

	memset(&md, 0, sizeof(md));
	md.arg = &n;
	md.ngroups = ir->nprocs + 1;
	md.words = (uint32_t)((n.size + 7) / 8);
	md.bytes = (uint32_t)n.size;
	md.max_trans = irn_max_trans(&n);
	md.all_group = ir->nprocs;
	md.initial = irn_initial;
	md.enabled = irn_enabled;
	md.fire = irn_fire;
	md.ended = irn_ended;
	md.judge = irn_judge_state;
	md.judge_arg = &n;

	xopts_from(vo, mode, t0, label, sizeof(label), &xo);
	xo.reduce = 0;
	/* Unwaited requests show in markings that are not terminal. */
	xo.judge_all = ir->has_requests;
	xo.worst = vkind_prio(n.has_coll ? VK_COLL_MISMATCH : VK_DEADLOCK);
	explore_bfs(&md, &xo, &x);

	r->mode = mode;
	r->engine = ENGINE_EXACT;
	r->state_bytes = (uint32_t)n.size;
	r->states = x.states;
	r->transitions = x.transitions;
	r->peak_bytes = x.peak_bytes;
	if (x.status == X_OVERFLOW) {
		struct buf	b;

		buf_init(&b);
		buf_adds(&b, "more than 255 messages ");
		irn_msgname(&b, &n, n.overflow);
		buf_adds(&b, ": sends outrun receives without bound");
		r->incomplete = buf_steal(&b);
	} else if (x.status == X_LIMIT ||
	    (x.status == X_VIOLATION && x.limit != XL_NONE))
		r->incomplete = xopts_limit_text(&x, &xo, vo);
	if (x.bad > 0) {
		r->viol = irn_judge(&n, (unsigned char *)x.final,
		    irn_finalizing(&n, (unsigned char *)x.final));
		irn_trace(&n, x.trace, x.ntrace, r->viol);
		r->viol->final = NULL;
	}
	/* (Every operation that can fire did, unless the search stopped.) */
	if (r->incomplete == NULL && xo.full)
		for (k = 1; k < ir->nops; k++)
			if (!n.fired[k]) {
				th->dead = xreallocarray(th->dead, (size_t)th->ndead + 1,
				    sizeof(*th->dead));
				th->dead[th->ndead++] = k;
			}
	r->verdict = r->viol != NULL ? V_VIOLATED : r->incomplete != NULL ?
	    V_INCOMPLETE : V_VERIFIED;
	r->time_s = clock_now() - t0;
	xresult_free(&x);
	free(n.fired);
	free(n.kinds);
	free(n.mk);
	for (k = 0; k < ir->nops; k++)
		free(n.acc[k]);
	free(n.acc);
}

void
irnet_verify(const struct ir *ir, const char *name, const struct verify_opts *vo,
    struct verify_result *r, struct irnet_thesis th[CHECK_MODES])
{
	int	modes = vo->modes, m;
	double	t0 = clock_now();
	struct verify_opts o = *vo;

	memset(r, 0, sizeof(*r));
	r->name = name;
	r->buffered = "standard sends";
	if (modes == 0)
		modes = ir->has_standard ? 3 : 1 << CHECK_BUFFERED;
	for (m = 0; m < CHECK_MODES; m++) {
		struct mode_result	*mr = &r->mode[r->nmodes];

		if (!(modes & 1 << m))
			continue;
		o.spent = clock_now() - t0;
		irn_check(ir, (enum check_mode)m, &o, mr, &th[r->nmodes]);
		if (vo->progress && isatty(STDERR_FILENO))
			fputs("\r\033[K", stderr);	/* the progress line */
		r->nmodes++;
		if (mr->verdict == V_VIOLATED)
			r->verdict = V_VIOLATED;
		else if (mr->verdict == V_INCOMPLETE && r->verdict != V_VIOLATED)
			r->verdict = V_INCOMPLETE;
	}
	r->hazard = r->nmodes == 2 && r->mode[0].verdict == V_VERIFIED &&
	    r->mode[1].verdict == V_VIOLATED;
	r->status = r->verdict == V_VIOLATED ? 1 : r->verdict == V_INCOMPLETE ? 3 : 0;
	r->time_s = clock_now() - t0;
}

void
irnet_thesis_free(struct irnet_thesis *th)
{
	free(th->terminal);
	free(th->dead);
	memset(th, 0, sizeof(*th));
}
