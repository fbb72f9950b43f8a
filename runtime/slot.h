/* slot.h -- libensemble's side of the run's watch (wire.h, THE WATCH):
 * the slot where the process says, with stores alone, which call it is
 * in and whom it waits for, and the peers of its pending requests, which
 * its waits name.  ens.c and pmpi.c write the slot as they enter and leave
 * their calls; the SIGUSR1 handler reads it (--timeout).  Until ens_init
 * maps the run's (slot_attach), and in a process the run does not watch,
 * the slot is the process's own memory: the same stores, read by nobody
 * but the handler.  MPI and libc only. */
#ifndef ENS_SLOT_H
#define ENS_SLOT_H

#include <mpi.h>

#include "wire.h"

/* The process's slot; never NULL. */
extern volatile struct wire_slot *slot_me;

/* A request's peer as slot_req_post takes it: a world rank, or one of
 * these. */
#define SLOT_PEER_UNKNOWN	(-1)	/* not one the watch can follow */
#define SLOT_PEER_PORTS		(-2)	/* any port's (ens_irecv_any) */

/* Open the watch's memory file WIRE_ENV_WATCH names, if any, and take its
 * slot for world rank 'rank' as the process's from now on; the variable
 * is removed, and a file that is not the watch's is left alone (the run
 * is then not watched here), as is the file of a process whose MPI was
 * initialised for threads calling at once (MPI_THREAD_MULTIPLE): one slot
 * cannot say what such a process waits for. */
void slot_attach(int rank);

/* Enter a call: the slot odd (being written), 'call' in it and what it
 * waits for, with no port and no peer (the statement, slot.loc, is the
 * monitor's to say: ens_mon_where); the fields of the wait after it,
 * then slot_done. */
static inline volatile struct wire_slot *slot_open(void);
static inline void slot_fields(volatile struct wire_slot *, int, int, int,
		    int, int, unsigned, unsigned);

static inline void
slot_begin(int call, int wait)
{
	slot_fields(slot_open(), call, wait, -1, -1, 0, 0, 0);
}

/* slot_begin in two, so that a call whose fields are known at once
 * writes each once: the slot odd (being written), then the call, its
 * wait, its port (type's index, index; -1 none), its peers' count and
 * whether it sends to them and receives from them (peers[] the
 * caller's). */
static inline volatile struct wire_slot *
slot_open(void)
{
	volatile struct wire_slot	*s = slot_me;

	s->gen++;
	__atomic_thread_fence(__ATOMIC_RELEASE);
	return s;
}

static inline void
slot_fields(volatile struct wire_slot *s, int call, int wait, int type,
    int port, int npeers, unsigned sends, unsigned recvs)
{
	s->call = call;
	s->wait = wait;
	s->type = type;
	s->port = port;
	s->npeers = npeers;
	s->sends = sends;
	s->recvs = recvs;
}

/* The fields written: the slot even again. */
static inline void
slot_done(void)
{
	__atomic_thread_fence(__ATOMIC_RELEASE);
	slot_me->gen++;
}

/* The call is over (one store: the slot stays consistent). */
static inline void
slot_leave(void)
{
	slot_me->call = WC_NONE;
}

/* Enter a blocking call on one port (type's index in the table, port
 * 1..) that waits for one peer (a world rank), to send to it or receive
 * from it (send 1, 0). */
static inline void
slot_p2p(int call, int type, int port, int peer, int send)
{
	volatile struct wire_slot	*s = slot_open();

	s->peers[0] = peer;
	slot_fields(s, call, WIRE_WAIT_ALL, type, port, 1, send ? 1 : 0,
	    send ? 0 : 1);
	slot_done();
}

/* Enter a call that waits for nobody the watch knows. */
static inline void
slot_none(int call)
{
	slot_begin(call, WIRE_WAIT_NONE);
	slot_done();
}

/* The statement is none: a raw MPI call's (before slot_done). */
static inline void
slot_raw(void)
{
	slot_me->loc = -1;
}

/* Enter the ncoll-th collective (from 0) over communicator comm
 * (WIRE_COMM_*), root a world rank or -1. */
static inline void
slot_coll(int call, int comm, unsigned ncoll, int root)
{
	volatile struct wire_slot	*s = slot_me;

	slot_begin(call, WIRE_WAIT_COLL);
	s->comm = comm;
	s->ncoll = ncoll;
	s->root = root;
	slot_done();
}

/* The communicator slot_world_rank or slot_comm was last asked about,
 * and what the watch knows of it: its members' world ranks in its rank
 * order (NULL: the world's own), its size, its name (WIRE_COMM_*) and
 * counter of collectives, or that it knows none (known 0).  Made of the
 * watch's own list of communicators (slot_comms), and forgotten whenever
 * that changes: a raw call on the same communicator as the last is a
 * compare, not a search. */
struct slot_last {
	MPI_Comm	 c;
	int		 known;
	const int	*world;
	int		 size;
	int		 id;
	unsigned	*ncoll;
};
extern struct slot_last slot_last;
/* Make c the last communicator. */
void slot_last_find(MPI_Comm c);

/* The world rank of rank in the last communicator (slot_world_rank). */
static inline int
slot_last_rank(int rank)
{
	if (!slot_last.known || rank < 0)
		return -1;
	if (slot_last.world == NULL)
		return rank;
	return rank < slot_last.size ? slot_last.world[rank] : -1;
}

/* The world rank of rank in communicator c as the watch knows it: c the
 * world, the ports' communicator, the component's or a group's (slot_comm
 * says which); -1 when it cannot say (another communicator, MPI_ANY_SOURCE,
 * MPI_PROC_NULL). */
static inline int
slot_world_rank(MPI_Comm c, int rank)
{
	if (rank < 0)
		return -1;
	if (c != slot_last.c)
		slot_last_find(c);
	return slot_last_rank(rank);
}
/* The watch's name of communicator c (WIRE_COMM_*), and in *ncoll its
 * counter of collectives, which the caller increments; -1 for one it does
 * not know. */
static inline int
slot_comm(MPI_Comm c, unsigned **ncoll)
{
	if (c != slot_last.c)
		slot_last_find(c);
	if (!slot_last.known)
		return -1;
	*ncoll = slot_last.ncoll;
	return slot_last.id;
}
/* Say which communicators libensemble made, for the table t: the ports'
 * (app), the component's (comp, its processes in index order), and
 * gcomms[i] for each group t->groups[i] (those made so far: n); borrowed
 * until slot_comms_clear.  0, or -1 when memory ran out. */
int slot_comms(MPI_Comm app, MPI_Comm comp, const MPI_Comm *gcomms, int n,
    const struct wire_table *t);
void slot_comms_clear(void);

/* Remember request r's peer (a world rank, SLOT_PEER_*), posted now: a
 * send (1) or a receive (0). */
void slot_req_post(MPI_Request r, int peer, int send);
/* Forget requests completed: the n of reqs (as they were before the
 * call) that are MPI_REQUEST_NULL in done (NULL: all of them). */
void slot_req_done(int n, const MPI_Request *reqs, const MPI_Request *done);
/* Enter a wait for n requests: for all of them (any 0) or any (1); the
 * wait names their peers, or none the watch can follow. */
void slot_reqs(int call, int any, int n, const MPI_Request *reqs);

#endif
