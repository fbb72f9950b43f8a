/* query.h -- the MTF query language ('ensemble trace query'): its parser,
 * its AST, and its evaluation over a trace read as a stream.
 *
 * The language is the one of the MTF paper's figure 4 and tables 1-4,
 * with SQL's habits (keywords in any case) and an MPI user's names for
 * processes.  The grammar (EBNF, ISO 14977), also in ensemble(1), TRACE
 * QUERIES:
 *
 *	query     = 'SELECT', what, { clause }, [ ';' ] ;
 *	what      = [ 'ALL' ], ( 'MESSAGES' | 'OPERATIONS'
 *		  | 'POINT_TO_POINT_OPERATIONS' | 'SEND_OPERATIONS'
 *		  | 'RECEIVE_OPERATIONS' | 'COLLECTIVE_OPERATIONS' | opname ) ;
 *	opname    = 'SEND' | 'RECV' | 'RECEIVE' | 'ISEND' | 'IRECV' | 'WAIT'
 *		  | 'BARRIER' | 'BROADCAST' | 'BCAST' | 'REDUCE' | 'ALLREDUCE'
 *		  | 'GATHER' | 'ALLGATHER' | 'SCATTER' | 'ALLTOALL'
 *		  | 'ALLGATHERV' | 'GATHERV' | 'SCATTERV' | 'ALLTOALLV'
 *		  | 'REDUCESCATTER'
 *		  | 'INIT' | 'FINALIZE' ;
 *	clause    = ( 'BETWEEN' | 'AMONG' | 'FOR' ), processes
 *		  | 'IN', 'COMM', '(', comm, ')'
 *		  | 'BETWEEN', 'TIME', time, 'AND', time
 *		  | 'WHERE', cond, { 'AND', cond } ;
 *	processes = ( 'PROCESS' | 'PROCESSES' ), '(', item, { ',', item }, ')'
 *		  | 'ALL', 'PROCESSES' ;
 *	item      = rank, [ range, rank ]
 *		  | name, [ '[', ( index, [ range, index ] | '*' ), ']' ] ;
 *	range     = '-' | '..' ;
 *	comm      = name | integer ;
 *	cond      = ( 'SIZE' | 'TAG' | 'COUNT' ), cmp, integer ;
 *	cmp       = '<' | '<=' | '=' | '==' | '!=' | '<>' | '>=' | '>' ;
 *	time      = [ '-' ], number, [ 's' | 'ms' | 'us' | 'ns' ] ;
 *
 * Each clause at most once, in any order.  A rank is a process's rank in
 * MPI_COMM_WORLD (the trace's 'process RANK'), a name a process's name in
 * the script: 'master', 'relay[2]', 'relay[1-3]', 'relay[*]', or 'relay'
 * for every relay.  A comm is the trace's communicator name ('world'), its
 * id, or Cn, the n-th communicator of the trace (C1 = world) as the paper
 * writes it; without 'IN COMM' every communicator.
 *
 * Meaning.  BETWEEN and AMONG: a message whose sender and receiver are
 * both selected; an operation of a selected process whose peer, if it has
 * one, is selected too (a collective's root does not count).  FOR: a
 * message that a selected process sent or received; an operation of a
 * selected process.  BETWEEN TIME: an operation that starts in the window
 * (both ends included); a message whose send starts or whose receive ends
 * in it; times count from the trace's time zero, the start of its first
 * operation (trace_rebase), the inits before it negative ('-' right
 * before the number).  Results print their times from zero too.  SIZE:
 * the bytes of a message; of an operation the larger of the bytes it sent
 * and received. */
#ifndef ENS_QUERY_H
#define ENS_QUERY_H

#include <stdint.h>
#include <stdio.h>

#include "trace.h"

/* A span of the query text: 1-based line and columns, last inclusive. */
struct query_loc {
	int		 line;
	int		 col, last_col;
};

/* An error in a query: where, and what (lowercase, no full stop). */
struct query_err {
	struct query_loc loc;
	char		*msg;
};

enum query_what {
	QW_MESSAGES, QW_OPERATIONS, QW_P2P, QW_SENDS, QW_RECVS,
	QW_COLLECTIVES, QW_OP
};

enum query_rel { QR_ANY, QR_BETWEEN, QR_FOR };

enum query_field { QF_SIZE, QF_TAG, QF_COUNT };
enum query_cmp { QC_LT, QC_LE, QC_EQ, QC_NE, QC_GE, QC_GT };

/* One process item of PROCESS(...): ranks lo..hi, or a name whose index
 * lies in lo..hi (idx: 0 the bare name, 1 an index or range, 2 '[*]'). */
struct query_item {
	char		*name;		/* NULL: ranks */
	int		 idx;
	long		 lo, hi;
	struct query_loc loc;
};

struct query_cond {
	enum query_field field;
	enum query_cmp	 cmp;
	long long	 value;
};

struct query {
	enum query_what	 what;
	enum trace_op	 op;		/* QW_OP */
	const char	*what_text;	/* the count line's noun */
	enum query_rel	 rel;
	struct query_item *items;	/* NULL with rel: ALL PROCESSES */
	int		 nitems;
	struct query_loc rel_loc;
	char		*comm;		/* NULL: every communicator */
	struct query_loc comm_loc;
	int		 has_time;
	int64_t		 t1, t2;	/* ns */
	struct query_cond *conds;
	int		 nconds;
	/* query_bind's */
	unsigned char	*sel;		/* per rank: selected; NULL: all */
	int		 nranks;
	int		 comm_id;	/* -1: every one */
};

/* Parse a query; NULL and *err set (free with query_err_free) on a
 * syntax error, the first one: the parser does not guess past it. */
struct query *query_parse(const char *text, struct query_err *err);
void query_free(struct query *);
void query_err_free(struct query_err *);

/* What the ranks the query names are, in the script's names, once bound:
 * "1 is node[2], 2 is node[3]", "0-3 are node[1] to node[4]" (new, the
 * caller frees), or NULL when it names none by rank. */
char *query_rank_note(const struct query *, const struct trace_hdr *);

/* Resolve the query's processes and communicator in a trace's header;
 * -1 and errs (*nerrs of them, every unknown process and communicator;
 * the caller frees each and the array) when some are not there. */
int query_bind(struct query *, const struct trace_hdr *,
    struct query_err **errs, int *nerrs);

/* Run a bound query over the rest of a trace, printing one line per result
 * and the count line to out; 0, or -1 and *cause (caller frees) when the
 * trace is bad.  Memory: the messages in flight (a send whose receive
 * has not come yet, or the other way round), not the trace. */
int query_run(struct query *, struct trace_reader *, FILE *out, char **cause);

#endif
