/* fan.c -- 'ensemble run --stdin all': our standard input, copied to
 * every process over a TCP connection its trampoline opens (fan.h).
 *
 * What we read goes into a file of the run's (deleted, in its working
 * directory) as it comes, and each connection is sent that file from
 * where it is (sendfile), so that no process waits for another: as with
 * mpirun, which keeps in memory what a process has not taken, a process
 * that reads its input late or never holds back no other, and one that
 * starts late misses nothing.  What every process has taken is given
 * back (a hole punched in the file), once all have connected.  A
 * connection whose process ended is dropped; one that has taken everything
 * after our input ended is closed, which its component reads as the end. */
#include "config.h"

#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fan.h"
#include "xmalloc.h"

#define FAN_READ	65536		/* read at once */
#define FAN_PUNCH	(1 << 20)	/* give back in pieces of this */

/* One trampoline's connection. */
struct fan_conn {
	int		 fd;		/* -1: gone */
	int		 live;		/* said the secret */
	size_t		 hlen;		/* of the hello, so far */
	off_t		 off;		/* how much of our input it took */
};

struct fan {
	int		 lfd;		/* listening; -1 once all came */
	const char	*secret;
	size_t		 slen;
	int		 n;		/* processes */
	int		 nlive;		/* said the secret, ever */
	struct fan_conn	*c;
	int		 nc, capc;
	int		 nopen;		/* connections open */
	int		 file;		/* our input, as read */
	off_t		 end;		/* its length */
	off_t		 punched;	/* given back up to here */
	int		 nopunch;	/* the file system cannot */
	char		 chunk[FAN_READ];	/* read, not yet in the file */
	size_t		 clen, coff;
	int		 in_eof;
	int		*who;		/* per pollfd of fan_events: a
					 * connection, or -1 stdin, -2 lfd */
};

/* "ADDRESS:PORT" for the trampolines: the loopback address alone when
 * local, else every IPv4 address of this machine's interfaces that are
 * up, the loopback one last (caller frees). */
static char *
fan_addrs(int port, int local)
{
	struct ifaddrs	*ifa = NULL, *i;
	char		 a[INET_ADDRSTRLEN], *s = NULL, *t;

	if (!local && getifaddrs(&ifa) == 0) {
		for (i = ifa; i != NULL; i = i->ifa_next) {
			if (i->ifa_addr == NULL ||
			    i->ifa_addr->sa_family != AF_INET ||
			    !(i->ifa_flags & IFF_UP) ||
			    (i->ifa_flags & IFF_LOOPBACK))
				continue;
			if (inet_ntop(AF_INET, &((struct sockaddr_in *)
			    (void *)i->ifa_addr)->sin_addr, a, sizeof(a)) == NULL)
				continue;
			xasprintf(&t, "%s%s%s:%d", s != NULL ? s : "",
			    s != NULL ? "," : "", a, port);
			free(s);
			s = t;
		}
		freeifaddrs(ifa);
	}
	xasprintf(&t, "%s%s127.0.0.1:%d", s != NULL ? s : "",
	    s != NULL ? "," : "", port);
	free(s);
	return t;
}

struct fan *
fan_new(int n, int local, const char *secret, const char *dir, char **addrs,
    char **cause)
{
	struct fan		*f;
	struct sockaddr_in	 sin;
	socklen_t		 len = sizeof(sin);
	int			 fd, file;

	if ((file = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600)) < 0) {
		xasprintf(cause, "cannot make a file in '%s': %s", dir,
		    strerror(errno));
		return NULL;
	}
	fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		xasprintf(cause, "cannot make a socket: %s", strerror(errno));
		close(file);
		return NULL;
	}
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(local ? INADDR_LOOPBACK : INADDR_ANY);
	if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)) != 0 ||
	    listen(fd, SOMAXCONN) != 0 ||
	    getsockname(fd, (struct sockaddr *)&sin, &len) != 0) {
		xasprintf(cause, "cannot listen on a TCP port: %s",
		    strerror(errno));
		close(fd);
		close(file);
		return NULL;
	}
	f = xcalloc(1, sizeof(*f));
	f->lfd = fd;
	f->file = file;
	f->secret = secret;
	f->slen = strlen(secret);
	f->n = n;
	f->who = xcalloc((size_t)n + 2, sizeof(*f->who));
	*addrs = fan_addrs(ntohs(sin.sin_port), local);
	return f;
}

int
fan_nfds(const struct fan *f)
{
	return f->n + 2;
}

/* Drop connection i: its process ended, or it was no trampoline of
 * ours. */
static void
fan_drop(struct fan *f, int i)
{
	close(f->c[i].fd);
	f->c[i].fd = -1;
	f->nopen--;
}

/* Connection i has taken all our input, which ended: read what it may
 * still hold for us (so that closing sends the end, not a reset that
 * could lose what is on its way), and close it. */
static void
fan_end(struct fan *f, int i)
{
	char	b[256];

	while (read(f->c[i].fd, b, sizeof(b)) > 0)
		;
	fan_drop(f, i);
}

int
fan_events(struct fan *f, struct pollfd *pfd)
{
	struct fan_conn	*c;
	int		 i, k = 0;

	if (!f->in_eof && f->clen == 0) {
		f->who[k] = -1;
		pfd[k].fd = 0;
		pfd[k++].events = POLLIN;
	}
	if (f->lfd >= 0) {
		f->who[k] = -2;
		pfd[k].fd = f->lfd;
		pfd[k++].events = POLLIN;
	}
	for (i = 0; i < f->nc; i++) {
		c = &f->c[i];
		if (c->fd < 0)
			continue;
		if (c->live && c->off == f->end) {
			if (f->in_eof)
				fan_end(f, i);
			continue;	/* nothing for it yet */
		}
		f->who[k] = i;
		pfd[k].fd = c->fd;
		pfd[k++].events = c->live ? POLLOUT : POLLIN;
	}
	return k;
}

/* Take new connections, while fewer than n are open (fan_events' room:
 * the others wait in the listening queue).  A slot whose connection was
 * dropped is taken again. */
static void
fan_accept(struct fan *f)
{
	int	fd, i;

	while (f->nopen < f->n && (fd = accept4(f->lfd, NULL, NULL,
	    SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
		for (i = 0; i < f->nc && f->c[i].fd >= 0; i++)
			;
		if (i == f->nc && f->nc == f->capc) {
			f->capc = f->capc == 0 ? 16 : 2 * f->capc;
			f->c = xreallocarray(f->c, (size_t)f->capc,
			    sizeof(*f->c));
		}
		if (i == f->nc)
			f->nc++;
		memset(&f->c[i], 0, sizeof(f->c[0]));
		f->c[i].fd = fd;
		f->nopen++;
	}
}

/* Read connection i's hello, the run's secret and a newline, a byte at a
 * time (it is short, and nothing may be read past it); anything else
 * drops it. */
static void
fan_hello(struct fan *f, int i)
{
	struct fan_conn	*c = &f->c[i];
	ssize_t		 r;
	char		 ch;

	while ((r = read(c->fd, &ch, 1)) == 1) {
		if (c->hlen == f->slen) {
			if (ch != '\n')
				break;
			c->live = 1;
			c->off = 0;		/* all of it */
			if (++f->nlive == f->n) {
				close(f->lfd);
				f->lfd = -1;
			}
			return;
		}
		if (ch != f->secret[c->hlen++])
			break;
	}
	if (r < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	fan_drop(f, i);
}

/* Send connection i what it has not taken. */
static void
fan_write(struct fan *f, int i)
{
	struct fan_conn	*c = &f->c[i];
	ssize_t		 w;

	w = sendfile(c->fd, f->file, &c->off, (size_t)(f->end - c->off));
	if (w < 0 && errno != EAGAIN && errno != EINTR)
		fan_drop(f, i);		/* its process ended */
}

/* Read more of our input into the file; what the file cannot take yet
 * (its file system full) waits in chunk, and nothing more is read till
 * it is in. */
static void
fan_read(struct fan *f)
{
	ssize_t	r;

	if (f->clen == 0) {
		r = read(0, f->chunk, sizeof(f->chunk));
		if (r == 0 || (r < 0 && errno != EINTR && errno != EAGAIN))
			f->in_eof = 1;
		if (r <= 0)
			return;
		f->clen = (size_t)r;
		f->coff = 0;
	}
	while (f->coff < f->clen) {
		r = pwrite(f->file, f->chunk + f->coff, f->clen - f->coff,
		    f->end);
		if (r <= 0)
			return;		/* tried again at the next event */
		f->coff += (size_t)r;
		f->end += r;
	}
	f->clen = 0;
}

/* Give back the part of the file every process has taken, once all have
 * connected. */
static void
fan_trim(struct fan *f)
{
	off_t	lo = f->end;
	int	i;

	if (f->nlive < f->n)
		return;
	for (i = 0; i < f->nc; i++)
		if (f->c[i].fd >= 0 && f->c[i].live && f->c[i].off < lo)
			lo = f->c[i].off;
	lo -= lo % FAN_PUNCH;
	if (f->nopunch || lo <= f->punched)
		return;
	if (fallocate(f->file, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
	    f->punched, lo - f->punched) == 0)
		f->punched = lo;
	else
		f->nopunch = 1;
}

void
fan_handle(struct fan *f, const struct pollfd *pfd, int n)
{
	int	k, i;

	for (k = 0; k < n; k++) {
		if (pfd[k].revents == 0)
			continue;
		if ((i = f->who[k]) == -1)
			fan_read(f);
		else if (i == -2)
			fan_accept(f);
		else if (f->c[i].fd < 0)
			continue;
		else if (!f->c[i].live)
			fan_hello(f, i);
		else if (pfd[k].revents & (POLLERR | POLLHUP | POLLNVAL))
			fan_drop(f, i);
		else
			fan_write(f, i);
	}
	fan_trim(f);
	if (f->clen > 0)
		fan_read(f);	/* what the file could not take: again */
}

void
fan_free(struct fan *f)
{
	int	i;

	if (f == NULL)
		return;
	for (i = 0; i < f->nc; i++)
		if (f->c[i].fd >= 0)
			close(f->c[i].fd);
	if (f->lfd >= 0)
		close(f->lfd);
	close(f->file);
	free(f->c);
	free(f->who);
	free(f);
}
