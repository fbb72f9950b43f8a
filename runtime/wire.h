/* wire.h -- what 'ensemble run', the trampoline ensemble-exec and
 * libensemble say to each other: the one definition of the launch line,
 * the port tables and their bundle, and the marker lines.  wire.c holds
 * the code that writes and reads them, linked into all three.
 *
 * A run is one MPI job: 'ensemble run' starts 'mpirun --app APPFILE',
 * whose line r (an Open MPI appfile line, script order = world rank)
 * starts process r through the trampoline:
 *
 *	-np 1 [--host HOST] -x WIRE_ENV_SECRET=SECRET
 *	    [-x WIRE_ENV_STDIN_KEY=KEY] PATH-TO-ensemble-exec TOKEN...
 *
 * The run's secrets (random, hex) travel so, in the appfile (which only
 * the user can read) to the trampoline's environment (which only the user
 * can read), never in a command line, where any user could read them:
 * SECRET, in every marker line the trampoline relays (below), and with
 * --stdin-net the KEY of its connection's handshake.  The trampoline takes
 * them out of its environment (its copy of the bytes too) before it starts
 * the component, and cannot be read by it (it is not dumpable).
 * Open MPI splits an appfile line at spaces, cuts it at '#' or "//" and
 * reads at most about 8 KB of it, so every TOKEN is written by
 * wire_token_put: printable ASCII as it is but '%', '#', and a '/' after
 * a '/', every other byte as '%' and two upper-case hex digits; an empty
 * string is "%00".  The tokens, decoded, are the trampoline's arguments:
 *
 *	NAME ROOT [--relay] [--tables | --tables-file FILE] [--stdin]
 *	    [--stdin-net ADDRESSES] [--watch PID:FD:HOST] [--wdir DIR] COUNT
 *	    NAME=VALUE... PATH [ARG...]
 *
 * (A launcher that starts one command for every process, MPICH's mpiexec,
 * starts 'ensemble-exec --plan PLAN': line RANK of PLAN, from 0, holds the
 * process's TOKENs, RANK from PMI_RANK, PMIX_RANK or SLURM_PROCID, and the
 * secrets are in the launcher's environment.  Where a host has no file of
 * the run's, 'ensemble-exec --plan-net ADDRESSES' instead: the trampoline
 * connects to 'ensemble run' as --stdin-net does (below; the key
 * WIRE_ENV_PLAN_KEY, its process's name the decimal RANK) and is sent
 * "WORLD LENGTH\n", its line's LENGTH bytes (no newline) and, when the line
 * says --tables, the bundle (below), then the end.)
 *
 * NAME the process's name; ROOT the world rank that holds the port
 * tables; --relay: relay the component's output (below), with SECRET in
 * every marker line; --tables on that process only: its standard input
 * starts with the bundle of every process's port table (below), which
 * the trampoline reads off and hands to the component; --tables-file on
 * that process instead: FILE, in the run's private directory, holds the
 * bundle (every process on the machine of 'ensemble run': no launcher's
 * limit on its standard input, nor its choice of rank, matters);
 * --stdin: the rest of its standard input is the component's (else
 * /dev/null); --stdin-net
 * (on every process, with --relay, never with --stdin): the component's
 * standard input is a TCP connection to 'ensemble run', which copies its
 * own standard input to every process (loader/fan.h): ADDRESSES are
 * "IPV4:PORT" separated by ',', tried in order (the loopback address only
 * when every process runs on that machine); on a connection, before
 * anything else, each side proves that it knows KEY, which never travels
 * (loader/auth.h): the trampoline writes its first message (its nonce,
 * its process's ID from NAME, its proof), then shuts its writing side;
 * 'ensemble run', once it has taken it, its proof, then its standard
 * input; the trampoline tries the next address, and the list again a few
 * times, while none takes it and proves to be 'ensemble run'; --watch: the run's deadlock watch (THE WATCH, below); DIR the
 * component's working directory; then the COUNT environment
 * entries it sets, the executable and its arguments (trampoline/tramp.c).
 *
 * The bundle, as 'ensemble run' writes it to FILE or to mpirun's standard
 * input (which Open MPI forwards to ROOT alone): WIRE_BUNDLE_MAGIC and the count
 * of processes as 32-bit integers, the length of the rest as a 64-bit
 * one, then per process in rank order a 32-bit length and its table.  The
 * trampoline puts the whole bundle in a memory file whose descriptor it
 * names in WIRE_ENV_TABLES; in ens_init, ROOT reads it and scatters the
 * tables over the world, before anything else communicates.
 *
 * A port table is a sequence of 32-bit integers and strings (a 32-bit
 * length, then the bytes, no NUL), in the order of struct wire_table:
 *   WIRE_MAGIC, rank, nprocs, flags (WIRE_CHECK_PROTOCOL, WIRE_TRACE),
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
 *   ngroups, then per group the process is in (a collective may run over
 *     it: 'over G' in the script, pcg(5)), in the script's order of groups
 *     (pcg->groups): its number in that order (id), name, indexed (0/1),
 *     index (0 when not indexed), the process's rank in it, its size,
 *     nruns, then per run of its members (world ranks, in the group's rank
 *     order): first rank, count, step (the ranks first, first + step, ...;
 *     a column of a grid is one run) -- ens_init makes each group's
 *     communicator in this order, so that groups that overlap cannot wait
 *     for each other;
 *   ngnames, then the distinct names of the script's groups that are not
 *     a component's (for messages: a group the process is not in is told
 *     from one the script does not have);
 *   behaviour, nlocs, then each statement's location ("file:line:col",
 *     the file any bytes; "-" unknown; monitor.h): the behaviour empty and
 *     no locations unless WIRE_CHECK_PROTOCOL;
 *   when WIRE_TRACE: the trace's origin, "SECONDS.NANOSECONDS" of the
 *     realtime clock of 'ensemble run' just before it started mpirun, and
 *     the directory where the process writes its part of the trace: the
 *     file RANK, written as RANK.part and renamed when complete: "host
 *     HOSTNAME\n", then event lines (runtime/traceline.h) in the order the
 *     process started them.
 *
 * The relay ('ensemble run' always asks for it): the component's stdout
 * and stderr are pipes the trampoline reads; it writes each line of them
 * on its own stdout and stderr as a line of its own, WIRE_PIECE_LINE and
 * the line's bytes escaped (wire_escape: '%', '[', NUL and newline as %XX,
 * so that none can be taken for a tag of Open MPI's, "[J,R]<stderr>:",
 * which mpirun puts before every line and before every piece it read,
 * even in the middle of a line); a line longer than WIRE_PIECE bytes in
 * pieces of WIRE_PIECE, each but the last WIRE_PIECE_PART; what is left
 * without a newline when the component ends, WIRE_PIECE_PART.  So every
 * side keeps at most a piece of a line.  libensemble writes its marker
 * lines on the descriptor WIRE_ENV_MARKS names, a third pipe the
 * trampoline reads: it writes each (cut at WIRE_MARK_MAX) on its stderr
 * as WIRE_MARK, the run's SECRET, a space and the marker's text.
 * 'ensemble run' takes a marker only so, on stderr; any other line of a
 * process's (Open MPI's "<stddiag>" ones, a trampoline's message before
 * it relays) is shown as it is.
 *
 * Marker lines: a process of the run writes lines beginning with WIRE_MARK
 * (on WIRE_ENV_MARKS, else stderr; the trampoline's own on its stderr,
 * after WIRE_MARK the SECRET and a space under --relay); Open MPI
 * forwards them, tagged with the writer's rank, to 'ensemble run', which
 * consumes them and never shows them (each word is a WIRE_WORD_* below,
 * read by wire_mark_parse):
 *   component: "init"           it entered ens_init (before MPI_Init;
 *                               only when WIRE_ENV is set, so that a
 *                               program run by hand prints no marker);
 *              "hello HOST"     ens_init set its interface: it joined;
 *              "fail MESSAGE"   it is about to MPI_Abort for MESSAGE
                               ("WHO: CALL: WHAT", WHO its name, or
                               WIRE_FAIL_NOBODY before ens_init knows
                               it; its last: the trampoline, once it
                               passed it on, closes the markers' pipe,
                               which ens_fail waits for, so that a
                               launcher that kills the trampoline at
                               the abort, hydra, loses nothing);
 *              "world SIZE"     its MPI world has SIZE processes, not
 *                               the plan's WIRE_ENV_WORLD (the
 *                               launcher's PMI does not suit the MPI):
 *                               it stops, exit 2;
 *              "signal N"       it received fatal signal N;
 *              "exit"           it exited without calling ens_finalize;
 *              "finalize"       it entered ens_finalize;
 *              "state CALL [TYPE PORT] @SEQ +NS" / "state -" /
 *              "state finalize" where it is, on SIGUSR1 (--timeout, and
 *                               once a process finalized): SEQ numbers
 *                               its calls, mod 2^30, NS is how long the
 *                               process has run on a processor; a
 *                               collective over a group has the group
 *                               instead of TYPE PORT ("state
 *                               ens_allreduce_over rows[2] @7 +81200345");
 *              "blocked SLOT"   the trampoline's watch of its component
 *                               on a host 'ensemble run' is not on (THE
 *                               WATCH, below): it has been in one call
 *                               for WIRE_WATCH_PERIOD, using the
 *                               processor, and waits there as the slot
 *                               says (wire_slot_put's text);
 *              "unblocked GEN"  it left the call of slot gen GEN;
 *   trampoline (ensemble-exec, trampoline/tramp.c, started in each
 *              component's place, which forks it and waits):
 *              "start HOST"     it runs on HOST (before the component);
 *              "end HOST exit N" / "end HOST signal N"
 *                               how the component ended, joined or not;
 *              "cannot HOST MESSAGE"
 *                               it could not start the component
 *                               (MESSAGE says why). */
#ifndef ENS_WIRE_H
#define ENS_WIRE_H

#include <stddef.h>
#include <stdint.h>
/*
 * THE WATCH.  Every process says, with stores alone, which call it is in
 * and whom that call waits for, in a slot of shared memory that a watcher
 * on its host reads every WIRE_WATCH_PERIOD, so that 'ensemble run' can
 * name a deadlock while it happens (loader/watch.c).  On the host of
 * 'ensemble run' the slots are in one memory file of its own, which each
 * trampoline there opens as /proc/PID/fd/FD (its token --watch
 * PID:FD:HOST: 'ensemble run''s process, the file's descriptor and its
 * host) after checking the host and the run's secret in the file's head;
 * 'ensemble run' reads them.  On any other host each trampoline makes a
 * memory file of one slot for its component, reads it itself and sends
 * what it sees as marker lines ("blocked", "unblocked" above).  The
 * component finds the file's descriptor in WIRE_ENV_WATCH and maps it in
 * ens_init: slot r is process r's, slot 0 when the file has one.
 *
 * The file: a head of WIRE_SLOT_SIZE bytes (struct wire_watch_head), then
 * nslots slots of WIRE_SLOT_SIZE bytes (each on cache lines of its own,
 * so that processes never write the same line).  A slot is a sequence
 * lock: the process makes gen odd, writes the fields of the call it
 * enters, and makes gen even again, 2 more than before (a fence between,
 * on machines that reorder stores); leaving the call is the one store of
 * call = WC_NONE.  A reader takes gen, the fields, gen again: the same
 * even gen both times is a consistent view, and the same gen with call
 * not WC_NONE at two readings means the process was in that call all the
 * time between.  A process killed while it writes leaves gen odd: the
 * slot says nothing more (no torn view).
 */
#define WIRE_WATCH_MAGIC	0x454e5357	/* "ENSW" */
#define WIRE_SLOT_SIZE		128
#define WIRE_WATCH_PEERS	12	/* peers a slot names; more: WAIT_NONE */
#define WIRE_WATCH_PERIOD	0.5	/* seconds between readings */
#define WIRE_WATCH_CPU		1000000ULL	/* ns a process runs between two
					 * readings that say it is blocked */
/* In the component: "FD" of the watch's memory file (none: no watch). */
#define WIRE_ENV_WATCH		"ENSEMBLE_WATCH"

/* The calls a slot names, libensemble's and the raw MPI calls its PMPI
 * layer sees (wire_call_name gives their names, which the "state" marker
 * lines use too). */
enum wire_call {
	WC_NONE, WC_INIT, WC_FINALIZE, WC_PORTS, WC_PORT, WC_SELF, WC_PARAM,
	WC_SEND, WC_SSEND, WC_BSEND, WC_RECV, WC_RECV_ANY, WC_ISEND, WC_IRECV,
	WC_WAITALL, WC_BARRIER, WC_BCAST, WC_REDUCE, WC_ALLREDUCE, WC_GATHER,
	WC_ALLGATHER, WC_ISSEND, WC_IBSEND, WC_IRECV_ANY, WC_SCATTER,
	WC_ALLTOALL, WC_RECV_STATUS, WC_RECV_ANY_STATUS, WC_WAITALL_STATUS,
	WC_PORT_OF, WC_COMM_COMPONENT, WC_ALLGATHERV, WC_GATHERV, WC_SCATTERV,
	WC_ALLTOALLV, WC_REDUCE_SCATTER, WC_COMM_GROUP, WC_BARRIER_OVER,
	WC_BCAST_OVER, WC_REDUCE_OVER, WC_ALLREDUCE_OVER, WC_GATHER_OVER,
	WC_ALLGATHER_OVER, WC_SCATTER_OVER, WC_ALLTOALL_OVER,
	WC_ALLGATHERV_OVER, WC_GATHERV_OVER, WC_SCATTERV_OVER,
	WC_ALLTOALLV_OVER, WC_REDUCE_SCATTER_OVER, WC_SENDRECV,
	WC_SENDRECV_REPLACE, WC_WAIT, WC_TEST, WC_WAITANY, WC_WAITSOME,
	WC_PROBE, WC_PROBE_ANY, WC_IPROBE, WC_IPROBE_ANY,
	/* raw MPI */
	WC_MPI_SEND, WC_MPI_SSEND, WC_MPI_BSEND, WC_MPI_RSEND, WC_MPI_RECV,
	WC_MPI_SENDRECV, WC_MPI_SENDRECV_REPLACE, WC_MPI_WAIT, WC_MPI_WAITALL,
	WC_MPI_WAITANY, WC_MPI_WAITSOME, WC_MPI_PROBE, WC_MPI_BARRIER,
	WC_MPI_BCAST, WC_MPI_REDUCE, WC_MPI_ALLREDUCE, WC_MPI_GATHER,
	WC_MPI_GATHERV, WC_MPI_SCATTER, WC_MPI_SCATTERV, WC_MPI_ALLGATHER,
	WC_MPI_ALLGATHERV, WC_MPI_ALLTOALL, WC_MPI_ALLTOALLV,
	WC_MPI_REDUCE_SCATTER,
	WC_COUNT
};

/* What the call a slot names waits for. */
enum wire_wait {
	WIRE_WAIT_NONE,		/* nobody the watch knows: a call that does
				 * not block, or one it cannot follow (never
				 * part of a deadlock) */
	WIRE_WAIT_ALL,		/* every process in peers (a blocking send,
				 * receive or probe; sendrecv; a wait for
				 * requests) */
	WIRE_WAIT_ANY,		/* any of them (waitany, waitsome) */
	WIRE_WAIT_PORTS,	/* any process at the other end of a port of
				 * type 'type' (-1: of any type): recv any,
				 * probe any */
	WIRE_WAIT_COLL,		/* the members of comm not in its ncoll-th
				 * collective (counted from 0) */
	WIRE_WAIT_END		/* nobody: it ends (ens_finalize), sending
				 * and receiving nothing more */
};

/* The communicators of a collective (slot.comm). */
#define WIRE_COMM_APP		0	/* the application: ens_* without
					 * 'over', and the ports' (ens_port) */
#define WIRE_COMM_WORLD		1	/* MPI_COMM_WORLD, raw */
#define WIRE_COMM_COMP		2	/* the process's component's */
#define WIRE_COMM_GROUP		3	/* + the group's id (wire_group) */

/* The head of the watch's memory file. */
struct wire_watch_head {
	uint32_t	magic;		/* WIRE_WATCH_MAGIC */
	uint32_t	nslots;
	char		secret[40];	/* the run's, NUL-terminated */
};

/* A process's slot: what its call waits for. */
struct wire_slot {
	uint32_t	gen;		/* the sequence lock (above) */
	int32_t		pid;		/* the process's, once it mapped it */
	int32_t		call;		/* enum wire_call; WC_NONE: in none */
	int32_t		wait;		/* enum wire_wait */
	int32_t		type, port;	/* the port: its type's index in the
					 * table, its index (1..); -1 none */
	int32_t		loc;		/* the behaviour's statement it is
					 * at (its index in the locations,
					 * monitor.h); -1 not known */
	int32_t		comm;		/* WAIT_COLL: WIRE_COMM_* */
	uint32_t	ncoll;		/* WAIT_COLL: collectives on comm
					 * before this one */
	int32_t		root;		/* WAIT_COLL: a rooted one's root (world
					 * rank); -1 */
	int32_t		npeers;		/* WAIT_ALL, WAIT_ANY */
	uint32_t	sends, recvs;	/* bit k: it waits to send to peers[k],
					 * to receive from it (both: a
					 * sendrecv; neither: not known) */
	int32_t		peers[WIRE_WATCH_PEERS];	/* world ranks */
	char		pad[WIRE_SLOT_SIZE - 13 * 4 - WIRE_WATCH_PEERS * 4];
};


#define WIRE_MAGIC		0x454e5334	/* "ENS4": with groups */
#define WIRE_BUNDLE_MAGIC	0x454e5342	/* "ENSB" */
#define WIRE_BUNDLE_HEAD	16		/* magic, count, length */
#define WIRE_CHECK_PROTOCOL	0x1
#define WIRE_TRACE		0x2

/* The longest appfile line 'ensemble run' writes: Open MPI 4.1 reads a
 * line into a buffer of BUFSIZ (8192) bytes, less its own prefix, and
 * takes the rest of a longer one as another line. */
#define WIRE_LINE_MAX		8000

#define WIRE_MARK		"@ensemble@ "

/* The marker lines' first words (the list above): writers join them as
 * literals (a signal handler's WIRE_MARK WIRE_WORD_EXIT "\n"), and
 * wire_mark_parse reads them, so that each is written once. */
#define WIRE_WORD_INIT		"init"
#define WIRE_WORD_HELLO		"hello"
#define WIRE_WORD_FAIL		"fail"
#define WIRE_FAIL_NOBODY	"ensemble"	/* "fail"'s WHO, its name not
						 * known yet */
#define WIRE_WORD_SIGNAL	"signal"	/* also in "end HOST signal N" */
#define WIRE_WORD_EXIT		"exit"		/* also in "end HOST exit N" */
#define WIRE_WORD_FINALIZE	"finalize"	/* also in "state finalize" */
#define WIRE_WORD_STATE		"state"
#define WIRE_WORD_START		"start"
#define WIRE_WORD_END		"end"
#define WIRE_WORD_CANNOT	"cannot"
#define WIRE_WORD_BLOCKED	"blocked"
#define WIRE_WORD_UNBLOCKED	"unblocked"
#define WIRE_WORD_WORLD		"world"		/* "world SIZE": not the plan's */

/* The trampoline's flags (ensemble-exec's command line, a process's line
 * of the appfile or the plan): written by loader/plan.c and
 * loader/launcher.c, read by trampoline/tramp.c. */
#define WIRE_FLAG_RELAY		"--relay"	/* its output relayed */
#define WIRE_FLAG_TABLES	"--tables"	/* the tables on its stdin */
#define WIRE_FLAG_TABLES_FILE	"--tables-file"	/* FILE: the tables there */
#define WIRE_FLAG_STDIN		"--stdin"	/* it keeps the run's stdin */
#define WIRE_FLAG_STDIN_NET	"--stdin-net"	/* ADDRESSES: --stdin all's */
#define WIRE_FLAG_WATCH		"--watch"	/* PID:FD:HOST: the watch's */
#define WIRE_FLAG_WDIR		"--wdir"	/* DIR: its working directory */
#define WIRE_FLAG_PLAN		"--plan"	/* PLAN: its line at its rank */
#define WIRE_FLAG_PLAN_NET	"--plan-net"	/* ADDRESSES: the same, dealt */

/* A marker line, by its first word. */
enum wire_mark {
	WIRE_MARK_INIT,
	WIRE_MARK_HELLO,
	WIRE_MARK_FAIL,
	WIRE_MARK_SIGNAL,
	WIRE_MARK_EXIT,
	WIRE_MARK_FINALIZE,
	WIRE_MARK_STATE,
	WIRE_MARK_START,
	WIRE_MARK_END,
	WIRE_MARK_CANNOT,
	WIRE_MARK_BLOCKED,
	WIRE_MARK_UNBLOCKED,
	WIRE_MARK_WORLD,
	WIRE_MARK_UNKNOWN
};

/* The environment variable the trampoline sets to "1" in the component it
 * starts: its stderr goes to 'ensemble run', which reads the component's
 * marker lines.  "init" needs it to be known: the answer to SIGUSR1
 * cannot carry that fact, since the same SIGUSR1 kills the processes that
 * never called ens_init, and Open MPI then stops the others with SIGTERM,
 * which can come before they had the processor to answer. */
#define WIRE_ENV		"ENSEMBLE_EXEC"
/* The world rank of the process that holds the tables, in every process. */
#define WIRE_ENV_ROOT		"ENSEMBLE_ROOT"
/* With 'ensemble-exec --plan': the processes the plan has, which
 * ens_init holds the world's size to (a launcher whose PMI does not suit
 * the MPI starts each process as a world of its own: "world SIZE"). */
#define WIRE_ENV_WORLD		"ENSEMBLE_WORLD"
/* In that process: the descriptor of the memory file with the bundle. */
#define WIRE_ENV_TABLES		"ENSEMBLE_TABLES"
/* Under --relay: the descriptor libensemble writes its marker lines on
 * (else it writes them on stderr). */
#define WIRE_ENV_MARKS		"ENSEMBLE_MARKS"
/* In the trampoline's environment, from the appfile: the run's secret
 * (--relay), and the key of the --stdin-net handshake (above). */
#define WIRE_ENV_SECRET		"ENSEMBLE_SECRET"
#define WIRE_ENV_STDIN_KEY	"ENSEMBLE_STDIN_KEY"
/* With 'ensemble-exec --plan-net': the key of its handshake (above). */
#define WIRE_ENV_PLAN_KEY	"ENSEMBLE_PLAN_KEY"

/* Under --relay, the most bytes of the component's output in one piece,
 * and the longest marker line the trampoline passes on (cut there). */
#define WIRE_PIECE		4096
#define WIRE_MARK_MAX		65536
#define WIRE_PIECE_LINE		'='	/* a piece that ends a line */
#define WIRE_PIECE_PART		'+'	/* a piece the next one continues */

/* A growing byte buffer being written. */
struct wire_buf {
	char	*p;
	size_t	 len, cap;
};

/* A buffer being read: 'bad' is set once it was short or malformed. */
struct wire_in {
	const char	*p;
	size_t		 len, off;
	int		 bad;
};

struct wire_port {
	int32_t	 rank;		/* the peer's; -1: not connected */
	int32_t	 tag;		/* sending */
	int32_t	 rtag;		/* receiving */
};

struct wire_type {
	char			*name;
	int32_t			 n;
	struct wire_port	*ports;
};

/* A run of processes of one component with consecutive ranks and indices. */
struct wire_run {
	char	*comp;
	int32_t	 indexed;
	int32_t	 rank, index, count;
};

/* A run of a group's members: the world ranks first, first + step, ...,
 * count of them. */
struct wire_grun {
	int32_t	 first, count, step;
};

/* A group the process is in. */
struct wire_group {
	int32_t			 id;		/* in the script's order */
	char			*name;
	int32_t			 indexed, index;
	int32_t			 rank, size;	/* the process's rank; members */
	int32_t			 nruns;
	struct wire_grun	*runs;
};

/* A process's port table, in the order it travels. */
struct wire_table {
	int32_t			 rank, nprocs, flags;
	char			*name, *component;
	int32_t			 indexed, index;
	int32_t			 ntypes;
	struct wire_type	*types;
	int32_t			 nparams;
	char			**pnames, **pvalues;
	int32_t			 nargs;
	char			**args;
	int32_t			 nruns;
	struct wire_run		*runs;
	int32_t			 ngroups;
	struct wire_group	*groups;
	int32_t			 ngnames;
	char			**gnames;
	char			*behaviour;
	int32_t			 nlocs;
	char			**locs;
	char			*origin;	/* WIRE_TRACE */
	char			*tracedir;	/* WIRE_TRACE */
};

/* Append an integer, a 64-bit one, a string (NULL as empty), bytes; -1
 * when out of memory (the buffer as it was). */
int wire_put_int(struct wire_buf *, int32_t);
int wire_put_int64(struct wire_buf *, uint64_t);
int wire_put_str(struct wire_buf *, const char *);
int wire_put_bytes(struct wire_buf *, const void *, size_t);
/* The next integer (0 once bad), and a new NUL-terminated copy of the next
 * string (caller frees; NULL once bad or out of memory, 'bad' set). */
int32_t wire_get_int(struct wire_in *);
uint64_t wire_get_int64(struct wire_in *);
char *wire_get_str(struct wire_in *);

/* Append t as a port table; -1 when out of memory. */
int wire_table_put(struct wire_buf *, const struct wire_table *t);
/* Read a port table of len bytes into *t, which it owns then (free it
 * with wire_table_clear, also after a failure): 0, or -1 when it is
 * malformed or memory ran out. */
int wire_table_get(struct wire_table *t, const char *p, size_t len);
void wire_table_clear(struct wire_table *);

/* Append the bundle of n tables, tables[i] process i's; -1 when out of
 * memory. */
int wire_bundle_put(struct wire_buf *, const struct wire_buf *tables, int n);
/* The length of a bundle's rest from its first WIRE_BUNDLE_HEAD bytes, or
 * -1 when they are not a bundle's. */
int64_t wire_bundle_rest(const char *head);
/* Where each of the n tables is in a bundle of len bytes: offs[i] and
 * lens[i] (bytes from the start).  0, or -1 when it is malformed or does
 * not hold n tables. */
int wire_bundle_split(const char *p, size_t len, int n, int *offs, int *lens);

/* Which marker the text m is (what follows WIRE_MARK and, under --relay,
 * the secret and a space): *arg is what follows its word and a space,
 * the end of m for the words without one ("init", "exit", "finalize",
 * which must be the whole text).  WIRE_MARK_UNKNOWN for any other text, a word that
 * needs an argument without one among them. */
enum wire_mark wire_mark_parse(const char *m, const char **arg);

/* An "end" marker's argument, "HOST exit N" or "HOST signal N" (as the
 * trampoline writes it: wire_end_put): the length of HOST into *hostlen,
 * and WIRE_MARK_EXIT with the exit status in *n, WIRE_MARK_SIGNAL with
 * the signal, or WIRE_MARK_UNKNOWN (*n 0) for a host alone or any other
 * text after it. */
enum wire_mark wire_end_parse(const char *arg, size_t *hostlen, int *n);

/* Write "HOST exit N" (signal 0) or "HOST signal N" (N the signal) into
 * out (size bytes, cut short if it must be): an "end" marker's argument.
 * The length it has, as snprintf's. */
int wire_end_put(char *out, size_t size, const char *host, int exit_status,
    int signal);

/* The name of a call (enum wire_call: "ens_send", "MPI_Recv"), "-" for
 * WC_NONE and any number that is not one. */
const char *wire_call_name(int call);
/* The collective a call is, the same for every call of one (ens_allreduce,
 * ens_allreduce_over, MPI_Allreduce: WC_ALLREDUCE); WC_NONE for a call
 * that is none. */
int wire_call_coll(int call);
/* Whether a call waits to send (a blocking send, an ssend, a bsend): an
 * unmatched send when its receiver ended, not an orphan receive. */
int wire_call_sends(int call);
/* Read the slot at v, which its process may be writing, into *s: 0, or
 * -1 when no consistent view came in a few tries (it is being written, or
 * its writer died writing it). */
int wire_slot_read(const volatile struct wire_slot *v, struct wire_slot *s);
/* Whether two readings of a process's slot, 'before' and 'now', with the
 * time its main thread had run then (ns; 0: not known), say it is blocked:
 * in one call all the time between (the same gen, in a call) and polling
 * for what it waits for (it ran WIRE_WATCH_CPU between). */
int wire_slot_blocked(const struct wire_slot *before,
    unsigned long long ran_before, const struct wire_slot *now,
    unsigned long long ran_now);
/* Append slot s as the text of a "blocked" marker: its fields as decimal
 * numbers, space-separated, in struct wire_slot's order but pid (gen call
 * wait type port loc comm ncoll root npeers sends recvs peer...); -1 when
 * out of memory. */
int wire_slot_put(struct wire_buf *, const struct wire_slot *s);
/* Read that text into *s (pid 0): 0, or -1 when it is malformed (a
 * number missing, out of range or left over; npeers past
 * WIRE_WATCH_PEERS). */
int wire_slot_get(const char *text, struct wire_slot *s);

/* Escape n bytes of s into out, which has room for 3 * n: '%', '[', NUL
 * and newline as '%' and two upper-case hex digits, every other byte as it
 * is.  The length written. */
size_t wire_escape(char *out, const char *s, size_t n);
/* Undo wire_escape on n bytes of s, in place: the length left (a '%'
 * without two hex digits is kept as it is). */
size_t wire_unescape(char *s, size_t n);

/* Append s as an appfile token (above); -1 when out of memory. */
int wire_token_put(struct wire_buf *, const char *s);
/* Decode a token: a new string (caller frees), or NULL when it is
 * malformed (a '%' without two hex digits, a "%00" in a longer token) or
 * memory ran out. */
char *wire_token_get(const char *tok);

#endif
