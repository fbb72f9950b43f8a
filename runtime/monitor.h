/* monitor.h -- the protocol monitor of libensemble (--check-protocol):
 * follows a process's port calls against its declared behaviour, the
 * instantiated statements pcg_instantiate prints (pcg/behave.c), and says
 * which statement a call that leaves it was expected to be.  Plain C, no
 * MPI; it never aborts: out of memory is an error it returns.  Its
 * functions are ens_mon_*: libensemble is a static library, and a
 * component may have a mon_new of its own. */
#ifndef ENS_MONITOR_H
#define ENS_MONITOR_H

enum mon_op {
	MON_SEND, MON_SSEND, MON_BSEND, MON_ISEND, MON_RECV, MON_IRECV,
	MON_RECV_ANY, MON_WAITALL, MON_BARRIER, MON_BCAST, MON_REDUCE,
	MON_ALLREDUCE, MON_GATHER, MON_ALLGATHER, MON_FINALIZE
};

/* One port call.  type: the port type (NULL for ens_recv_any over every
 * port, and for collectives); port: 1-based, 0 when none; root: the root
 * process's name for rooted collectives. */
struct mon_event {
	enum mon_op	 op;
	const char	*type;
	int		 port;
	const char	*root;
};

struct mon;

/* A monitor for a behaviour text; locs holds the statements' locations
 * ("file:line:col", '-' unknown), space-separated, in the text's order;
 * types and nports are the process's port types and counts (to expand
 * T[*]).  Borrowed, copied as needed.  NULL and *cause (caller frees) when
 * the text does not parse or memory runs out. */
struct mon *ens_mon_new(const char *behaviour, const char *locs, int ntypes,
    const char *const *types, const int *nports, char **cause);

/* Take one call: 0 when the behaviour allows it here; -1 and *msg
 * (caller frees; NULL when memory ran out), "'ens_send Prop[1]' but
 * behaviour expects 'recv Client[2]' (dmax.pcg:40:5)" or "... but
 * behaviour has ended".  MON_FINALIZE is allowed only where the behaviour
 * can end.  A monitor that said -1 stays there.  Choice and loop exits are
 * followed as sets of positions, at most MON_MAX_CONFIGS at once (more is
 * an error). */
int ens_mon_step(struct mon *, const struct mon_event *, char **msg);
#define MON_MAX_CONFIGS	4096

void ens_mon_free(struct mon *);

#endif
