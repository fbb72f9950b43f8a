/* api.c -- the calls the interpreter knows by name (interp.h): the port
 * interface in C (ens_*), C++ (ens::*) and Python (ensemble.*), each
 * written as the statement of the behaviour that --check-protocol pairs
 * it with (ensemble(1), "Protocol check"); and the few library calls a
 * component computes its names and counts with (atoi, int(), snprintf,
 * f-strings), ends with (exit, sys.exit) or allocates with.
 *
 * One table, apis[], says for each call of the port interface what it
 * is and where its operands are; a call new to the port interface (or a
 * binding's new name for one) is one line there. */
#include "config.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "interp.h"
#include "xmalloc.h"

/* What a call of the port interface is. */
enum aop {
	A_INIT, A_FINALIZE, A_PORTS, A_SELF, A_PARAM, A_RAW,
	A_SEND, A_RECV, A_RECV_ANY, A_POST, A_POST_ANY, A_WAITALL, A_WAIT,
	A_TEST, A_WAITANY, A_WAITSOME, A_SENDRECV, A_SENDRECV_REPLACE,
	A_PROBE, A_PROBE_ANY, A_IPROBE, A_IPROBE_ANY, A_COLL, A_GROUP,
	A_PORT_OF
};

/* Where a call's operands are: argument positions (-1: none), for C++
 * the parameters' names instead (its overloads differ in position). */
struct api {
	const char	*name;
	enum aop	 op;
	int		 sub;		/* a send's or post's mode, B_ISEND or
					 * B_IRECV, the collective */
	signed char	 type, index, rtype, rindex, req, root, group, count;
	int		 flags;
};

#define F_OVER		0x1	/* C: the group and its index are last */
#define F_RETREQ	0x2	/* returns the request (C++, Python) */
#define F_CXX		0x4	/* C++: operands by the parameters' names */
#define F_LIST		0x8	/* the requests are a list, array or one */

/* (a C++ operand: found by its name alone) */
#define N_ARG	(-1)

#define N	-1
static const struct api apis[] = {
	/* C (runtime/ensemble.h) */
	{ "ens_init", A_INIT, 0, N, N, N, N, N, N, N, N, 0 },
	{ "ens_finalize", A_FINALIZE, 0, N, N, N, N, N, N, N, N, 0 },
	{ "ens_ports", A_PORTS, 0, 0, N, N, N, N, N, N, N, 0 },
	{ "ens_self", A_SELF, 0, N, N, N, N, N, N, N, N, 0 },
	{ "ens_param", A_PARAM, 0, 0, N, N, N, N, N, N, N, 0 },
	{ "ens_port", A_RAW, 0, N, N, N, N, N, N, N, N, 0 },
	{ "ens_port_of", A_PORT_OF, 0, N, N, N, N, N, N, N, N, 0 },
	{ "ens_comm_component", A_RAW, 0, N, N, N, N, N, N, N, N, 0 },
	{ "ens_comm_group", A_RAW, 0, N, N, N, N, N, N, N, N, 0 },
	{ "ens_send", A_SEND, 0, 0, 1, N, N, N, N, N, N, 0 },
	{ "ens_ssend", A_SEND, 1, 0, 1, N, N, N, N, N, N, 0 },
	{ "ens_bsend", A_SEND, 2, 0, 1, N, N, N, N, N, N, 0 },
	{ "ens_recv", A_RECV, 0, 0, 1, N, N, N, N, N, N, 0 },
	{ "ens_recv_status", A_RECV, 0, 0, 1, N, N, N, N, N, N, 0 },
	{ "ens_recv_any", A_RECV_ANY, 0, 0, N, N, N, N, N, N, N, 0 },
	{ "ens_recv_any_status", A_RECV_ANY, 0, 0, N, N, N, N, N, N, N, 0 },
	{ "ens_isend", A_POST, 0, 0, 1, N, N, 5, N, N, N, 0 },
	{ "ens_issend", A_POST, 1, 0, 1, N, N, 5, N, N, N, 0 },
	{ "ens_ibsend", A_POST, 2, 0, 1, N, N, 5, N, N, N, 0 },
	{ "ens_irecv", A_POST, 3, 0, 1, N, N, 5, N, N, N, 0 },
	{ "ens_irecv_any", A_POST_ANY, 0, 0, N, N, N, 4, N, N, N, 0 },
	{ "ens_waitall", A_WAITALL, 0, N, N, N, N, 1, N, N, 0, 0 },
	{ "ens_waitall_status", A_WAITALL, 0, N, N, N, N, 1, N, N, 0, 0 },
	{ "ens_wait", A_WAIT, 0, N, N, N, N, 0, N, N, N, 0 },
	{ "ens_test", A_TEST, 0, N, N, N, N, 0, N, N, N, 0 },
	{ "ens_waitany", A_WAITANY, 0, N, N, N, N, 1, N, N, 0, 0 },
	{ "ens_waitsome", A_WAITSOME, 0, N, N, N, N, 1, N, 2, 0, 0 },
	{ "ens_sendrecv", A_SENDRECV, 0, 0, 1, 5, 6, N, N, N, N, 0 },
	{ "ens_sendrecv_replace", A_SENDRECV_REPLACE, 0, 0, 1, 2, 3, N, N, N, N, 0 },
	{ "ens_probe", A_PROBE, 0, 0, 1, N, N, N, N, N, N, 0 },
	{ "ens_probe_any", A_PROBE_ANY, 0, 0, N, N, N, N, N, N, N, 0 },
	{ "ens_iprobe", A_IPROBE, 0, 0, 1, N, N, N, N, N, N, 0 },
	{ "ens_iprobe_any", A_IPROBE_ANY, 0, 0, N, N, N, 1, N, N, N, 0 },
	{ "ens_barrier", A_COLL, BC_BARRIER, N, N, N, N, N, N, N, N, 0 },
	{ "ens_bcast", A_COLL, BC_BCAST, N, N, N, N, N, 3, N, N, 0 },
	{ "ens_reduce", A_COLL, BC_REDUCE, N, N, N, N, N, 5, N, N, 0 },
	{ "ens_allreduce", A_COLL, BC_ALLREDUCE, N, N, N, N, N, N, N, N, 0 },
	{ "ens_gather", A_COLL, BC_GATHER, N, N, N, N, N, 6, N, N, 0 },
	{ "ens_allgather", A_COLL, BC_ALLGATHER, N, N, N, N, N, N, N, N, 0 },
	{ "ens_scatter", A_COLL, BC_SCATTER, N, N, N, N, N, 6, N, N, 0 },
	{ "ens_alltoall", A_COLL, BC_ALLTOALL, N, N, N, N, N, N, N, N, 0 },
	{ "ens_allgatherv", A_COLL, BC_ALLGATHERV, N, N, N, N, N, N, N, N, 0 },
	{ "ens_gatherv", A_COLL, BC_GATHERV, N, N, N, N, N, 7, N, N, 0 },
	{ "ens_scatterv", A_COLL, BC_SCATTERV, N, N, N, N, N, 7, N, N, 0 },
	{ "ens_alltoallv", A_COLL, BC_ALLTOALLV, N, N, N, N, N, N, N, N, 0 },
	{ "ens_reduce_scatter", A_COLL, BC_REDUCESCATTER, N, N, N, N, N, N, N, N, 0 },
	{ "ens_barrier_over", A_COLL, BC_BARRIER, N, N, N, N, N, N, N, N, F_OVER },
	{ "ens_bcast_over", A_COLL, BC_BCAST, N, N, N, N, N, 3, N, N, F_OVER },
	{ "ens_reduce_over", A_COLL, BC_REDUCE, N, N, N, N, N, 5, N, N, F_OVER },
	{ "ens_allreduce_over", A_COLL, BC_ALLREDUCE, N, N, N, N, N, N, N, N, F_OVER },
	{ "ens_gather_over", A_COLL, BC_GATHER, N, N, N, N, N, 6, N, N, F_OVER },
	{ "ens_allgather_over", A_COLL, BC_ALLGATHER, N, N, N, N, N, N, N, N, F_OVER },
	{ "ens_scatter_over", A_COLL, BC_SCATTER, N, N, N, N, N, 6, N, N, F_OVER },
	{ "ens_alltoall_over", A_COLL, BC_ALLTOALL, N, N, N, N, N, N, N, N, F_OVER },
	{ "ens_allgatherv_over", A_COLL, BC_ALLGATHERV, N, N, N, N, N, N, N, N, F_OVER },
	{ "ens_gatherv_over", A_COLL, BC_GATHERV, N, N, N, N, N, 7, N, N, F_OVER },
	{ "ens_scatterv_over", A_COLL, BC_SCATTERV, N, N, N, N, N, 7, N, N, F_OVER },
	{ "ens_alltoallv_over", A_COLL, BC_ALLTOALLV, N, N, N, N, N, N, N, N, F_OVER },
	{ "ens_reduce_scatter_over", A_COLL, BC_REDUCESCATTER, N, N, N, N, N, N, N, N,
	  F_OVER },
	/* C++ (bindings/cxx/ensemble.hpp): operands by parameter name */
	{ "ens::self", A_SELF, 0, N, N, N, N, N, N, N, N, F_CXX },
	{ "ens::ports", A_PORTS, 0, N, N, N, N, N, N, N, N, F_CXX },
	{ "ens::param", A_PARAM, 0, N, N, N, N, N, N, N, N, F_CXX },
	{ "ens::port", A_RAW, 0, N, N, N, N, N, N, N, N, F_CXX },
	{ "ens::comm_component", A_RAW, 0, N, N, N, N, N, N, N, N, F_CXX },
	{ "ens::comm_group", A_RAW, 0, N, N, N, N, N, N, N, N, F_CXX },
	{ "ens::send", A_SEND, 0, N, N, N, N, N, N, N, N, F_CXX },
	{ "ens::ssend", A_SEND, 1, N, N, N, N, N, N, N, N, F_CXX },
	{ "ens::bsend", A_SEND, 2, N, N, N, N, N, N, N, N, F_CXX },
	{ "ens::recv", A_RECV, 0, N, N, N, N, N, N, N, N, F_CXX },
	{ "ens::recv_status", A_RECV, 0, N, N, N, N, N, N, N, N, F_CXX },
	{ "ens::recv_any", A_RECV_ANY, 0, N, N, N, N, N, N, N, N, F_CXX },
	{ "ens::recv_any_status", A_RECV_ANY, 0, N, N, N, N, N, N, N, N, F_CXX },
	{ "ens::isend", A_POST, 0, N, N, N, N, N, N, N, N, F_CXX | F_RETREQ },
	{ "ens::issend", A_POST, 1, N, N, N, N, N, N, N, N, F_CXX | F_RETREQ },
	{ "ens::ibsend", A_POST, 2, N, N, N, N, N, N, N, N, F_CXX | F_RETREQ },
	{ "ens::irecv", A_POST, 3, N, N, N, N, N, N, N, N, F_CXX | F_RETREQ },
	{ "ens::irecv_any", A_POST_ANY, 0, N, N, N, N, N, N, N, N, F_CXX | F_RETREQ },
	{ "ens::waitall", A_WAITALL, 0, N, N, N, N, N, N, N, N, F_CXX | F_LIST },
	{ "ens::waitall_status", A_WAITALL, 0, N, N, N, N, N, N, N, N, F_CXX | F_LIST },
	{ "ens::wait", A_WAIT, 0, N, N, N, N, N, N, N, N, F_CXX },
	{ "ens::test", A_TEST, 0, N, N, N, N, N, N, N, N, F_CXX },
	{ "ens::waitany", A_WAITANY, 0, N, N, N, N, N, N, N, N, F_CXX | F_LIST },
	{ "ens::waitsome", A_WAITSOME, 0, N, N, N, N, N, N, N, N, F_CXX | F_LIST },
	{ "ens::sendrecv", A_SENDRECV, 0, N, N, N, N, N, N, N, N, F_CXX },
	{ "ens::sendrecv_replace", A_SENDRECV_REPLACE, 0, N, N, N, N, N, N, N, N, F_CXX },
	{ "ens::probe", A_PROBE, 0, N, N, N, N, N, N, N, N, F_CXX },
	{ "ens::probe_any", A_PROBE_ANY, 0, N, N, N, N, N, N, N, N, F_CXX },
	{ "ens::iprobe", A_IPROBE, 0, N, N, N, N, N, N, N, N, F_CXX },
	{ "ens::iprobe_any", A_IPROBE_ANY, 0, N, N, N, N, N, N, N, N, F_CXX },
	{ "ens::group", A_GROUP, 0, N, N, N, N, N, N, N, N, F_CXX },
	{ "ens::barrier", A_COLL, BC_BARRIER, N, N, N, N, N, N, N, N, F_CXX },
	{ "ens::bcast", A_COLL, BC_BCAST, N, N, N, N, N, N, N, N, F_CXX },
	{ "ens::reduce", A_COLL, BC_REDUCE, N, N, N, N, N, N, N, N, F_CXX },
	{ "ens::allreduce", A_COLL, BC_ALLREDUCE, N, N, N, N, N, N, N, N, F_CXX },
	{ "ens::gather", A_COLL, BC_GATHER, N, N, N, N, N, N, N, N, F_CXX },
	{ "ens::allgather", A_COLL, BC_ALLGATHER, N, N, N, N, N, N, N, N, F_CXX },
	{ "ens::scatter", A_COLL, BC_SCATTER, N, N, N, N, N, N, N, N, F_CXX },
	{ "ens::alltoall", A_COLL, BC_ALLTOALL, N, N, N, N, N, N, N, N, F_CXX },
	{ "ens::allgatherv", A_COLL, BC_ALLGATHERV, N, N, N, N, N, N, N, N, F_CXX },
	{ "ens::gatherv", A_COLL, BC_GATHERV, N, N, N, N, N, N, N, N, F_CXX },
	{ "ens::scatterv", A_COLL, BC_SCATTERV, N, N, N, N, N, N, N, N, F_CXX },
	{ "ens::alltoallv", A_COLL, BC_ALLTOALLV, N, N, N, N, N, N, N, N, F_CXX },
	{ "ens::reduce_scatter", A_COLL, BC_REDUCESCATTER, N, N, N, N, N, N, N, N,
	  F_CXX },
	/* Python (bindings/python: the package ensemble) */
	{ "ensemble.init", A_INIT, 0, N, N, N, N, N, N, N, N, 0 },
	{ "ensemble.finalize", A_FINALIZE, 0, N, N, N, N, N, N, N, N, 0 },
	{ "ensemble.ports", A_PORTS, 0, 0, N, N, N, N, N, N, N, 0 },
	{ "ensemble.self", A_SELF, 0, N, N, N, N, N, N, N, N, 0 },
	{ "ensemble.param", A_PARAM, 0, 0, N, N, N, N, N, N, N, 0 },
	{ "ensemble.port", A_RAW, 0, N, N, N, N, N, N, N, N, 0 },
	{ "ensemble.comm_component", A_RAW, 0, N, N, N, N, N, N, N, N, 0 },
	{ "ensemble.comm_group", A_RAW, 0, N, N, N, N, N, N, N, N, 0 },
	{ "ensemble.send", A_SEND, 0, 0, 1, N, N, N, N, N, N, 0 },
	{ "ensemble.ssend", A_SEND, 1, 0, 1, N, N, N, N, N, N, 0 },
	{ "ensemble.bsend", A_SEND, 2, 0, 1, N, N, N, N, N, N, 0 },
	{ "ensemble.recv", A_RECV, 0, 0, 1, N, N, N, N, N, N, 0 },
	{ "ensemble.recv_any", A_RECV_ANY, 0, 0, N, N, N, N, N, N, N, 0 },
	{ "ensemble.isend", A_POST, 0, 0, 1, N, N, N, N, N, N, F_RETREQ },
	{ "ensemble.issend", A_POST, 1, 0, 1, N, N, N, N, N, N, F_RETREQ },
	{ "ensemble.ibsend", A_POST, 2, 0, 1, N, N, N, N, N, N, F_RETREQ },
	{ "ensemble.irecv", A_POST, 3, 0, 1, N, N, N, N, N, N, F_RETREQ },
	{ "ensemble.irecv_any", A_POST_ANY, 0, 0, N, N, N, N, N, N, N, F_RETREQ },
	{ "ensemble.waitall", A_WAITALL, 0, N, N, N, N, 0, N, N, N, F_LIST },
	{ "ensemble.wait", A_WAIT, 0, N, N, N, N, 0, N, N, N, 0 },
	{ "ensemble.test", A_TEST, 0, N, N, N, N, 0, N, N, N, 0 },
	{ "ensemble.waitany", A_WAITANY, 0, N, N, N, N, 0, N, N, N, F_LIST },
	{ "ensemble.waitsome", A_WAITSOME, 0, N, N, N, N, 0, N, N, N, F_LIST },
	{ "ensemble.sendrecv", A_SENDRECV, 0, 0, 1, 3, 4, N, N, N, N, 0 },
	{ "ensemble.sendrecv_replace", A_SENDRECV_REPLACE, 0, 0, 1, 2, 3, N, N, N, N,
	  0 },
	{ "ensemble.probe", A_PROBE, 0, 0, 1, N, N, N, N, N, N, 0 },
	{ "ensemble.probe_any", A_PROBE_ANY, 0, 0, N, N, N, N, N, N, N, 0 },
	{ "ensemble.iprobe", A_IPROBE, 0, 0, 1, N, N, N, N, N, N, 0 },
	{ "ensemble.iprobe_any", A_IPROBE_ANY, 0, 0, N, N, N, N, N, N, N, 0 },
	{ "ensemble.barrier", A_COLL, BC_BARRIER, N, N, N, N, N, N, 0, N, 0 },
	{ "ensemble.bcast", A_COLL, BC_BCAST, N, N, N, N, N, 1, 2, N, 0 },
	{ "ensemble.reduce", A_COLL, BC_REDUCE, N, N, N, N, N, 3, 4, N, 0 },
	{ "ensemble.allreduce", A_COLL, BC_ALLREDUCE, N, N, N, N, N, N, 3, N, 0 },
	{ "ensemble.gather", A_COLL, BC_GATHER, N, N, N, N, N, 2, 3, N, 0 },
	{ "ensemble.allgather", A_COLL, BC_ALLGATHER, N, N, N, N, N, N, 2, N, 0 },
	{ "ensemble.scatter", A_COLL, BC_SCATTER, N, N, N, N, N, 2, 3, N, 0 },
	{ "ensemble.alltoall", A_COLL, BC_ALLTOALL, N, N, N, N, N, N, 2, N, 0 },
	{ "ensemble.allgatherv", A_COLL, BC_ALLGATHERV, N, N, N, N, N, N, 4, N, 0 },
	{ "ensemble.gatherv", A_COLL, BC_GATHERV, N, N, N, N, N, 4, 5, N, 0 },
	{ "ensemble.scatterv", A_COLL, BC_SCATTERV, N, N, N, N, N, 4, 5, N, 0 },
	{ "ensemble.alltoallv", A_COLL, BC_ALLTOALLV, N, N, N, N, N, N, 6, N, 0 },
	{ "ensemble.reduce_scatter", A_COLL, BC_REDUCESCATTER, N, N, N, N, N, N, 4, N,
	  0 },
};
#undef N

static const struct api *
api_find(const char *name)
{
	size_t	i;

	for (i = 0; i < sizeof(apis) / sizeof(apis[0]); i++)
		if (strcmp(apis[i].name, name) == 0)
			return &apis[i];
	return NULL;
}

int
api_known(const char *name)
{
	return api_find(name) != NULL;
}

int
api_writes_arg(const char *name, int i)
{
	const struct api	*a = api_find(name);

	if (a == NULL)
		return 1;
	if (a->flags & F_CXX)
		return 1;	/* (by name: a buffer or not, it is data) */
	if (i == a->type || i == a->index || i == a->rtype || i == a->rindex ||
	    i == a->root || i == a->group)
		return 0;
	/* (completing requests leaves their places as they were: a request
	 * complete is known by its state, not by its place) */
	if (i == a->req)
		return a->op == A_POST || a->op == A_POST_ANY ||
		    a->op == A_IPROBE_ANY;
	return a->op == A_RECV || a->op == A_RECV_ANY || a->op == A_SENDRECV ||
	    a->op == A_SENDRECV_REPLACE || a->op == A_COLL || a->op == A_POST ||
	    a->op == A_POST_ANY || a->op == A_IPROBE_ANY ||
	    (a->op == A_WAITSOME && i == a->root);
}

int
api_reads_only(const char *name)
{
	const struct api	*a = api_find(name);

	return a != NULL && !(a->flags & F_CXX) && (a->op == A_SEND ||
	    (a->op == A_POST && a->sub != 3));
}

int
api_communicates(const struct cprog *p, const char *name)
{
	const struct api	*a = api_find(name);

	(void)p;
	return a != NULL && a->op != A_INIT && a->op != A_PORTS &&
	    a->op != A_SELF && a->op != A_PARAM && a->op != A_RAW &&
	    a->op != A_GROUP;
}

/* ---- operands ---- */

/* The argument of a C++ call whose parameter has that name (the front end
 * gives them, comma-separated, in the call's key), or -1. */
static int
cxx_arg(const struct cnode *call, const char *param)
{
	const char	*p, *q;
	size_t		 n = strlen(param);
	int		 i = 0;

	if (call->key == NULL)
		return -1;
	for (p = call->key; *p != '\0'; p = *q == ',' ? q + 1 : q, i++) {
		q = strchr(p, ',');
		if (q == NULL)
			q = p + strlen(p);
		if ((size_t)(q - p) == n && strncmp(p, param, n) == 0)
			return i;
	}
	return -1;
}

/* An argument by position or, in C++, by the parameters' names. */
static const struct val *
arg(const struct api *a, const struct cnode *call, struct val *args, int nargs,
    int pos, const char *n1, const char *n2)
{
	int	i = pos;

	if (a->flags & F_CXX) {
		i = cxx_arg(call, n1);
		if (i < 0 && n2 != NULL)
			i = cxx_arg(call, n2);
	}
	return i >= 0 && i < nargs ? &args[i] : NULL;
}

/* What a string not known is made of, for messages. */
static const char *
str_why(struct ctx *c, struct st *s, const struct val *v)
{
	struct spiece	*p = str_of(c, s, v);
	const char	*r;
	char		*w;

	for (; p != NULL; p = p->next)
		switch (p->k) {
		case SP_ARG:
		case SP_PARAM:
			if (p->k == SP_ARG)
				xasprintf(&w, "the text of the process's argument %"
				    PRId64, p->n->v);
			else
				xasprintf(&w, "the text of the parameter '%s'",
				    p->n->name);
			r = arena_strdup(c->a, w);
			free(w);
			return r;
		case SP_SELF:
			return "the process's name";
		case SP_NUM:
			return "a number the code computes";
		default:
			break;
		}
	return "a string not known";
}

/* The port type operand: a name (NULL where the call allows none, for
 * any port).  -1 after an error. */
static int
port_type(struct ctx *c, struct st *s, const struct val *v, int any,
    const char **type, const struct cloc *l)
{
	struct outc	*o;
	int64_t		 u;

	*type = NULL;
	if (v == NULL || v->k == V_NULL || (v->k == V_INT && sym_const(v->n, &u) &&
	    u == 0)) {
		if (any)
			return 0;
		ierr(c, l, "a port type that is none: not a call of the port "
		    "interface the inference knows");
		return -1;
	}
	if (v->k == V_INT && (o = outcome_of(c, v->n)) != NULL &&
	    o->k == O_PTYPE) {
		ierr(c, l, "the port type a probe found (%s:%d), with another "
		    "port index than the one it found: the behaviour can receive "
		    "only the message probed ('recv m')", o->st->loc.file,
		    o->st->loc.line);
		return -1;
	}
	if (!str_text(c, s, v, type)) {
		ierr(c, l, "a port type computed at run time (%s): the inference "
		    "needs it written in the code", v->k == V_TOP ? why_of(v) :
		    str_why(c, s, v));
		return -1;
	}
	if (!infer_is_name(*type)) {
		ierr(c, l, "'%s' is not a port type (a name)", *type);
		return -1;
	}
	return 0;
}

/* A port index operand, as a number of the behaviour. */
static const struct sym *
port_index(struct ctx *c, const struct val *v, const struct cloc *l)
{
	if (v == NULL) {
		ierr(c, l, "a call without its port index");
		return NULL;
	}
	return need_int(c, v, "the port index", l);
}

/* A collective's root: a process's name, "master" or "relay[2]" or one
 * made of such parts ("gridhead[%d]"), or this process's own. */
static int
root_of(struct ctx *c, struct st *s, const struct val *v, struct bst *b,
    const struct cloc *l)
{
	struct spiece	*p = v != NULL ? str_of(c, s, v) : NULL;
	struct buf	 t;
	const struct sym *ix = NULL;
	char		*br;
	int		 after = 0;

	if (p == NULL) {
		ierr(c, l, "a root that is not known from the code (%s)",
		    v != NULL ? why_of(v) : "none given");
		return -1;
	}
	if (p->k == SP_SELF && p->next == NULL) {
		b->root = c->r->component;
		b->rootidx = sym_leaf(c->a, Y_INDEX, NULL, 0);
		return 0;
	}
	buf_init(&t);
	buf_adds(&t, "");
	for (; p != NULL; p = p->next) {
		if (p->k == SP_TEXT) {
			buf_adds(&t, p->text);
			if (ix != NULL)
				after = 1;
			continue;
		}
		if (p->k == SP_SELF || ix != NULL || t.len == 0 ||
		    t.s[t.len - 1] != '[') {
			buf_free(&t);
			ierr(c, l, "a root made of parts that do not make a process's "
			    "name");
			return -1;
		}
		ix = p->n;
		buf_addc(&t, '#');	/* (where the number stands) */
	}
	(void)after;
	if ((br = strchr(t.s, '[')) != NULL) {
		*br = '\0';
		if (ix == NULL) {
			char	*end;
			int64_t	 k = strtoll(br + 1, &end, 10);

			if (end == br + 1 || strcmp(end, "]") != 0) {
				ierr(c, l, "'%s[%s' is not a process's name", t.s,
				    br + 1);
				buf_free(&t);
				return -1;
			}
			ix = sym_int(c->a, k);
		} else if (strcmp(br + 1, "#]") != 0) {
			ierr(c, l, "a root made of parts that do not make a "
			    "process's name");
			buf_free(&t);
			return -1;
		}
	} else if (ix != NULL) {
		ierr(c, l, "a root made of parts that do not make a process's name");
		buf_free(&t);
		return -1;
	}
	if (!infer_is_name(t.s)) {
		ierr(c, l, "'%s' is not a process's name", t.s);
		buf_free(&t);
		return -1;
	}
	b->root = arena_strdup(c->a, t.s);
	if (ix != NULL && (ix = need_int(c, &(struct val){ .k = V_INT, .n = ix },
	    "the root's index", l)) == NULL) {
		buf_free(&t);
		return -1;
	}
	b->rootidx = ix;
	buf_free(&t);
	return 0;
}

/* A group ('over'): a name and an index (0: none). */
static int
group_of(struct ctx *c, struct st *s, const struct val *name,
    const struct val *index, struct bst *b, const struct cloc *l)
{
	int64_t	k;

	if (!str_text(c, s, name, &b->group) || !infer_is_name(b->group)) {
		ierr(c, l, "a group not known from the code (%s)", name->k == V_TOP ?
		    why_of(name) : "not a name");
		return -1;
	}
	if (index == NULL || (index->k == V_INT && sym_const(index->n, &k) && k == 0))
		return 0;
	if ((b->groupidx = need_int(c, index, "the group's index", l)) == NULL)
		return -1;
	return 0;
}

/* The group operand of Python (a name, or a (name, index) tuple) and of
 * C++ (an ens::group, made as that tuple). */
static int
group_val(struct ctx *c, struct st *s, const struct val *g, struct bst *b,
    const struct cloc *l)
{
	struct obj	*o;
	struct val	 name, index;

	if (g == NULL || g->k == V_NULL)
		return 0;
	if (g->k == V_PTR && (o = obj_of(c, s, g->obj)) != NULL && o->list) {
		name = mem_read(c, s, g->obj, sym_int(c->a, 0), NULL);
		index = mem_read(c, s, g->obj, sym_int(c->a, 1), NULL);
		return group_of(c, s, &name, &index, b, l);
	}
	return group_of(c, s, g, NULL, b, l);
}

/* ---- requests ---- */

/* The name a request's holder takes from the code: the variable it is
 * stored in. */
static const char *
req_base(const struct cnode *n, const char *dflt)
{
	while (n != NULL && (n->k == X_UNARY || n->k == X_INDEX ||
	    n->k == X_BINARY || n->k == X_MEMBER))
		n = n->a;
	if (n != NULL && n->k == X_VAR)
		return n->s;
	return dflt;
}

/* A site's name taken from the code's variable (not a default). */
static void
site_named(struct ctx *c, int site, const struct cnode *n)
{
	struct breq	*q = site_req(c, site);

	while (n != NULL && (n->k == X_UNARY || n->k == X_INDEX ||
	    n->k == X_BINARY || n->k == X_MEMBER))
		n = n->a;
	if (n != NULL && n->k == X_VAR)
		q->named_by_var = 1;
}

/* The requests listed by a call: count n from pointer p, or a list (a
 * Python list, a C++ vector or array) or one request.  Sets *vals (the
 * values, caller frees) and returns their number, -1 after an error. */
static int
req_list(struct ctx *c, struct st *s, const struct api *a, const struct val *n,
    const struct val *p, struct val **vals, const struct cloc *l)
{
	struct obj	*o;
	int64_t		 k, i;

	*vals = NULL;
	if (p == NULL) {
		ierr(c, l, "a call without its requests");
		return -1;
	}
	if (p->k == V_REQ) {
		*vals = xmalloc(sizeof(**vals));
		(*vals)[0] = *p;
		return 1;
	}
	if (p->k != V_PTR) {
		ierr(c, l, "the requests of this call are not known from the code "
		    "(%s)", why_of(p));
		return -1;
	}
	if (a->flags & F_LIST) {
		o = obj_of(c, s, p->obj);
		if (o == NULL || o->len == NULL || !sym_const(o->len, &k)) {
			ierr(c, l, "the number of requests this call completes is "
			    "not known from the code");
			return -1;
		}
	} else if (n == NULL || n->k != V_INT || !sym_const(n->n, &k)) {
		ierr(c, l, "the number of requests this call completes is not "
		    "known from the code (%s)", n != NULL && n->k == V_INT ?
		    "a count that differs from process to process" :
		    n != NULL ? why_of(n) : "none given");
		return -1;
	}
	if (k < 0 || k > 4096) {
		ierr(c, l, "%" PRId64 " requests", k);
		return -1;
	}
	*vals = xreallocarray(NULL, (size_t)(k ? k : 1), sizeof(**vals));
	for (i = 0; i < k; i++)
		(*vals)[i] = mem_read(c, s, p->obj, sym_bin(c->a, '+', p->off,
		    sym_int(c->a, i)), NULL);
	return (int)k;
}

/* Whether a waitall of count n (NULL: a list's every element) of the
 * requests at p completes every request pending, as the behaviour's
 * waitall does: 0, or -1 said. */
static int
waitall_covers(struct ctx *c, struct st *s, const struct api *a,
    const struct val *n, const struct val *p, const struct cloc *l)
{
	struct obj		*o = NULL;
	const struct sym	*cnt = NULL, *off = NULL;
	int			 i, j, k, ok;
	int64_t			 u;

	if (p == NULL) {
		ierr(c, l, "a waitall without its requests");
		return -1;
	}
	if (p->k == V_PTR) {
		o = obj_of(c, s, p->obj);
		off = p->off;
	} else if (p->k != V_REQ) {
		ierr(c, l, "the requests of this waitall are not known from the "
		    "code (%s)", why_of(p));
		return -1;
	}
	if (!(a->flags & (F_LIST | F_CXX)) && p->k == V_PTR) {
		if (n == NULL || n->k != V_INT) {
			ierr(c, l, "the number of requests this waitall completes is "
			    "not known from the code (%s)", n != NULL ? why_of(n) :
			    "none given");
			return -1;
		}
		cnt = n->n;
	}
	for (i = 0; i < s->npend; i++) {
		struct pend	*pe = &s->pend[i];

		if (pe->st == RQ_DONE)
			continue;
		ok = 0;
		if (p->k == V_REQ)
			for (k = 0; k < p->req->n; k++)
				ok |= p->req->site[k] == pe->site && !pe->fam;
		else if (pe->fam)
			/* a loop's family: in this array, below the count */
			ok = pe->fobj == p->obj && (cnt == NULL ? 1 : pe->fidx != NULL &&
			    sym_decide(&s->facts, sym_bin(c->a, '<', sym_bin(c->a,
			    '-', pe->fidx, off), cnt)) == 1);
		else if (o != NULL)
			for (j = 0; j < o->n && !ok; j++) {
				const struct val *v = &o->s[j].v;

				if (v->k != V_REQ || o->s[j].ix == NULL)
					continue;
				for (k = 0; k < v->req->n; k++)
					if (v->req->site[k] == pe->site)
						break;
				if (k == v->req->n)
					continue;
				/* its index from the start, below the count */
				ok = cnt == NULL || (sym_const(cnt, &u) && u >= 0 &&
				    sym_decide(&s->facts, sym_bin(c->a, '<', sym_bin(c->a,
				    '-', o->s[j].ix, off), cnt)) == 1 && sym_decide(
				    &s->facts, sym_bin(c->a, SYM_GE, sym_bin(c->a, '-',
				    o->s[j].ix, off), sym_int(c->a, 0))) == 1) ||
				    (!sym_const(cnt, &u) && sym_decide(&s->facts,
				    sym_bin(c->a, '<', sym_bin(c->a, '-', o->s[j].ix,
				    off), cnt)) == 1);
			}
		if (!ok) {
			const struct cnode *pc = c->sites[pe->site].call;

			ierr(c, l, "this waitall does not complete the request "
			    "posted at %s:%d, which may be pending: a behaviour's "
			    "'waitall' completes every request pending (complete "
			    "them all in one call, or name them: ens_wait)",
			    pc->loc.file, pc->loc.line);
			return -1;
		}
	}
	return 0;
}

static int need_req(struct ctx *, const struct val *, const char *,
    const struct cloc *);

/* The request a wait, test or 'on' names: its holder, marked used. */
static struct breq *
req_named(struct ctx *c, const struct val *v)
{
	struct breq	*q = site_req(c, v->req->site[0]);

	q->used = 1;
	return q;
}

/* A request operand that must be one posted, and one a name can stand
 * for (not one of a loop's family): 0, or -1 said. */
static int
need_req_st(struct ctx *c, struct st *s, const struct val *v, const char *call,
    const struct cloc *l)
{
	struct pend	*p;
	int		 k;

	if (v == NULL || v->k != V_REQ)
		return need_req(c, v, call, l);
	for (k = 0; k < v->req->n; k++)
		if ((p = req_pend(s, v->req->site[k])) != NULL && p->fam) {
			ierr(c, l, "%s takes one of the requests a loop posted, one "
			    "a round: a behaviour names one request at a time "
			    "(complete them together, with a waitall)", call);
			return -1;
		}
	return 0;
}

/* A request operand that must be one posted: its value, -1 if not. */
static int
need_req(struct ctx *c, const struct val *v, const char *call,
    const struct cloc *l)
{
	if (v != NULL && v->k == V_REQ)
		return 0;
	ierr(c, l, "the request %s takes is not known from the code (%s)", call,
	    v == NULL ? "none given" : v->k == V_NULL ? "a null request, never "
	    "posted" : why_of(v));
	return -1;
}

/* ---- the calls ---- */

/* The outcome of statement b, a placeholder the caller's condition
 * reads, listing the requests of vals (n of them). */
static const struct sym *
outcome_list(struct ctx *c, enum outk k, struct bst *b, const struct val *vals,
    int n)
{
	const struct sym	*p = outcome(c, k, b);
	struct outc		*o = outcome_of(c, p);
	int			 i;

	o->nreq = n;
	o->site = arena_alloc(c->a, sizeof(int) * (size_t)(n ? n : 1));
	o->rs = arena_alloc(c->a, sizeof(*o->rs) * (size_t)(n ? n : 1));
	for (i = 0; i < n; i++) {
		o->site[i] = vals[i].req->site[0];
		o->rs[i] = vals[i].req;
	}
	return p;
}

/* A receive on the port a probe found, its type (type) and index (ix):
 * 'recv m' of the probe's 'as m', emitted (1).  0 when ix is not a port
 * a probe found, -1 after an error. */
static int
recv_probed(struct ctx *c, struct st *s, const struct val *type,
    const struct val *ix, const struct cloc *l)
{
	struct outc	*o, *t = NULL;
	const char	*name = NULL;
	struct bst	*b;

	if (ix == NULL || ix->k != V_INT || ix->n->k != Y_VAR ||
	    (o = outcome_of(c, ix->n)) == NULL || o->k != O_PROBED)
		return 0;
	if (type != NULL && type->k == V_INT)
		t = outcome_of(c, type->n);
	if (t != NULL && t->k == O_PTYPE) {
		if (t->port != ix->n) {
			ierr(c, l, "this receives on the type of the port one probe "
			    "found (%s:%d) and the index of the port another found "
			    "(%s:%d)", t->st->loc.file, t->st->loc.line,
			    o->st->loc.file, o->st->loc.line);
			return -1;
		}
	} else if (port_type(c, s, type, 0, &name, l) != 0)
		return -1;
	else if (o->type == NULL || strcmp(o->type, name) != 0) {
		ierr(c, l, "this receives on '%s' from the port a probe found on "
		    "%s%s%s (%s:%d)", name, o->type != NULL ? "'" : "any port",
		    o->type != NULL ? o->type : "", o->type != NULL ? "'" : "",
		    o->st->loc.file, o->st->loc.line);
		return -1;
	}
	if (o->st->req == NULL) {
		o->st->req = arena_alloc(c->a, sizeof(*o->st->req));
		o->st->req->base = "m";
	}
	o->st->req->used = 1;
	b = emit(c, s, B_RECV_PROBED, l);
	b->req = o->st->req;
	return 1;
}

/* What a probe writes into its status (st, when given): the port's
 * type and index it found, for ens_port_of, a C++ status's port() and
 * port_type(), a Python Status's type and port. */
static void
probe_status(struct ctx *c, struct st *s, const struct val *st,
    const char *type, const struct sym *port, struct bst *b)
{
	struct val	t;

	if (st == NULL || st->k != V_PTR)
		return;
	if (type != NULL)
		t = v_str(c, type);
	else {
		const struct sym *p = outcome(c, O_PTYPE, b);

		outcome_of(c, p)->port = port;
		t = v_sym(p);
	}
	mem_write(c, s, st->obj, NULL, "type", t);
	mem_write(c, s, st->obj, NULL, "port", v_sym(port));
}

/* The status operand of a probe: the last argument (C++: 'st'). */
static const struct val *
status_arg(const struct api *a, const struct cnode *call, struct val *args,
    int nargs, int least)
{
	return arg(a, call, args, nargs, nargs > least ? nargs - 1 : -1, "st",
	    NULL);
}

/* Write a request operand's value. */
static void
put_req(struct ctx *c, struct st *s, const struct val *p, struct val v)
{
	if (p != NULL && p->k == V_PTR)
		mem_write(c, s, p->obj, p->off, NULL, v);
}

/* The 'on' branches of a waitany or waitsome over vals. */
static int
ons(struct ctx *c, struct st *s, struct bst *b, const struct val *vals, int n,
    const char *call, const struct cloc *l)
{
	struct bbranch	**t = &b->branches;
	int		  i, j, st;

	for (i = 0; i < n; i++) {
		if (need_req(c, &vals[i], call, l) != 0 ||
		    need_req_st(c, s, &vals[i], call, l) != 0)
			return -1;
		for (j = 0; j < vals[i].req->n; j++)
			if ((st = req_status(s, vals[i].req->site[j])) == RQ_DONE ||
			    st < 0) {
				ierr(c, l, "%s over a request (its %dth) complete "
				    "already, or never posted: a behaviour's '%s' "
				    "lists pending requests only", call, i + 1,
				    b->k == B_WAITANY ? "waitany" : "waitsome");
				return -1;
			}
		*t = arena_alloc(c->a, sizeof(**t));
		(*t)->req = req_named(c, &vals[i]);
		t = &(*t)->next;
		for (j = 0; j < vals[i].req->n; j++)
			req_set(s, vals[i].req->site[j], RQ_MAYBE);
	}
	return 0;
}

/* A call of the port interface. */
static int
call_api(struct ctx *c, struct st *s, const struct cnode *call,
    const struct api *a, struct val *args, int nargs, struct val *ret,
    struct stl *out)
{
	const struct cloc	*l = &call->loc;
	const struct val	*v, *w;
	const char		*type, *t;
	struct val		*vals = NULL;
	struct bst		*b;
	int			 n, i, j, st, e;
	int64_t			 k;

	*ret = v_top("what a call of the port interface returns", l);
	switch (a->op) {
	case A_INIT:
		s->inited = 1;
		break;
	case A_FINALIZE:
		end_path(c, s);
		return 0;
	case A_PORTS:
		v = arg(a, call, args, nargs, a->type, "type", NULL);
		if (port_type(c, s, v, 0, &type, l) != 0)
			goto fail;
		*ret = v_sym(sym_leaf(c->a, Y_PORTS, type, 0));
		break;
	case A_SELF:
		*ret = v_kind(V_SELF);
		break;
	case A_PARAM:
		v = arg(a, call, args, nargs, a->type, "n", NULL);
		if (v == NULL || !str_text(c, s, v, &t)) {
			*ret = v_top("a parameter whose name is not known from the "
			    "code", l);
			break;
		}
		if (*t != '\0' && strspn(t, "0123456789") == strlen(t)) {
			k = strtoll(t, NULL, 10);
			*ret = v_piece(c, SP_ARG, sym_leaf(c->a, Y_ARG, NULL, k));
		} else if (infer_is_name(t))
			*ret = v_piece(c, SP_PARAM, sym_leaf(c->a, Y_PARAM, t, 0));
		break;
	case A_RAW:
		break;
	case A_PORT_OF:
		/* ens_port_of(st, &type): what a probe wrote into st */
		if (nargs >= 1 && args[0].k == V_PTR) {
			w = &args[0];
			*ret = mem_read(c, s, w->obj, NULL, "port");
			if (nargs >= 2 && args[1].k == V_PTR)
				mem_write(c, s, args[1].obj, args[1].off, NULL,
				    mem_read(c, s, w->obj, NULL, "type"));
		} else if (nargs >= 2 && args[1].k == V_PTR)
			mem_write(c, s, args[1].obj, args[1].off, NULL,
			    v_top("the port type of a status not known", l));
		break;
	case A_GROUP:
		/* ens::group(name, index): as Python's (name, index) */
		{
			int	id;
			char	*key;

			xasprintf(&key, "(group)@%d:%d", l->line, l->col);
			id = obj_id(c, inst_here(c), arena_strdup(c->a, key));
			free(key);
			obj_mut(c, s, id)->list = 1;
			v = arg(a, call, args, nargs, N_ARG, "n", NULL);
			w = arg(a, call, args, nargs, N_ARG, "index", NULL);
			mem_write(c, s, id, sym_int(c->a, 0), NULL, v != NULL ? *v :
			    v_top("a group's name", l));
			mem_write(c, s, id, sym_int(c->a, 1), NULL, w != NULL ? *w :
			    v_int(c, 0));
			obj_mut(c, s, id)->len = sym_int(c->a, 2);
			*ret = v_kind(V_PTR);
			ret->obj = id;
			ret->off = sym_int(c->a, 0);
		}
		break;
	case A_SEND:
	case A_RECV:
		v = arg(a, call, args, nargs, a->index, "index", NULL);
		w = arg(a, call, args, nargs, a->type, "type", NULL);
		if (a->op == A_RECV && (e = recv_probed(c, s, w, v, l)) != 0) {
			if (e < 0)
				goto fail;
			break;
		}
		if (port_type(c, s, w, 0, &type, l) != 0)
			goto fail;
		{
			const struct sym	*port;

			if ((port = port_index(c, v, l)) == NULL)
				goto fail;
			b = emit(c, s, a->op == A_SEND ? B_SEND : B_RECV, l);
			b->mode = a->sub;
			b->type = type;
			b->port = port;
		}
		break;
	case A_RECV_ANY:
		if (port_type(c, s, arg(a, call, args, nargs, a->type, "type", NULL),
		    1, &type, l) != 0)
			goto fail;
		b = emit(c, s, B_RECV_ANY, l);
		b->type = type;
		*ret = v_top("the port a message came by", l);
		break;
	case A_POST:
	case A_POST_ANY:
		if (port_type(c, s, arg(a, call, args, nargs, a->type, "type", NULL),
		    a->op == A_POST_ANY, &type, l) != 0)
			goto fail;
		{
			const struct sym	*port = NULL;
			const struct cnode	*rn = NULL;
			int			 site;

			if (a->op == A_POST && (port = port_index(c, arg(a, call,
			    args, nargs, a->index, "index", NULL), l)) == NULL)
				goto fail;
			v = NULL;
			if (!(a->flags & F_RETREQ)) {
				v = &args[a->req];
				if (a->req >= nargs || v->k != V_PTR) {
					ierr(c, l, "where this call puts its request "
					    "is not known from the code");
					goto fail;
				}
				for (rn = call->list, i = 0; rn != NULL && i < a->req;
				    rn = rn->next)
					i++;
			}
			site = site_of(c, call, req_base(rn, a->sub == 3 ||
			    a->op == A_POST_ANY ? "r" : "s"));
			site_named(c, site, rn);
			b = emit(c, s, a->op == A_POST_ANY ? B_IRECV_ANY :
			    a->sub == 3 ? B_IRECV : B_ISEND, l);
			b->mode = a->sub == 3 ? 0 : a->sub;
			b->type = type;
			b->port = port;
			b->req = site_req(c, site);
			if (req_post(c, s, site) != 0)
				goto fail;
			if (a->flags & F_RETREQ)
				*ret = v_req(c, site);
			else
				put_req(c, s, v, v_req(c, site));
		}
		break;
	case A_WAITALL:
		v = a->flags & F_LIST || a->flags & F_CXX ? NULL :
		    arg(a, call, args, nargs, a->count, NULL, NULL);
		w = arg(a, call, args, nargs, a->req, "reqs", NULL);
		if (waitall_covers(c, s, a, v, w, l) != 0)
			goto fail;
		emit(c, s, B_WAITALL, l);
		for (i = 0; i < s->npend; i++) {
			s->pend[i].st = RQ_DONE;
			s->pend[i].fam = 0;
		}
		break;
	case A_WAIT:
		v = arg(a, call, args, nargs, a->req, "r", NULL);
		if (v != NULL && v->k == V_PTR && !(a->flags & F_CXX) &&
		    c->p->lang != LANG_PYTHON) {
			struct val	t2 = mem_read(c, s, v->obj, v->off, NULL);

			if (need_req(c, &t2, "ens_wait", l) != 0 ||
			    need_req_st(c, s, &t2, "ens_wait", l) != 0)
				goto fail;
			b = emit(c, s, B_WAIT, l);
			b->req = req_named(c, &t2);
			for (j = 0; j < t2.req->n; j++)
				req_set(s, t2.req->site[j], RQ_DONE);
			break;
		}
		if (need_req(c, v, "wait", l) != 0 ||
		    need_req_st(c, s, v, "wait", l) != 0)
			goto fail;
		b = emit(c, s, B_WAIT, l);
		b->req = req_named(c, v);
		for (j = 0; j < v->req->n; j++)
			req_set(s, v->req->site[j], RQ_DONE);
		break;
	case A_TEST:
		v = arg(a, call, args, nargs, a->req, "r", NULL);
		{
			struct val	 t2;
			struct outc	*o;

			if (v != NULL && v->k == V_PTR)
				t2 = mem_read(c, s, v->obj, v->off, NULL);
			else if (v != NULL)
				t2 = *v;
			else
				t2 = v_kind(V_NULL);
			if (need_req(c, &t2, "test", l) != 0 ||
			    need_req_st(c, s, &t2, "test", l) != 0)
				goto fail;
			if (t2.req->n > 1 || req_status(s, t2.req->site[0]) < 0) {
				/* (a name of several sites: one state for all) */
			}
			st = req_status(s, t2.req->site[0]);
			b = emit(c, s, B_TEST, l);
			b->req = req_named(c, &t2);
			*ret = v_sym(outcome_list(c, O_FLAG, b, &t2, 1));
			o = outcome_of(c, ret->n);
			o->prev = st;
			for (j = 0; j < t2.req->n; j++)
				if (req_status(s, t2.req->site[j]) != RQ_DONE)
					req_set(s, t2.req->site[j], RQ_MAYBE);
		}
		break;
	case A_WAITANY:
	case A_WAITSOME:
		v = a->flags & (F_LIST | F_CXX) ? NULL :
		    arg(a, call, args, nargs, a->count, NULL, NULL);
		w = arg(a, call, args, nargs, a->req, "reqs", NULL);
		if ((n = req_list(c, s, a, v, w, &vals, l)) < 0)
			goto fail;
		if (n == 0) {
			ierr(c, l, "a %s over no requests", a->op == A_WAITANY ?
			    "waitany" : "waitsome");
			goto fail;
		}
		b = emit(c, s, a->op == A_WAITANY ? B_WAITANY : B_WAITSOME, l);
		if (ons(c, s, b, vals, n, a->op == A_WAITANY ? "waitany" :
		    "waitsome", l) != 0)
			goto fail;
		if (a->op == A_WAITANY) {
			*ret = v_sym(outcome_list(c, O_ANY, b, vals, n));
			break;
		}
		{
			const struct sym	*cnt, *ix;
			struct outc		*o;

			cnt = outcome_list(c, O_SOME, b, vals, n);
			ix = outcome_list(c, O_SOMEIDX, b, vals, n);
			o = outcome_of(c, cnt);
			o->ix = ix;
			if (a->flags & (F_LIST | F_CXX) || c->p->lang == LANG_PYTHON) {
				/* the indices, a list the code runs over */
				*ret = v_kind(V_OUT);
				ret->out = o;
			} else {
				*ret = v_sym(cnt);
				v = arg(a, call, args, nargs, a->root, NULL, NULL);
				if (a->root >= 0 && a->root < nargs &&
				    args[a->root].k == V_PTR) {
					struct obj *io = obj_mut(c, s, args[a->root].obj);

					io->n = 0;
					io->dflt = v_sym(ix);
				}
			}
		}
		break;
	case A_SENDRECV:
	case A_SENDRECV_REPLACE:
		{
			const char		*rtype;
			const struct sym	*port, *rport;

			if (port_type(c, s, arg(a, call, args, nargs, a->type, "stype",
			    NULL), 0, &type, l) != 0 ||
			    (port = port_index(c, arg(a, call, args, nargs, a->index,
			    "sindex", NULL), l)) == NULL ||
			    port_type(c, s, arg(a, call, args, nargs, a->rtype, "rtype",
			    NULL), 0, &rtype, l) != 0 ||
			    (rport = port_index(c, arg(a, call, args, nargs, a->rindex,
			    "rindex", NULL), l)) == NULL)
				goto fail;
			b = emit(c, s, a->op == A_SENDRECV ? B_SENDRECV :
			    B_SENDRECV_REPLACE, l);
			b->type = type;
			b->port = port;
			b->rtype = rtype;
			b->rport = rport;
		}
		break;
	case A_PROBE:
	case A_IPROBE:
		if (port_type(c, s, arg(a, call, args, nargs, a->type, "type", NULL),
		    0, &type, l) != 0)
			goto fail;
		{
			const struct sym	*port = port_index(c, arg(a, call, args,
						    nargs, a->index, "index", NULL), l);

			if (port == NULL)
				goto fail;
			b = emit(c, s, a->op == A_PROBE ? B_PROBE : B_IPROBE, l);
			b->type = type;
			b->port = port;
			probe_status(c, s, status_arg(a, call, args, nargs, 2), type,
			    port, b);
			if (a->op == A_IPROBE)
				*ret = v_sym(outcome(c, O_FLAG, b));
		}
		break;
	case A_PROBE_ANY:
	case A_IPROBE_ANY:
		if (port_type(c, s, arg(a, call, args, nargs, a->type, "type", NULL),
		    1, &type, l) != 0)
			goto fail;
		b = emit(c, s, a->op == A_PROBE_ANY ? B_PROBE_ANY : B_IPROBE_ANY, l);
		b->type = type;
		if (a->op == A_PROBE_ANY) {
			*ret = v_sym(outcome(c, O_PROBED, b));
			outcome_of(c, ret->n)->type = type;
			probe_status(c, s, status_arg(a, call, args, nargs, 1), type,
			    ret->n, b);
		} else {
			/* Its flag (C's value, the others' port index or 0);
			 * the port found, a message a 'recv m' may take. */
			const struct sym	*port = outcome(c, O_PROBED, b);
			struct outc		*o;

			outcome_of(c, port)->type = type;
			*ret = v_sym(outcome(c, O_FLAG, b));
			o = outcome_of(c, ret->n);
			o->port = port;
			if (a->req >= 0 && a->req < nargs && args[a->req].k == V_PTR)
				mem_write(c, s, args[a->req].obj, args[a->req].off,
				    NULL, v_sym(port));
			else if (c->p->lang != LANG_C)
				o->portval = 1;
			probe_status(c, s, status_arg(a, call, args, nargs,
			    c->p->lang == LANG_C ? 2 : 1), type, port, b);
		}
		break;
	case A_COLL:
		b = emit(c, s, B_COLL, l);
		b->coll = a->sub;
		if (BC_ROOTED(a->sub)) {
			v = arg(a, call, args, nargs, a->root, "root", NULL);
			if (root_of(c, s, v, b, l) != 0)
				goto fail;
		}
		if (a->flags & F_OVER) {
			if (nargs < 2 || group_of(c, s, &args[nargs - 2],
			    &args[nargs - 1], b, l) != 0)
				goto fail;
		} else if (a->flags & F_CXX) {
			if (group_val(c, s, arg(a, call, args, nargs, N_ARG, "g", NULL),
			    b, l) != 0)
				goto fail;
		} else if (a->group >= 0 && a->group < nargs &&
		    group_val(c, s, &args[a->group], b, l) != 0)
			goto fail;
		break;
	}
	free(vals);
	/* What the call may write through its pointers (a receive's
	 * buffer, a status) is data now; not a send's buffer, nor a
	 * request's place, which the call itself set. */
	for (i = 0; i < nargs; i++)
		if (args[i].k == V_PTR && (a->flags & F_CXX || i != a->req) &&
		    (a->op == A_RECV || a->op == A_RECV_ANY || a->op == A_SENDRECV ||
		    a->op == A_SENDRECV_REPLACE || a->op == A_COLL ||
		    (a->op == A_POST && a->sub == 3) || a->op == A_POST_ANY))
			mem_havoc(c, s, args[i].obj, "what a call of the port "
			    "interface writes", l);
	s->ret = *ret;
	stl_add(out, s);
	return 0;
fail:
	free(vals);
	st_free(s);
	return 0;
}

/* ---- the libraries ---- */

/* Calls that end the process: fail it, or (sys.exit(0) in Python, after
 * which the package finalizes) end it as it should. */
static int
is_exit(const char *name)
{
	static const char *const names[] = { "exit", "_exit", "_Exit",
	    "quick_exit", "abort", "MPI_Abort", "__assert_fail", "sys.exit",
	    "os._exit", "raise", "quit", "os.abort", "std::terminate",
	    "terminate", NULL };
	int	i;

	for (i = 0; names[i] != NULL; i++)
		if (strcmp(name, names[i]) == 0)
			return 1;
	return 0;
}

/* MPI calls that do not communicate: clocks, a status's size. */
static int
mpi_local(const char *name)
{
	static const char *const names[] = { "MPI_Wtime", "MPI_Wtick",
	    "MPI_Get_count", "MPI_Get_elements", "MPI_Get_elements_x",
	    "MPI_Type_size", "MPI_Comm_rank", "MPI_Comm_size", NULL };
	int	i;

	for (i = 0; names[i] != NULL; i++)
		if (strcmp(name, names[i]) == 0)
			return 1;
	return 0;
}

/* Calls that read a number from a string: atoi and its kind, int(). */
static int
is_number(const char *name)
{
	static const char *const names[] = { "atoi", "atol", "atoll", "strtol",
	    "strtoll", "strtoul", "strtoull", "stoi", "stol", "stoll", "int",
	    "std::stoi", "std::stol", "std::atoi", NULL };
	int	i;

	for (i = 0; names[i] != NULL; i++)
		if (strcmp(name, names[i]) == 0)
			return 1;
	return 0;
}

/* A new object made by a call (malloc, calloc, a list): its address. */
static struct val
alloc(struct ctx *c, struct st *s, const struct cnode *call, struct val dflt)
{
	struct val	v = v_kind(V_PTR);
	char		*key;
	int		 id;

	xasprintf(&key, "(heap)@%d:%d", call->loc.line, call->loc.col);
	id = obj_id(c, inst_here(c), arena_strdup(c->a, key));
	free(key);
	if (id < s->no && s->o[id] != NULL) {
		/* the same place, again: a new object */
		struct obj	*o = obj_mut(c, s, id);

		o->n = 0;
	}
	obj_mut(c, s, id)->dflt = dflt;
	obj_mut(c, s, id)->esc = 1;
	v.obj = id;
	v.off = sym_int(c->a, 0);
	return v;
}

int
api_call(struct ctx *c, struct st *s, const struct cnode *call,
    const char *name, struct val *args, const struct cnode **argn, int nargs,
    struct val *ret, struct stl *out)
{
	const struct api	*a;
	const char		*t, *u;
	int64_t			 k;

	(void)argn;
	if ((a = api_find(name)) != NULL)
		return call_api(c, s, call, a, args, nargs, ret, out);
	if (is_exit(name)) {
		/* sys.exit() or sys.exit(0), exit(), quit(): finalized */
		if (c->p->lang == LANG_PYTHON && strcmp(name, "raise") != 0 &&
		    strcmp(name, "os._exit") != 0 && strcmp(name, "os.abort") != 0 &&
		    (nargs == 0 || args[0].k == V_NULL || (args[0].k == V_INT &&
		    sym_const(args[0].n, &k) && k == 0)))
			end_path(c, s);
		else
			fail_path(c, s);
		return 0;
	}
	if (is_number(name)) {
		*ret = nargs > 0 ? number_of(c, s, &args[0], &call->loc) :
		    v_int(c, 0);
		goto done;
	}
	if (strcmp(name, "str") == 0 || strcmp(name, "std::to_string") == 0 ||
	    strcmp(name, "to_string") == 0 || strcmp(name, "std::string") == 0 ||
	    strcmp(name, "string") == 0) {
		if (nargs > 0 && args[0].k == V_INT)
			*ret = v_piece(c, SP_NUM, args[0].n);
		else if (nargs > 0 && str_of(c, s, &args[0]) != NULL) {
			*ret = v_kind(V_STR);
			ret->str = str_of(c, s, &args[0]);
		} else
			*ret = v_top("a string made of what is not known", &call->loc);
		goto done;
	}
	if ((strcmp(name, "snprintf") == 0 && nargs >= 3) ||
	    (strcmp(name, "sprintf") == 0 && nargs >= 2)) {
		int	f = name[0] == 's' && name[1] == 'n' ? 2 : 1;

		if (args[0].k == V_PTR) {
			struct val	v;

			if (str_text(c, s, &args[f], &t))
				v = format_call(c, s, t, args + f + 1, nargs - f - 1,
				    &call->loc);
			else
				v = v_top("a string formatted by a format not "
				    "known", &call->loc);
			mem_write(c, s, args[0].obj, args[0].off, NULL, v);
		}
		*ret = v_top("what snprintf returns", &call->loc);
		goto done;
	}
	if ((strcmp(name, "strcpy") == 0 || strcmp(name, "strncpy") == 0 ||
	    strcmp(name, "strlcpy") == 0) && nargs >= 2 && args[0].k == V_PTR) {
		struct val	v;

		v = v_kind(V_STR);
		if ((v.str = str_of(c, s, &args[1])) == NULL)
			v = v_top("a string copied from what is not known",
			    &call->loc);
		mem_write(c, s, args[0].obj, args[0].off, NULL, v);
		*ret = args[0];
		goto done;
	}
	if ((strcmp(name, "strcmp") == 0 || strcmp(name, "strncmp") == 0) &&
	    nargs >= 2) {
		if (str_text(c, s, &args[0], &t) && str_text(c, s, &args[1], &u))
			*ret = v_int(c, strcmp(t, u) < 0 ? -1 : strcmp(t, u) > 0);
		else
			*ret = v_top("a comparison of strings not known", &call->loc);
		goto done;
	}
	if (strcmp(name, "malloc") == 0 || strcmp(name, "calloc") == 0 ||
	    strcmp(name, "realloc") == 0) {
		*ret = alloc(c, s, call, name[0] == 'c' ? v_int(c, 0) :
		    v_top("memory not set", &call->loc));
		goto done;
	}
	if (strcmp(name, "len") == 0 && nargs == 1) {
		struct obj	*o;

		if (args[0].k == V_PTR && (o = obj_of(c, s, args[0].obj)) != NULL &&
		    o->list && o->len != NULL)
			*ret = v_sym(o->len);
		else
			*ret = v_top("a length not known", &call->loc);
		goto done;
	}
	if ((strcmp(name, "min") == 0 || strcmp(name, "max") == 0 ||
	    strcmp(name, "std::min") == 0 || strcmp(name, "std::max") == 0) &&
	    nargs == 2 && args[0].k == V_INT && args[1].k == V_INT) {
		const struct sym *lt = sym_bin(c->a, '<', args[0].n, args[1].n);

		*ret = v_sym(strstr(name, "min") != NULL ?
		    sym_cond(c->a, lt, args[0].n, args[1].n) :
		    sym_bin(c->a, SYM_MAX, args[0].n, args[1].n));
		goto done;
	}
	if (strcmp(name, "ensemble.Status") == 0) {
		/* a status, to be filled: a probe's type and port */
		*ret = alloc(c, s, call, v_top("a status not filled", &call->loc));
		goto done;
	}
	if (strcmp(name, "list") == 0 && nargs == 0) {
		*ret = alloc(c, s, call, v_top("an element past a list's end",
		    &call->loc));
		obj_mut(c, s, ret->obj)->list = 1;
		obj_mut(c, s, ret->obj)->len = sym_int(c->a, 0);
		goto done;
	}
	if (strncmp(name, "MPI_", 4) == 0 && !mpi_local(name))
		note_once(c, &c->r->raw, name, &call->loc);	/* raw MPI */
	return -1;
done:
	s->ret = *ret;
	stl_add(out, s);
	return 0;
}

int
api_method(struct ctx *c, struct st *s, const struct cnode *call,
    struct val *self, const char *method, struct val *args, int nargs,
    struct val *ret, struct stl *out)
{
	struct obj	*o;
	struct val	 one;

	*ret = v_top("what a method returns", &call->loc);
	if (self->k == V_REQ && strcmp(method, "wait") == 0) {
		/* Python's Request.wait(): a waitall of one. */
		struct api	w = { "Request.wait", A_WAITALL, 0, -1, -1, -1, -1,
				    0, -1, -1, -1, F_LIST };
		int		id;
		char		*key;

		xasprintf(&key, "(wait)@%d:%d", call->loc.line, call->loc.col);
		id = obj_id(c, inst_here(c), arena_strdup(c->a, key));
		free(key);
		o = obj_mut(c, s, id);
		o->list = 1;
		o->len = sym_int(c->a, 1);
		mem_write(c, s, id, sym_int(c->a, 0), NULL, *self);
		one = v_kind(V_PTR);
		one.obj = id;
		one.off = sym_int(c->a, 0);
		return call_api(c, s, call, &w, &one, 1, ret, out);
	}
	if (self->k == V_STR && (strcmp(method, "value") == 0 ||
	    strcmp(method, "c_str") == 0 || strcmp(method, "strip") == 0)) {
		*ret = *self;
		goto done;
	}
	if (self->k == V_PTR && (strcmp(method, "port") == 0 ||
	    strcmp(method, "port_type") == 0)) {
		/* a C++ status's port() and port_type(): what a probe wrote */
		*ret = mem_read(c, s, self->obj, NULL, method[4] == '\0' ? "port" :
		    "type");
		if (ret->k != V_TOP)
			goto done;
	}
	if (self->k == V_PTR && (o = obj_of(c, s, self->obj)) != NULL && o->list) {
		if ((strcmp(method, "append") == 0 ||
		    strcmp(method, "push_back") == 0 ||
		    strcmp(method, "emplace_back") == 0) && nargs == 1) {
			if (o->len == NULL) {
				mem_havoc(c, s, self->obj, "a list appended to at a "
				    "place not known", &call->loc);
				goto done;
			}
			mem_write(c, s, self->obj, o->len, NULL, args[0]);
			o = obj_mut(c, s, self->obj);
			o->len = sym_bin(c->a, '+', o->len, sym_int(c->a, 1));
			*ret = v_kind(V_NULL);
			goto done;
		}
		if (strcmp(method, "clear") == 0) {
			o = obj_mut(c, s, self->obj);
			o->n = 0;
			o->len = sym_int(c->a, 0);
			goto done;
		}
		if (strcmp(method, "size") == 0 && o->len != NULL) {
			*ret = v_sym(o->len);
			goto done;
		}
	}
	return -1;
done:
	s->ret = *ret;
	stl_add(out, s);
	return 0;
}
