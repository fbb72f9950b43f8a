/* monitor.h -- the protocol monitor of libensemble (--check-protocol):
 * follows a process's port calls against its declared behaviour, the
 * instantiated statements pcg_instantiate prints (pcg/behave.c), and says
 * which statement a call that leaves it was expected to be.  Plain C, no
 * MPI; it never aborts: out of memory is an error it returns.  Its
 * functions are ens_mon_*: libensemble is a static library, and a
 * component may have a mon_new of its own.
 *
 * THE BEHAVIOUR TEXT.  This is the one place its grammar is written down.
 * pcg/behave.c prints it (pcg_proc.behaviour, the 'behaviour' attribute of
 * each process node of 'ensemble graph --pcg'), 'ensemble run' puts it in
 * each process's port table (wire.h), and ens_mon_new reads it.  It is one process's instance of its
 * component's BEHAVIOUR: parameters, 'index' and ports() replaced by their
 * values, 'if' decided, 'for' unrolled, loops kept with their counts.  In
 * EBNF (ISO 14977: ',' follows, '|' or, [ ] optional, { } repeated):
 *
 *	behaviour  = { statement } ;
 *	statement  = sendword, port, ';'
 *		   | ( 'recv' | 'irecv' ), port, ';'
 *		   | ( 'recv' | 'irecv' ), 'any', [ type ], ';'
 *		   | isendword, port, 'as', name, ';'
 *		   | 'irecv', port, 'as', name, ';'
 *		   | 'irecv', 'any', [ type ], 'as', name, ';'
 *		   | 'sendrecv', [ 'replace' ], port, ',', port, ';'
 *		   | 'wait', name, ';'
 *		   | 'test', name, block, 'else', block
 *		   | ( 'waitany' | 'waitsome' ), '{', on, { on }, '}'
 *		   | 'probe', ( port | 'any', [ type ] ), [ 'as', name ], ';'
 *		   | 'iprobe', ( port | 'any', [ type ] ), [ 'as', name ],
 *		     block, 'else', block
 *		   | 'recv', name, ';'
 *		   | 'waitall', ';'
 *		   | ( 'barrier' | 'allreduce' | 'allgather' | 'alltoall'
 *		     | 'allgatherv' | 'alltoallv' | 'reducescatter' ),
 *		     [ over ], ';'
 *		   | ( 'bcast' | 'scatter' | 'scatterv' ), 'from', process,
 *		     [ over ], ';'
 *		   | ( 'reduce' | 'gather' | 'gatherv' ), 'to', process,
 *		     [ over ], ';'
 *		   | 'loop', [ count ], block
 *		   | 'choice', block, { 'or', block } ;
 *	sendword   = 'send' | 'ssend' | 'bsend' | isendword ;
 *	isendword  = 'isend' | 'issend' | 'ibsend' ;
 *	on         = 'on', name, block ;
 *	block      = '{', { statement }, '}' ;
 *	port       = type, '[', ( index | '*' ), ']' ;	   (one token)
 *	process    = name, [ '[', integer, ']' ] ;	   (one token)
 *	over       = 'over', group ;
 *	group      = name, [ '[', integer, ']' ] ;	   (one token)
 *	type       = name ;	(a port type of the component)
 *	index      = integer ;	(1 to the process's ports of the type)
 *	count      = integer ;	(0 or more; none: forever)
 *	name       = ( letter | '_' ), { letter | digit | '_' } ;
 *
 * Tokens are '{', '}', ';', ',' and words, the longest run of characters
 * other than those and blanks (space, tab, newline); blanks only separate
 * them.  pcg/behave.c writes one space between tokens, none before ';' or
 * ',', and an empty block as '{ }': "recv Client[*]; loop 3 { send
 * Prop[1]; } choice { recv any; } or { }", "sendrecv Right[1], Left[1];",
 * "isend P[1] as r; test r { } else { wait r; }", "waitany { on r { } on
 * s { } }", "iprobe any T { recv any T; } else { }".  A process is
 * named as in scripts: 'master', 'relay[3]'.  Each keyword of the script
 * language is one, so no type or process is named 'any', 'from', 'to',
 * 'over' or 'or' (nor 'as', 'else', 'on', 'replace').  A request's name
 * is local to the behaviour: 'as' names the request a statement posts (a
 * port with an index, never '*'), and 'wait', 'test' and 'on' name one
 * posted before (pcg/behave.c checks it is pending there: for 'on', on
 * every way; 'wait' and 'test' of one complete already go on at once,
 * the test into its first block, as MPI's on a null request).  A
 * probe's 'as' names the message it found (an iprobe's, in its first
 * block) on the port it found it on; 'recv name' receives exactly that
 * message, from that port, as ens_recv on the port ens_probe_any
 * returned does (pcg/behave.c checks that a probe named it on every way
 * there and no 'recv name' took it since).  Of
 * sendrecv's two ports the first is sent to, the second received from.
 * T[*] is one statement on each of the process's ports of type T, in
 * order (none when it has none);
 * 'loop' without a count repeats for ever; 'choice' takes one of its
 * blocks.  A collective with 'over' runs over that group: one of the
 * script's Groups section ('rows[2]', 'workers'), or a component's name,
 * every process of it ('worker'); without it, over the application.  The
 * process is a member of the group, and so is the root: "allreduce over
 * rows[2];", "bcast from cell[1] over cols[1];".  Which calls each
 * statement accepts: ensemble(1), Protocol check.
 *
 * Beside it, the statements' locations (in the port table beside it;
 * pcg_behaviour_locs), one string per
 * statement in the order their first tokens come in the text, each
 *
 *	location   = file, ':', line, ':', column | '-' ;
 *
 * where file is the statement's file name as the script or its include
 * names it, any bytes but NUL (spaces and quotes too: the locations are
 * separate strings, never split), and '-' a statement of unknown place.
 *
 * tests/unit/test-behave.c holds the text, as printed, against the
 * verifier's program for every script and model of the tests. */
#ifndef ENS_MONITOR_H
#define ENS_MONITOR_H

/* The calls followed, as the monitor sees them: the ens_*_status forms
 * are the same call as their plain one (ens_recv_status is MON_RECV).
 * Those on one port come first, up to MON_IRECV; the collectives are
 * MON_BARRIER to MON_GATHERV (ens_mon_is_coll); MON_FINALIZE is last. */
enum mon_op {
	MON_SEND, MON_SSEND, MON_BSEND, MON_ISEND, MON_ISSEND, MON_IBSEND,
	MON_RECV, MON_IRECV, MON_RECV_ANY, MON_IRECV_ANY, MON_WAITALL,
	MON_BARRIER, MON_BCAST, MON_SCATTER, MON_REDUCE, MON_ALLREDUCE,
	MON_GATHER, MON_ALLGATHER, MON_ALLTOALL, MON_ALLGATHERV, MON_ALLTOALLV,
	MON_REDUCE_SCATTER, MON_SCATTERV, MON_GATHERV,
	MON_SENDRECV, MON_SENDRECV_REPLACE, MON_WAIT, MON_TEST, MON_WAITANY,
	MON_WAITSOME, MON_PROBE, MON_PROBE_ANY, MON_IPROBE, MON_IPROBE_ANY,
	MON_FINALIZE
};

/* Whether a call is a collective (which may go over a group). */
static inline int
ens_mon_is_coll(enum mon_op op)
{
	return op >= MON_BARRIER && op <= MON_GATHERV;
}

/* One port call.  type: the port type (NULL for ens_recv_any and
 * ens_irecv_any over every port, and for collectives); port: 1-based, 0
 * when none; root: the root process's name for rooted collectives. */
struct mon_event {
	enum mon_op	 op;
	const char	*type;
	int		 ptype;		/* type's index + 1 among ens_mon_new's
					 * types, when the caller knows it; 0:
					 * by its name */
	int		 port;
	const char	*root;
	const char	*group;		/* a collective's: "rows[2]", "worker";
					 * NULL: over the application */
	/* sendrecv: the receive's port (type and port: the send's); probe
	 * any, and iprobe any that found: the port the message is on (type:
	 * the type asked, NULL for all), which a 'probe ... as m' names
	 * (rtype NULL: not known, as in a trace of before it was recorded;
	 * probe and iprobe found on their port) */
	const char	*rtype;
	int		 rport;
	/* A request, by a number that tells it from every other pending
	 * one (the handle's value; the trace's request number), never 0 or
	 * -1: for isend ... irecv any, the request posted (0: not known
	 * yet, ens_mon_posted gives it); for wait and test, the request (0:
	 * a null one, MPI_REQUEST_NULL: 'wait r' and 'test r' of an r
	 * complete already take it, the test finding it complete);
	 * for waitany, the one it completed (0: none) */
	long		 req;
	/* waitsome: the nreqs requests it completed */
	const long	*reqs;
	int		 nreqs;
	/* test, iprobe, iprobe any: 1 when it found (completed the request,
	 * found a message), 0 when not */
	int		 flag;
};

struct mon;

/* Whether a call posts a request (isend ... irecv any). */
static inline int
ens_mon_is_post(enum mon_op op)
{
	return op == MON_ISEND || op == MON_ISSEND || op == MON_IBSEND ||
	    op == MON_IRECV || op == MON_IRECV_ANY;
}

/* A monitor for a behaviour text; locs holds the nlocs statements'
 * locations ("file:line:col", "-" unknown), one string each, in the
 * text's order; types and nports are the process's port types and counts
 * (to expand T[*]).  Borrowed, copied as needed.  NULL and *cause (caller
 * frees) when the text does not parse or memory runs out. */
struct mon *ens_mon_new(const char *behaviour, int nlocs, const char *const *locs,
    int ntypes, const char *const *types, const int *nports, char **cause);

/* Take one call: 0 when the behaviour allows it here; -1 and *msg
 * (caller frees; NULL when memory ran out), "'ens_send Prop[1]' but
 * behaviour expects 'recv Client[2]' (dmax.pcg:40:5)" or "... but
 * behaviour has ended".  MON_FINALIZE is allowed only where the behaviour
 * can end.  A monitor that said -1 stays there.  Choice and loop exits are
 * followed as sets of positions, at most MON_MAX_CONFIGS at once (more is
 * an error); a counted loop that makes no call is left out, as the
 * verifier leaves it out. */
int ens_mon_step(struct mon *, const struct mon_event *, char **msg);
/* Whether a blocking call whose outcome comes later (waitany, waitsome:
 * req, reqs and nreqs not used; probe any: rtype and rport not used) may
 * come here: 0, or -1 and *msg as ens_mon_step says it; the monitor does
 * not move.  The call's ens_mon_step follows it with the outcome. */
int ens_mon_expects(struct mon *, const struct mon_event *, char **msg);
/* The request an isend, issend, ibsend, irecv or irecv any stepped with
 * req 0 posted: the request its 'as' names from now on. */
void ens_mon_posted(struct mon *, long req);
#define MON_MAX_CONFIGS	4096

/* From now on, each step that takes an action, and each ens_mon_expects
 * that finds one, stores the index of its statement's location
 * (ens_mon_new's locs; -1 none) in *where: where the process's call is
 * in the behaviour, for the run's watch (wire.h).  NULL: none. */
void ens_mon_where(struct mon *, int *where);

void ens_mon_free(struct mon *);

/* THE INLINE STEP.  The precomputed automaton as the caller's inline step
 * reads it (ens_mon_fast), so that the common step is a table lookup and
 * a compare in the caller's own code, no call: one configuration, at an
 * action that takes the call as it is (no request or probed message it
 * names), which leads to the next action directly or through a loop's
 * test that goes round again.  Everything else (a choice, several
 * configurations, a counted loop's last iteration, an action whose
 * request the step follows) is ens_mon_step's, which the inline step
 * leaves the monitor untouched for: the two take and refuse the same
 * calls, with the same messages.  Per instruction: */
struct mon_act {
	int		 op;	/* the call the inline step takes here; -1 none */
	int		 tidx;	/* its port type's index among the types, -1 */
	int		 port;	/* 1.., 0 none */
	int		 loc;	/* its statement's location (ens_mon_where) */
	int		 next;	/* the action the step leads to */
	int		 slot;	/* >= 0: through the test of a counted loop
				 * whose counter is configuration[1 + slot] */
	int		 post;	/* 1: op posts a request (ens_mon_is_post) */
	const char	*root;	/* a rooted collective's; NULL none */
	const char	*group;	/* a collective's 'over'; NULL none */
};

/* The monitor's state the inline step reads and moves. */
struct mon_fast {
	long			*c;	/* the one configuration (its pc, then
					 * the loops' counters); NULL: several,
					 * or the monitor refused */
	const struct mon_act	*acts;
	int			*where;	/* ens_mon_where's; NULL none */
	long			 nposts;	/* requests posted so far */
};

/* The monitor's inline step state, the same for its life. */
struct mon_fast *ens_mon_fast_state(struct mon *);

/* Whether the names a statement and a call give (a group, a root; NULL
 * none) are the same, as ens_mon_step takes them. */
static inline int
ens_mon_same(const char *a, const char *b)
{
	if (a == b)
		return 1;
	if (a == NULL || b == NULL)
		return 0;
	while (*a != '\0' && *a == *b)
		a++, b++;
	return *a == *b;
}

/* The inline step of a call op on port (tidx: its type's index; -1 and 0
 * none), root and group as ens_mon_step's event gives them: 0 taken, as
 * ens_mon_step would; -1 not the inline step's, the monitor untouched:
 * then ens_mon_step. */
static inline int
ens_mon_fast(struct mon_fast *f, enum mon_op op, int tidx, int port,
    const char *root, const char *group)
{
	long			*c = f->c;
	const struct mon_act	*a;

	if (c == NULL)
		return -1;
	a = &f->acts[c[0]];
	if (a->op != (int)op || a->tidx != tidx || a->port != port ||
	    !ens_mon_same(a->group, group) ||
	    (a->root != NULL && (root == NULL || !ens_mon_same(a->root, root))))
		return -1;
	if (a->slot >= 0) {
		if (c[1 + a->slot] == 0)	/* the loop's last: ens_mon_step */
			return -1;
		c[1 + a->slot]--;
	}
	f->nposts += a->post;
	if (f->where != NULL)
		*f->where = a->loc;
	c[0] = a->next;
	return 0;
}

#endif
