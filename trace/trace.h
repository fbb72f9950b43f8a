/* trace.h -- reading and writing MTF trace files (man/ensemble-trace.5),
 * streaming: memory is constant in the number of events (the header, which
 * grows with the processes and ports, is kept whole).  libtrace (trace/)
 * uses common/ and the event line's definition, runtime/traceline.h, which
 * also gives enum trace_op, enum trace_mode, TRACE_NONE and TRACE_ANY.
 *
 * Differences from the draft (TRACE-SPEC.md), on purpose:
 *  - an event's strings (port, dtype) are borrowed: they live until the
 *    next trace_next or trace_close;
 *  - peer and tag are TRACE_NONE ('-') or TRACE_ANY ('*') when no number;
 *    count, req and seq are -1 for '-';
 *  - t0ns/t1ns carry the times exactly (nanoseconds), t0/t1 as doubles;
 *  - a cause is the whole diagnostic, "FILE:LINE: error: ...", ready to
 *    print (cli adds nothing); the caller frees it;
 *  - trace_write_line (the merge of 'ensemble run --trace'), trace_side (which side of a
 *    message an event is), trace_hdr_new/free are added.
 * And in the file (man/ensemble-trace.5 is the reference):
 *  - the wait that completes an isend carries the send's MODE, so a wait
 *    with MODE '-' is a receive's (trace_side);
 *  - bytes: an isend carries its SBYTES, an irecv 0 0, the wait of an
 *    irecv the RBYTES, the wait of an isend 0 0 (no byte counted twice);
 *  - comm 1 "other" (size 0) is always declared: raw calls on any
 *    communicator but the world, peers as world ranks;
 *  - a group's comm (2 and on) lists its members, the world ranks in its
 *    rank order, as runs ("5-0", "0-9/3"); a file without them reads. */
#ifndef ENS_TRACE_H
#define ENS_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "traceline.h"

struct trace_param {
	char	*name;
	char	*value;
};

struct trace_processor {
	char	*host;			/* its id is its index */
};

struct trace_comm {
	char	*name;			/* its id is its index; 0 is "world" */
	int	 size;
	int	*members;		/* a group's: its size world ranks in
					 * its rank order; NULL when not
					 * given (world, other, or a group of
					 * a trace older than members) */
};

struct trace_process {
	char	*name;			/* as in the script: "relay[2]" */
	char	*component;
	int	 processor;		/* index in processors */
};

struct trace_port {
	int	 rank;
	char	*type;
	int	 index;
	int	 peer;			/* a rank, or -1: not connected */
};

/* The header: everything before 'events'. */
struct trace_hdr {
	int			 version;
	char			*script;	/* as given */
	char			*application;
	char			*date;		/* ISO-8601 UTC */
	struct trace_param	*params;
	size_t			 nparams;
	char			*start;		/* ISO-8601 UTC */
	int			 nprocs;
	struct trace_processor	*processors;
	size_t			 nprocessors;
	struct trace_comm	*comms;
	size_t			 ncomms;
	struct trace_process	*processes;	/* nprocs, by rank */
	struct trace_port	*ports;
	size_t			 nports;
};

/* One event. */
struct trace_event {
	enum trace_op	 op;
	int		 rank;
	double		 t0, t1;	/* seconds from the origin (from
					 * zero after trace_rebase) */
	int64_t		 t0ns, t1ns;	/* the same, in nanoseconds */
	int		 comm;
	enum trace_mode	 mode;
	const char	*port;		/* NULL: '-'; "Type[i]", "Type[*]", "*" */
	int		 peer;		/* a rank, TRACE_NONE or TRACE_ANY */
	int		 tag;		/* a tag, TRACE_NONE or TRACE_ANY */
	const char	*dtype;		/* NULL: '-' */
	long		 count;		/* -1: '-' */
	uint64_t	 sbytes, rbytes;
	long		 req;		/* -1: '-' */
	long		 seq;		/* -1: '-' */
	int		 raw;		/* VIA raw: 1; port: 0 */
	unsigned long	 line;		/* its line in the file */
};

/* Which side of a message an event is (man/ensemble-trace.5, seq): a
 * send or isend, or a sendrecv's send line (mode std), is the sending
 * side; a recv, a sendrecv's receive line, or the wait that completes an
 * irecv (a wait, waitone, test, waitany or waitsome with mode '-'), the
 * receiving side, peer then the source; anything else (an irecv, the
 * wait of an isend, probes, collectives) none.  A Message is a sending side (rank a, peer b, tag t, seq k) and
 * a receiving side (rank b, peer a, tag t, seq k) on one comm. */
enum trace_side { TRACE_SIDE_NONE, TRACE_SIDE_SEND, TRACE_SIDE_RECV };
enum trace_side trace_side(const struct trace_event *);
/* Whether ev is one more line of the call prev was a line of (one call,
 * several lines): a waitall's wait lines (one per request, of one time),
 * a waitsome's (one per request completed), a sendrecv's receive after
 * its send; of one process, and raw or not alike. */
int trace_same_call(const struct trace_event *prev, const struct trace_event *ev);

/* The name of an operation ("isend"), of a mode ("sync", "-"). */
const char *trace_op_name(enum trace_op);
const char *trace_mode_name(enum trace_mode);
/* The MPI function an event stands for ("MPI_Ssend", "MPI_Irecv"). */
const char *trace_mpi_name(const struct trace_event *);
/* The operation named s, or -1. */
int trace_op_find(const char *s);

struct trace_reader;

/* Open path ("-": standard input) and read its header: the reader, or NULL
 * and *cause (a bad header, or the file cannot be read). */
struct trace_reader *trace_open(const char *path, char **cause);
/* The header; valid until trace_close. */
const struct trace_hdr *trace_header(struct trace_reader *);
/* Read the next event into *ev: 1 an event, 0 the end (after a valid
 * 'end' line and nothing after it), -1 an error (*cause set; then every
 * later call returns -1 too). */
int trace_next(struct trace_reader *, struct trace_event *ev, char **cause);
/* Time zero: the start of the run's first operation, the first event
 * that is not an init or a fin (the events come in the order of their
 * starts), which 'ensemble trace' counts times from; the file's own
 * origin is 'ensemble run' starting the processes, and the inits come
 * before zero.  A trace with no operation keeps the origin as its zero.
 * Called before the first trace_next, it reads ahead to that event (at
 * most each process's init and fin before it: memory that grows with
 * the processes, not the events), returns zero (nanoseconds from the
 * origin) and makes trace_next give every event's times from zero (t0ns
 * and t1ns, t0 and t1; an init's are negative); an error met reading
 * ahead comes from trace_next after the events before it.  Called later,
 * it changes nothing and returns the zero found before, or 0. */
int64_t trace_rebase(struct trace_reader *);
/* The number of the last line read. */
unsigned long trace_line(const struct trace_reader *);
void trace_close(struct trace_reader *);

/* Build a header: trace_hdr_new gives an empty one (version 1) that the
 * caller fills with strings it allocates (xmalloc) and frees with
 * trace_hdr_free, which frees every string and array in it. */
struct trace_hdr *trace_hdr_new(void);
void trace_hdr_free(struct trace_hdr *);

struct trace_writer;

/* Write to path ("-": standard output): NULL and *cause when it cannot be
 * created (errno says why). */
struct trace_writer *trace_writer_open(const char *path, char **cause);
/* Write the header (once, first; h is borrowed). */
void trace_write_header(struct trace_writer *, const struct trace_hdr *h);
/* Write one event (ev's t0ns and t1ns are written; t0/t1 are ignored). */
void trace_write_event(struct trace_writer *, const struct trace_event *ev);
/* Write an event line already formatted (traceline_format), n bytes with
 * its '\n': the merge of 'ensemble run --trace' copies lines through
 * unchanged. */
void trace_write_line(struct trace_writer *, const char *line, size_t n);
/* Write 'end N' (N the events written), close: 0, or -1 and *cause on a
 * write error (errno says why).  The writer is freed either way. */
int trace_writer_close(struct trace_writer *, char **cause);

#endif
