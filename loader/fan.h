/* fan.h -- 'ensemble run --stdin all': our standard input to every
 * process.  Open MPI 4.1's mpirun forwards its standard input to one rank
 * (its own '--stdin all' hangs), so 'ensemble run' hands it out itself:
 * it listens on a TCP port, the trampoline of every process connects and
 * proves in its first message that it knows the run's stdin key, as
 * 'ensemble run' proves it in its answer (auth.h, runtime/wire.h:
 * --stdin-net), and the component reads the connection as its standard
 * input.  A connection is judged at its first read: one that has not
 * proved itself takes no process's place and holds back no other; it is
 * handed over only once it has said something (or FAN_DEFER has passed),
 * then closed when what it says is not a trampoline's first message of
 * the run, or after FAN_AUTH_WAIT (or, when FAN_PENDING wait, the oldest
 * first: a trampoline's is read as it is accepted, and waits no more);
 * one from a socket of this machine that another user owns is closed as
 * it comes. */
#ifndef ENS_FAN_H
#define ENS_FAN_H

#include <poll.h>

#define FAN_DEFER	5	/* seconds the listener holds back a
				 * connection that says nothing */
#define FAN_AUTH_WAIT	5.0	/* seconds, once accepted, for a connection
				 * to say all its first message */
#define FAN_PENDING	64	/* connections saying it, at most */

/* The most descriptors fan_events may ask for, for n processes. */
#define FAN_NFDS(n)	((n) + FAN_PENDING + 2)

struct fan;

/* Listen for n processes' trampolines, which must know key (borrowed,
 * kept).  local: every process runs on this machine (listen on the
 * loopback address alone; else on every address, and the trampolines are
 * not told the loopback one, which on another host is another's).  What is
 * read is kept, till every process has taken it, in a deleted file in
 * dir.  The fan, and in *addrs (caller frees) the --stdin-net token:
 * "ADDRESS:PORT" for each address the trampolines may try, in order,
 * separated by ','; NULL and *cause (caller frees) when no socket can be
 * made, or this machine has no address another host can reach. */
struct fan	*fan_new(int n, int local, const char *key, const char *dir,
		    char **addrs, char **cause);

/* The same listener dealing each of n processes its own bytes, once (the
 * plan over TCP, runtime/wire.h: --plan-net): the trampoline of process
 * r proves itself as fan_new's do, its process's name the decimal r, and
 * is sent the hlen[r] bytes of heads[r], then the end.  heads, its
 * strings and hlen are the fan's (freed by fan_free), whatever the
 * outcome; NULL and *cause as fan_new. */
struct fan	*fan_deal_new(int n, int local, const char *key, char **heads,
		    size_t *hlen, char **addrs, char **cause);

/* The descriptors to wait for, written to pfd (at most FAN_NFDS(n) of
 * them): our standard input until its end, the listening socket until
 * every process has connected, each connection while it proves itself or
 * has input to take.  Their count.  A connection that has taken all our
 * input, which ended, is closed here, and one that has not proved itself
 * in time dropped. */
int		 fan_events(struct fan *, struct pollfd *pfd);

/* When a connection that has not proved itself is next due to be dropped
 * (a time of clock_now), or -1 when none is waiting. */
double		 fan_deadline(const struct fan *);

/* Act on what ppoll said of the n descriptors fan_events gave: accept,
 * answer the handshakes, read our input, write it on.  A process that
 * ended (its connection closed) is given no more; one that took all of it
 * after our input ended is given its end. */
void		 fan_handle(struct fan *, const struct pollfd *pfd, int n);

/* Close everything. */
void		 fan_free(struct fan *);

#endif
