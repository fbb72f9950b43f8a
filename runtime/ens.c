/* ens.c -- libensemble: a component's port interface, received in
 * ens_init from the process that holds every table (wire.h), and
 * communication through it.  Every call
 * checks its arguments and MPI's return code; misuse stops the application
 * through ens_fail, which tells 'ensemble run' why before MPI_Abort.  The
 * call in progress is kept where a SIGUSR1 handler can say it (--timeout),
 * and with --check-protocol each call is first checked against the
 * process's declared behaviour (monitor.c).  With 'ensemble run --trace',
 * each call is recorded (record.c); its own MPI calls go to PMPI_*, so
 * that the raw-call wrappers (pmpi.c) do not record them again. */
#include "config.h"

#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "asan.h"
#include "ensemble.h"
#include "monitor.h"
#include "record.h"
#include "slot.h"
#include "wire.h"

/* The monitor's name for each call that communicates; -1 for the others. */
static const int call_mon[] = {
	-1, -1, MON_FINALIZE, -1, -1, -1, -1, MON_SEND, MON_SSEND, MON_BSEND,
	MON_RECV, MON_RECV_ANY, MON_ISEND, MON_IRECV, MON_WAITALL, MON_BARRIER,
	MON_BCAST, MON_REDUCE, MON_ALLREDUCE, MON_GATHER, MON_ALLGATHER,
	MON_ISSEND, MON_IBSEND, MON_IRECV_ANY, MON_SCATTER, MON_ALLTOALL,
	MON_RECV, MON_RECV_ANY, MON_WAITALL, -1, -1, MON_ALLGATHERV, MON_GATHERV,
	MON_SCATTERV, MON_ALLTOALLV, MON_REDUCE_SCATTER, -1, MON_BARRIER,
	MON_BCAST, MON_REDUCE, MON_ALLREDUCE, MON_GATHER, MON_ALLGATHER,
	MON_SCATTER, MON_ALLTOALL, MON_ALLGATHERV, MON_GATHERV, MON_SCATTERV,
	MON_ALLTOALLV, MON_REDUCE_SCATTER,
	MON_SENDRECV, MON_SENDRECV_REPLACE, MON_WAIT, MON_TEST, MON_WAITANY,
	MON_WAITSOME, MON_PROBE, MON_PROBE_ANY, MON_IPROBE, MON_IPROBE_ANY
};

enum { S_BEFORE, S_RUNNING, S_FINALIZED };

/* A group the process is in (its table's, wire.h), with the communicator
 * ens_init made. */
struct grp {
	const struct wire_group *w;
	MPI_Comm	 comm;
	char		*label;		/* "rows[2]", "workers" */
};

/* What a collective goes over: the application, a group, or the
 * process's component when the script names it in no 'over'. */
struct over {
	MPI_Comm	 comm;
	int		 rank, size;	/* this process's rank in it; its size */
	int		 tcomm;		/* the trace's comm id: 0, 2 + group id,
					 * 1 the component's communicator */
	const char	*label;		/* for the monitor; NULL: the application */
	const struct wire_group *w;	/* a group's members; else NULL */
	int		 wcomm;		/* the watch's name of comm (WIRE_COMM_*) */
	unsigned	*ncoll;		/* and its count of collectives */
};

static struct {
	int		 state;
	MPI_Comm	 comm;		/* every component; a dup of the world */
	MPI_Comm	 compcomm;	/* this process's component, by index */
	ens_self_t	 self;		/* its strings are T's */
	struct wire_table T;		/* the port table */
	char		*typenames;	/* "Client, Prop", for messages */
	struct mon	*mon;
	struct mon_fast	*mf;		/* its inline step's state */
	const char	*found;		/* the type name find_type was last */
	int		 found_index;	/* given, and its index in T.types */
	const char	**seen;		/* per type of T.types: the string a
					 * call last named it by (the caller's) */
	char		*bsend;		/* the attached buffer */
	int		 bsendsize;
	struct grp	*grps;		/* the groups it is in, T.groups' order */
	int		 ngrps;
	MPI_Group	 wgroup;	/* comm's, to find roots in groups */
} E;

/* Started by MPI_Comm_spawn (spawned_let_go): ens_fail exits alone. */
static int	ens_spawned;

static void	ens_fail(enum wire_call, const char *, ...)
		    __attribute__((format(printf, 2, 3), noreturn));

/* Where the marker lines go (wire.h): the descriptor the trampoline
 * names in WIRE_ENV_MARKS, else stderr. */
static int	mark_fd = STDERR_FILENO;

/* Write all of s to the markers' descriptor, also from a signal handler
 * (common/fdio.h's write_all, which libensemble, on MPI and libc alone,
 * cannot reach: HACKING.md). */
static void
sig_write(const char *s, size_t n)
{
	ssize_t	w;

	while (n > 0) {
		if ((w = write(mark_fd, s, n)) <= 0) {
			if (w < 0 && errno == EINTR)
				continue;
			return;
		}
		s += w;
		n -= (size_t)w;
	}
}

/* Append the decimal form of v to p (async-signal-safe). */
static char *
sig_int(char *p, long v)
{
	char	d[24];
	int	n = 0;

	if (v < 0) {
		*p++ = '-';
		v = -v;
	}
	do
		d[n++] = (char)('0' + v % 10);
	while ((v /= 10) > 0);
	while (n > 0)
		*p++ = d[--n];
	return p;
}

static char *
sig_str(char *p, const char *end, const char *s)
{
	while (*s != '\0' && p < end)
		*p++ = *s++;
	return p;
}

/* Take the markers' descriptor from WIRE_ENV_MARKS, when it names an open
 * one; the component's own children do not inherit it. */
static void
mark_open(void)
{
	const char	*v = getenv(WIRE_ENV_MARKS);
	char		*end;
	long		 fd;

	if (v == NULL || *v == '\0')
		return;
	fd = strtol(v, &end, 10);
	if (*end != '\0' || fd < 3 || fd > INT_MAX ||
	    fcntl((int)fd, F_SETFD, FD_CLOEXEC) != 0)
		return;
	mark_fd = (int)fd;
}

/* The label of a collective's communicator the slot names (a group's,
 * the component's), or NULL (the application's, the world). */
static const char *
comm_label(int comm)
{
	int	i;

	if (comm == WIRE_COMM_COMP)
		return E.self.component;
	for (i = 0; comm >= WIRE_COMM_GROUP && i < E.ngrps; i++)
		if (E.grps[i].w->id == comm - WIRE_COMM_GROUP)
			return E.grps[i].label;
	return NULL;
}

/* SIGUSR1: say which call the process is in (ensemble run --timeout), as
 * its slot says (slot.h). */
static void
on_usr1(int sig)
{
	volatile struct wire_slot *s = slot_me;
	char		 line[512], *p = line, *end = line + sizeof(line) - 32;
	int		 c = s->call, t = s->type, saved = errno;
	const char	*label;
	struct timespec	 ts;

	(void)sig;
	p = sig_str(p, end, WIRE_MARK WIRE_WORD_STATE " ");
	if (E.state == S_FINALIZED)
		p = sig_str(p, end, WIRE_WORD_FINALIZE);
	else
		p = sig_str(p, end, wire_call_name(c));
	if (c != WC_NONE && E.state != S_FINALIZED && t >= 0 && t < E.T.ntypes) {
		*p++ = ' ';
		p = sig_str(p, end, E.T.types[t].name);
		*p++ = ' ';
		p = sig_int(p, s->port);
	} else if (c != WC_NONE && E.state != S_FINALIZED &&
	    s->wait == WIRE_WAIT_COLL && (label = comm_label(s->comm)) != NULL) {
		*p++ = ' ';
		p = sig_str(p, end, label);
	}
	if (c != WC_NONE && E.state != S_FINALIZED) {
		/* Which call it is, so that two answers tell one call
		 * blocked from two alike. */
		p = sig_str(p, end, " @");
		p = sig_int(p, (long)(s->gen / 2 & 0x3fffffff));
		/* And how long it has run (ns), so that two answers in one
		 * call tell a process that polled in between from one the
		 * machine gave no processor to. */
		if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) == 0) {
			p = sig_str(p, end, " +");
			p = sig_int(p, (long)ts.tv_sec * 1000000000L + ts.tv_nsec);
		}
	}
	*p++ = '\n';
	sig_write(line, (size_t)(p - line));
	errno = saved;
}

/* A fatal signal: say so, then die of it as the default action would. */
static void
on_fatal(int sig)
{
	char	line[64], *p = line;

	p = sig_str(p, line + sizeof(line), WIRE_MARK WIRE_WORD_SIGNAL " ");
	p = sig_int(p, sig);
	*p++ = '\n';
	sig_write(line, (size_t)(p - line));
	signal(sig, SIG_DFL);
	raise(sig);
}

/* At exit: say when the process ends without ens_finalize. */
static void
on_exit_early(void)
{
	if (E.state == S_RUNNING)
		sig_write(WIRE_MARK WIRE_WORD_EXIT "\n",
		    strlen(WIRE_MARK WIRE_WORD_EXIT "\n"));
}

static void
install_handlers(void)
{
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	struct sigaction	sa;
	size_t			i;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_flags = SA_RESETHAND | SA_NODEFER;
	sa.sa_handler = on_fatal;
	for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		sigaction(fatal[i], &sa, NULL);
	atexit(on_exit_early);
}

/* After a "fail" marker on the trampoline's pipe: wait, at most
 * ENS_FAIL_WAIT ms, until the trampoline has passed it on, which it says
 * by closing its end of the pipe (wire.h; poll then has POLLERR on ours).
 * MPI_Abort under MPICH's hydra kills the trampoline at once, and what it
 * had not read yet would be lost.  Then the descriptor is /dev/null's, so
 * that a marker a signal handler writes later costs no SIGPIPE. */
#define ENS_FAIL_WAIT	5000
static void
mark_wait_taken(void)
{
	struct pollfd	p = { .fd = mark_fd, .events = 0 };
	struct timespec	t0, t;
	long		left = ENS_FAIL_WAIT;
	int		n, null;

	if (mark_fd == STDERR_FILENO)
		return;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while ((n = poll(&p, 1, (int)left)) < 0 && errno == EINTR) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		left = ENS_FAIL_WAIT - ((t.tv_sec - t0.tv_sec) * 1000 +
		    (t.tv_nsec - t0.tv_nsec) / 1000000);
		if (left <= 0)
			return;
	}
	if (n > 0 && (null = open("/dev/null", O_WRONLY | O_CLOEXEC)) >= 0) {
		dup3(null, mark_fd, O_CLOEXEC);
		close(null);
	}
}

/* Stop the application: say why (a marker line 'ensemble run' reports,
 * and the plain message for anyone running without it), then abort. */
static void
ens_fail(enum wire_call c, const char *fmt, ...)
{
	va_list		 ap;
	char		 fixed[1024], *msg = fixed;
	int		 initialized = 0, finalized = 0, n;
	const char	*who = E.self.name != NULL ? E.self.name :
			    WIRE_FAIL_NOBODY;

	/* Whole, however long (a protocol violation names files, which may
	 * have long paths); cut to the fixed buffer only when memory ran out. */
	va_start(ap, fmt);
	n = vsnprintf(fixed, sizeof(fixed), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(fixed) && (msg = malloc((size_t)n + 1)) != NULL) {
		va_start(ap, fmt);
		vsnprintf(msg, (size_t)n + 1, fmt, ap);
		va_end(ap);
	} else if (msg == NULL)
		msg = fixed;
	fflush(stdout);
	/* A protocol violation (WC_NONE) names the call in its message.  A
	 * marker is one line: an MPI's message of several (MPICH's error
	 * stack) is joined with spaces. */
	if (E.state == S_RUNNING) {
		for (n = 0; msg[n] != '\0'; n++)
			if (msg[n] == '\n' || msg[n] == '\r')
				msg[n] = ' ';
		fflush(stderr);
		dprintf(mark_fd, WIRE_MARK WIRE_WORD_FAIL " %s: %s%s%s\n", who,
		    c != WC_NONE ? wire_call_name(c) : "", c != WC_NONE ? ": " : "",
		    msg);
		mark_wait_taken();
	} else
		fprintf(stderr, "%s: %s%s%s\n", who, c != WC_NONE ?
		    wire_call_name(c) : "", c != WC_NONE ? ": " : "", msg);
	if (msg != fixed)
		free(msg);
	fflush(stderr);
	E.state = S_BEFORE;	/* no "exit" marker: this is the reason */
	MPI_Initialized(&initialized);
	MPI_Finalized(&finalized);
	/* A spawned process's MPI_Abort would end the job that spawned it
	 * too (ens_launch's caller): it ends alone, and 'ensemble run'
	 * stops the others. */
	if (ens_spawned) {
		fflush(NULL);
		_exit(70);
	}
	if (initialized && !finalized)
		MPI_Abort(MPI_COMM_WORLD, 70);
	abort();
}

/* Check an MPI return code. */
static void
check(enum wire_call c, int rc)
{
	char	s[MPI_MAX_ERROR_STRING];
	int	n;

	if (rc == MPI_SUCCESS)
		return;
	if (MPI_Error_string(rc, s, &n) != MPI_SUCCESS)
		snprintf(s, sizeof(s), "MPI error %d", rc);
	ens_fail(c, "%s", s);
}

/* Every call but ens_init needs the process to be running. */
static void
need_running(enum wire_call c)
{
	if (E.state == S_BEFORE)
		ens_fail(c, "called before ens_init");
	if (E.state == S_FINALIZED)
		ens_fail(c, "called after ens_finalize");
}

/* The port type a call names, by its name. */
static __attribute__((noinline)) const struct wire_type *
find_type_named(enum wire_call c, const char *type)
{
	int	i;

	need_running(c);
	if (type == NULL)
		ens_fail(c, "the port type is NULL");
	for (i = 0; i < E.T.ntypes; i++)
		if (strcmp(E.T.types[i].name, type) == 0) {
			E.seen[i] = type;
			goto found;
		}
	if (E.T.ntypes == 0)
		ens_fail(c, "no port type '%s' (%s has no ports)", type, E.self.component);
	ens_fail(c, "no port type '%s' (%s has %s)", type, E.self.component, E.typenames);
found:
	E.found = type;
	E.found_index = i;
	return &E.T.types[i];
}

/* The port type a call names.  A caller names a type by the same string
 * call after call (a literal, mostly): the string each type was last
 * named by is kept, and a call by it is known by its address, checked
 * by its characters (a caller's buffer may hold another name by now),
 * without a search by name; any other, and every error, is
 * find_type_named's. */
static inline const struct wire_type *
find_type(enum wire_call c, const char *type)
{
	int	i;

	if (E.state == S_RUNNING && type != NULL)
		for (i = 0; i < E.T.ntypes; i++)
			if (E.seen[i] == type &&
			    ens_mon_same(E.T.types[i].name, type)) {
				E.found = type;
				E.found_index = i;
				return &E.T.types[i];
			}
	return find_type_named(c, type);
}

static const struct wire_port *
find_port(enum wire_call c, const char *type, int index)
{
	const struct wire_type	*t = find_type(c, type);
	const struct wire_port	*p;

	if (index < 1 || index > t->n) {
		if (t->n == 0)
			ens_fail(c, "no port %s[%d] (%s has no %s ports)", type, index,
			    E.self.name, type);
		ens_fail(c, "no port %s[%d] (%s has %s[1..%d])", type, index,
		    E.self.name, type, t->n);
	}
	p = &t->ports[index - 1];
	if (p->rank < 0)
		ens_fail(c, "port %s[%d] is not connected", type, index);
	return p;
}

/* The rank of a process named as in the script ("relay[1]", "master"). */
static int
find_rank(enum wire_call c, const char *name)
{
	const char	*br, *d;
	size_t		 len;
	long		 idx = 0;
	char		*end;
	int		 i, indexed;

	if (name == NULL)
		ens_fail(c, "the root is NULL");
	if ((br = strchr(name, '[')) != NULL) {
		len = (size_t)(br - name);
		/* The index as the script writes names: decimal, no sign but
		 * '-', no leading zero ("a[01]" is not "a[1]"). */
		d = br + 1 + (br[1] == '-');
		if (!isdigit((unsigned char)d[0]) || (d[0] == '0' && d[1] != ']'))
			ens_fail(c, "bad process name '%s'", name);
		errno = 0;
		idx = strtol(br + 1, &end, 10);
		if (strcmp(end, "]") != 0 || errno != 0)
			ens_fail(c, "bad process name '%s'", name);
		indexed = 1;
	} else {
		len = strlen(name);
		indexed = 0;
	}
	for (i = 0; i < E.T.nruns; i++) {
		const struct wire_run	*r = &E.T.runs[i];

		if (strlen(r->comp) != len || strncmp(r->comp, name, len) != 0 ||
		    r->indexed != indexed)
			continue;
		if (!indexed)
			return r->rank;
		if (idx >= r->index && idx < (long)r->index + r->count)
			return r->rank + (int)(idx - r->index);
	}
	ens_fail(c, "no process '%s' in the application", name);
}

/* The name of the process of world rank 'rank' as in scripts
 * ("relay[2]"), into buf. */
static const char *
rank_name(int rank, char *buf, size_t len)
{
	int	i;

	for (i = 0; i < E.T.nruns; i++) {
		const struct wire_run	*r = &E.T.runs[i];

		if (rank < r->rank || rank >= r->rank + r->count)
			continue;
		if (r->indexed)
			snprintf(buf, len, "%s[%d]", r->comp,
			    r->index + (rank - r->rank));
		else
			snprintf(buf, len, "%s", r->comp);
		return buf;
	}
	snprintf(buf, len, "rank %d", rank);
	return buf;
}

/* The length the sender of a truncated message sent, from the receive's
 * status: Open MPI gives it there; MPICH gives the length received (all
 * the receive holds), which is not it: MPI_UNDEFINED. */
static int
truncated_sent(const MPI_Status *st)
{
#ifdef OPEN_MPI
	int	sent;

	if (MPI_Get_count(st, MPI_BYTE, &sent) == MPI_SUCCESS)
		return sent;
#else
	(void)st;
#endif
	return MPI_UNDEFINED;
}

/* Check the return code of a receive on port type[index] from world rank
 * 'from': a message longer than the receive holds (MPI_ERR_TRUNCATE) is
 * said with the port, the sender and both sizes (the length sent where
 * the MPI gives it: truncated_sent); any other error as check does. */
static void
check_recv(enum wire_call c, int rc, const char *type, int index, int from,
    const MPI_Status *st, int count, MPI_Datatype dt)
{
	char		 peer[256], tn[MPI_MAX_OBJECT_NAME];
	long long	 want;
	int		 cls, size, sent, n;

	if (rc == MPI_SUCCESS)
		return;
	if (MPI_Error_class(rc, &cls) != MPI_SUCCESS || cls != MPI_ERR_TRUNCATE)
		check(c, rc);
	if (MPI_Type_size(dt, &size) != MPI_SUCCESS)
		size = 0;
	want = (long long)count * size;
	if (MPI_Type_get_name(dt, tn, &n) != MPI_SUCCESS || n == 0)
		snprintf(tn, sizeof(tn), "a datatype of %d bytes", size);
	if ((sent = truncated_sent(st)) == MPI_UNDEFINED || sent <= want)
		ens_fail(c, "message truncated on port %s[%d]: %s sent more "
		    "than the receive holds, %lld byte%s (%d %s)", type, index,
		    rank_name(from, peer, sizeof(peer)), want,
		    want == 1 ? "" : "s", count, tn);
	ens_fail(c, "message truncated on port %s[%d]: %s sent %d bytes, the "
	    "receive holds %lld (%d %s)", type, index,
	    rank_name(from, peer, sizeof(peer)), sent, want, count,
	    tn);
}

/* The port type's name as the table holds it (the caller's string may
 * not live until the trace is written), or NULL. */
static const char *
tname(const char *type)
{
	int	i;

	for (i = 0; type != NULL && i < E.T.ntypes; i++)
		if (strcmp(E.T.types[i].name, type) == 0)
			return E.T.types[i].name;
	return NULL;
}

/* Record a collective over ov (--trace): root a world rank or
 * TRACE_NONE. */
static void
trace_over(int op, double t0, const struct over *ov, int root,
    MPI_Datatype sdt, long scount, MPI_Datatype rdt, long rcount)
{
	rec_collective(op, t0, ov->tcomm, root, root == E.self.rank, ov->size,
	    sdt, scount, rdt, rcount, 0);
}

/* The index in the table of the port type find_type found for 'type' in
 * this call, or -1. */
static inline int
type_index(const char *type)
{
	return type != NULL && type == E.found ? E.found_index : -1;
}

/* Check a call against the behaviour (--check-protocol) when the inline
 * step does not take it (monitor.h): group is a collective's ("rows[2]";
 * NULL: the application). */
static __attribute__((noinline)) void
monitor_step(enum wire_call c, const char *type, int port, const char *root,
    const char *group)
{
	struct mon_event	 ev;
	char			*msg = NULL;

	memset(&ev, 0, sizeof(ev));
	ev.op = (enum mon_op)call_mon[c];
	ev.type = type;
	/* The type's index, as find_type found it for this call: the
	 * monitor's types are the table's, in its order. */
	ev.ptype = type != NULL && type == E.found ? E.found_index + 1 : 0;
	ev.port = port;
	ev.root = root;
	ev.group = group;
	if (ens_mon_step(E.mon, &ev, &msg) != 0)
		ens_fail(WC_NONE, "%s", msg != NULL ? msg : "out of memory in the monitor");
}

/* Check a call against the behaviour: the inline step, a lookup in the
 * precomputed automaton, and ens_mon_step when that is not it. */
static inline __attribute__((always_inline)) void
monitor(enum wire_call c, const char *type, int port, const char *root,
    const char *group)
{
	if (ens_mon_fast(E.mf, (enum mon_op)call_mon[c], type_index(type), port,
	    root, group) != 0)
		monitor_step(c, type, port, root, group);
}

/* Enter a collective over ov: check it, and say it in the slot (its
 * communicator's count of collectives, and the root's world rank or
 * -1). */
static inline void
enter_over(enum wire_call c, const char *root, const struct over *ov,
    int rootrank)
{
	slot_begin(c, WIRE_WAIT_COLL);
	if (E.mon != NULL)
		monitor(c, NULL, 0, root, ov->label);
	slot_me->comm = ov->wcomm;
	slot_me->ncoll = (*ov->ncoll)++;
	slot_me->root = rootrank;
	slot_done();
}

/* Enter a call on a port: check it, and say it in the slot, waiting for
 * peer (a world rank; -1: a call that does not block). */
static inline void
enter(enum wire_call c, const char *type, int port, int peer)
{
	volatile struct wire_slot *s = slot_open();
	int			 send = c == WC_SEND || c == WC_SSEND ||
				    c == WC_BSEND;

	if (peer >= 0) {
		s->peers[0] = peer;
		slot_fields(s, c, WIRE_WAIT_ALL, type_index(type), port, 1,
		    send, !send);
	} else
		slot_fields(s, c, WIRE_WAIT_NONE, type_index(type), port, 0, 0,
		    0);
	if (E.mon != NULL)
		monitor(c, type, port, NULL, NULL);
	slot_done();
}

/* Enter a receive from any port of a type (NULL: of all): check it, and
 * say it in the slot. */
static inline void
enter_any(enum wire_call c, const char *type)
{
	slot_begin(c, WIRE_WAIT_PORTS);
	if (E.mon != NULL)
		monitor(c, type, 0, NULL, NULL);
	slot_me->type = type_index(type);
	slot_me->port = 0;
	slot_done();
}

static inline void
leave(void)
{
	slot_leave();
}

/* A request as the monitor tells it from others: the handle's value
 * (never 0 or -1 for a pending request in the MPIs we know). */
static long
req_id(MPI_Request r)
{
	long	id = 0;

	memcpy(&id, &r, sizeof(r) < sizeof(id) ? sizeof(r) : sizeof(id));
	return id;
}

/* Check a call of the new kinds (its op from c) against the behaviour:
 * step, or with 'before' only ask whether it may come (its outcome is
 * not known yet). */
static void
monitor_ev(enum wire_call c, struct mon_event *ev, int before)
{
	char	*msg = NULL;
	int	 rc;

	if (E.mon == NULL)
		return;
	ev->op = (enum mon_op)call_mon[c];
	rc = before ? ens_mon_expects(E.mon, ev, &msg) :
	    ens_mon_step(E.mon, ev, &msg);
	if (rc != 0)
		ens_fail(WC_NONE, "%s", msg != NULL ? msg : "out of memory in the monitor");
}

static void
free_table(void)
{
	wire_table_clear(&E.T);
	free(E.typenames);
	free((void *)E.seen);
	if (E.mon != NULL)
		ens_mon_free(E.mon);
	E.typenames = NULL;
	E.seen = NULL;
	E.found = NULL;
	E.mon = NULL;
	E.mf = NULL;
	E.self.name = E.self.component = NULL;
}

/* Take the port table of len bytes (wire.h) as this process's: its self,
 * the names of its port types for messages and, with
 * WIRE_CHECK_PROTOCOL, the monitor of its behaviour.  0, or -1 when the
 * table is malformed or memory ran out. */
static int
read_table(const char *buf, size_t len)
{
	char		*cause = NULL;
	size_t		 tl;
	int		 i, *np;
	const char	**tn;

	if (wire_table_get(&E.T, buf, len) != 0)
		return -1;
	E.self.rank = E.T.rank;
	E.self.nprocs = E.T.nprocs;
	E.self.name = E.T.name;
	E.self.component = E.T.component;
	E.self.indexed = E.T.indexed;
	E.self.index = E.T.index;

	if ((E.seen = calloc((size_t)E.T.ntypes + 1, sizeof(*E.seen))) == NULL)
		return -1;
	/* "Client, Prop" for messages about port types. */
	for (tl = 1, i = 0; i < E.T.ntypes; i++)
		tl += strlen(E.T.types[i].name) + 2;
	if ((E.typenames = malloc(tl)) == NULL)
		return -1;
	E.typenames[0] = '\0';
	for (i = 0; i < E.T.ntypes; i++) {
		if (i > 0)
			strcat(E.typenames, ", ");
		strcat(E.typenames, E.T.types[i].name);
	}
	if (!(E.T.flags & WIRE_CHECK_PROTOCOL))
		return 0;
	tn = calloc((size_t)E.T.ntypes + 1, sizeof(*tn));
	np = calloc((size_t)E.T.ntypes + 1, sizeof(*np));
	if (tn == NULL || np == NULL) {
		free((void *)tn);
		free(np);
		return -1;
	}
	for (i = 0; i < E.T.ntypes; i++) {
		tn[i] = E.T.types[i].name;
		np[i] = E.T.types[i].n;
	}
	E.mon = ens_mon_new(E.T.behaviour, E.T.nlocs, (const char *const *)E.T.locs,
	    E.T.ntypes, tn, np, &cause);
	free((void *)tn);
	free(np);
	if (E.mon == NULL)
		ens_fail(WC_INIT, "cannot follow its behaviour: %s",
		    cause != NULL ? cause : "out of memory");
	E.mf = ens_mon_fast_state(E.mon);
	return 0;
}

/* The root's bundle of every process's port table, from the memory file
 * the trampoline made (WIRE_ENV_TABLES): a new buffer and *len. */
static char *
read_bundle(size_t *len)
{
	const char	*s = getenv(WIRE_ENV_TABLES);
	struct wire_buf	 b = { NULL, 0, 0 };
	char		 chunk[65536];
	ssize_t		 n;
	int		 fd;

	if (s == NULL || (fd = atoi(s)) < 0)
		ens_fail(WC_INIT, "no port tables: %s is not set (is ensemble-exec"
		    " of another version?)", WIRE_ENV_TABLES);
	while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			ens_fail(WC_INIT, "cannot read the port tables: %s",
			    strerror(errno));
		if (wire_put_bytes(&b, chunk, (size_t)n) != 0)
			ens_fail(WC_INIT, "out of memory for the port tables");
	}
	close(fd);
	unsetenv(WIRE_ENV_TABLES);
	*len = b.len;
	return b.p;
}

/* Every process's port table from the root, which holds them all: a new
 * buffer with this process's, and *len its length. */
static char *
scatter_tables(int root, int rank, int size, size_t *len)
{
	char	*bundle = NULL, *buf;
	size_t	 blen = 0;
	int	*offs = NULL, *lens = NULL, n = 0;

	if (rank == root) {
		bundle = read_bundle(&blen);
		offs = calloc((size_t)size, sizeof(*offs));
		lens = calloc((size_t)size, sizeof(*lens));
		if (offs == NULL || lens == NULL)
			ens_fail(WC_INIT, "out of memory for the port tables");
		if (wire_bundle_split(bundle, blen, size, offs, lens) != 0)
			ens_fail(WC_INIT, "the port tables are malformed or not"
			    " for %d processes (ensemble and libensemble of"
			    " different versions?)", size);
	}
	check(WC_INIT, PMPI_Scatter(lens, 1, MPI_INT, &n, 1, MPI_INT, root,
	    E.comm));
	if ((buf = malloc(n > 0 ? (size_t)n : 1)) == NULL)
		ens_fail(WC_INIT, "out of memory for a port table of %d bytes", n);
	check(WC_INIT, PMPI_Scatterv(bundle, lens, offs, MPI_BYTE, buf, n, MPI_BYTE,
	    root, E.comm));
	free(bundle);
	free(offs);
	free(lens);
	*len = (size_t)n;
	return buf;
}

/* Split the port communicator by component, ranks in index order, for
 * ens_comm_component: the component is told by its first run in the
 * table, which every process holds the same. */
static void
comm_component(void)
{
	int	i, color = 0;

	for (i = 0; i < E.T.nruns; i++)
		if (strcmp(E.T.runs[i].comp, E.self.component) == 0) {
			color = i;
			break;
		}
	check(WC_INIT, MPI_Comm_split(E.comm, color, E.self.index, &E.compcomm));
	check(WC_INIT, MPI_Comm_set_errhandler(E.compcomm, MPI_ERRORS_RETURN));
}

/* Make the communicator of every group the process is in (wire.h), each
 * with MPI_Comm_create_group on the port communicator, tagged with the
 * group's id: every process makes its groups in the script's one order of
 * groups, so that groups that overlap never wait for each other (the
 * group of least id not yet made has every member at it). */
static void
comm_groups(void)
{
	const struct wire_group	*w;
	MPI_Group		 g;
	int			 i, k, rank, flag, ub = 32767, *attr;
	int			 (*ranges)[3];
	size_t			 n;

	check(WC_INIT, MPI_Comm_group(E.comm, &E.wgroup));
	if (E.T.ngroups == 0)
		return;
	if (MPI_Comm_get_attr(E.comm, MPI_TAG_UB, &attr, &flag) == MPI_SUCCESS &&
	    flag)
		ub = *attr;
	if ((E.grps = calloc((size_t)E.T.ngroups, sizeof(*E.grps))) == NULL)
		ens_fail(WC_INIT, "out of memory for %d groups", E.T.ngroups);
	for (i = 0; i < E.T.ngroups; i++) {
		w = &E.T.groups[i];
		n = strlen(w->name) + 16;
		if ((ranges = calloc((size_t)w->nruns, sizeof(*ranges))) == NULL ||
		    (E.grps[i].label = malloc(n)) == NULL)
			ens_fail(WC_INIT, "out of memory for group %s", w->name);
		if (w->indexed)
			snprintf(E.grps[i].label, n, "%s[%d]", w->name, w->index);
		else
			snprintf(E.grps[i].label, n, "%s", w->name);
		for (k = 0; k < w->nruns; k++) {
			ranges[k][0] = w->runs[k].first;
			ranges[k][1] = w->runs[k].first +
			    (w->runs[k].count - 1) * w->runs[k].step;
			ranges[k][2] = w->runs[k].step;
		}
		check(WC_INIT, MPI_Group_range_incl(E.wgroup, w->nruns, ranges, &g));
		free(ranges);
		check(WC_INIT, MPI_Comm_create_group(E.comm, g, w->id <= ub ? w->id : w->id % ub,
		    &E.grps[i].comm));
		MPI_Group_free(&g);
		E.grps[i].w = w;
		E.ngrps++;
		check(WC_INIT, MPI_Comm_set_errhandler(E.grps[i].comm,
		    MPI_ERRORS_RETURN));
		check(WC_INIT, MPI_Comm_rank(E.grps[i].comm, &rank));
		if (rank != w->rank)
			ens_fail(WC_INIT, "its rank in group %s is %d, its table"
			    " says %d", E.grps[i].label, rank, w->rank);
		if (rec_on && rec_comm_group(E.grps[i].comm, 2 + w->id) != 0)
			ens_fail(WC_INIT, "out of memory for group %s",
			    E.grps[i].label);
	}
}

/* Tell the watch the communicators ens_init made (slot_comms). */
static void
watch_comms(void)
{
	MPI_Comm	*g;
	int		 i;

	if ((g = calloc((size_t)E.ngrps + 1, sizeof(*g))) == NULL)
		ens_fail(WC_INIT, "out of memory for the watch");
	for (i = 0; i < E.ngrps; i++)
		g[i] = E.grps[i].comm;
	if (slot_comms(E.comm, E.compcomm, g, E.ngrps, &E.T) != 0)
		ens_fail(WC_INIT, "out of memory for the watch");
	free(g);
}

/*
 * Let the process give up the processor while it waits in ens_init's own
 * collectives (the duplicate of the world, the tables' scatter, the
 * component's split), then give MPI back the user's choice.  Open MPI
 * yields only when it counts more processes than slots; under a
 * resource manager that gives a node more slots than it has cores, a
 * process spinning in one of these holds up the others for whole time
 * slices (32 processes in 32 slots on 2 cores: 3.0 s against 0.9 s).
 * The setter is Open MPI's own (libopen-pal, loaded with libmpi); with
 * another MPI it is not there and nothing changes.  on: 1 to yield, 0 to
 * give back what was set before.
 */
static void
init_yield(int on)
{
	static bool	(*set)(bool);
	static bool	 old;

	if (on) {
		*(void **)&set = dlsym(RTLD_DEFAULT,
		    "opal_progress_set_yield_when_idle");
		if (set != NULL)
			old = set(true);
	} else if (set != NULL)
		(void)set(old);
}

/* Under a plan read at each process's rank, the plan's processes must
 * be one MPI world: a launcher whose PMI does not suit the MPI (srun's
 * --mpi=pmix under MPICH) starts each as a world of one instead.  Said
 * ("world SIZE", which 'ensemble run' reports), and the process exits
 * before it waits for anyone (an MPI_Abort would add the MPI's words). */
static void
world_check(int size)
{
	const char	*w = getenv(WIRE_ENV_WORLD);
	char		 m[64], *p;

	if (w == NULL || atoi(w) == size)
		return;
	p = m + snprintf(m, sizeof(m) - 24, WIRE_MARK WIRE_WORD_WORLD " ");
	p = sig_int(p, size);
	*p++ = '\n';
	sig_write(m, (size_t)(p - m));
	exit(2);
}

/* A process MPI_Comm_spawn started ('ensemble run --launcher spawn')
 * is not tied to the one that spawned it, which disconnects too and may
 * end (trampoline/spawn.c): its world is the application's alone. */
static void
spawned_let_go(void)
{
	MPI_Comm	parent;

	if (MPI_Comm_get_parent(&parent) == MPI_SUCCESS &&
	    parent != MPI_COMM_NULL) {
		ens_spawned = 1;
		check(WC_INIT, MPI_Comm_disconnect(&parent));
	}
}

void
ens_init(int *argc, char ***argv)
{
	char		*buf, host[256];
	const char	*root_s;
	size_t		 len;
	int		 flag, rc, root, rank, size;
	int64_t		 t_entry = rec_realtime();
	const char	*prog = argv != NULL && *argv != NULL && (*argv)[0] != NULL ?
			    (*argv)[0] : "component";

	if (E.state != S_BEFORE)
		ens_fail(WC_INIT, "called twice");
	/* Say that the process entered ens_init, once and for all (the
	 * "init" marker, wire.h), and "in ens_init" if asked while MPI_Init
	 * waits for the others. */
	if (getenv(WIRE_ENV) != NULL) {
		mark_open();
		sig_write(WIRE_MARK WIRE_WORD_INIT "\n",
		    strlen(WIRE_MARK WIRE_WORD_INIT "\n"));
	}
	slot_none(WC_INIT);
	signal(SIGUSR1, on_usr1);
	MPI_Initialized(&flag);
	if (!flag && (rc = MPI_Init(argc, argv)) != MPI_SUCCESS) {
		fprintf(stderr, "%s: ens_init: MPI_Init failed (%d)\n", prog, rc);
		exit(70);
	}
	if ((root_s = getenv(WIRE_ENV_ROOT)) == NULL) {
		fprintf(stderr, "%s: not started by 'ensemble run'; run the"
		    " application with 'ensemble run SCRIPT'\n", prog);
		MPI_Finalize();
		exit(2);
	}
	E.state = S_RUNNING;
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	spawned_let_go();
	init_yield(1);
	check(WC_INIT, MPI_Comm_dup(MPI_COMM_WORLD, &E.comm));
	check(WC_INIT, MPI_Comm_set_errhandler(E.comm, MPI_ERRORS_RETURN));
	check(WC_INIT, MPI_Comm_rank(E.comm, &rank));
	check(WC_INIT, MPI_Comm_size(E.comm, &size));
	world_check(size);
	root = atoi(root_s);
	if (root < 0 || root >= size)
		ens_fail(WC_INIT, "%s is %s, not a rank of %d processes",
		    WIRE_ENV_ROOT, root_s, size);
	buf = scatter_tables(root, rank, size, &len);
	if (read_table(buf, len) != 0) {
		free(buf);
		ens_fail(WC_INIT, "its port table is malformed (ensemble and"
		    " libensemble of different versions?)");
	}
	free(buf);
	if (E.T.rank != rank || E.T.nprocs != size)
		ens_fail(WC_INIT, "its port table is process %d's of %d, not %d's"
		    " of %d", E.T.rank, E.T.nprocs, rank, size);
	/* Its slot in the run's watch, from now on (slot.h); the monitor
	 * says there which statement each call is at. */
	slot_attach(rank);
	slot_none(WC_INIT);
	if (E.mon != NULL)
		ens_mon_where(E.mon, (int *)&slot_me->loc);
	if (gethostname(host, sizeof(host) - 1) != 0)
		strcpy(host, "?");
	host[sizeof(host) - 1] = '\0';
	if ((E.T.flags & WIRE_TRACE) && rec_start(E.T.origin, E.T.tracedir,
	    E.self.rank, E.comm, t_entry, host) != 0)
		ens_fail(WC_INIT, "cannot write its part of the trace in '%s' on"
		    " host %s: %s (the trace's directory must be one every host"
		    " shares)", E.T.tracedir, host, strerror(errno));
	comm_component();
	comm_groups();
	watch_comms();
	init_yield(0);
	install_handlers();
	dprintf(mark_fd, WIRE_MARK WIRE_WORD_HELLO " %s\n", host);
	if (rec_on)
		rec_init_event();
	slot_leave();
}

void
ens_finalize(void)
{
	void	*b;
	int	 size, i;
	double	 t0;

	need_running(WC_FINALIZE);
	t0 = MPI_Wtime();
	sig_write(WIRE_MARK WIRE_WORD_FINALIZE "\n",
	    strlen(WIRE_MARK WIRE_WORD_FINALIZE "\n"));
	/* It ends: the slot says so from now on. */
	slot_begin(WC_FINALIZE, WIRE_WAIT_END);
	if (E.mon != NULL)
		monitor(WC_FINALIZE, NULL, 0, NULL, NULL);
	slot_done();
	if (E.bsend != NULL) {
		check(WC_FINALIZE, MPI_Buffer_detach(&b, &size));
		free(E.bsend);
		E.bsend = NULL;
	}
	if (rec_on) {
		struct rec_ev	e;

		memset(&e, 0, sizeof(e));
		e.op = TRACE_FIN;
		e.t0 = t0;
		e.t1 = MPI_Wtime();
		e.count = e.req = e.seq = -1;
		e.peer = e.tag = TRACE_NONE;
		rec_add(&e);
		if (rec_finish() != 0)
			ens_fail(WC_FINALIZE, "cannot write its part of the trace in"
			    " '%s': %s", E.T.tracedir, strerror(errno));
	}
	check(WC_FINALIZE, MPI_Comm_free(&E.compcomm));
	for (i = 0; i < E.ngrps; i++) {
		check(WC_FINALIZE, MPI_Comm_free(&E.grps[i].comm));
		free(E.grps[i].label);
	}
	free(E.grps);
	E.grps = NULL;
	E.ngrps = 0;
	MPI_Group_free(&E.wgroup);
	check(WC_FINALIZE, MPI_Comm_free(&E.comm));
	slot_comms_clear();
	E.state = S_FINALIZED;
	MPI_Finalize();
	free_table();
}

int
ens_ports(const char *type)
{
	return find_type(WC_PORTS, type)->n;
}

const ens_self_t *
ens_self(void)
{
	need_running(WC_SELF);
	return &E.self;
}

ens_port_t
ens_port(const char *type, int index)
{
	const struct wire_port	*p = find_port(WC_PORT, type, index);
	ens_port_t		 r;

	r.comm = E.comm;
	r.rank = p->rank;
	r.tag = p->tag;
	r.recv_tag = p->rtag;
	return r;
}

const char *
ens_param(const char *name)
{
	char	*end;
	long	 k;
	int	 i;

	need_running(WC_PARAM);
	if (name == NULL)
		ens_fail(WC_PARAM, "the name is NULL");
	for (i = 0; i < E.T.nparams; i++)
		if (strcmp(E.T.pnames[i], name) == 0)
			return E.T.pvalues[i];
	if (name[0] >= '1' && name[0] <= '9') {
		k = strtol(name, &end, 10);
		if (*end == '\0' && k <= E.T.nargs)
			return E.T.args[k - 1];
	}
	return NULL;
}

void
ens_send(const char *type, int index, const void *buf, int count, MPI_Datatype dt)
{
	const struct wire_port	*p = find_port(WC_SEND, type, index);
	int			 rc;

	double			 t0 = rec_on ? MPI_Wtime() : 0;

	enter(WC_SEND, type, index, p->rank);
	rc = PMPI_Send(buf, count, dt, p->rank, p->tag, E.comm);
	leave();
	check(WC_SEND, rc);
	if (rec_on)
		rec_p2p(TRACE_SEND, TRACE_MODE_STD, t0, tname(type), index, 0, p->rank,
		    p->tag, dt, count, 0, NULL, E.comm);
}

void
ens_ssend(const char *type, int index, const void *buf, int count, MPI_Datatype dt)
{
	const struct wire_port	*p = find_port(WC_SSEND, type, index);
	int			 rc;

	double			 t0 = rec_on ? MPI_Wtime() : 0;

	enter(WC_SSEND, type, index, p->rank);
	rc = PMPI_Ssend(buf, count, dt, p->rank, p->tag, E.comm);
	leave();
	check(WC_SSEND, rc);
	if (rec_on)
		rec_p2p(TRACE_SEND, TRACE_MODE_SYNC, t0, tname(type), index, 0, p->rank,
		    p->tag, dt, count, 0, NULL, E.comm);
}

/* Make sure the attached buffer can hold one more message of 'need' bytes
 * (a buffer is only detached, which waits for what it holds to be sent,
 * when it must grow). */
static void
bsend_room(int need)
{
	void	*old;
	int	 size;
	long	 want;

	want = (long)need + MPI_BSEND_OVERHEAD;
	if (want < 1 << 20)
		want = 1 << 20;
	if (E.bsend != NULL && E.bsendsize >= want)
		return;
	if (want > INT_MAX)
		ens_fail(WC_BSEND, "a message of %d bytes is too big to buffer", need);
	if (E.bsend != NULL) {
		check(WC_BSEND, MPI_Buffer_detach(&old, &size));
		free(E.bsend);
	}
	if ((E.bsend = malloc((size_t)want)) == NULL)
		ens_fail(WC_BSEND, "out of memory for a send buffer of %ld bytes", want);
	E.bsendsize = (int)want;
	check(WC_BSEND, MPI_Buffer_attach(E.bsend, E.bsendsize));
}

void
ens_bsend(const char *type, int index, const void *buf, int count, MPI_Datatype dt)
{
	const struct wire_port	*p = find_port(WC_BSEND, type, index);
	int			 rc, size;

	double			 t0 = rec_on ? MPI_Wtime() : 0;

	check(WC_BSEND, MPI_Pack_size(count, dt, E.comm, &size));
	bsend_room(size);
	enter(WC_BSEND, type, index, p->rank);
	rc = PMPI_Bsend(buf, count, dt, p->rank, p->tag, E.comm);
	if (rc != MPI_SUCCESS) {
		/* The buffer was full of messages still in flight: wait for
		 * them (detach) and try once more. */
		void	*old;
		int	 oldsize;

		check(WC_BSEND, MPI_Buffer_detach(&old, &oldsize));
		check(WC_BSEND, MPI_Buffer_attach(E.bsend, E.bsendsize));
		rc = PMPI_Bsend(buf, count, dt, p->rank, p->tag, E.comm);
	}
	leave();
	check(WC_BSEND, rc);
	if (rec_on)
		rec_p2p(TRACE_SEND, TRACE_MODE_BUF, t0, tname(type), index, 0,
		    p->rank, p->tag, dt, count, 0, NULL, E.comm);
}

/* Whether a status pointer asks for none (MPI_STATUS_IGNORE is NULL in
 * Open MPI, not in every MPI). */
static int
ignored(const MPI_Status *st)
{
	return st == NULL || st == MPI_STATUS_IGNORE;
}

/* A receive on one port, its status in st (MPI_STATUS_IGNORE: none). */
static void
recv_port(enum wire_call c, const char *type, int index, void *buf, int count,
    MPI_Datatype dt, MPI_Status *st)
{
	const struct wire_port	*p = find_port(c, type, index);
	MPI_Status		 own;
	double			 t0 = rec_on ? MPI_Wtime() : 0;
	int			 rc, n;

	/* A status always: a truncation is said with the length sent. */
	if (ignored(st))
		st = &own;
	enter(c, type, index, p->rank);
	rc = PMPI_Recv(buf, count, dt, p->rank, p->rtag, E.comm, st);
	leave();
	check_recv(c, rc, type, index, p->rank, st, count, dt);
	if (rec_on) {
		if (MPI_Get_count(st, dt, &n) != MPI_SUCCESS || n == MPI_UNDEFINED)
			n = -1;
		rec_p2p(TRACE_RECV, TRACE_MODE_NONE, t0, tname(type), index, 0,
		    st->MPI_SOURCE, st->MPI_TAG, dt, n, 0, NULL, E.comm);
	}
}

void
ens_recv(const char *type, int index, void *buf, int count, MPI_Datatype dt)
{
	recv_port(WC_RECV, type, index, buf, count, dt, MPI_STATUS_IGNORE);
}

void
ens_recv_status(const char *type, int index, void *buf, int count, MPI_Datatype dt,
    MPI_Status *st)
{
	recv_port(WC_RECV_STATUS, type, index, buf, count, dt, st);
}

/* Does a type (NULL: every type) hold every connected port? */
static int
covers_all(const struct wire_type *t)
{
	int	i, k;

	if (t == NULL)
		return 1;
	for (i = 0; i < E.T.ntypes; i++) {
		if (&E.T.types[i] == t)
			continue;
		for (k = 0; k < E.T.types[i].n; k++)
			if (E.T.types[i].ports[k].rank >= 0)
				return 0;
	}
	return 1;
}

/* The index (1-based, within its type) of the port a message came by, or 0;
 * *type is set to the port's type. */
static int
port_of(const struct wire_type *t, int rank, int tag, const struct wire_type **type)
{
	int	i, k;

	for (i = 0; i < E.T.ntypes; i++) {
		if (t != NULL && &E.T.types[i] != t)
			continue;
		for (k = 0; k < E.T.types[i].n; k++)
			if (E.T.types[i].ports[k].rank == rank && E.T.types[i].ports[k].rtag == tag) {
				*type = &E.T.types[i];
				return k + 1;
			}
	}
	return 0;
}

/* The ports a wildcard receives from: type's (NULL: all); stops the
 * application when none of them is connected. */
static const struct wire_type *
any_ports(enum wire_call c, const char *type)
{
	const struct wire_type	*t = NULL;
	int			 i, k, any = 0;

	if (type != NULL)
		t = find_type(c, type);
	else
		need_running(c);
	for (i = 0; i < E.T.ntypes && !any; i++)
		if (t == NULL || t == &E.T.types[i])
			for (k = 0; k < E.T.types[i].n && !any; k++)
				any = E.T.types[i].ports[k].rank >= 0;
	if (!any)
		ens_fail(c, "%s has no connected port%s%s%s to receive from",
		    E.self.name, type != NULL ? " of type '" : "",
		    type != NULL ? type : "", type != NULL ? "'" : "");
	return t;
}

/* Record a receive from any port of t (NULL: of all). */
static void
trace_recv_any(const struct wire_type *t, double t0, MPI_Datatype dt,
    const MPI_Status *st)
{
	int	n;

	if (MPI_Get_count(st, dt, &n) != MPI_SUCCESS || n == MPI_UNDEFINED)
		n = -1;
	rec_p2p(TRACE_RECV, TRACE_MODE_NONE, t0, t != NULL ? t->name : NULL,
	    REC_PORT_ANY, 0, st->MPI_SOURCE, st->MPI_TAG, dt, n, 0, NULL,
	    E.comm);
}

/* Receive from whichever port of the type has a message; its index, the
 * status in *st. */
static int
recv_any(enum wire_call c, const char *type, void *buf, int count, MPI_Datatype dt,
    MPI_Status *st)
{
	const struct wire_type	*t, *got = NULL;
	int			 i, k, rc, flag, index, start = 0;
	double			 t0 = rec_on ? MPI_Wtime() : 0;

	t = any_ports(c, type);
	enter_any(c, type);
	if (covers_all(t)) {
		/* Every message for this process is for one of these ports:
		 * let MPI pick the first, without polling. */
		rc = PMPI_Recv(buf, count, dt, MPI_ANY_SOURCE, MPI_ANY_TAG, E.comm, st);
		leave();
		if (rc != MPI_SUCCESS &&
		    (index = port_of(t, st->MPI_SOURCE, st->MPI_TAG, &got)) > 0)
			check_recv(c, rc, got->name, index, st->MPI_SOURCE, st,
			    count, dt);
		check(c, rc);
		if ((index = port_of(t, st->MPI_SOURCE, st->MPI_TAG, &got)) == 0)
			ens_fail(c, "a message from rank %d with tag %d came by"
			    " no port (raw MPI on a port's communicator must use"
			    " the port's tag)", st->MPI_SOURCE, st->MPI_TAG);
		if (rec_on)
			trace_recv_any(t, t0, dt, st);
		return index;
	}
	/* Other ports may have messages this call must leave alone: probe
	 * each port of the type in turn, from a rotating start. */
	for (;;) {
		for (i = 0; i < E.T.ntypes; i++) {
			const struct wire_type	*u = &E.T.types[i];

			if (t != NULL && u != t)
				continue;
			for (k = 0; k < u->n; k++) {
				const struct wire_port *p = &u->ports[(k + start) % u->n];

				if (p->rank < 0)
					continue;
				rc = PMPI_Iprobe(p->rank, p->rtag, E.comm, &flag, st);
				if (rc != MPI_SUCCESS) {
					leave();
					check(c, rc);
				}
				if (!flag)
					continue;
				rc = PMPI_Recv(buf, count, dt, p->rank, p->rtag, E.comm, st);
				leave();
				check_recv(c, rc, u->name, (k + start) % u->n + 1,
				    p->rank, st, count, dt);
				if (rec_on)
					trace_recv_any(t, t0, dt, st);
				return (k + start) % u->n + 1;
			}
		}
		start++;
		sched_yield();
	}
}

int
ens_recv_any(const char *type, void *buf, int count, MPI_Datatype dt)
{
	MPI_Status	st;

	return recv_any(WC_RECV_ANY, type, buf, count, dt, &st);
}

int
ens_recv_any_status(const char *type, void *buf, int count, MPI_Datatype dt,
    MPI_Status *st)
{
	MPI_Status	own;

	return recv_any(WC_RECV_ANY_STATUS, type, buf, count, dt,
	    ignored(st) ? &own : st);
}

int
ens_port_of(const MPI_Status *st, const char **type)
{
	const struct wire_type	*got = NULL;
	int			 index;

	need_running(WC_PORT_OF);
	if (ignored(st))
		ens_fail(WC_PORT_OF, "the status is NULL or MPI_STATUS_IGNORE");
	index = st->MPI_SOURCE < 0 ? 0 : port_of(NULL, st->MPI_SOURCE, st->MPI_TAG,
	    &got);
	if (type != NULL)
		*type = index > 0 ? got->name : NULL;
	return index;
}

/* A non-blocking send in one of MPI's modes. */
static void
isend_port(enum wire_call c, const char *type, int index, const void *buf, int count,
    MPI_Datatype dt, MPI_Request *req)
{
	const struct wire_port	*p = find_port(c, type, index);
	int			 rc, size;
	double			 t0 = rec_on ? MPI_Wtime() : 0;

	if (req == NULL)
		ens_fail(c, "the request is NULL");
	if (c == WC_IBSEND) {
		check(c, MPI_Pack_size(count, dt, E.comm, &size));
		bsend_room(size);
	}
	enter(c, type, index, -1);
	leave();
	if (c == WC_ISEND)
		rc = PMPI_Isend(buf, count, dt, p->rank, p->tag, E.comm, req);
	else if (c == WC_ISSEND)
		rc = PMPI_Issend(buf, count, dt, p->rank, p->tag, E.comm, req);
	else if ((rc = PMPI_Ibsend(buf, count, dt, p->rank, p->tag, E.comm,
	    req)) != MPI_SUCCESS) {
		/* The buffer is full: wait for what it holds, as ens_bsend. */
		void	*old;
		int	 oldsize;

		check(c, MPI_Buffer_detach(&old, &oldsize));
		check(c, MPI_Buffer_attach(E.bsend, E.bsendsize));
		rc = PMPI_Ibsend(buf, count, dt, p->rank, p->tag, E.comm, req);
	}
	check(c, rc);
	slot_req_post(*req, p->rank, 1);
	if (E.mon != NULL)
		ens_mon_posted(E.mon, req_id(*req));
	if (rec_on)
		rec_p2p(TRACE_ISEND, c == WC_ISEND ? TRACE_MODE_STD : c == WC_ISSEND ?
		    TRACE_MODE_SYNC : TRACE_MODE_BUF, t0, tname(type), index, 0,
		    p->rank, p->tag, dt, count, 0, req, E.comm);
}

void
ens_isend(const char *type, int index, const void *buf, int count, MPI_Datatype dt,
    MPI_Request *req)
{
	isend_port(WC_ISEND, type, index, buf, count, dt, req);
}

void
ens_issend(const char *type, int index, const void *buf, int count, MPI_Datatype dt,
    MPI_Request *req)
{
	isend_port(WC_ISSEND, type, index, buf, count, dt, req);
}

void
ens_ibsend(const char *type, int index, const void *buf, int count, MPI_Datatype dt,
    MPI_Request *req)
{
	isend_port(WC_IBSEND, type, index, buf, count, dt, req);
}

void
ens_irecv(const char *type, int index, void *buf, int count, MPI_Datatype dt,
    MPI_Request *req)
{
	const struct wire_port	*p = find_port(WC_IRECV, type, index);
	double			 t0 = rec_on ? MPI_Wtime() : 0;

	if (req == NULL)
		ens_fail(WC_IRECV, "the request is NULL");
	enter(WC_IRECV, type, index, -1);
	leave();
	check(WC_IRECV, PMPI_Irecv(buf, count, dt, p->rank, p->rtag, E.comm, req));
	slot_req_post(*req, p->rank, 0);
	if (E.mon != NULL)
		ens_mon_posted(E.mon, req_id(*req));
	if (rec_on)
		rec_p2p(TRACE_IRECV, TRACE_MODE_NONE, t0, tname(type), index, 0,
		    p->rank, p->rtag, dt, count, 0, req, E.comm);
}

void
ens_irecv_any(const char *type, void *buf, int count, MPI_Datatype dt,
    MPI_Request *req)
{
	const struct wire_type	*t;
	double			 t0 = rec_on ? MPI_Wtime() : 0;

	if (req == NULL)
		ens_fail(WC_IRECV_ANY, "the request is NULL");
	t = any_ports(WC_IRECV_ANY, type);
	/* A request cannot probe: only MPI_ANY_SOURCE over every port. */
	if (!covers_all(t))
		ens_fail(WC_IRECV_ANY, "a pending wildcard over some ports only"
		    " is not supported: %s has ports of other types than '%s'"
		    " (receive from every port, type NULL, or use ens_recv_any)",
		    E.self.name, type);
	enter(WC_IRECV_ANY, type, 0, -1);
	leave();
	check(WC_IRECV_ANY, PMPI_Irecv(buf, count, dt, MPI_ANY_SOURCE, MPI_ANY_TAG,
	    E.comm, req));
	slot_req_post(*req, SLOT_PEER_PORTS, 0);
	if (E.mon != NULL)
		ens_mon_posted(E.mon, req_id(*req));
	if (rec_on)
		rec_p2p(TRACE_IRECV, TRACE_MODE_NONE, t0, t != NULL ? t->name : NULL,
		    REC_PORT_ANY, 0, TRACE_ANY, TRACE_ANY, dt, count, 0, req,
		    E.comm);
}

/* Check the return code of a wait for n requests whose statuses are st:
 * a receive that was truncated (MPI_ERR_IN_STATUS, a status's
 * MPI_ERR_TRUNCATE) is said with its port, its sender and the length sent
 * (where the MPI gives it: truncated_sent), as check_recv says it; any other
 * error as check does. */
static void
check_wait(enum wire_call c, int rc, int n, const MPI_Status *st)
{
	const struct wire_type	*t = NULL;
	char			 peer[256];
	int			 cls, i, k, sent;

	if (rc == MPI_SUCCESS)
		return;
	if (MPI_Error_class(rc, &cls) != MPI_SUCCESS || cls != MPI_ERR_IN_STATUS)
		check(c, rc);
	for (i = 0; i < n; i++) {
		if (MPI_Error_class(st[i].MPI_ERROR, &cls) != MPI_SUCCESS ||
		    cls != MPI_ERR_TRUNCATE)
			continue;
		sent = truncated_sent(&st[i]);
		rank_name(st[i].MPI_SOURCE, peer, sizeof(peer));
		if ((k = port_of(NULL, st[i].MPI_SOURCE, st[i].MPI_TAG, &t)) == 0)
			ens_fail(c, "message truncated (request %d of %d): %s sent"
			    " more than the receive holds", i + 1, n, peer);
		if (sent == MPI_UNDEFINED)
			ens_fail(c, "message truncated on port %s[%d] (request %d"
			    " of %d): %s sent more than the receive holds", t->name,
			    k, i + 1, n, peer);
		ens_fail(c, "message truncated on port %s[%d] (request %d of"
		    " %d): %s sent %d bytes, more than the receive holds",
		    t->name, k, i + 1, n, peer, sent);
	}
	check(c, rc);
}

/* Complete n requests, their statuses in sts (MPI_STATUSES_IGNORE: none;
 * kept here all the same, for check_wait). */
static void
waitall(enum wire_call c, int n, MPI_Request *reqs, MPI_Status *sts)
{
	MPI_Status	 own[16], *st = sts;
	int		 rc;

	need_running(c);
	if (n < 0 || (n > 0 && reqs == NULL))
		ens_fail(c, "bad request array (%d requests)", n);
	if (sts == MPI_STATUSES_IGNORE && n > 16 &&
	    (st = malloc((size_t)n * sizeof(*st))) == NULL)
		ens_fail(c, "out of memory for %d statuses", n);
	else if (sts == MPI_STATUSES_IGNORE)
		st = own;
	if (E.mon != NULL)
		monitor(c, NULL, 0, NULL, NULL);
	slot_reqs(c, 0, n, reqs);
	slot_req_done(n, reqs, NULL);	/* complete, once it returns */
	rc = rec_on ? rec_waitall(n, reqs, st, 0) : PMPI_Waitall(n, reqs, st);
	leave();
	check_wait(c, rc, n, st);
	if (st != sts && st != own)
		free(st);
}

void
ens_waitall(int n, MPI_Request *reqs)
{
	waitall(WC_WAITALL, n, reqs, MPI_STATUSES_IGNORE);
}

void
ens_waitall_status(int n, MPI_Request *reqs, MPI_Status *sts)
{
	waitall(WC_WAITALL_STATUS, n, reqs, ignored(sts) ? MPI_STATUSES_IGNORE : sts);
}

/* The application as a collective's communicator, in *ov. */
static const struct over *
app_over(enum wire_call c, struct over *ov)
{
	need_running(c);
	ov->comm = E.comm;
	ov->rank = E.self.rank;
	ov->size = E.self.nprocs;
	ov->tcomm = 0;
	ov->label = NULL;
	ov->w = NULL;
	ov->wcomm = slot_comm(E.comm, &ov->ncoll);
	return ov;
}

/* The group name[index] this process is in, or NULL. */
static const struct grp *
find_grp(const char *name, int index)
{
	const struct wire_group	*w;
	int			 i;

	for (i = 0; i < E.ngrps; i++) {
		w = E.grps[i].w;
		if (strcmp(w->name, name) == 0 && (w->indexed ? w->index == index :
		    index == 0))
			return &E.grps[i];
	}
	return NULL;
}

/* Stop on a group the process is not in: one the script has (a declared
 * group's name, or a component's), or one it has not. */
static void __attribute__((noreturn))
group_fail(enum wire_call c, const char *name, int index)
{
	char	label[256];
	int	i, known = 0;

	for (i = 0; i < E.T.ngnames && !known; i++)
		known = strcmp(E.T.gnames[i], name) == 0;
	for (i = 0; i < E.T.nruns && !known; i++)
		known = strcmp(E.T.runs[i].comp, name) == 0;
	if (index != 0)
		snprintf(label, sizeof(label), "%s[%d]", name, index);
	else
		snprintf(label, sizeof(label), "%s", name);
	if (known)
		ens_fail(c, "%s is not in group %s", E.self.name, label);
	ens_fail(c, "no group '%s' in the application", label);
}

/* The group name[index] as a collective's communicator, in *ov: one the
 * process is in (a component's name, index 0: its component). */
static const struct over *
find_over(enum wire_call c, const char *name, int index, struct over *ov)
{
	const struct grp	*g;

	need_running(c);
	if (name == NULL)
		ens_fail(c, "the group is NULL");
	if ((g = find_grp(name, index)) != NULL) {
		ov->comm = g->comm;
		ov->rank = g->w->rank;
		ov->size = g->w->size;
		ov->tcomm = 2 + g->w->id;
		ov->label = g->label;
		ov->w = g->w;
		ov->wcomm = slot_comm(g->comm, &ov->ncoll);
		return ov;
	}
	if (index != 0 || strcmp(name, E.self.component) != 0)
		group_fail(c, name, index);
	/* Its component, which no 'over' names: the component's
	 * communicator, for the trace one of the others. */
	ov->comm = E.compcomm;
	check(c, MPI_Comm_rank(E.compcomm, &ov->rank));
	check(c, MPI_Comm_size(E.compcomm, &ov->size));
	ov->tcomm = 1;
	ov->label = E.self.component;
	ov->w = NULL;
	ov->wcomm = slot_comm(E.compcomm, &ov->ncoll);
	return ov;
}

/* The rank in ov of the root named as in the script, which must be in
 * it; *world its world rank. */
static int
over_root(enum wire_call c, const struct over *ov, const char *root, int *world)
{
	MPI_Group	g;
	int		r;

	*world = find_rank(c, root);
	if (ov->tcomm == 0)
		return *world;
	if (ov->w != NULL) {
		/* A group's members are its port table's runs, in rank
		 * order: no MPI call on the way to the collective. */
		const struct wire_grun	*u;
		int			 k, at = 0;

		for (u = ov->w->runs; u < ov->w->runs + ov->w->nruns; u++) {
			k = u->step != 0 ? (*world - u->first) / u->step : 0;
			if (k >= 0 && k < u->count &&
			    u->first + k * u->step == *world)
				return at + k;
			at += u->count;
		}
		ens_fail(c, "the root %s is not in group %s", root, ov->label);
	}
	check(c, MPI_Comm_group(ov->comm, &g));
	r = MPI_UNDEFINED;
	check(c, MPI_Group_translate_ranks(E.wgroup, 1, world, g, &r));
	MPI_Group_free(&g);
	if (r == MPI_UNDEFINED)
		ens_fail(c, "the root %s is not in group %s", root, ov->label);
	return r;
}

/* A collective's arguments, as its ens_* call takes them (those it does
 * not take stay 0), and which collective it is: op, its operation in the
 * trace. */
struct coll {
	enum trace_op	 op;
	const void	*sbuf;
	void		*rbuf;
	int		 scount, rcount;
	const int	*scounts, *sdispls;	/* the v-forms' */
	const int	*rcounts, *rdispls;
	MPI_Datatype	 stype, rtype;
	MPI_Op		 mop;		/* the reductions' */
	const char	*root;		/* the rooted ones' */
};

/* Whether collective op has a root. */
static int
rooted(enum trace_op op)
{
	return op == TRACE_BCAST || op == TRACE_SCATTER || op == TRACE_SCATTERV ||
	    op == TRACE_REDUCE || op == TRACE_GATHER || op == TRACE_GATHERV;
}

/* The sum of n counts, for a v-collective's trace line; 0 for none. */
static long
vsum(const int *counts, int n)
{
	long	s = 0;
	int	i;

	for (i = 0; counts != NULL && i < n; i++)
		s += counts[i];
	return s;
}

/* Record collective a over ov (--trace): root its world rank or
 * TRACE_NONE.  A v-form's counts are their sum, where they count: a
 * rooted one's only at its root; reduce-scatter sends the sum of its
 * counts and receives its own. */
static void
coll_trace(const struct coll *a, double t0, const struct over *ov, int root)
{
	MPI_Datatype	stype = a->stype, rtype = a->rtype;
	long		scount = a->scount, rcount = a->rcount;
	int		me = root == E.self.rank;

	switch (a->op) {
	case TRACE_BARRIER:
		stype = rtype = MPI_DATATYPE_NULL;
		break;
	case TRACE_ALLGATHERV:
		rcount = vsum(a->rcounts, ov->size);
		break;
	case TRACE_GATHERV:
		rcount = me ? vsum(a->rcounts, ov->size) : 0;
		break;
	case TRACE_SCATTERV:
		scount = me ? vsum(a->scounts, ov->size) : 0;
		break;
	case TRACE_ALLTOALLV:
		scount = vsum(a->scounts, ov->size);
		rcount = vsum(a->rcounts, ov->size);
		break;
	case TRACE_REDUCESCATTER:
		scount = vsum(a->rcounts, ov->size);
		rcount = a->rcounts != NULL ? a->rcounts[ov->rank] : 0;
		break;
	default:
		break;
	}
	trace_over(a->op, t0, ov, root, stype, scount, rtype, rcount);
}

/* Collective a over ov (c the call, for messages): its root found in ov,
 * checked against the behaviour and said in the slot, made, recorded.
 * Every ens_* collective is this, over the application or a group;
 * inlined in each, so that its operation is known where it is made (the
 * switch and struct coll cost nothing: each call as fast as its own
 * function was). */
static inline __attribute__((always_inline)) void
collective(enum wire_call c, const struct over *ov, const struct coll *a)
{
	int	rc, r = 0, w = TRACE_NONE;
	double	t0 = rec_on ? MPI_Wtime() : 0;

	if (rooted(a->op))
		r = over_root(c, ov, a->root, &w);
	enter_over(c, a->root, ov, w);
	switch (a->op) {
	case TRACE_BARRIER:
		rc = PMPI_Barrier(ov->comm);
		break;
	case TRACE_BCAST:
		rc = PMPI_Bcast(a->rbuf, a->rcount, a->rtype, r, ov->comm);
		break;
	case TRACE_REDUCE:
		rc = PMPI_Reduce(a->sbuf, a->rbuf, a->scount, a->stype, a->mop, r,
		    ov->comm);
		break;
	case TRACE_ALLREDUCE:
		rc = PMPI_Allreduce(a->sbuf, a->rbuf, a->scount, a->stype, a->mop,
		    ov->comm);
		break;
	case TRACE_GATHER:
		rc = PMPI_Gather(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount,
		    a->rtype, r, ov->comm);
		break;
	case TRACE_ALLGATHER:
		rc = PMPI_Allgather(a->sbuf, a->scount, a->stype, a->rbuf,
		    a->rcount, a->rtype, ov->comm);
		break;
	case TRACE_SCATTER:
		rc = PMPI_Scatter(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount,
		    a->rtype, r, ov->comm);
		break;
	case TRACE_ALLTOALL:
		rc = PMPI_Alltoall(a->sbuf, a->scount, a->stype, a->rbuf,
		    a->rcount, a->rtype, ov->comm);
		break;
	case TRACE_ALLGATHERV:
		rc = PMPI_Allgatherv(a->sbuf, a->scount, a->stype, a->rbuf,
		    a->rcounts, a->rdispls, a->rtype, ov->comm);
		break;
	case TRACE_GATHERV:
		rc = PMPI_Gatherv(a->sbuf, a->scount, a->stype, a->rbuf,
		    a->rcounts, a->rdispls, a->rtype, r, ov->comm);
		break;
	case TRACE_SCATTERV:
		rc = PMPI_Scatterv(a->sbuf, a->scounts, a->sdispls, a->stype,
		    a->rbuf, a->rcount, a->rtype, r, ov->comm);
		break;
	case TRACE_ALLTOALLV:
		rc = PMPI_Alltoallv(a->sbuf, a->scounts, a->sdispls, a->stype,
		    a->rbuf, a->rcounts, a->rdispls, a->rtype, ov->comm);
		break;
	case TRACE_REDUCESCATTER:
		rc = PMPI_Reduce_scatter(a->sbuf, a->rbuf, a->rcounts, a->stype,
		    a->mop, ov->comm);
		break;
	default:	/* no collective */
		rc = MPI_ERR_INTERN;
		break;
	}
	leave();
	check(c, rc);
	if (rec_on)
		coll_trace(a, t0, ov, w);
}

/* The two calls of collective NAME (ensemble.h): ens_name over the
 * application, with the parameters params, and ens_name_over over a
 * group, with the group's after them; both make the collective whose
 * arguments the rest gives (struct coll's designated initializers).
 * ens_barrier, whose params are none, is written out below. */
#define ENS_PARAMS(...)	__VA_ARGS__
#define ENS_COLLECTIVE(name, NAME, params, ...)				\
void									\
ens_##name params							\
{									\
	const struct coll	a = { __VA_ARGS__ };			\
	struct over		ov;					\
									\
	collective(WC_##NAME, app_over(WC_##NAME, &ov), &a);		\
}									\
									\
void									\
ens_##name##_over(ENS_PARAMS params, const char *group, int index)	\
{									\
	const struct coll	a = { __VA_ARGS__ };			\
	struct over		ov;					\
									\
	collective(WC_##NAME##_OVER, find_over(WC_##NAME##_OVER, group,	\
	    index, &ov), &a);						\
}

void
ens_barrier(void)
{
	const struct coll	a = { .op = TRACE_BARRIER };
	struct over		ov;

	collective(WC_BARRIER, app_over(WC_BARRIER, &ov), &a);
}

void
ens_barrier_over(const char *group, int index)
{
	const struct coll	a = { .op = TRACE_BARRIER };
	struct over		ov;

	collective(WC_BARRIER_OVER, find_over(WC_BARRIER_OVER, group, index,
	    &ov), &a);
}

ENS_COLLECTIVE(bcast, BCAST,
    (void *buf, int count, MPI_Datatype dt, const char *root),
    .op = TRACE_BCAST, .rbuf = buf, .scount = count, .rcount = count,
    .stype = dt, .rtype = dt, .root = root)

/* The reductions' parameters, and what they are in struct coll. */
#define ENS_REDUCE_PARAMS						\
	const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt,	\
	MPI_Op op
#define ENS_REDUCE_ARGS							\
	.sbuf = sendbuf, .rbuf = recvbuf, .scount = count, .rcount = count, \
	.stype = dt, .rtype = dt, .mop = op

ENS_COLLECTIVE(reduce, REDUCE, (ENS_REDUCE_PARAMS, const char *root),
    .op = TRACE_REDUCE, ENS_REDUCE_ARGS, .root = root)
ENS_COLLECTIVE(allreduce, ALLREDUCE, (ENS_REDUCE_PARAMS),
    .op = TRACE_ALLREDUCE, ENS_REDUCE_ARGS)

/* The parameters of a collective of a count from each process, to each
 * (MPI_Gather's), and what they are in struct coll. */
#define ENS_EACH_PARAMS							\
	const void *sendbuf, int sendcount, MPI_Datatype sendtype,	\
	void *recvbuf, int recvcount, MPI_Datatype recvtype
#define ENS_EACH_ARGS							\
	.sbuf = sendbuf, .scount = sendcount, .stype = sendtype,	\
	.rbuf = recvbuf, .rcount = recvcount, .rtype = recvtype

ENS_COLLECTIVE(gather, GATHER, (ENS_EACH_PARAMS, const char *root),
    .op = TRACE_GATHER, ENS_EACH_ARGS, .root = root)
ENS_COLLECTIVE(scatter, SCATTER, (ENS_EACH_PARAMS, const char *root),
    .op = TRACE_SCATTER, ENS_EACH_ARGS, .root = root)
ENS_COLLECTIVE(allgather, ALLGATHER, (ENS_EACH_PARAMS),
    .op = TRACE_ALLGATHER, ENS_EACH_ARGS)
ENS_COLLECTIVE(alltoall, ALLTOALL, (ENS_EACH_PARAMS),
    .op = TRACE_ALLTOALL, ENS_EACH_ARGS)

/* The v-forms: counts and displacements per process. */
#define ENS_GATHERV_PARAMS						\
	const void *sendbuf, int sendcount, MPI_Datatype sendtype,	\
	void *recvbuf, const int *recvcounts, const int *displs,	\
	MPI_Datatype recvtype
#define ENS_GATHERV_ARGS						\
	.sbuf = sendbuf, .scount = sendcount, .stype = sendtype,	\
	.rbuf = recvbuf, .rcounts = recvcounts, .rdispls = displs,	\
	.rtype = recvtype

ENS_COLLECTIVE(gatherv, GATHERV, (ENS_GATHERV_PARAMS, const char *root),
    .op = TRACE_GATHERV, ENS_GATHERV_ARGS, .root = root)
ENS_COLLECTIVE(allgatherv, ALLGATHERV, (ENS_GATHERV_PARAMS),
    .op = TRACE_ALLGATHERV, ENS_GATHERV_ARGS)

ENS_COLLECTIVE(scatterv, SCATTERV,
    (const void *sendbuf, const int *sendcounts, const int *displs,
    MPI_Datatype sendtype, void *recvbuf, int recvcount,
    MPI_Datatype recvtype, const char *root),
    .op = TRACE_SCATTERV, .sbuf = sendbuf, .scounts = sendcounts,
    .sdispls = displs, .stype = sendtype, .rbuf = recvbuf,
    .rcount = recvcount, .rtype = recvtype, .root = root)

ENS_COLLECTIVE(alltoallv, ALLTOALLV,
    (const void *sendbuf, const int *sendcounts, const int *sdispls,
    MPI_Datatype sendtype, void *recvbuf, const int *recvcounts,
    const int *rdispls, MPI_Datatype recvtype),
    .op = TRACE_ALLTOALLV, .sbuf = sendbuf, .scounts = sendcounts,
    .sdispls = sdispls, .stype = sendtype, .rbuf = recvbuf,
    .rcounts = recvcounts, .rdispls = rdispls, .rtype = recvtype)

ENS_COLLECTIVE(reduce_scatter, REDUCE_SCATTER,
    (const void *sendbuf, void *recvbuf, const int *recvcounts,
    MPI_Datatype dt, MPI_Op op),
    .op = TRACE_REDUCESCATTER, .sbuf = sendbuf, .rbuf = recvbuf,
    .rcounts = recvcounts, .stype = dt, .rtype = dt, .mop = op)

MPI_Comm
ens_comm_component(void)
{
	need_running(WC_COMM_COMPONENT);
	return E.compcomm;
}

MPI_Comm
ens_comm_group(const char *name, int index)
{
	struct over	ov;

	return find_over(WC_COMM_GROUP, name, index, &ov)->comm;
}

/* The index in the table of the type port p is of. */
static int
port_type(const struct wire_port *p)
{
	int	i;

	for (i = 0; i < E.T.ntypes; i++)
		if (p >= E.T.types[i].ports && p < E.T.types[i].ports +
		    E.T.types[i].n)
			return i;
	return -1;
}

/* A sendrecv on two ports, in place when c is WC_SENDRECV_REPLACE (rbuf
 * the one buffer). */
static void
sendrecv(enum wire_call c, const char *stype, int sindex, const void *sbuf,
    int scount, MPI_Datatype sdt, const char *rtype, int rindex, void *rbuf,
    int rcount, MPI_Datatype rdt, MPI_Status *st)
{
	const struct wire_port	*sp = find_port(c, stype, sindex);
	const struct wire_port	*rp = find_port(c, rtype, rindex);
	struct mon_event	 ev;
	MPI_Status		 own;
	double			 t0 = rec_on ? MPI_Wtime() : 0;
	int			 rc;

	/* A status always: a truncation is said with the length sent. */
	if (ignored(st))
		st = &own;
	memset(&ev, 0, sizeof(ev));
	ev.type = stype;
	ev.port = sindex;
	ev.rtype = rtype;
	ev.rport = rindex;
	monitor_ev(c, &ev, 0);
	slot_begin(c, WIRE_WAIT_ALL);
	slot_me->type = port_type(sp);
	slot_me->port = sindex;
	slot_me->peers[0] = sp->rank;
	slot_me->sends = 1;
	if (rp->rank == sp->rank)
		slot_me->recvs = 1;
	else {
		slot_me->peers[1] = rp->rank;
		slot_me->recvs = 2;
	}
	slot_me->npeers = rp->rank == sp->rank ? 1 : 2;
	slot_done();
	if (c == WC_SENDRECV)
		rc = PMPI_Sendrecv(sbuf, scount, sdt, sp->rank, sp->tag, rbuf,
		    rcount, rdt, rp->rank, rp->rtag, E.comm, st);
	else
		rc = PMPI_Sendrecv_replace(rbuf, rcount, rdt, sp->rank, sp->tag,
		    rp->rank, rp->rtag, E.comm, st);
	leave();
	check_recv(c, rc, rtype, rindex, rp->rank, st, rcount, rdt);
	if (rec_on)
		rec_sendrecv(c == WC_SENDRECV ? TRACE_SENDRECV :
		    TRACE_SENDRECVREPLACE, t0, tname(stype), sindex, sp->rank,
		    sp->tag, sdt, scount, tname(rtype), rindex, st, rdt, 0, 0,
		    E.comm);
}

void
ens_sendrecv(const char *stype, int sindex, const void *sbuf, int scount,
    MPI_Datatype sdt, const char *rtype, int rindex, void *rbuf, int rcount,
    MPI_Datatype rdt, MPI_Status *st)
{
	sendrecv(WC_SENDRECV, stype, sindex, sbuf, scount, sdt, rtype, rindex,
	    rbuf, rcount, rdt, st);
}

void
ens_sendrecv_replace(const char *stype, int sindex, const char *rtype,
    int rindex, void *buf, int count, MPI_Datatype dt, MPI_Status *st)
{
	sendrecv(WC_SENDRECV_REPLACE, stype, sindex, buf, count, dt, rtype,
	    rindex, buf, count, dt, st);
}

/* Check the return code of a call that completed one request, its status
 * st: a truncated receive is said with its port, its sender and the
 * length sent, as check_recv says it; 'which' names the request among
 * several ("request 2 of 3: "), or is "". */
static void
check_one(enum wire_call c, int rc, const MPI_Status *st, const char *which)
{
	const struct wire_type	*t = NULL;
	char			 peer[256];
	int			 cls, k, sent;

	if (rc == MPI_SUCCESS)
		return;
	if (MPI_Error_class(rc, &cls) != MPI_SUCCESS || cls != MPI_ERR_TRUNCATE ||
	    st->MPI_SOURCE < 0)
		check(c, rc);
	sent = truncated_sent(st);
	rank_name(st->MPI_SOURCE, peer, sizeof(peer));
	if ((k = port_of(NULL, st->MPI_SOURCE, st->MPI_TAG, &t)) == 0)
		ens_fail(c, "%smessage truncated: %s sent more than the receive"
		    " holds", which, peer);
	if (sent == MPI_UNDEFINED)
		ens_fail(c, "%smessage truncated on port %s[%d]: %s sent more than"
		    " the receive holds", which, t->name, k, peer);
	ens_fail(c, "%smessage truncated on port %s[%d]: %s sent %d bytes, more"
	    " than the receive holds", which, t->name, k, peer, sent);
}

/* The request pointer of a call on one request, checked. */
static void
need_request(enum wire_call c, const MPI_Request *req)
{
	need_running(c);
	if (req == NULL)
		ens_fail(c, "the request is NULL");
}

void
ens_wait(MPI_Request *req, MPI_Status *st)
{
	struct mon_event	 ev;
	MPI_Request		 saved;
	MPI_Status		 own;
	double			 t0 = rec_on ? MPI_Wtime() : 0;
	int			 rc;

	need_request(WC_WAIT, req);
	if (ignored(st))
		st = &own;
	saved = *req;
	memset(&ev, 0, sizeof(ev));
	ev.req = saved != MPI_REQUEST_NULL ? req_id(saved) : 0;
	monitor_ev(WC_WAIT, &ev, 0);
	slot_reqs(WC_WAIT, 0, 1, &saved);
	slot_req_done(1, &saved, NULL);
	rc = PMPI_Wait(req, st);
	leave();
	check_one(WC_WAIT, rc, st, "");
	if (rec_on)
		rec_completed(TRACE_WAITONE, saved, st, t0, MPI_Wtime(), 0);
}

int
ens_test(MPI_Request *req, MPI_Status *st)
{
	struct mon_event	 ev;
	MPI_Request		 saved;
	MPI_Status		 own;
	double			 t0 = rec_on ? MPI_Wtime() : 0;
	int			 rc, flag = 0;

	need_request(WC_TEST, req);
	if (ignored(st))
		st = &own;
	saved = *req;
	slot_none(WC_TEST);
	rc = PMPI_Test(req, &flag, st);
	leave();
	slot_req_done(1, &saved, req);
	check_one(WC_TEST, rc, st, "");
	/* Its outcome decides the branch: checked after the call, which
	 * does not block. */
	memset(&ev, 0, sizeof(ev));
	ev.req = saved != MPI_REQUEST_NULL ? req_id(saved) : 0;
	ev.flag = flag != 0;
	monitor_ev(WC_TEST, &ev, 0);
	if (rec_on && flag)
		rec_completed(TRACE_TEST, saved, st, t0, MPI_Wtime(), 0);
	else if (rec_on)
		rec_test_false(saved, t0, 0);
	return flag != 0;
}

/* A copy of n requests before a call that completes some (into fixed
 * when n <= 16, else a new array). */
static MPI_Request *
save_requests(enum wire_call c, int n, const MPI_Request *reqs, MPI_Request *fixed)
{
	MPI_Request	*saved = fixed;

	need_running(c);
	if (n < 0 || (n > 0 && reqs == NULL))
		ens_fail(c, "bad request array (%d requests)", n);
	if (n > 16 && (saved = malloc((size_t)n * sizeof(*saved))) == NULL)
		ens_fail(c, "out of memory for %d requests", n);
	if (n > 0)
		memcpy(saved, reqs, (size_t)n * sizeof(*saved));
	return saved;
}

int
ens_waitany(int n, MPI_Request *reqs, MPI_Status *st)
{
	struct mon_event	 ev;
	MPI_Request		 fixed[16], *saved;
	MPI_Status		 own;
	char			 which[64];
	double			 t0 = rec_on ? MPI_Wtime() : 0;
	int			 rc, index = MPI_UNDEFINED;

	saved = save_requests(WC_WAITANY, n, reqs, fixed);
	if (ignored(st))
		st = &own;
	memset(&ev, 0, sizeof(ev));
	monitor_ev(WC_WAITANY, &ev, 1);
	slot_reqs(WC_WAITANY, 1, n, saved);
	rc = PMPI_Waitany(n, reqs, &index, st);
	leave();
	slot_req_done(n, saved, reqs);
	snprintf(which, sizeof(which), "request %d of %d: ", index, n);
	check_one(WC_WAITANY, rc, st, index != MPI_UNDEFINED ? which : "");
	ev.req = index != MPI_UNDEFINED ? req_id(saved[index]) : 0;
	monitor_ev(WC_WAITANY, &ev, 0);
	if (rec_on && index != MPI_UNDEFINED)
		rec_completed(TRACE_WAITANY, saved[index], st, t0, MPI_Wtime(), 0);
	if (saved != fixed)
		free(saved);
	return index;
}

int
ens_waitsome(int n, MPI_Request *reqs, int *indices, MPI_Status *sts)
{
	struct mon_event	 ev;
	MPI_Request		 fixed[16], *saved;
	MPI_Status		 ownst[16], *st = sts;
	long			 ownid[16], *ids;
	double			 t0 = rec_on ? MPI_Wtime() : 0, t1;
	int			 rc, k, out = MPI_UNDEFINED;

	saved = save_requests(WC_WAITSOME, n, reqs, fixed);
	if (indices == NULL)
		ens_fail(WC_WAITSOME, "the indices are NULL");
	if (sts == NULL || sts == MPI_STATUSES_IGNORE)
		st = n <= 16 ? ownst : malloc((size_t)n * sizeof(*st));
	ids = n <= 16 ? ownid : malloc((size_t)n * sizeof(*ids));
	if (st == NULL || ids == NULL)
		ens_fail(WC_WAITSOME, "out of memory for %d requests", n);
	memset(&ev, 0, sizeof(ev));
	monitor_ev(WC_WAITSOME, &ev, 1);
	slot_reqs(WC_WAITSOME, 1, n, saved);
	rc = PMPI_Waitsome(n, reqs, &out, indices, st);
	leave();
	slot_req_done(n, saved, reqs);
	check_wait(WC_WAITSOME, rc, out == MPI_UNDEFINED ? 0 : out, st);
	for (k = 0; out != MPI_UNDEFINED && k < out; k++)
		ids[k] = req_id(saved[indices[k]]);
	ev.reqs = ids;
	ev.nreqs = out == MPI_UNDEFINED ? 0 : out;
	monitor_ev(WC_WAITSOME, &ev, 0);
	t1 = rec_on ? MPI_Wtime() : 0;
	for (k = 0; rec_on && out != MPI_UNDEFINED && k < out; k++)
		rec_completed(TRACE_WAITSOME, saved[indices[k]], &st[k], t0, t1, 0);
	if (saved != fixed)
		free(saved);
	if (st != sts && st != ownst)
		free(st);
	if (ids != ownid)
		free(ids);
	return out;
}

void
ens_probe(const char *type, int index, MPI_Status *st)
{
	const struct wire_port	*p = find_port(WC_PROBE, type, index);
	struct mon_event	 ev;
	MPI_Status		 own;
	double			 t0 = rec_on ? MPI_Wtime() : 0;
	int			 rc;

	if (ignored(st))
		st = &own;
	memset(&ev, 0, sizeof(ev));
	ev.type = type;
	ev.port = index;
	monitor_ev(WC_PROBE, &ev, 0);
	slot_p2p(WC_PROBE, type_index(type), index, p->rank, 0);
	rc = PMPI_Probe(p->rank, p->rtag, E.comm, st);
	leave();
	check(WC_PROBE, rc);
	if (rec_on)
		rec_probe(TRACE_PROBE, t0, tname(type), index, REC_FOUND_NONE, 0,
		    p->rank, p->rtag, st, 0, E.comm);
}

/* Probe the ports of t (NULL: all) once, from a rotating start: the
 * index of one with a message (its type in *got, the status in *st), or
 * 0. */
static int
probe_ports(enum wire_call c, const struct wire_type *t, MPI_Status *st,
    const struct wire_type **got)
{
	static int	 start;
	int		 i, k, rc, flag;

	start++;
	for (i = 0; i < E.T.ntypes; i++) {
		const struct wire_type	*u = &E.T.types[i];

		if (t != NULL && u != t)
			continue;
		for (k = 0; k < u->n; k++) {
			int			 j = (k + start) % u->n;
			const struct wire_port	*p = &u->ports[j];

			if (p->rank < 0)
				continue;
			if ((rc = PMPI_Iprobe(p->rank, p->rtag, E.comm, &flag,
			    st)) != MPI_SUCCESS) {
				leave();
				check(c, rc);
			}
			if (flag) {
				*got = u;
				return j + 1;
			}
		}
	}
	return 0;
}

/* A probe of any port of a type (NULL: of all), blocking or not: the
 * port's index (its type by ens_port_of), 0 when a non-blocking one found
 * nothing.  The monitor and the trace are told the port found (a 'recv
 * m' after 'probe any T as m' takes that port's message); a blocking one
 * is checked before it waits. */
static int
probe_any(enum wire_call c, const char *type, int block, MPI_Status *st)
{
	const struct wire_type	*t, *got = NULL;
	struct mon_event	 ev;
	double			 t0 = rec_on ? MPI_Wtime() : 0;
	int			 rc, flag = 1, index;

	t = any_ports(c, type);
	memset(&ev, 0, sizeof(ev));
	ev.type = type;
	if (block)
		monitor_ev(c, &ev, 1);
	slot_begin(c, block ? WIRE_WAIT_PORTS : WIRE_WAIT_NONE);
	slot_me->type = type_index(type);
	slot_me->port = 0;
	slot_done();
	if (covers_all(t)) {
		rc = block ? PMPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, E.comm, st) :
		    PMPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, E.comm, &flag, st);
		leave();
		check(c, rc);
		index = 0;
		if (flag && (index = port_of(t, st->MPI_SOURCE, st->MPI_TAG,
		    &got)) == 0)
			ens_fail(c, "a message from rank %d with tag %d came by"
			    " no port (raw MPI on a port's communicator must use"
			    " the port's tag)", st->MPI_SOURCE, st->MPI_TAG);
	} else {
		while ((index = probe_ports(c, t, st, &got)) == 0 && block)
			sched_yield();
		leave();
	}
	ev.flag = index > 0;
	if (index > 0) {
		ev.rtype = got->name;
		ev.rport = index;
	}
	monitor_ev(c, &ev, 0);
	if (rec_on && index > 0)
		rec_probe(block ? TRACE_PROBE : TRACE_IPROBE, t0, got->name,
		    index, t != NULL ? REC_FOUND_OF_TYPE : REC_FOUND_OF_ALL, 0,
		    TRACE_ANY, TRACE_ANY, st, 0, E.comm);
	else if (rec_on)
		rec_probe(TRACE_IPROBEFALSE, t0, t != NULL ? t->name : NULL,
		    REC_PORT_ANY, REC_FOUND_NONE, 0, TRACE_ANY, TRACE_ANY, st, 0,
		    E.comm);
	return index;
}

int
ens_probe_any(const char *type, MPI_Status *st)
{
	MPI_Status	own;

	return probe_any(WC_PROBE_ANY, type, 1, ignored(st) ? &own : st);
}

int
ens_iprobe(const char *type, int index, MPI_Status *st)
{
	const struct wire_port	*p = find_port(WC_IPROBE, type, index);
	struct mon_event	 ev;
	MPI_Status		 own;
	double			 t0 = rec_on ? MPI_Wtime() : 0;
	int			 rc, flag = 0;

	if (ignored(st))
		st = &own;
	slot_begin(WC_IPROBE, WIRE_WAIT_NONE);
	slot_me->type = type_index(type);
	slot_me->port = index;
	slot_done();
	rc = PMPI_Iprobe(p->rank, p->rtag, E.comm, &flag, st);
	leave();
	check(WC_IPROBE, rc);
	memset(&ev, 0, sizeof(ev));
	ev.type = type;
	ev.port = index;
	ev.flag = flag != 0;
	monitor_ev(WC_IPROBE, &ev, 0);
	if (rec_on)
		rec_probe(flag ? TRACE_IPROBE : TRACE_IPROBEFALSE, t0,
		    tname(type), index, REC_FOUND_NONE, 0, p->rank, p->rtag, st,
		    0, E.comm);
	return flag != 0;
}

int
ens_iprobe_any(const char *type, int *port, MPI_Status *st)
{
	MPI_Status	own;
	int		index;

	index = probe_any(WC_IPROBE_ANY, type, 0, ignored(st) ? &own : st);
	if (port != NULL)
		*port = index;
	return index > 0;
}
