/* wire.h -- what ensemble-loader and libensemble say to each other, and
 * what both say to 'ensemble run': the one definition of the port-table
 * message and of the marker lines.
 *
 * Over the parent intercommunicator (the loader is rank 0 of its side, the
 * components are ranks 0..n-1 of theirs, in script order):
 *   loader -> component r, WIRE_TAG_TABLE: the port table (below), bytes;
 *   component -> loader, WIRE_TAG_HELLO: int r, once its interface is set;
 *   component -> loader, WIRE_TAG_DONE: int r, from ens_finalize;
 *   component -> loader, WIRE_TAG_TRACE (only when the table's flags
 *     hold WIRE_TRACE): its trace, from ens_finalize before DONE, as
 *     messages of bytes (at most WIRE_TRACE_CHUNK each): first
 *     "host HOSTNAME\n", then event lines (runtime/traceline.h) in the
 *     order the process started them, then an empty message.
 *
 * The port table is a sequence of 32-bit integers and strings (a 32-bit
 * length, then the bytes, no NUL), in this order:
 *   WIRE_MAGIC, rank, nprocs, flags (WIRE_CHECK_PROTOCOL),
 *   name, component, indexed (0/1), index (when indexed: a[0] has
 *     index 0 and is indexed; a process without an index has 0 and 0),
 *   ntypes, then per type: its name, nports, then per port: peer rank
 *     (-1: not connected), the tag it sends with, the tag it receives
 *     with (the same but on a channel from a process to itself, whose two
 *     directions need two tags);
 *   nparams, then per parameter: name, value;
 *   nargs, then each argument;
 *   nruns, then per run of processes: component, indexed (0/1), first rank,
 *     first index, count -- the processes' names, compressed (tree.pcg at
 *     -np 10000 is two runs);
 *   behaviour, nlocs, then each statement's location ("file:line:col",
 *     the file any bytes; "-" unknown; monitor.h): the behaviour empty and
 *     no locations unless WIRE_CHECK_PROTOCOL;
 *   when WIRE_TRACE: the trace's origin, "SECONDS.NANOSECONDS" of the
 *     loader's realtime clock just before the spawn.
 *
 * Marker lines: a process started by the loader writes lines beginning with
 * WIRE_MARK to its stderr (libensemble) or stdout (the loader); Open MPI
 * forwards them, tagged with the writer's rank, to 'ensemble run', which
 * consumes them and never shows them:
 *   component: "init"           it entered ens_init (before MPI_Init;
 *                               only when WIRE_ENV is set, so that a
 *                               program run by hand prints no marker);
 *              "fail MESSAGE"   it is about to MPI_Abort for MESSAGE;
 *              "signal N"       it received fatal signal N;
 *              "exit"           it exited without calling ens_finalize;
 *              "finalize"       it entered ens_finalize;
 *              "state CALL [TYPE PORT]" / "state -" / "state finalize"
 *                               where it is, on SIGUSR1 (--timeout);
 *   trampoline (ensemble-exec, loader/exec.c, started in each
 *              component's place, which forks it and waits):
 *              "start HOST"     it runs on HOST (before the component);
 *              "end HOST exit N" / "end HOST signal N"
 *                               how the component ended, joined or not;
 *              "cannot HOST MESSAGE"
 *                               execv could not start it (MESSAGE says why);
 *   loader:    "spawned SECONDS", "wired SECONDS", "done SECONDS";
 *              "stuck SECONDS"  not every process joined (spawn or
 *                               wiring) within its watchdog's SECONDS;
 *              "status PHASE CHARS" on SIGUSR1: PHASE spawning, wiring or
 *                               running; CHARS one per process: '.' spawned,
 *                               'h' its interface set, 'd' done. */
#ifndef ENS_WIRE_H
#define ENS_WIRE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define WIRE_MAGIC		0x454e5332	/* "ENS2" */
#define WIRE_TAG_TABLE		1
#define WIRE_TAG_HELLO		2
#define WIRE_TAG_DONE		3
#define WIRE_TAG_TRACE		4
#define WIRE_CHECK_PROTOCOL	0x1
#define WIRE_TRACE		0x2
#define WIRE_TRACE_CHUNK	(1 << 20)

#define WIRE_MARK		"@ensemble@ "

/* The environment variable the trampoline (loader/exec.c) sets to "1" in
 * the component it starts: its stderr goes to 'ensemble run', which reads
 * the component's marker lines.  "init" needs it to be known: the answer
 * to SIGUSR1 cannot carry that fact, since the same SIGUSR1 kills the
 * processes that never called ens_init, and Open MPI then stops the others
 * with SIGTERM, which can come before they had the processor to answer. */
#define WIRE_ENV		"ENSEMBLE_EXEC"

/* A growing byte buffer for writing a table. */
struct wire_buf {
	char	*p;
	size_t	 len, cap;
};

/* A table being read: 'bad' is set once it was short or malformed. */
struct wire_in {
	const char	*p;
	size_t		 len, off;
	int		 bad;
};

static inline int
wire_reserve(struct wire_buf *b, size_t n)
{
	char	*np;
	size_t	 cap;

	if (b->len + n <= b->cap)
		return 0;
	for (cap = b->cap ? b->cap : 256; cap < b->len + n; cap *= 2)
		;
	if ((np = realloc(b->p, cap)) == NULL)
		return -1;
	b->p = np;
	b->cap = cap;
	return 0;
}

/* Append an integer; -1 when out of memory. */
static inline int
wire_put_int(struct wire_buf *b, int32_t v)
{
	if (wire_reserve(b, sizeof(v)) != 0)
		return -1;
	memcpy(b->p + b->len, &v, sizeof(v));
	b->len += sizeof(v);
	return 0;
}

/* Append a string (NULL as empty); -1 when out of memory. */
static inline int
wire_put_str(struct wire_buf *b, const char *s)
{
	size_t	n = s != NULL ? strlen(s) : 0;

	if (n > INT32_MAX || wire_put_int(b, (int32_t)n) != 0 ||
	    wire_reserve(b, n) != 0)
		return -1;
	if (n > 0)
		memcpy(b->p + b->len, s, n);
	b->len += n;
	return 0;
}

static inline int32_t
wire_get_int(struct wire_in *in)
{
	int32_t	v;

	if (in->bad || in->len - in->off < sizeof(v)) {
		in->bad = 1;
		return 0;
	}
	memcpy(&v, in->p + in->off, sizeof(v));
	in->off += sizeof(v);
	return v;
}

/* A new NUL-terminated copy of the next string (caller frees), or NULL
 * when the table is malformed or memory ran out (in->bad set). */
static inline char *
wire_get_str(struct wire_in *in)
{
	int32_t	 n = wire_get_int(in);
	char	*s;

	if (in->bad || n < 0 || (size_t)n > in->len - in->off ||
	    (s = malloc((size_t)n + 1)) == NULL) {
		in->bad = 1;
		return NULL;
	}
	memcpy(s, in->p + in->off, (size_t)n);
	s[n] = '\0';
	in->off += (size_t)n;
	return s;
}

#endif
