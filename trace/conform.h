/* conform.h -- whether a traced run kept to its script ('ensemble trace
 * check' decides here and prints in cli/): every message must have
 * travelled on a declared channel, and each process's port operations,
 * replayed in their order, must be accepted by its declared behaviour;
 * then the communication graph the run used is set beside the script's.
 *
 * The replay follows each behaviour with the protocol monitor of
 * libensemble (runtime/monitor.c, compiled into libconform as into the
 * unit tests): the same code that follows a live run under
 * --check-protocol, which tests/behave.test holds to the verifier's MP
 * net programs.  A check after the run thus gives the verdict the live
 * monitor would have given, with the same words.  libconform is a
 * library of its own in trace/, above libtrace, pcg/ and the monitor,
 * which do not see each other. */
#ifndef ENS_CONFORM_H
#define ENS_CONFORM_H

#include <stddef.h>
#include <stdint.h>

#include "pcg.h"
#include "trace.h"

/* How a process kept to its behaviour. */
enum conform_div {
	CONFORM_KEPT,		/* every operation allowed (or none replayed) */
	CONFORM_DIVERGED,	/* an operation it does not allow there */
	CONFORM_UNFINISHED	/* the trace ends before its ens_finalize */
};

/* Whether a process's messages kept to its channels: the first that did
 * not went on a port no channel connects, or on a channel that leads to
 * another process than the one it reached. */
enum conform_off { CONFORM_ON, CONFORM_NO_CHANNEL, CONFORM_ELSEWHERE };

/* One process of the trace (by rank). */
struct conform_proc {
	int		 proc;		/* in the pcg */
	char		*name;		/* as in the script and the trace */
	int		 replayed;	/* 0: its component has no BEHAVIOUR */
	unsigned long	 ops;		/* port operations replayed */
	enum conform_div div;
	/* CONFORM_DIVERGED: the operation (from 1), its start (ns from
	 * time zero), its trace line, and why: the monitor's words, or
	 * what is wrong with the operation itself ("no port 'X[3]' in
	 * worker") */
	unsigned long	 div_op;
	int64_t		 div_t;
	unsigned long	 div_line;
	char		*div_why;
	/* Not CONFORM_ON: the first message off its channels, to rank
	 * off_peer, its start, line and port; CONFORM_ELSEWHERE: the end
	 * its port's channel leads to */
	enum conform_off off;
	int		 off_peer;
	int64_t		 off_t;
	unsigned long	 off_line;
	char		*off_port;
	struct pcg_end	 off_to;
};

/* Messages from one process to another on world. */
struct conform_pair {
	int		 src, dst;	/* ranks */
	uint64_t	 n;
	uint64_t	 raw;		/* of them, raw calls */
	int		 joined;	/* a channel joins the two */
};

/* The check's findings and verdict. */
struct conform {
	int		 nprocs;
	struct conform_proc *procs;	/* by rank */
	uint64_t	*chan_msgs;	/* per channel of the pcg: port messages */
	int		 used;		/* channels with a message */
	struct conform_pair *pairs;	/* by src, then dst */
	size_t		 npairs;
	uint64_t	 messages;	/* sent on world, all pairs */
	int		 diverged;	/* processes not CONFORM_KEPT */
	int		 offchan;	/* processes not CONFORM_ON */
	uint64_t	 unjoined;	/* messages of pairs no channel joins */
	int		 conforming;	/* none of the three */
};

/* What conform_check found to say instead of a verdict. */
enum conform_status {
	CONFORM_DONE = 0,
	CONFORM_BAD_TRACE = -1,	/* *cause the reader's, "FILE:LINE: error: ..." */
	CONFORM_NOT_A_RUN = -2	/* *cause why the trace is not a run of the
				 * script ("the trace has 4 processes, the
				 * script 3"), for the caller to prefix */
};

/* Replay the rest of the trace against g's behaviours and channels:
 * CONFORM_DONE and *out (free with conform_free), or another status and
 * *cause (the caller frees).  g is borrowed; the trace is read to its
 * end (from time zero: trace_rebase). */
enum conform_status conform_check(struct trace_reader *, const struct pcg *g,
    struct conform **out, char **cause);
void conform_free(struct conform *);

#endif
