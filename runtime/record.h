/* record.h -- libensemble's side of 'ensemble run --trace': each process
 * records its operations (ens.c: the port interface; pmpi.c: raw MPI
 * calls through PMPI wrappers) as binary events in a bounded buffer, which
 * spills to the process's part of the trace (wire.h: DIR/RANK.part) as
 * lines of runtime/traceline.h when it fills; at ens_finalize the rest is
 * written and the part renamed DIR/RANK, for 'ensemble run' to merge.
 * MPI and libc only. */
#ifndef ENS_RECORD_H
#define ENS_RECORD_H

#include <stdint.h>

#include <mpi.h>

#include "traceline.h"

/* A port field: none, "Type[i]", "Type[*]" (any of a type) or "*"; a
 * probe of any port that found a message names the port found after
 * what it asked, "Type[*]>Type[i]" or "*>Type[i]" (rec_ev.found). */
#define REC_PORT_ANY	(-2)
enum { REC_FOUND_NONE, REC_FOUND_OF_TYPE, REC_FOUND_OF_ALL };

/* One event as recorded: times are MPI_Wtime's. */
struct rec_ev {
	double		 t0, t1;
	const char	*ptype;		/* NULL: no port (or "*" with ANY) */
	int		 pindex;	/* 1..; REC_PORT_ANY; 0: none */
	const char	*dtype;		/* NULL: '-' */
	long		 count;		/* -1: '-' */
	uint64_t	 sbytes, rbytes;
	long		 req, seq;	/* -1: '-' */
	int		 peer, tag;	/* TRACE_NONE, TRACE_ANY or a number */
	int		 comm;
	unsigned char	 op, mode, raw;
	unsigned char	 found;		/* REC_FOUND_*: ptype[pindex] is the
					 * port a probe of any of ptype
					 * (_OF_TYPE) or of all (_OF_ALL) found */
};

/* A pending non-blocking call, until the wait that completes it. */
struct rec_req {
	struct rec_ev	 ev;		/* its isend/irecv event */
	int		 is_recv;
	MPI_Datatype	 dt;
	MPI_Comm	 c;
};

/* Whether this process records (set by rec_start); the wrappers and ens.c
 * test it before doing anything else. */
extern int rec_on;

/* Start recording into DIR/RANK.part, which starts "host HOST": the
 * trace's origin as the table gives it ("S.N", realtime seconds), this
 * process's world rank and the port communicator (comm 0 with
 * MPI_COMM_WORLD).  t_entry is the realtime in ns when ens_init was
 * entered, for the init event.  0, or -1 and errno when the part cannot
 * be written. */
int rec_start(const char *origin, const char *dir, int rank, MPI_Comm world,
    int64_t t_entry, const char *host);
/* The realtime clock in nanoseconds. */
int64_t rec_realtime(void);
/* Record an event (copied). */
void rec_add(const struct rec_ev *);
/* Record the init event: from t_entry (realtime ns) to now. */
void rec_init_event(void);
/* The next sequence number of a message sent to (or received from) peer
 * with tag on comm. */
long rec_seq(int recv, int comm, int peer, int tag);
/* The next collective number on comm. */
long rec_coll(int comm);
/* A datatype's name ("MPI_INT", "derived") and size in bytes. */
const char *rec_dtype(MPI_Datatype);
uint64_t rec_bytes(MPI_Datatype, long count);
/* The comm id of c: 0 for MPI_COMM_WORLD and the port communicator (its
 * duplicate), a group's for its communicator (rec_comm_group), 1
 * ("other") for any other; and, for a peer rank in c, its
 * world rank. */
int rec_comm(MPI_Comm c);
/* Take c as the communicator of comm id (2 and on: a group's, wire.h), so
 * that raw calls on it are recorded as on that comm.  0, or -1 when
 * memory ran out. */
int rec_comm_group(MPI_Comm c, int id);
int rec_world_rank(MPI_Comm c, int comm, int rank);
/* A new request id, and remember the request's event until its wait. */
long rec_req_new(MPI_Request r, const struct rec_ev *ev, int is_recv,
    MPI_Datatype dt, MPI_Comm c);
/* Take the pending call of request r: 1 and *out, or 0 if not recorded. */
int rec_req_take(MPI_Request r, struct rec_req *out);
/* The wait line of a completed request (st its status), times t0..t1. */
void rec_wait_done(const struct rec_req *q, const MPI_Status *st, double t0,
    double t1, int raw);
/* The line of a request completed by a call other than a waitall: op
 * TRACE_WAITONE, TRACE_TEST, TRACE_WAITANY or TRACE_WAITSOME; r the
 * request as it was before the call (nothing when it was not recorded; a
 * line of no request when a port call was given a null one). */
void rec_completed(int op, MPI_Request r, const MPI_Status *st, double t0,
    double t1, int raw);
/* A test that found request r (recorded) not complete: a testfalse line. */
void rec_test_false(MPI_Request r, double t0, int raw);
/* A sendrecv (op TRACE_SENDRECV or TRACE_SENDRECVREPLACE) that started at
 * t0 and ends now: its send line, to world rank speer with stag, then its
 * receive line, from the status's source and tag. */
void rec_sendrecv(int op, double t0, const char *sptype, int spindex,
    int speer, int stag, MPI_Datatype sdt, long scount, const char *rptype,
    int rpindex, const MPI_Status *st, MPI_Datatype rdt, int comm, int raw,
    MPI_Comm c);
/* A probe (op TRACE_PROBE, TRACE_IPROBE: st the message's status, peer
 * and tag ignored) or an iprobe that found nothing (TRACE_IPROBEFALSE:
 * peer and tag as asked) that started at t0 and ends now; found as
 * rec_ev's (REC_FOUND_NONE: ptype and pindex the port asked). */
void rec_probe(int op, double t0, const char *ptype, int pindex, int found,
    int comm, int peer, int tag, const MPI_Status *st, int raw, MPI_Comm c);
/* MPI_Waitall, recording a wait line for each recorded request (none of
 * them, and not raw: one wait line of no request). */
int rec_waitall(int n, MPI_Request *reqs, MPI_Status *sts, int raw);
/* Record a point-to-point call that started at t0 and ends now: op
 * TRACE_SEND, TRACE_RECV (peer, tag and count those received: the
 * status's), TRACE_ISEND or TRACE_IRECV (then *req its request, kept until
 * its wait, c its communicator); peer a world rank. */
void rec_p2p(int op, int mode, double t0, const char *ptype, int pindex,
    int comm, int peer, int tag, MPI_Datatype dt, long count, int raw,
    const MPI_Request *req, MPI_Comm c);
/* Record a collective that started at t0 and ends now, its bytes by the
 * rules of man/ensemble-trace.5: root a world rank or TRACE_NONE, sdt
 * and rdt MPI_DATATYPE_NULL when it moves no data.  For the v-forms
 * (TRACE_ALLGATHERV ...) scount and rcount are the elements this process
 * sends and receives in all (0 where its buffer is not used). */
void rec_collective(int op, double t0, int comm, int root, int isroot,
    int nprocs, MPI_Datatype sdt, long scount, MPI_Datatype rdt, long rcount,
    int raw);
/* Write every event left to the part and rename it DIR/RANK; stops
 * recording.  0, or -1 and errno when a write failed. */
int rec_finish(void);

#endif
