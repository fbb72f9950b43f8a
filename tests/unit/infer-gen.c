/* infer-gen.c -- the inference of behaviours from code, on random
 * components (tests/infer-gen.test, 'make infer-gen'): each behaviour of a
 * random script of gen.c (the generator of the checker's differential
 * tests) is written as a component's code, in C and in Python, then read
 * back by the code check of ensemble check --code (libinfer and
 * libcodecheck, as ensemble links them), which must find the code's
 * behaviour equal to the one it was written from, process by process.
 *
 * usage: infer-gen -s SEED -n COUNT [-f FIRST] [-l c|py|both] [-k DIR]
 * Prints a line per difference (the script's number, the component, the
 * language, what differs), then the figures:
 *	c: N components, E equal, D differences, F not inferred
 * and exits 1 if any component was not equal.  -k keeps each failing
 * script and code in DIR. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "codecheck.h"
#include "diag.h"
#include "frontend.h"
#include "gen.h"
#include "infer.h"
#include "pcg.h"
#include "xmalloc.h"

/* Request slots: one per name, one per post without one. */
#define SLOTS	256

struct render {
	struct buf	 b;
	int		 py;		/* Python, else C */
	int		 depth;		/* indentation */
	int		 vars;		/* loop variables made */
	int		 slot;		/* the next slot of a post without name */
	const char	*names[SLOTS];	/* the slots of names */
	int		 nnames;
	const char	*ptype[SLOTS];	/* a probed message's type, by the slot
					 * of its name (NULL: in pt[]) */
	const struct pcg *g;
	const struct pcg_comp *comp;
};

static void
ind(struct render *r)
{
	int	i;

	for (i = 0; i < r->depth; i++)
		buf_adds(&r->b, r->py ? "    " : "\t");
}

/* The slot of a request name. */
static int
slot_of(struct render *r, const char *name)
{
	int	i;

	for (i = 0; i < r->nnames; i++)
		if (strcmp(r->names[i], name) == 0)
			return i;
	r->names[r->nnames] = name;
	return r->nnames++;
}

/* The slot of a post: its name's, or one of its own. */
static int
post_slot(struct render *r, const struct stmt *s)
{
	return s->req != NULL ? slot_of(r, s->req) : r->slot--;
}

static void expr(struct render *, const struct expr *);

static void
expr(struct render *r, const struct expr *e)
{
	switch (e->kind) {
	case E_INT:
		buf_printf(&r->b, "%" PRId64, e->ival);
		break;
	case E_NAME:
		buf_adds(&r->b, e->name);
		break;
	case E_INDEX:
		buf_adds(&r->b, r->py ? "ensemble.self().index" :
		    "ens_self()->index");
		break;
	case E_PORTS:
		buf_printf(&r->b, r->py ? "ensemble.ports(\"%s\")" :
		    "ens_ports(\"%s\")", e->name);
		break;
	case E_UNARY:
		buf_adds(&r->b, e->op == '!' ? (r->py ? "(not " : "(!") : "(-");
		expr(r, e->a);
		buf_addc(&r->b, ')');
		break;
	case E_BINARY:
		buf_addc(&r->b, '(');
		expr(r, e->a);
		if (e->op >= OP_EQ && e->op <= OP_OR)
			buf_printf(&r->b, " %s ", e->op == OP_EQ ? "==" :
			    e->op == OP_NE ? "!=" : e->op == OP_LE ? "<=" :
			    e->op == OP_GE ? ">=" : e->op == OP_AND ?
			    (r->py ? "and" : "&&") : (r->py ? "or" : "||"));
		else if (r->py && (e->op == '/' || e->op == '%'))
			buf_adds(&r->b, e->op == '/' ? " // " : " % ");
		else
			buf_printf(&r->b, " %c ", e->op);
		expr(r, e->b);
		buf_addc(&r->b, ')');
		break;
	default:
		buf_adds(&r->b, "0");
		break;
	}
}

/* "T", k (the port of a statement) */
static void
port(struct render *r, const char *type, const struct expr *k)
{
	buf_printf(&r->b, "\"%s\", ", type);
	if (k != NULL)
		expr(r, k);
	else
		buf_adds(&r->b, "1");
}

static void stmts(struct render *, const struct stmt *);

/* A block: C's braces, or Python's indented lines (pass if empty). */
static void
block(struct render *r, const struct stmt *s)
{
	if (r->py) {
		r->depth++;
		if (s == NULL) {
			ind(r);
			buf_adds(&r->b, "pass\n");
		}
		stmts(r, s);
		r->depth--;
		return;
	}
	buf_adds(&r->b, "{\n");
	r->depth++;
	stmts(r, s);
	r->depth--;
	ind(r);
	buf_adds(&r->b, "}\n");
}

/* The type (or none) of an 'any' statement. */
static void
any_type(struct render *r, const char *type)
{
	if (type == NULL)
		buf_adds(&r->b, r->py ? "None" : "NULL");
	else
		buf_printf(&r->b, "\"%s\"", type);
}

/* A root or group name, as a string. */
static void
ref(struct render *r, const struct instref *x)
{
	buf_printf(&r->b, "\"%s", x->name);
	if (x->idx != NULL) {
		buf_addc(&r->b, '[');
		if (x->idx->lo->kind == E_INT)
			buf_printf(&r->b, "%" PRId64, x->idx->lo->ival);
		buf_addc(&r->b, ']');
	}
	buf_addc(&r->b, '"');
}

/* A collective. */
static void
coll(struct render *r, const struct stmt *s)
{
	static const struct {
		enum stmt_kind	 k;
		const char	*c, *py;
	} cs[] = {
		{ S_BARRIER, "ens_barrier%s(", "ensemble.barrier(" },
		{ S_ALLREDUCE, "ens_allreduce%s(b, b2, 1, MPI_INT, MPI_SUM",
		  "ensemble.allreduce(b, b2, \"sum\"" },
		{ S_ALLGATHER, "ens_allgather%s(b, 1, MPI_INT, b2, 1, MPI_INT",
		  "ensemble.allgather(b, b2" },
		{ S_ALLTOALL, "ens_alltoall%s(b, 1, MPI_INT, b2, 1, MPI_INT",
		  "ensemble.alltoall(b, b2" },
		{ S_ALLGATHERV, "ens_allgatherv%s(b, 1, MPI_INT, b2, cs, ds, MPI_INT",
		  "ensemble.allgatherv(b, b2, cs, ds" },
		{ S_ALLTOALLV, "ens_alltoallv%s(b, cs, ds, MPI_INT, b2, cs, ds, MPI_INT",
		  "ensemble.alltoallv(b, b2, cs, ds, cs, ds" },
		{ S_REDUCESCATTER, "ens_reduce_scatter%s(b, b2, cs, MPI_INT, MPI_SUM",
		  "ensemble.reduce_scatter(b, b2, cs, \"sum\"" },
		{ S_BCAST, "ens_bcast%s(b, 1, MPI_INT, ", "ensemble.bcast(b, " },
		{ S_SCATTER, "ens_scatter%s(b, 1, MPI_INT, b2, 1, MPI_INT, ",
		  "ensemble.scatter(b, b2, " },
		{ S_REDUCE, "ens_reduce%s(b, b2, 1, MPI_INT, MPI_SUM, ",
		  "ensemble.reduce(b, b2, \"sum\", " },
		{ S_GATHER, "ens_gather%s(b, 1, MPI_INT, b2, 1, MPI_INT, ",
		  "ensemble.gather(b, b2, " },
		{ S_SCATTERV, "ens_scatterv%s(b, cs, ds, MPI_INT, b2, 1, MPI_INT, ",
		  "ensemble.scatterv(b, b2, cs, ds, " },
		{ S_GATHERV, "ens_gatherv%s(b, 1, MPI_INT, b2, cs, ds, MPI_INT, ",
		  "ensemble.gatherv(b, b2, cs, ds, " },
	};
	size_t	i;
	int	rooted = pcg_stmt_rooted(s->kind);
	int	first;

	for (i = 0; cs[i].k != s->kind; i++)
		;
	if (r->py)
		buf_adds(&r->b, cs[i].py);
	else
		buf_printf(&r->b, cs[i].c, s->over != NULL ? "_over" : "");
	first = !rooted && s->kind == S_BARRIER;
	if (rooted)
		ref(r, &s->root);
	if (s->over != NULL) {
		if (!first)
			buf_adds(&r->b, ", ");
		ref(r, s->over);
		if (!r->py)
			buf_adds(&r->b, ", 0");
	}
	buf_adds(&r->b, r->py ? ")\n" : ");\n");
}

/* waitany or waitsome: the requests listed copied into an array of
 * their own, the outcome deciding an if-chain of the branches. */
static void
waits(struct render *r, const struct stmt *s)
{
	const struct branch	*br;
	int			 n = 0, k, var = ++r->vars;

	for (br = s->branches; br != NULL; br = br->next)
		n++;
	if (r->py) {
		buf_printf(&r->b, "%s%d = [", "w", var);
		for (br = s->branches, k = 0; br != NULL; br = br->next, k++)
			buf_printf(&r->b, "%sq[%d]", k ? ", " : "", slot_of(r, br->req));
		buf_adds(&r->b, "]\n");
		ind(r);
		if (s->kind == S_WAITANY)
			buf_printf(&r->b, "k%d = ensemble.waitany(w%d)\n", var, var);
		else
			buf_printf(&r->b, "for k%d in ensemble.waitsome(w%d):\n",
			    var, var);
		if (s->kind == S_WAITSOME)
			r->depth++;
		for (br = s->branches, k = 0; br != NULL; br = br->next, k++) {
			ind(r);
			buf_printf(&r->b, "%s k%d == %d:\n", k == 0 ? "if" : "elif",
			    var, k);
			block(r, br->body);
		}
		if (s->kind == S_WAITSOME)
			r->depth--;
		return;
	}
	buf_printf(&r->b, "{\n");
	r->depth++;
	ind(r);
	buf_printf(&r->b, "MPI_Request w[%d] = { ", n);
	for (br = s->branches, k = 0; br != NULL; br = br->next, k++)
		buf_printf(&r->b, "%sq[%d]", k ? ", " : "", slot_of(r, br->req));
	buf_adds(&r->b, " };\n");
	ind(r);
	if (s->kind == S_WAITANY)
		buf_printf(&r->b, "int k = ens_waitany(%d, w, MPI_STATUS_IGNORE);\n", n);
	else
		buf_printf(&r->b, "int idx[%d], j, c = ens_waitsome(%d, w, idx, "
		    "MPI_STATUSES_IGNORE);\n", n, n);
	for (br = s->branches, k = 0; br != NULL; br = br->next, k++) {
		ind(r);
		buf_printf(&r->b, "q[%d] = w[%d];\n", slot_of(r, br->req), k);
	}
	if (s->kind == S_WAITSOME) {
		ind(r);
		buf_adds(&r->b, "for (j = 0; j < c; j++) {\n");
		r->depth++;
	}
	for (br = s->branches, k = 0; br != NULL; br = br->next, k++) {
		ind(r);
		buf_printf(&r->b, "%sif (%s == %d) ", k == 0 ? "" : "else ",
		    s->kind == S_WAITANY ? "k" : "idx[j]", k);
		block(r, br->body);
	}
	if (s->kind == S_WAITSOME) {
		r->depth--;
		ind(r);
		buf_adds(&r->b, "}\n");
	}
	r->depth--;
	ind(r);
	buf_adds(&r->b, "}\n");
}

static void
stmt(struct render *r, const struct stmt *s)
{
	static const char *const sends[] = { "send", "ssend", "bsend" };
	static const char *const isends[] = { "isend", "issend", "ibsend" };
	const struct branch	*br;
	int			 v;

	ind(r);
	if ((s->kind == S_SEND || s->kind == S_RECV || s->kind == S_ISEND ||
	    s->kind == S_IRECV) && s->port == NULL) {
		/* T[*]: a loop over the type's ports */
		v = ++r->vars;
		if (r->py)
			buf_printf(&r->b, "for i%d in range(1, ensemble.ports(\"%s\") "
			    "+ 1):\n", v, s->type);
		else
			buf_printf(&r->b, "for (int i%d = 1; i%d <= ens_ports(\"%s\"); "
			    "i%d++) ", v, v, s->type, v);
		{
			struct stmt	one = *s;
			struct expr	ix;

			memset(&ix, 0, sizeof(ix));
			ix.kind = E_NAME;
			xasprintf((char **)&ix.name, "i%d", v);
			one.port = &ix;
			one.next = NULL;
			block(r, &one);
			free((char *)ix.name);
		}
		return;
	}
	switch (s->kind) {
	case S_SEND:
	case S_RECV:
		buf_printf(&r->b, r->py ? "ensemble.%s(" : "ens_%s(", s->kind == S_SEND ?
		    sends[s->mode] : "recv");
		port(r, s->type, s->port);
		buf_adds(&r->b, r->py ? ", b)\n" : ", b, 1, MPI_INT);\n");
		break;
	case S_RECV_ANY:
		buf_adds(&r->b, r->py ? "ensemble.recv_any(" : "ens_recv_any(");
		any_type(r, s->type);
		buf_adds(&r->b, r->py ? ", b)\n" : ", b, 1, MPI_INT);\n");
		break;
	case S_ISEND:
	case S_IRECV:
	case S_IRECV_ANY:
		v = post_slot(r, s);
		if (r->py)
			buf_printf(&r->b, "q[%d] = ensemble.%s(", v, s->kind == S_ISEND ?
			    isends[s->mode] : s->kind == S_IRECV ? "irecv" :
			    "irecv_any");
		else
			buf_printf(&r->b, "ens_%s(", s->kind == S_ISEND ?
			    isends[s->mode] : s->kind == S_IRECV ? "irecv" :
			    "irecv_any");
		if (s->kind == S_IRECV_ANY)
			any_type(r, s->type);
		else
			port(r, s->type, s->port);
		if (r->py)
			buf_adds(&r->b, ", b)\n");
		else
			buf_printf(&r->b, ", b, 1, MPI_INT, &q[%d]);\n", v);
		break;
	case S_WAITALL:
		buf_printf(&r->b, r->py ? "ensemble.waitall(q)\n" :
		    "ens_waitall(%d, q);\n", SLOTS);
		break;
	case S_WAIT:
		buf_printf(&r->b, r->py ? "ensemble.wait(q[%d])\n" :
		    "ens_wait(&q[%d], MPI_STATUS_IGNORE);\n", slot_of(r, s->req));
		break;
	case S_TEST:
		buf_printf(&r->b, r->py ? "if ensemble.test(q[%d]):\n" :
		    "if (ens_test(&q[%d], MPI_STATUS_IGNORE)) ", slot_of(r, s->req));
		block(r, s->body);
		ind(r);
		buf_adds(&r->b, r->py ? "else:\n" : "else ");
		block(r, s->orelse);
		break;
	case S_WAITANY:
	case S_WAITSOME:
		waits(r, s);
		break;
	case S_SENDRECV:
	case S_SENDRECV_REPLACE:
		if (s->kind == S_SENDRECV) {
			buf_adds(&r->b, r->py ? "ensemble.sendrecv(" : "ens_sendrecv(");
			port(r, s->type, s->port);
			buf_adds(&r->b, r->py ? ", b, " : ", b, 1, MPI_INT, ");
			port(r, s->rtype, s->rport);
			buf_adds(&r->b, r->py ? ", b2)\n" : ", b2, 1, MPI_INT, "
			    "MPI_STATUS_IGNORE);\n");
		} else {
			buf_adds(&r->b, r->py ? "ensemble.sendrecv_replace(" :
			    "ens_sendrecv_replace(");
			port(r, s->type, s->port);
			buf_adds(&r->b, ", ");
			port(r, s->rtype, s->rport);
			buf_adds(&r->b, r->py ? ", b)\n" : ", b, 1, MPI_INT, "
			    "MPI_STATUS_IGNORE);\n");
		}
		break;
	case S_PROBE:
		buf_adds(&r->b, r->py ? "ensemble.probe(" : "ens_probe(");
		port(r, s->type, s->port);
		if (s->req == NULL) {
			buf_adds(&r->b, r->py ? ")\n" : ", MPI_STATUS_IGNORE);\n");
			break;
		}
		/* the message named: its port and type from the status */
		v = slot_of(r, s->req);
		r->ptype[v] = NULL;
		buf_adds(&r->b, r->py ? ", st)\n" : ", &st);\n");
		ind(r);
		buf_printf(&r->b, r->py ? "pk[%d] = st.port\n" :
		    "pk[%d] = ens_port_of(&st, &pt[%d]);\n", v, v);
		if (r->py) {
			ind(r);
			buf_printf(&r->b, "pt[%d] = st.type\n", v);
		}
		break;
	case S_PROBE_ANY:
		if (s->req != NULL) {
			/* the port's index it returns, its type the given
			 * one's or the status's */
			v = slot_of(r, s->req);
			r->ptype[v] = s->type;
			buf_printf(&r->b, r->py ? "pk[%d] = ensemble.probe_any(" :
			    "pk[%d] = ens_probe_any(", v);
			any_type(r, s->type);
			if (s->type != NULL) {
				buf_adds(&r->b, r->py ? ")\n" :
				    ", MPI_STATUS_IGNORE);\n");
				break;
			}
			buf_adds(&r->b, r->py ? ", st)\n" : ", &st);\n");
			ind(r);
			buf_printf(&r->b, r->py ? "pt[%d] = st.type\n" :
			    "ens_port_of(&st, &pt[%d]);\n", v);
			break;
		}
		buf_adds(&r->b, r->py ? "ensemble.probe_any(" : "ens_probe_any(");
		any_type(r, s->type);
		buf_adds(&r->b, r->py ? ")\n" : ", MPI_STATUS_IGNORE);\n");
		break;
	case S_RECV_PROBED:
		v = slot_of(r, s->req);
		buf_adds(&r->b, r->py ? "ensemble.recv(" : "ens_recv(");
		if (r->ptype[v] != NULL)
			buf_printf(&r->b, "\"%s\"", r->ptype[v]);
		else
			buf_printf(&r->b, "pt[%d]", v);
		buf_printf(&r->b, r->py ? ", pk[%d], b)\n" :
		    ", pk[%d], b, 1, MPI_INT);\n", v);
		break;
	case S_IPROBE_ANY:
		if (s->req == NULL)
			goto iprobe;
		/* if it finds a message, its port (and type) kept first */
		v = slot_of(r, s->req);
		r->ptype[v] = s->type;
		buf_adds(&r->b, r->py ? "if ensemble.iprobe_any(" :
		    "if (ens_iprobe_any(");
		any_type(r, s->type);
		buf_printf(&r->b, r->py ? ", st):\n" : ", &pk[%d], &st)) {\n", v);
		r->depth++;
		if (r->py) {
			ind(r);
			buf_printf(&r->b, "pk[%d] = st.port\n", v);
		}
		if (s->type == NULL) {
			ind(r);
			buf_printf(&r->b, r->py ? "pt[%d] = st.type\n" :
			    "ens_port_of(&st, &pt[%d]);\n", v);
		}
		stmts(r, s->body);
		r->depth--;
		if (!r->py) {
			ind(r);
			buf_adds(&r->b, "}\n");
		}
		ind(r);
		buf_adds(&r->b, r->py ? "else:\n" : "else ");
		block(r, s->orelse);
		break;
	case S_IPROBE:
	iprobe:
		if (s->kind == S_IPROBE) {
			buf_adds(&r->b, r->py ? "if ensemble.iprobe(" : "if (ens_iprobe(");
			port(r, s->type, s->port);
		} else {
			buf_adds(&r->b, r->py ? "if ensemble.iprobe_any(" :
			    "if (ens_iprobe_any(");
			any_type(r, s->type);
			if (!r->py)
				buf_adds(&r->b, ", &port");
		}
		buf_adds(&r->b, r->py ? "):\n" : ", MPI_STATUS_IGNORE)) ");
		block(r, s->body);
		ind(r);
		buf_adds(&r->b, r->py ? "else:\n" : "else ");
		block(r, s->orelse);
		break;
	case S_LOOP:
		if (s->expr == NULL)
			buf_adds(&r->b, r->py ? "while True:\n" : "for (;;) ");
		else {
			v = ++r->vars;
			if (r->py)
				buf_printf(&r->b, "for i%d in range(", v);
			else
				buf_printf(&r->b, "for (int i%d = 0; i%d < ", v, v);
			expr(r, s->expr);
			if (r->py)
				buf_adds(&r->b, "):\n");
			else
				buf_printf(&r->b, "; i%d++) ", v);
		}
		block(r, s->body);
		break;
	case S_FOR:
		if (r->py)
			buf_printf(&r->b, "for %s in range(", s->var->name);
		else
			buf_printf(&r->b, "for (int %s = ", s->var->name);
		expr(r, s->var->lo);
		if (r->py)
			buf_adds(&r->b, ", ");
		else
			buf_printf(&r->b, "; %s <= ", s->var->name);
		expr(r, s->var->hi);
		if (r->py)
			buf_adds(&r->b, " + 1):\n");
		else
			buf_printf(&r->b, "; %s++) ", s->var->name);
		block(r, s->body);
		break;
	case S_IF:
		buf_adds(&r->b, r->py ? "if " : "if (");
		expr(r, s->expr);
		buf_adds(&r->b, r->py ? ":\n" : ") ");
		block(r, s->body);
		if (s->orelse != NULL) {
			ind(r);
			buf_adds(&r->b, r->py ? "else:\n" : "else ");
			block(r, s->orelse);
		}
		break;
	case S_CHOICE:
		for (br = s->branches; br != NULL; br = br->next) {
			if (br != s->branches)
				ind(r);
			if (br->next != NULL)
				buf_adds(&r->b, br == s->branches ? (r->py ?
				    "if coin():\n" : "if (coin()) ") : (r->py ?
				    "elif coin():\n" : "else if (coin()) "));
			else
				buf_adds(&r->b, r->py ? "else:\n" : "else ");
			block(r, br->body);
		}
		break;
	default:
		if (s->kind >= S_BARRIER && s->kind <= S_GATHERV)
			coll(r, s);
		else
			buf_adds(&r->b, r->py ? "pass\n" : ";\n");
		break;
	}
}

static void
stmts(struct render *r, const struct stmt *s)
{
	for (; s != NULL; s = s->next)
		stmt(r, s);
}

/* The component's code, from its behaviour. */
static void
render(struct render *r, const struct stmt *body)
{
	buf_reset(&r->b);
	r->depth = 0;
	r->vars = 0;
	r->nnames = 0;
	r->slot = SLOTS - 1;
	if (r->py) {
		buf_adds(&r->b, "import random\n\nimport ensemble\n\nq = [");
		for (int i = 0; i < SLOTS; i++)
			buf_printf(&r->b, "%sNone", i ? ", " : "");
		buf_adds(&r->b, "]\npk = [");
		for (int i = 0; i < SLOTS; i++)
			buf_printf(&r->b, "%s0", i ? ", " : "");
		buf_adds(&r->b, "]\npt = [");
		for (int i = 0; i < SLOTS; i++)
			buf_printf(&r->b, "%sNone", i ? ", " : "");
		buf_adds(&r->b, "]\nst = ensemble.Status()\n");
		buf_adds(&r->b, "b = bytearray(4)\nb2 = bytearray(64)\n"
		    "cs = [1]\nds = [0]\n\n\ndef coin():\n"
		    "    \"\"\"What the data decide.\"\"\"\n"
		    "    return random.random() < 0.5\n\n\n"
		    "def main():\n    \"\"\"The component.\"\"\"\n");
		r->depth = 1;
		ind(r);
		buf_adds(&r->b, "ensemble.init()\n");
		stmts(r, body);
		ind(r);
		buf_adds(&r->b, "ensemble.finalize()\n\n\nmain()\n");
		return;
	}
	buf_printf(&r->b, "#include <stdlib.h>\n#include <ensemble.h>\n\n"
	    "static MPI_Request q[%d];\nstatic int b[4], b2[64], cs[64], "
	    "ds[64], port, pk[%d];\nstatic const char *pt[%d];\n"
	    "static MPI_Status st;\n\nstatic int\ncoin(void)\n{\n"
	    "\treturn rand() & 1;\n}\n\nint\nmain(int argc, char **argv)\n{\n"
	    "\tens_init(&argc, &argv);\n", SLOTS, SLOTS, SLOTS);
	r->depth = 1;
	stmts(r, body);
	buf_adds(&r->b, "\tens_finalize();\n\treturn 0;\n}\n");
}

/* Figures of one language. */
struct tally {
	int		 comps, equal, differ, failed;
};

static int
write_file(const char *path, const char *text)
{
	FILE	*f = fopen(path, "w");

	if (f == NULL || fputs(text, f) == EOF || fclose(f) != 0) {
		perror(path);
		return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct gen	 g;
	struct pcg_opts	 po;
	struct render	 r;
	struct tally	 t[2];
	const char	*keep = NULL, *tmp = getenv("TMPDIR"), *lang = "both";
	uint64_t	 seed = 1;
	int		 n = 100, first = 0, i, c, l, p, bad = 0;
	char		 dir[] = "/tmp/infer-gen.XXXXXX", *path;
	static const char *incdirs[] = { ENS_ABS_SRCDIR "/runtime" };

	(void)tmp;
	memset(&g, 0, sizeof(g));
	memset(t, 0, sizeof(t));
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
			n = atoi(argv[++i]);
		else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "-f") == 0 && i + 1 < argc)
			first = atoi(argv[++i]);
		else if (strcmp(argv[i], "-k") == 0 && i + 1 < argc)
			keep = argv[++i];
		else if (strcmp(argv[i], "-l") == 0 && i + 1 < argc)
			lang = argv[++i];
		else {
			fprintf(stderr, "usage: infer-gen -s SEED -n COUNT [-f FIRST] "
			    "[-l c|py|both] [-k DIR]\n");
			return 2;
		}
	}
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 2;
	}
	memset(&po, 0, sizeof(po));
	po.skip_exec_check = 1;
	buf_init(&g.b);
	buf_init(&r.b);
	g.maxprocs = GEN_MAX_PROCS;
	for (i = first; i < first + n; i++) {
		gen_seed(seed * 1000003 + (uint64_t)i);
		switch (i % 5) {
		case 0:	gen_script(&g); break;
		case 1:	gen_protocol(&g); break;
		case 2:	gen_indexed(&g); break;
		case 3:	gen_loops(&g); break;
		default: gen_p2p(&g); break;
		}
		for (l = 0; l < 2; l++) {
			struct frontend_src src = { .name = "m.pcg", .no_includes = 1 };
			struct frontend	 fe;
			struct diag	*d;
			struct codecheck *cc;
			struct cc_opts	 o;
			const char	**sources, **srcv;
			FILE		*err;
			char		*errtext = NULL;
			size_t		 errlen = 0;

			if ((l == 0 && strcmp(lang, "py") == 0) ||
			    (l == 1 && strcmp(lang, "c") == 0))
				continue;
			err = open_memstream(&errtext, &errlen);
			d = diag_new(err);
			src.text = g.b.s;
			src.len = g.b.len;
			if (frontend_compile(&src, &po, FRONTEND_EXPAND, d, &fe) != 0) {
				/* (a script the checker refuses: not one of ours) */
				diag_free(d);
				fclose(err);
				free(errtext);
				frontend_free(&fe);
				continue;
			}
			/* Each component's code, from its behaviour. */
			sources = xcalloc((size_t)fe.pcg->ncomps + 1, sizeof(*sources));
			r.py = l;
			r.g = fe.pcg;
			for (c = 0; c < fe.pcg->ncomps; c++) {
				r.comp = &fe.pcg->comps[c];
				if (r.comp->behaviour == NULL)
					continue;
				render(&r, r.comp->behaviour->body);
				xasprintf(&path, "%s/%s.%s", dir, r.comp->name,
				    l ? "py" : "c");
				if (write_file(path, r.b.s) != 0)
					return 2;
				xasprintf((char **)&sources[c], "%s=%s", r.comp->name,
				    path);
				free(path);
			}
			memset(&o, 0, sizeof(o));
			o.io.helper = ENS_ABS_SRCDIR "/infer/infer.py";
			o.io.python = ENS_PYTHON;
			o.io.incdirs = incdirs;
			o.io.nincdirs = 1;
			o.io.mpi_cflags = ENS_MPI_CFLAGS;
			o.po = &po;
			srcv = xcalloc((size_t)fe.pcg->ncomps + 1, sizeof(*srcv));
			for (c = 0; c < fe.pcg->ncomps; c++)
				if (sources[c] != NULL)
					srcv[o.nsources++] = sources[c];
			o.sources = srcv;
			cc = codecheck_infer(fe.pcg, &o, d);
			codecheck_compare(cc, &o);
			fflush(err);
			for (c = 0; c < fe.pcg->ncomps; c++) {
				const char	*why = NULL;
				int		 ok = 1, failed = 0;

				if (fe.pcg->comps[c].behaviour == NULL)
					continue;
				t[l].comps++;
				for (p = 0; p < fe.pcg->nprocs && ok; p++) {
					struct cc_proc	*cp = &cc->procs[p];

					if (fe.pcg->procs[p].comp != c)
						continue;
					if (cp->verdict != CC_EQUAL) {
						ok = 0;
						failed = cp->verdict == CC_FAILED ||
						    cp->verdict == CC_UNCHECKED;
						why = cp->diff != NULL ? cp->diff :
						    cp->verdict == CC_INCLUDED ?
						    "included, not equal" : cp->why;
					}
				}
				if (ok) {
					t[l].equal++;
					continue;
				}
				bad = 1;
				if (failed)
					t[l].failed++;
				else
					t[l].differ++;
				printf("%d %s %s: %s\n", i, fe.pcg->comps[c].name,
				    l ? "py" : "c", why != NULL ? why : errtext);
				if (errlen > 0)
					printf("%s", errtext);
				if (keep != NULL) {
					char	*k;

					xasprintf(&k, "%s/m-%d.pcg", keep, i);
					(void)write_file(k, g.b.s);
					free(k);
					render(&r, fe.pcg->comps[c].behaviour->body);
					xasprintf(&k, "%s/m-%d-%s.%s", keep, i,
					    fe.pcg->comps[c].name, l ? "py" : "c");
					(void)write_file(k, r.b.s);
					free(k);
				}
			}
			codecheck_free(cc);
			for (c = 0; c < fe.pcg->ncomps; c++)
				free((char *)sources[c]);
			free(sources);
			free(srcv);
			frontend_free(&fe);
			diag_free(d);
			fclose(err);
			free(errtext);
		}
		fflush(stdout);
	}
	for (l = 0; l < 2; l++)
		if (t[l].comps > 0)
			printf("%s: %d components, %d equal, %d differences, %d not "
			    "inferred\n", l ? "py" : "c", t[l].comps, t[l].equal,
			    t[l].differ, t[l].failed);
	/* (the written files go with the directory) */
	{
		char	*cmd;

		xasprintf(&cmd, "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			fprintf(stderr, "infer-gen: cannot remove %s\n", dir);
		free(cmd);
	}
	buf_free(&g.b);
	buf_free(&r.b);
	return bad;
}
