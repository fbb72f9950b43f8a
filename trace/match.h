/* match.h -- a trace's messages, each end paired with the other as
 * man/ensemble-trace.5 defines (seq): the sending side (send, isend) of
 * rank a to peer b with tag t and sequence number k on a communicator is
 * one Message with the receiving side (recv, or the wait that completes
 * an irecv) of rank b from peer a with tag t and number k on that
 * communicator (trace_side).  An event is an end only when its peer, tag
 * and number are numbers ('-' and '*' are none).
 *
 * The events come in the order of their starts, a receive often before
 * its send, so each end waits in a table until its partner comes: memory
 * follows the messages in flight, not the trace.  Two ends of one side
 * with the same key (a bad trace) both wait; the first to come is the
 * first paired.  'ensemble trace messages', 'ensemble trace query' and the
 * exports (export.c) all pair messages here. */
#ifndef ENS_MATCH_H
#define ENS_MATCH_H

#include <stddef.h>
#include <stdint.h>

#include "trace.h"

/* One end of a message: its key, and what its event said of it. */
struct match_end {
	int		 comm;
	int		 from, to;	/* sender and receiver (ranks) */
	int		 tag;
	enum trace_side	 side;		/* TRACE_SIDE_SEND or TRACE_SIDE_RECV */
	int		 raw;
	long		 seq;
	int64_t		 t0ns, t1ns;	/* the event's times */
	uint64_t	 bytes;		/* a send's sbytes, a receive's rbytes */
	long		 count;		/* -1: '-' */
	uint64_t	 serial;	/* the order the ends came, from 0 */
	void		*data;		/* the caller's: match_new's size bytes */
};

struct match;

/* A matcher whose ends each carry size bytes of the caller's (0: none);
 * what those bytes hold (strings it allocated) is the caller's to free. */
struct match *match_new(size_t size);
/* Free the matcher and the ends still waiting (not what their data
 * points to: see match_left). */
void match_free(struct match *);

/* Whether ev is an end of a message: 1 and *e filled (e->data NULL, for
 * the caller to point at its bytes), or 0. */
int match_end_of(const struct trace_event *ev, struct match_end *e);
/* Take an end (from match_end_of; its data, the caller's size bytes, is
 * copied when it waits): its partner when it completes a message, taken
 * out of the table (it and its data valid until the next call), or NULL
 * when it waits for its partner. */
const struct match_end *match_take(struct match *, const struct match_end *e);
/* The data of the end the last match_take kept to wait (NULL when it
 * kept none), for the caller to make its own what the bytes borrowed
 * (copy the strings they point to): so an end paired at once never needs
 * its copies. */
void *match_kept_data(struct match *);
/* How many ends wait. */
size_t match_waiting(const struct match *);
/* Call fn for each end that waits (found no partner), in the order they
 * came; e->data may be changed (freed) by fn. */
void match_left(struct match *, void (*fn)(void *arg, struct match_end *e),
    void *arg);

#endif
