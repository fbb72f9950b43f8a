/* irnet.c -- the thesis's net of an IR model (irnet.h), explored breadth
 * first with every interleaving.  A marking is packed in a few bytes:
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

#include "clock.h"
#include "explore.h"
#include "irnet.h"
#include "report.h"
#include "xmalloc.h"

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
	/* the store */
	unsigned char	*st;
	uint64_t	 nst, ast;
	uint32_t	*parent;
	int32_t		*act;		/* the operation fired (process order) */
	int32_t		*aux;		/* its message kind, -1; -2 collective */
	uint32_t	*ht;
	uint64_t	 htsize;
	unsigned char	*fired;		/* per op */
	int		 overflow;	/* a message kind past 255 */
};

#define IRN_NONE	UINT32_MAX

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

/* A state's hash: eight bytes at a time, then the rest. */
static uint64_t
irn_hash(const unsigned char *s, size_t len)
{
	uint64_t	h = 0x9e3779b97f4a7c15ULL ^ len, w;
	size_t		i;

	for (i = 0; i + 8 <= len; i += 8) {
		memcpy(&w, s + i, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	for (; i < len; i++)
		h = (h ^ s[i]) * 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ULL;
	return h ^ h >> 31;
}

static void
irn_rehash(struct irn *n)
{
	uint64_t	i, j, size = n->htsize ? n->htsize * 2 : 1 << 16;

	free(n->ht);
	n->ht = xcalloc(size, sizeof(*n->ht));
	n->htsize = size;
	memset(n->ht, 0xff, size * sizeof(*n->ht));
	for (i = 0; i < n->nst; i++) {
		j = irn_hash(n->st + i * n->size, n->size) & (size - 1);
		while (n->ht[j] != IRN_NONE)
			j = (j + 1) & (size - 1);
		n->ht[j] = (uint32_t)i;
	}
}

/* The index of state s, added (with its parent and action) when new. */
static uint32_t
irn_insert(struct irn *n, const unsigned char *s, uint32_t parent, int act,
    int aux, int *added)
{
	uint64_t	j;

	if ((n->nst + 1) * 2 > n->htsize)
		irn_rehash(n);
	j = irn_hash(s, n->size) & (n->htsize - 1);
	while (n->ht[j] != IRN_NONE) {
		if (memcmp(n->st + (size_t)n->ht[j] * n->size, s, n->size) == 0) {
			*added = 0;
			return n->ht[j];
		}
		j = (j + 1) & (n->htsize - 1);
	}
	if (n->nst == n->ast) {
		n->ast = n->ast ? n->ast * 2 : 4096;
		n->st = xreallocarray(n->st, n->ast, n->size);
		n->parent = xreallocarray(n->parent, n->ast, sizeof(*n->parent));
		n->act = xreallocarray(n->act, n->ast, sizeof(*n->act));
		n->aux = xreallocarray(n->aux, n->ast, sizeof(*n->aux));
	}
	memcpy(n->st + n->nst * n->size, s, n->size);
	n->parent[n->nst] = parent;
	n->act[n->nst] = act;
	n->aux[n->nst] = aux;
	n->ht[j] = (uint32_t)n->nst;
	*added = 1;
	return (uint32_t)n->nst++;
}

/* Successors of a state, collected for one expansion. */
struct irn_succ {
	unsigned char	*buf;		/* room for many states */
	int32_t		*act, *aux;
	size_t		 n, alloc;
	size_t		 size;
};

static unsigned char *
irn_succ_new(struct irn_succ *x, const unsigned char *s, int act, int aux)
{
	if (x->n == x->alloc) {
		x->alloc = x->alloc ? x->alloc * 2 : 64;
		x->buf = xreallocarray(x->buf, x->alloc, x->size);
		x->act = xreallocarray(x->act, x->alloc, sizeof(*x->act));
		x->aux = xreallocarray(x->aux, x->alloc, sizeof(*x->aux));
	}
	x->act[x->n] = act;
	x->aux[x->n] = aux;
	memcpy(x->buf + x->n * x->size, s, x->size);
	return x->buf + x->n++ * x->size;
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

/* Every enabled transition of state s, into x. */
static void
irn_expand(struct irn *n, const unsigned char *s, struct irn_succ *x)
{
	const struct ir	*ir = n->ir;
	unsigned char	*t;
	int		 p, i, op0, allfin = 1, allcoll = 1;

	x->n = 0;
	if (s[0]) {
		t = irn_succ_new(x, s, 0, -1);
		t[0] = 0;
		for (p = 0; p < ir->nprocs; p++)
			irn_set_pc(n, t, p, ir->first[p]);
		return;
	}
	op0 = irn_pc(n, s, 0);
	for (p = 0; p < ir->nprocs; p++) {
		int			 pc = irn_pc(n, s, p);
		const struct ir_op	*op;
		int			 k;

		if (pc < 0) {
			allfin = allcoll = 0;
			continue;
		}
		op = &ir->ops[pc];
		if (op->kind != IR_FINALIZE)
			allfin = 0;
		if (!ir_is_coll(op->kind) || op0 < 0 ||
		    ir->ops[op0].kind != op->kind || ir->ops[op0].root != op->root)
			allcoll = 0;
		if (ir->has_requests) {
			/* A posted receive completes when a message comes. */
			uint32_t	pend = irn_req(n, s, p, 0);

			for (i = 0; pend != 0 && i < ir->nops; i++) {
				const struct ir_op	*r = &ir->ops[i];

				if (r->proc != p || r->kind != IR_IRECV ||
				    !(pend & 1u << r->slot))
					continue;
				for (k = 0; n->acc[i][k] >= 0; k++) {
					if (s[n->off_msg + (size_t)n->acc[i][k]] == 0)
						continue;
					t = irn_succ_new(x, s, i, n->acc[i][k]);
					irn_take(n, t, n->acc[i][k]);
					irn_set_req(n, t, p, 0, pend & ~(1u << r->slot));
				}
			}
		}
		switch (op->kind) {
		case IR_SEND:
		case IR_BSEND:
		case IR_SSEND:
			t = irn_succ_new(x, s, pc, -1);
			if (!irn_put(n, t, n->mk[pc])) {
				x->n--;
				break;
			}
			irn_set_pc(n, t, p, irn_sync(n, op->kind) ? -1 : op->next);
			break;
		case IR_ISEND:
		case IR_IBSEND:
		case IR_ISSEND:
			t = irn_succ_new(x, s, pc, -1);
			if (!irn_put(n, t, n->mk[pc])) {
				x->n--;
				break;
			}
			irn_set_pc(n, t, p, op->next);
			if (irn_sync(n, op->kind))
				irn_set_req(n, t, p, 0, irn_req(n, s, p, 0) |
				    1u << op->slot);
			irn_set_req(n, t, p, 1, irn_req(n, s, p, 1) | 1u << op->slot);
			break;
		case IR_IRECV:
			t = irn_succ_new(x, s, pc, -1);
			irn_set_pc(n, t, p, op->next);
			irn_set_req(n, t, p, 0, irn_req(n, s, p, 0) | 1u << op->slot);
			irn_set_req(n, t, p, 1, irn_req(n, s, p, 1) | 1u << op->slot);
			break;
		case IR_RECV:
			for (k = 0; n->acc[pc][k] >= 0; k++) {
				if (s[n->off_msg + (size_t)n->acc[pc][k]] == 0)
					continue;
				t = irn_succ_new(x, s, pc, n->acc[pc][k]);
				irn_take(n, t, n->acc[pc][k]);
				irn_set_pc(n, t, p, op->next);
			}
			break;
		case IR_WAIT: {
			uint32_t	bit = 1u << ir->ops[op->req].slot;

			if (irn_req(n, s, p, 0) & bit)
				break;
			t = irn_succ_new(x, s, pc, -1);
			irn_set_req(n, t, p, 1, irn_req(n, s, p, 1) & ~bit);
			irn_set_pc(n, t, p, op->next);
			break;
		}
		case IR_WAITALL:
			if (irn_req(n, s, p, 0) != 0)
				break;
			t = irn_succ_new(x, s, pc, -1);
			irn_set_req(n, t, p, 1, 0);
			irn_set_pc(n, t, p, op->next);
			break;
		default:
			break;
		}
	}
	if (allcoll) {
		t = irn_succ_new(x, s, op0, -2);
		for (p = 0; p < ir->nprocs; p++)
			irn_set_pc(n, t, p, ir->ops[irn_pc(n, s, p)].next);
	}
	if (allfin) {
		t = irn_succ_new(x, s, op0, -1);
		for (p = 0; p < ir->nprocs; p++)
			irn_set_pc(n, t, p, -1);
		if (t[1] < 255)
			t[1]++;
	}
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

/* The action that led to state i, as a counterexample's line. */
static char *
irn_action(const struct irn *n, uint32_t i)
{
	const struct ir	*ir = n->ir;
	int		 a = n->act[i], aux = n->aux[i];
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

/* Violation v's trace: the actions from the initial marking to state i. */
static void
irn_trace(const struct irn *n, uint32_t i, struct violation *v)
{
	uint32_t	j;
	size_t		len = 0, k;

	for (j = i; j != 0; j = n->parent[j])
		len++;
	v->trace = xcalloc(len ? len : 1, sizeof(*v->trace));
	v->ntrace = (int)len;
	v->trace_total = len;
	for (j = i, k = len; j != 0; j = n->parent[j])
		v->trace[--k] = irn_action(n, j);
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

static const int irn_rank[VK_COUNT] = {
	[VK_COLL_MISMATCH] = 0, [VK_DEADLOCK] = 1, [VK_ORPHAN_RECV] = 2,
	[VK_UNMATCHED_SEND] = 3, [VK_UNWAITED] = 4
};

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

/* Explore one mode's net. */
static void
irn_check(const struct ir *ir, enum check_mode mode, const struct verify_opts *vo,
    struct mode_result *r, struct irnet_thesis *th)
{
	struct irn	 n;
	struct irn_succ	 x;
	unsigned char	*s0, *cur;
	uint32_t	*succ = NULL;
	size_t		 asucc = 0;
	uint64_t	 i, trans = 0;
	double		 t0 = clock_now();
	int		 added, k, stopped = 0;
	uint32_t	 viol_state = 0;
	uint64_t	 asked = 0, used, maxmem;

	memset(&n, 0, sizeof(n));
	memset(&x, 0, sizeof(x));
	memset(r, 0, sizeof(*r));
	memset(th, 0, sizeof(*th));
	n.ir = ir;
	n.mode = mode;
	n.overflow = -1;
	irn_kinds(&n);
	n.off_req = 2 + 2 * (size_t)ir->nprocs;
	n.off_msg = n.off_req + (ir->has_requests ? 8 * (size_t)ir->nprocs : 0);
	n.size = n.off_msg + (size_t)n.nkinds;
	x.size = n.size;
	n.fired = xcalloc((size_t)ir->nops, 1);
	s0 = xcalloc(1, n.size);
	cur = xmalloc(n.size);
	s0[0] = 1;
	for (k = 0; k < ir->nprocs; k++)
		irn_set_pc(&n, s0, k, -1);
	irn_insert(&n, s0, IRN_NONE, -1, -1, &added);
	r->mode = mode;
	r->engine = ENGINE_EXACT;
	r->state_bytes = (uint32_t)n.size;
	for (i = 0; i < n.nst; i++) {
		size_t	j, ns;
		int	fin = 1, p;

		if ((vo->max_states > 0 && n.nst > vo->max_states) ||
		    n.nst >= UINT32_MAX - 1) {
			xasprintf(&r->incomplete, "state limit of %" PRIu64
			    " reached (--max-states)", vo->max_states);
			stopped = 1;
			break;
		}
		used = (i & 4095) == 0 ? n.ast * (n.size + 12) +
		    n.htsize * sizeof(*n.ht) : 0;
		if (used > 0 && used > (maxmem =
		    explore_budget(vo->max_memory, &asked, used))) {
			xasprintf(&r->incomplete, "memory limit of %" PRIu64
			    " MB reached%s", maxmem >> 20, vo->max_memory > 0 ?
			    " (--max-memory)" : " (half of the memory available)");
			stopped = 1;
			break;
		}
		if ((i & 4095) == 0 && vo->max_time > 0 &&
		    clock_now() - t0 + vo->spent > vo->max_time) {
			xasprintf(&r->incomplete, "time limit of %g s reached "
			    "(--max-time)", vo->max_time);
			stopped = 1;
			break;
		}
		memcpy(cur, n.st + i * n.size, n.size);
		irn_expand(&n, cur, &x);
		if (n.overflow >= 0) {
			struct buf	b;

			buf_init(&b);
			buf_adds(&b, "more than 255 messages ");
			irn_msgname(&b, &n, n.overflow);
			buf_adds(&b, ": sends outrun receives without bound");
			r->incomplete = buf_steal(&b);
			stopped = 1;
			break;
		}
		xgrow(&succ, &asucc, x.n + 1, sizeof(*succ));
		for (j = 0; j < x.n; j++) {
			const struct ir_op	*op = &ir->ops[x.act[j]];

			succ[j] = irn_insert(&n, x.buf + j * n.size, (uint32_t)i,
			    x.act[j], x.aux[j], &added);
			n.fired[x.act[j]] = 1;
			if (x.aux[j] == -2)
				for (p = 0; p < ir->nprocs; p++)
					n.fired[irn_pc(&n, cur, p)] = 1;
			if (op->kind == IR_FINALIZE)
				for (p = 0; p < ir->nprocs; p++)
					n.fired[irn_pc(&n, cur, p)] = 1;
		}
		/* Distinct successors. */
		for (j = 1, ns = x.n > 0; j < x.n; j++) {
			size_t	m;

			for (m = 0; m < j && succ[m] != succ[j]; m++)
				;
			ns += m == j;
		}
		trans += ns;
		if (ir->has_requests) {
			for (p = 0; p < ir->nprocs; p++) {
				int	pc = irn_pc(&n, cur, p);

				if (pc < 0 || ir->ops[pc].kind != IR_FINALIZE)
					fin = 0;
			}
			if (fin)
				for (p = 0; p < ir->nprocs; p++)
					if (irn_req(&n, cur, p, 1) != 0 &&
					    (r->viol == NULL ||
					    irn_rank[VK_UNWAITED] < irn_rank[r->viol->kind])) {
						r->viol = irn_judge(&n, cur, 1);
						viol_state = (uint32_t)i;
						break;
					}
		}
		if (x.n == 0 && irn_outside(&n, cur)) {
			struct violation	*v;

			if (th->nterminal++ == 0)
				th->terminal = irn_marking(&n, cur);
			v = irn_judge(&n, cur, 0);
			if (r->viol == NULL || irn_rank[v->kind] < irn_rank[r->viol->kind]) {
				if (r->viol != NULL) {
					violation_free(r->viol);
					free(r->viol);
				}
				r->viol = v;
				viol_state = (uint32_t)i;
			} else {
				violation_free(v);
				free(v);
			}
		}
	}
	if (r->viol != NULL) {
		irn_trace(&n, viol_state, r->viol);
		r->viol->final = NULL;
	}
	if (!stopped)
		for (k = 1; k < ir->nops; k++)
			if (!n.fired[k]) {
				th->dead = xreallocarray(th->dead, (size_t)th->ndead + 1,
				    sizeof(*th->dead));
				th->dead[th->ndead++] = k;
			}
	r->states = n.nst;
	r->transitions = trans;
	r->verdict = r->viol != NULL ? V_VIOLATED : stopped ? V_INCOMPLETE :
	    V_VERIFIED;
	r->peak_bytes = n.ast * (n.size + 12) + n.htsize * sizeof(*n.ht);
	r->time_s = clock_now() - t0;
	free(succ);
	free(s0);
	free(cur);
	free(x.buf);
	free(x.act);
	free(x.aux);
	free(n.st);
	free(n.parent);
	free(n.act);
	free(n.aux);
	free(n.ht);
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
