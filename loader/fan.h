/* fan.h -- 'ensemble run --stdin all': our standard input to every
 * process.  Open MPI 4.1's mpirun forwards its standard input to one rank
 * (its own '--stdin all' hangs), so 'ensemble run' hands it out itself:
 * it listens on a TCP port, the trampoline of every process connects and
 * says the run's secret (runtime/wire.h, --stdin-net), and the component
 * reads the connection as its standard input. */
#ifndef ENS_FAN_H
#define ENS_FAN_H

#include <poll.h>

struct fan;

/* Listen for n processes' trampolines, which must say secret (borrowed,
 * kept).  local: every process runs on this machine (listen on the
 * loopback address alone).  What is read is kept, till every process has
 * taken it, in a deleted file in dir.  The fan, and in *addrs (caller frees) the
 * --stdin-net token: "ADDRESS:PORT" for each address the trampolines may
 * try, in order, separated by ','; NULL and *cause (caller frees) when no
 * socket can be made. */
struct fan	*fan_new(int n, int local, const char *secret, const char *dir,
		    char **addrs, char **cause);

/* The descriptors to wait for, written to pfd (at most fan_nfds of them):
 * our standard input until its end, the listening
 * socket while a process has not connected, each connection while it
 * says hello or has input to take.  Their count.  A connection that
 * has taken all our input, which ended, is closed here. */
int		 fan_events(struct fan *, struct pollfd *pfd);

/* The most fan_events may ask for. */
int		 fan_nfds(const struct fan *);

/* Act on what ppoll said of the n descriptors fan_events gave: accept,
 * read hellos and our input, write it on.  A process that ended (its
 * connection closed) is given no more; one that took all of it after our
 * input ended is given its end. */
void		 fan_handle(struct fan *, const struct pollfd *pfd, int n);

/* Close everything. */
void		 fan_free(struct fan *);

#endif
