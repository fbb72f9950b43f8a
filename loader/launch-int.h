/* launch-int.h -- private to 'ensemble run''s side of a run, which these
 * files share: launch.c (the watch: the run from start to end, our
 * standard input, the stopping of the processes, the trace), fit.c (the
 * check that the processes fit), runfiles.c (the run's files),
 * launcher.c and the launchers' files (the command that starts them),
 * demux.c (the launcher's output taken apart), failure.c (the failure
 * reports) and watch.c (the deadlock watch).  The run's state, and what each
 * file gives the others; launch.h is what the rest of ensemble sees. */
#ifndef ENS_LAUNCH_INT_H
#define ENS_LAUNCH_INT_H

#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <sys/types.h>
#include <unistd.h>

#include "alloc.h"
#include "auth.h"
#include "clock.h"
#include "fan.h"
#include "launch.h"
#include "plan.h"
#include "subproc.h"
#include "tidy.h"
#include "wire.h"
#include "xmalloc.h"

#define TAIL_LINES	10
#define STOP_GRACE	4.0	/* seconds from a failure to SIGTERM */
#define KILL_GRACE	3.0	/* from SIGTERM to SIGKILL */
#define STATE_WAIT	2.0	/* for the answers to SIGUSR1 */
#define ORPHAN_GRACE	2.0	/* from the last process's end to stopping strays */
#define DRAIN_GRACE	0.05	/* from mpirun having read all its stdin to
				 * its end (launch_stdin_drained) */
#define DRAIN_POLL	0.01	/* how often to look until then: first, */
#define DRAIN_POLL_MOST	1.0	/* ... doubling up to this */
#define OUT_OPEN_MAX	256	/* --output-dir: files kept open at once */
#define FINAL_ASK	1.0	/* from a process's ens_finalize, the run going
				 * on, to asking where the others are */
#define FINAL_ASK_EVERY	1.0	/* ... and again, while it goes on, twice as
				 * long each time up to FINAL_ASK_MOST */
#define FINAL_ASK_MOST	60.0
#define PART_MAX	(4 * WIRE_MARK_MAX)	/* a frame line kept whole:
				 * longer is passed on as it is, cut */
#define MLINE_MAX	65536	/* of one of mpirun's own lines, kept */
#define TAIL_LINE_MAX	1024	/* of a line of the failure report's tail */
#define OUTQ_SOFT	(256 * 1024)	/* queued for our stdout or stderr:
				 * mpirun's is not read while more is */
#define OUTQ_MAX	(4 * 1024 * 1024)	/* more is dropped */
#define OUT_GRACE	2.0	/* at the end, for our readers to take it */

/* A process blocked for good, as the watch found it (watch.c). */
struct wdead {
	int		 proc;
	struct wire_slot slot;		/* its call, and what it waits for */
	int		*waits;		/* the processes it waits for */
	int		 nwaits;
	int		 any;		/* for any one of them, not all */
};

struct watch;

/* A process of the application as the run sees it. */
struct rproc {
	char		 name[PCG_NAME_MAX];
	const char	*component;
	char		*host;		/* from its trampoline, then its hello */
	int		 hello;		/* ens_init returned: it joined */
	int		 entered;	/* its "init": it called ens_init */
	char		*fail;		/* its fail marker's message */
	int		 signal;
	int		 exited_early;	/* without ens_finalize */
	int		 finalized;	/* it called ens_finalize */
	int		 exit_code;	/* from mpirun or its end; -1 unknown */
	int		 ended;		/* the trampoline said how it ended */
	char		*cannot;	/* why it could not be started */
	char		*state;		/* its answer to SIGUSR1 */
	char		*forgood;	/* why it is blocked for good: its peer
					 * on the port it waits on finalized */
	int		 tramp_signal;	/* its trampoline was killed by this
					 * signal, saying nothing: 0 none */
	long		 seq, seq_before;	/* the call of its last answer
					 * and of the one before; -1: none */
	unsigned long long ran, ran_before;	/* how long it had run then
					 * (ns); 0: not said */
	char		*tail[TAIL_LINES];
	char		 shown[TAIL_LINES]; /* that line is on our stderr */
	int		 ntail;		/* lines seen */
	struct buf	 tline;		/* the stderr line being read, for tail */
	struct buf	 part[3];	/* a frame line in pieces, as mpirun cut
					 * it: stdout, stderr, stddiag */
	int		 raw[3];	/* part was too long: passed on as it is */
	int		 open[2];	/* a line of its stdout, stderr is open
					 * on ours (--tag-output: no name) */
	FILE		*file[2];	/* --output-dir: NAME.out, NAME.err */
	dev_t		 fdev[2];	/* ... the files made for it */
	ino_t		 fino[2];
};

/* Reading one of mpirun's pipes: where the bytes that come belong. */
enum rd_seg {
	SEG_START,		/* a line begins: a tag, or mpirun's own */
	SEG_MPIRUN,		/* mpirun's own line */
	SEG_PROC,		/* a process's, after a tag */
};

struct rd {
	enum rd_seg	 seg;
	int		 rank, err;	/* SEG_PROC: whose, and which stream */
	struct buf	 acc;		/* read, not yet taken (a tag in part) */
	struct buf	 mline;		/* SEG_MPIRUN: the line so far */
};

/* What waits to be written on our stdout or stderr (launch_pump writes it
 * when ppoll says there is room, so that a reader that takes nothing
 * never stops the watch). */
struct outq {
	int		 fd;
	char		*p;
	size_t		 off, len, cap;
	int		 piped;		/* not a file: PIPE_BUF at a time */
	int		 dead;		/* a write failed: drop the rest */
	int		 err;		/* ... with this errno */
	unsigned long long dropped;	/* bytes */
	int		 open_r, open_err;	/* the process, and its stream,
					 * whose line is open at the end of
					 * what is queued; -1: none */
	int		 last;		/* the last byte written; -1: none */
};

/* How far the stopping of the run has gone (launch_escalate).  A failure, an
 * interrupt, --timeout or the start watchdog starts it; each phase up to
 * RUN_KILLED is entered by sending mpirun one signal, which it forwards to
 * the processes it started.  Once mpirun has exited, whatever the phase,
 * only its pipes are read. */
enum run_phase {
	RUN_RUNNING,		/* no signal sent */
	RUN_ASKED,		/* SIGUSR1 sent, waiting for the answers */
	RUN_TERMINATED,		/* SIGTERM sent */
	RUN_KILLED,		/* SIGKILL sent */
	RUN_EXITED,		/* mpirun reaped; reading what is left in its pipes */
};

struct run {
	const struct pcg	*g;
	const struct launch_opts *o;
	const struct launcher	*L;		/* launcher_pick */
	char			*prog;		/* ... its program, absolute */
	struct subproc		*asked;		/* ... its question (ask), or
						 * NULL; why not in asked_why */
	char			*asked_why;
	struct rproc		*p;
	int			 n;
	int			 ninit, nhello, nended;	/* processes that did */
	double			 inited_at, joined_at, ended_at;	/* all of them */
	int			 done;		/* every process ended */
	char			**mlines;	/* mpirun's own lines */
	size_t			 nmlines, amlines;
	int			 culprit;	/* the first process that failed */
	int			 world;		/* the size of the MPI world a
						 * process found, not the run's
						 * ("world" marker); 0: none */
	int			 exit_proc;	/* mpirun's "Process name" */
	int			 sig_rank, sig_num;
	double			 fail_at;	/* when a failure was first seen */
	double			 final_at;	/* a process's ens_finalize, first */
	double			 final_asked;	/* when the others were last asked
						 * where they are, since */
	double			 final_every;	/* the wait before the next time */
	int			 timed_out;	/* --timeout: SIGUSR1 sent */
	int			 out_failed;	/* --output-dir: a file failed */
	int			 outdir;	/* ... the directory; -1 */
	int			 nopen;		/* files open in it */
	double			 start_timeout;	/* the start watchdog's seconds */
	int			 stuck;		/* it fired */
	int			 stuck_asked;	/* ... and SIGUSR1 was sent for it */
	struct alloc		 alloc;		/* the slots (fit_check) */
	const struct alloc_host	**placed;	/* per process, its host in them;
						 * NULL: not placed, or this
						 * machine alone */
	int			 nplaced;	/* processes placed */

	/* The watch for deadlocks (watch.c): NULL without it; the
	 * processes blocked for good once it found them (stopped then, exit
	 * 4), and which processes had ended then. */
	struct watch		*watch;
	struct wdead		*dead;
	int			 ndead;
	double			 dead_at;
	unsigned char		*ended_mask;

	/* What mpirun's standard input carries: the bundle of port tables,
	 * then with --stdin ours (launch_stdin_relayed: through rbuf). */
	struct wire_buf		 bundle;
	size_t			 sent;
	int			 in_eof;	/* our stdin ended */
	double			 drained_at;	/* when mpirun had read all of
						 * it (0: not yet; launch_stdin_drained) */
	double			 drain_next;	/* when to look again */
	double			 drain_wait;	/* the wait before that */
	char			 rbuf[65536];
	size_t			 rlen, roff;	/* rbuf holds [roff, rlen) */

	/* Where the run keeps its files: the appfile, and on this machine
	 * Open MPI's session directory; Open MPI's shared-memory segments
	 * (shmdir, this machine only); --trace: the parts.  All removed by
	 * tidy, even when run dies. */
	char			*workdir, *appfile;
	char			*shmdir;
	char			*tracedir;
	struct tidy		 tidy;
	char			 origin[64];	/* --trace: "S.N" */

	/* mpirun, and the watch over it. */
	pid_t			 pid;
	int			 wstatus;	/* its wait status, once RUN_EXITED */
	double			 t0;		/* when it was started */
	enum run_phase		 phase;
	double			 phase_at;	/* when the phase began */
	double			 swept_at;	/* the last stop of strays */
	struct pollfd		*pfd;		/* its stdout, stderr; its stdin;
						 * --stdin: ours; our stdout,
						 * stderr (out_write); then
						 * the fan's */
	struct fan		*fan;		/* launch_stdin_fanned; NULL */
	char			*fan_addrs;	/* its --stdin-net */
	struct fan		*deal;		/* each process's plan line (and
						 * the root's tables) over TCP,
						 * no file of the run's on its
						 * host (--plan-net); NULL */
	char			*deal_addrs;	/* ... its addresses */
	struct rd		 rd[2];		/* reading its stdout, stderr */
	struct outq		 oq[2];		/* to our stdout, stderr */
	int			 oq_same;	/* both one file or pipe: all
						 * goes through oq[0] (demux_q) */
	char			 secret[AUTH_KEY + 1];	/* the run's, in the
						 * trampolines' markers (trampoline/) */
	char			 stdin_key[AUTH_KEY + 1];	/* the fan's
						 * handshake's (auth.h) */
	char			 deal_key[AUTH_KEY + 1];	/* --plan-net's */
	int			 handling;	/* SIGINT, SIGTERM, SIGHUP are ours */
	int			 chld;		/* ... and SIGCHLD, blocked */
	struct sigaction	 old_int, old_term, old_hup, old_chld;
	sigset_t		 old_mask;
};

/* The command line a launcher builds (launcher_arg): argv, and what of
 * it was allocated, freed with it (launcher_argv_free). */
struct launcher_argv {
	char		**v;
	size_t		  n, cap;
	char		**owned;
	size_t		  nowned, aowned;
};

/* A launcher: what starts the processes as one MPI job, and all that is
 * its own (launcher.c picks one; a file each: launch-openmpi.c, ...).
 * Nothing of one MPI's launcher is known outside its file. */
struct launcher {
	const char	*name;		/* --launcher's word: "openmpi" */
	const char	*title;		/* "Open MPI's mpirun" */
	const char	*who;		/* "Open MPI", in messages */
	const char	*cmd;		/* its program as messages name it:
					 * "mpirun" */
	const char	*apart;		/* why it may start the processes as
					 * worlds of their own, and what to do
					 * (launch_finish) */
	const char	*mpi;		/* the MPI whose processes it starts
					 * (configure's ENS_MPI); NULL: any */
	const struct plan_syntax *syntax;	/* its appfile's; NULL: Open
					 * MPI's (plan.h) */
	int		 stdin_tables;	/* its standard input reaches one
					 * process whole, however long: the
					 * port tables travel there when a host
					 * is not this machine (runfiles_make) */
	int		 stdin_fan;	/* --stdin of one process goes through
					 * ensemble's own fan (fan.h), as
					 * --stdin all does, not through its
					 * standard input (which reads
					 * /dev/null then): it gives its own to
					 * one rank alone, or loses part of it */
	int		 plan_net;	/* it starts 'ensemble-exec --plan'
					 * on hosts that may lack the run's
					 * files: when a host is not this
					 * machine, the plan is dealt over TCP
					 * (--plan-net, runfiles_make) */
	/* Whether the user's options, as it reads them, let processes
	 * share slots, and bind each to a core (fit_check). */
	int		(*oversubscribed)(const struct launch_opts *);
	int		(*binds_cores)(const struct launch_opts *);
	/* A question of its own to the system, started as soon as it is
	 * picked (launcher_pick) so that it runs while the run is made
	 * ready, its answer taken by files (R->asked); or NULL. */
	void		(*ask)(struct run *);
	/* The same question started before the run is verified, for
	 * launcher_ahead, of the launcher program prog; or NULL. */
	void		(*ahead)(const char *prog);
	/* Its own files in the run's directories (runfiles_make, after the
	 * run's directory is made): 0, or the exit status (said). */
	int		(*files)(struct run *);
	/* Its command line, program first, into a (empty before), and the
	 * environment it needs set in ours (just before it starts). */
	void		(*argv)(struct run *, struct launcher_argv *a);
	/* The tag it puts before a process's output at the n bytes of s,
	 * read on its stdout (pipe 0) or stderr (1): its length, with
	 * *rank and *err (0 stdout, 1 stderr, 2 its diagnostics) set; 0:
	 * not a tag; -1: the n bytes may be the start of one. */
	int		(*tag)(const char *s, size_t n, int pipe, int *rank,
			    int *err);
	/* One of its own lines (no tag): what it says of how processes
	 * ended, into the run's state. */
	void		(*own_line)(struct run *, const char *s);
	/* A launcher that is no program (hand.c): NULL, or what is made
	 * before the fork into *arg (0, or -1 said), what the child runs in
	 * place of the program (it does not return), and what the parent
	 * lets go after the fork. */
	int		(*before)(struct run *, void **arg);
	void		(*run)(struct run *, void *arg);
	void		(*after)(struct run *, void *arg);
};

extern const struct launcher launcher_openmpi, launcher_mpich, launcher_srun,
    launcher_spawn, launcher_hand;

/* launcher-openmpi.c: Open MPI's mpirun with its options and environment,
 * up to what it starts (launcher-spawn.c starts its hand there). */
void launcher_openmpi_head(struct run *R, struct launcher_argv *a);

/* launcher.c: the launcher and its program; its command line, started
 * with pipes for its standard streams and SIGCHLD caught. */
int launcher_pick(struct run *R);
char *launcher_setenv(const char *x);
void launcher_arg(struct launcher_argv *a, const char *s);
void launcher_arg_own(struct launcher_argv *a, char *s);
void launcher_argv_free(struct launcher_argv *a);
void launcher_plan_tail(struct run *R, struct launcher_argv *a,
    const char *count);
void launcher_plan_exec(struct run *R, struct launcher_argv *a);
int launcher_no(const struct launch_opts *o);
int launcher_oversubscribe(const struct launch_opts *o);
void launcher_no_line(struct run *R, const char *s);
int launcher_start(struct run *R);

/* What the files ask of the run's state (inline, so that each needs
 * nothing of launch.c for it). */

/* Where process p runs, as reports name it. */
static inline const char *
launch_host_of(const struct rproc *p)
{
	return p->host != NULL ? p->host : "unknown";
}

/* The run has failed, process who (-1: none of them) first if no one
 * was named before: the time of the first failure is kept. */
static inline void
launch_mark_failed(struct run *R, int who)
{
	if (R->fail_at == 0)
		R->fail_at = clock_now();
	if (R->culprit < 0 && who >= 0)
		R->culprit = who;
}

/* Close *fd if it is open, and mark it closed. */
static inline void
launch_close_fd(int *fd)
{
	if (*fd >= 0) {
		close(*fd);
		*fd = -1;
	}
}

/* Whether our standard input reaches the processes given it through
 * ensemble's own fan (fan.h): --stdin all, or --stdin of one process
 * with a launcher that cannot pass it on whole (its stdin_fan). */
static inline int
launch_stdin_fanned(const struct run *R)
{
	return R->o->stdin_proc == LAUNCH_STDIN_ALL ||
	    (R->o->stdin_proc >= 0 && R->L->stdin_fan);
}

/* Whether our standard input travels on the launcher's, after the port
 * tables, to the one process given it. */
static inline int
launch_stdin_relayed(const struct run *R)
{
	return R->o->stdin_proc >= 0 && !R->L->stdin_fan;
}

/* Whether every host the processes may run on is this machine. */
static inline int
launch_all_local(const struct run *R)
{
	int	i;

	for (i = 0; R->alloc.kind != ALLOC_LOCAL && i < R->alloc.nhosts; i++)
		if (!R->alloc.hosts[i].local)
			return 0;
	return 1;
}

/* launch.c: our SIGINT, SIGTERM and SIGHUP caught while the run goes on. */
extern volatile sig_atomic_t launch_interrupted;	/* the signal that stopped us */
void launch_catch(struct run *R);

/* fit.c: the check that the processes fit the slots they are given. */
int fit_check(struct run *R);

/* runfiles.c: the run's files. */
int runfiles_make(struct run *R);

/* demux.c: mpirun's output taken apart: tags, marker lines, each
 * process's output (to our stdout, stderr or --output-dir) and mpirun's own
 * lines. */
struct outq *demux_q(struct run *R, int err);
char *demux_out_path(const struct run *R, int r, int err);
void demux_out_close(struct run *R, int r, int err);
size_t demux_outq_pending(const struct outq *q);
void demux_outq_write(struct outq *q);
int demux_drain(struct run *R, int i);
int demux_out_create(struct run *R);
void demux_flush(struct run *R, int *stuck);
int demux_out_failed(const struct run *R);

/* watch.c: the run's watch for deadlocks (wire.h, THE WATCH): the memory
 * file of this host's slots (0, or -1 said) and the token that names it
 * to the trampolines ("PID:FD:HOST"); what the trampolines elsewhere say;
 * when to read next (-1: not any more); a reading, which sets R->dead
 * when processes are blocked for good. */
int watch_open(struct run *R);
const char *watch_token(const struct run *R);
void watch_marker(struct run *R, int r, enum wire_mark k, const char *arg);
double watch_deadline(const struct run *R);
void watch_tick(struct run *R, double t);
void watch_free(struct run *R);
int watch_peer_of(const struct run *R, int r, const char *type, int index);
void watch_blocked_for_good(struct run *R, int r);

/* failure.c: what the run says when it fails, times out, deadlocks or
 * does not start. */
void failure_deadlock(struct run *R);
void failure_timeout(struct run *R);
void failure_stuck(struct run *R);
void failure_report(struct run *R, int status);

#endif
