/* fan.c -- 'ensemble run --stdin all': our standard input, copied to
 * every process over a TCP connection its trampoline opens (fan.h).
 *
 * A connection is judged by its first message (auth.h), in which the
 * trampoline proves itself: the listener waits for it before it hands a
 * connection over (TCP_DEFER_ACCEPT), so that a trampoline's is read as
 * it is accepted and, if right, answered with our proof and taken at
 * once; garbage is closed at once, and a connection whose message is not
 * all there waits, among at most FAN_PENDING, each read as its bytes
 * come, so that one that says nothing holds back no other.  Only a
 * connection taken counts as a process's, each process once.  What we
 * read goes into a file of the run's (deleted, in its working directory)
 * as it comes, and each accepted connection is sent
 * that file from where it is (sendfile), so that no process waits for
 * another: as with mpirun, which keeps in memory what a process has not
 * taken, a process that reads its input late or never holds back no
 * other, and one that starts late misses nothing.  What every process has
 * taken is given back (a hole punched in the file), once all have
 * connected.  A connection whose process ended is dropped; one that has
 * taken everything after our input ended is closed, which its component
 * reads as the end.
 *
 * A deal (fan_deal_new) is the same listener and handshake with no input
 * of ours: each connection, once it has proved to be process r's, is
 * written r's own bytes from memory, then closed. */
#include "config.h"

#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/tcp.h>

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

#include "auth.h"
#include "clock.h"
#include "fan.h"
#include "hmap.h"
#include "xmalloc.h"

#define FAN_READ	65536		/* read at once */
#define FAN_PUNCH	(1 << 20)	/* give back in pieces of this */

/* Where a connection is in its handshake. */
enum fan_step {
	FAN_HELLO,		/* reading the trampoline's first message */
	FAN_LIVE,		/* taken: a process's */
};

/* One connection. */
struct fan_conn {
	int		 fd;		/* -1: gone */
	enum fan_step	 step;
	char		 in[AUTH_HELLO_LEN];	/* what it said, so far */
	size_t		 inlen;
	struct sockaddr_in peer, self;	/* its two ends, as we see them */
	double		 since;		/* accepted at */
	off_t		 off;		/* how much of our input it took */
	int		 proc;		/* a deal's, once taken: whose */
};

struct fan {
	int		 lfd;		/* listening; -1 once all came */
	const char	*key;
	int		 n;		/* processes */
	int		 nlive;		/* accepted, ever */
	int		 npending;	/* open, not accepted yet */
	struct hmap	*ids;		/* the processes taken (auth.h: their
					 * IDs' first 128 bits) */
	struct fan_conn	*c;
	int		 nc, capc;
	int		 file;		/* our input, as read */
	off_t		 end;		/* its length */
	off_t		 punched;	/* given back up to here */
	int		 nopunch;	/* the file system cannot */
	char		 chunk[FAN_READ];	/* read, not yet in the file */
	size_t		 clen, coff;
	int		 in_eof;
	int		*who;		/* per pollfd of fan_events: a
					 * connection, or -1 stdin, -2 lfd */
	char		**heads;	/* a deal (fan_deal_new): each
					 * process's, sent whole; NULL: a fan */
	size_t		*hlen;
	unsigned char	*dealt;		/* ... each process's taken */
};

/* "ADDRESS:PORT" for the trampolines: the loopback address alone when
 * local, else every IPv4 address of this machine's interfaces that are
 * up but the loopback one (on another host, 127.0.0.1 is that host's,
 * where another user may listen first); NULL when there is none (caller
 * frees). */
static char *
fan_addrs(int port, int local)
{
	struct ifaddrs	*ifa = NULL, *i;
	char		 a[INET_ADDRSTRLEN], *s = NULL, *t;

	if (local) {
		xasprintf(&s, "127.0.0.1:%d", port);
		return s;
	}
	if (getifaddrs(&ifa) == 0) {
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
	return s;
}

/* A listener for n processes (fan_new's, without the file). */
static struct fan *
fan_listen(int n, int local, const char *key, char **addrs, char **cause)
{
	struct fan		*f;
	struct sockaddr_in	 sin;
	socklen_t		 len = sizeof(sin);
	int			 fd, defer = FAN_DEFER;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		xasprintf(cause, "cannot make a socket: %s", strerror(errno));
		return NULL;
	}
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(local ? INADDR_LOOPBACK : INADDR_ANY);
	/* (A connection is handed over once its first message is there;
	 * one that says nothing, only after FAN_DEFER.) */
	setsockopt(fd, IPPROTO_TCP, TCP_DEFER_ACCEPT, &defer, sizeof(defer));
	if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)) != 0 ||
	    listen(fd, SOMAXCONN) != 0 ||
	    getsockname(fd, (struct sockaddr *)&sin, &len) != 0) {
		xasprintf(cause, "cannot listen on a TCP port: %s",
		    strerror(errno));
		close(fd);
		return NULL;
	}
	if ((*addrs = fan_addrs(ntohs(sin.sin_port), local)) == NULL) {
		xasprintf(cause, "this machine has no network address another"
		    " host can connect to");
		close(fd);
		return NULL;
	}
	f = xcalloc(1, sizeof(*f));
	f->lfd = fd;
	f->file = -1;
	f->key = key;
	f->n = n;
	f->who = xcalloc(FAN_NFDS((size_t)n), sizeof(*f->who));
	f->ids = hmap_new();
	return f;
}

struct fan *
fan_new(int n, int local, const char *key, const char *dir, char **addrs,
    char **cause)
{
	struct fan	*f;
	int		 file;

	if ((file = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600)) < 0) {
		xasprintf(cause, "cannot make a file in '%s': %s", dir,
		    strerror(errno));
		return NULL;
	}
	if ((f = fan_listen(n, local, key, addrs, cause)) == NULL) {
		close(file);
		return NULL;
	}
	f->file = file;
	return f;
}

static uint64_t	fan_hex64(const char *);

struct fan *
fan_deal_new(int n, int local, const char *key, char **heads, size_t *hlen,
    char **addrs, char **cause)
{
	struct fan	*f;
	char		 id[AUTH_ID + 1], num[32];
	int		 r, old;

	if ((f = fan_listen(n, local, key, addrs, cause)) == NULL) {
		for (r = 0; r < n; r++)
			free(heads[r]);
		free(heads);
		free(hlen);
		return NULL;
	}
	f->heads = heads;
	f->hlen = hlen;
	f->dealt = xcalloc((size_t)n + 1, 1);
	f->in_eof = 1;
	for (r = 0; r < n; r++) {
		snprintf(num, sizeof(num), "%d", r);
		auth_id(id, key, num);
		hmap_put(f->ids, fan_hex64(id), fan_hex64(id + 16), r, &old);
	}
	return f;
}

/* Whether the other end of a connection, peer to self, is a socket of
 * this machine that another user owns (its kernel says, sock_diag(7)):
 * that one is no trampoline of ours, which run as we do.  0 when it is
 * ours, or on another host, or the kernel cannot say. */
static int
fan_stranger(const struct sockaddr_in *peer, const struct sockaddr_in *self)
{
	struct {
		struct nlmsghdr		h;
		struct inet_diag_req_v2	r;
	}			 req;
	union {
		struct nlmsghdr	h;
		char		b[1024];
	}			 ans;
	struct sockaddr_nl	 nl;
	struct inet_diag_msg	*m;
	ssize_t			 n;
	int			 fd, stranger = 0;

	if ((fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC,
	    NETLINK_SOCK_DIAG)) < 0)
		return 0;
	memset(&req, 0, sizeof(req));
	req.h.nlmsg_len = sizeof(req);
	req.h.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	req.h.nlmsg_flags = NLM_F_REQUEST;
	req.r.sdiag_family = AF_INET;
	req.r.sdiag_protocol = IPPROTO_TCP;
	req.r.idiag_states = ~0U;
	/* The peer's socket: its end is our peer, its other end us. */
	req.r.id.idiag_sport = peer->sin_port;
	req.r.id.idiag_dport = self->sin_port;
	req.r.id.idiag_src[0] = peer->sin_addr.s_addr;
	req.r.id.idiag_dst[0] = self->sin_addr.s_addr;
	req.r.id.idiag_cookie[0] = INET_DIAG_NOCOOKIE;
	req.r.id.idiag_cookie[1] = INET_DIAG_NOCOOKIE;
	memset(&nl, 0, sizeof(nl));
	nl.nl_family = AF_NETLINK;
	if (sendto(fd, &req, sizeof(req), 0, (struct sockaddr *)&nl,
	    sizeof(nl)) == (ssize_t)sizeof(req) &&
	    (n = recv(fd, &ans, sizeof(ans), 0)) > 0 &&
	    NLMSG_OK(&ans.h, (size_t)n) &&
	    ans.h.nlmsg_type == SOCK_DIAG_BY_FAMILY &&
	    ans.h.nlmsg_len >= NLMSG_LENGTH(sizeof(*m))) {
		m = NLMSG_DATA(&ans.h);
		stranger = m->idiag_uid != geteuid();
	}
	close(fd);
	return stranger;
}

/* Drop connection i: its process ended, or it did not prove itself. */
static void
fan_drop(struct fan *f, int i)
{
	if (f->c[i].step != FAN_LIVE)
		f->npending--;
	close(f->c[i].fd);
	f->c[i].fd = -1;
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

/* Drop the connections that did not prove themselves in time. */
static void
fan_expire(struct fan *f)
{
	double	now = clock_now();
	int	i;

	for (i = 0; f->npending > 0 && i < f->nc; i++)
		if (f->c[i].fd >= 0 && f->c[i].step != FAN_LIVE &&
		    now >= f->c[i].since + FAN_AUTH_WAIT)
			fan_drop(f, i);
}

double
fan_deadline(const struct fan *f)
{
	double	d = -1;
	int	i;

	for (i = 0; f->npending > 0 && i < f->nc; i++)
		if (f->c[i].fd >= 0 && f->c[i].step != FAN_LIVE &&
		    (d < 0 || f->c[i].since + FAN_AUTH_WAIT < d))
			d = f->c[i].since + FAN_AUTH_WAIT;
	return d;
}

int
fan_events(struct fan *f, struct pollfd *pfd)
{
	struct fan_conn	*c;
	int		 i, k = 0;

	fan_expire(f);
	if (f->heads == NULL && !f->in_eof && f->clen == 0) {
		f->who[k] = -1;
		pfd[k].fd = 0;
		pfd[k++].events = POLLIN;
	}
	for (i = 0; i < f->nc; i++) {
		c = &f->c[i];
		if (c->fd < 0)
			continue;
		if (c->step == FAN_LIVE && c->off == (f->heads != NULL ?
		    (off_t)f->hlen[c->proc] : f->end)) {
			if (f->in_eof)
				fan_end(f, i);
			continue;	/* nothing for it yet */
		}
		f->who[k] = i;
		pfd[k].fd = c->fd;
		pfd[k++].events = c->step == FAN_LIVE ? POLLOUT : POLLIN;
	}
	/* The listener last: what a connection waiting among strangers
	 * said is read before new ones are taken (fan_accept). */
	if (f->lfd >= 0) {
		f->who[k] = -2;
		pfd[k].fd = f->lfd;
		pfd[k++].events = POLLIN;
	}
	return k;
}

/* Drop the connection that has waited longest without proving itself:
 * a trampoline's message is there when its connection is accepted, and
 * read then, so one that waits is most likely no trampoline's (and a
 * trampoline's that waits, the newest). */
static void
fan_evict(struct fan *f)
{
	int	i, old = -1;

	for (i = 0; i < f->nc; i++)
		if (f->c[i].fd >= 0 && f->c[i].step != FAN_LIVE &&
		    (old < 0 || f->c[i].since < f->c[old].since))
			old = i;
	if (old >= 0)
		fan_drop(f, old);
}

static void	fan_hello(struct fan *, int);

/* Take the new connections (a round of them at most), each judged by
 * what it said: read as it is accepted, so that a trampoline's, whose
 * first message is there by then, is taken at once, and garbage closed;
 * at most FAN_PENDING whose message is not all there wait, the oldest
 * dropped for a new one.  One another user of this machine opened is
 * dropped at once, before it can take any place.  A slot whose
 * connection was dropped is taken again. */
static void
fan_accept(struct fan *f)
{
	struct sockaddr_in	peer, self;
	socklen_t		len;
	int			fd, i, k;

	for (k = 0; k < FAN_PENDING && f->lfd >= 0; k++) {
		if ((fd = accept4(f->lfd, NULL, NULL, SOCK_NONBLOCK |
		    SOCK_CLOEXEC)) < 0)
			return;
		len = sizeof(peer);
		if (getpeername(fd, (struct sockaddr *)&peer, &len) != 0 ||
		    peer.sin_family != AF_INET ||
		    (len = sizeof(self), getsockname(fd, (struct sockaddr *)&self,
		    &len) != 0) || fan_stranger(&peer, &self)) {
			close(fd);
			continue;
		}
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
		f->c[i].step = FAN_HELLO;
		f->c[i].since = clock_now();
		f->c[i].peer = peer;
		f->c[i].self = self;
		f->npending++;
		fan_hello(f, i);
		if (f->npending > FAN_PENDING)
			fan_evict(f);
	}
}

/* Connection i proved itself: it is a process's.  Once all are, no more
 * are taken, and those still proving themselves are dropped. */
static void
fan_live(struct fan *f, int i)
{
	int	k;

	f->c[i].step = FAN_LIVE;
	f->c[i].off = 0;		/* all of it */
	f->npending--;
	if (++f->nlive < f->n)
		return;
	close(f->lfd);
	f->lfd = -1;
	for (k = 0; k < f->nc; k++)
		if (f->c[k].fd >= 0 && f->c[k].step != FAN_LIVE)
			fan_drop(f, k);
}

/* The 16 hex digits at s, as a number. */
static uint64_t
fan_hex64(const char *s)
{
	uint64_t	v = 0;
	int		i;

	for (i = 0; i < 16; i++)
		v = v << 4 | (uint64_t)(s[i] <= '9' ? s[i] - '0' : s[i] - 'a' + 10);
	return v;
}

/* Read what connection i says in its first message (auth.h), no more
 * than it (nothing may be read past it), and judge it once it is whole:
 * a trampoline's of the run, for a process not taken yet, is taken and
 * answered with our proof.  Anything else, or its end, drops it. */
static void
fan_hello(struct fan *f, int i)
{
	struct fan_conn	*c = &f->c[i];
	char		 out[AUTH_ANSWER_LEN], cn[AUTH_NONCE + 1], id[AUTH_ID + 1];
	ssize_t		 r;
	int		 old;

	r = read(c->fd, c->in + c->inlen, AUTH_HELLO_LEN - c->inlen);
	if (r < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (r <= 0)
		goto drop;
	if ((c->inlen += (size_t)r) < AUTH_HELLO_LEN)
		return;
	if (auth_hello_check(c->in, f->key, &c->peer, &c->self, cn, id) != 0)
		goto drop;
	/* Each process once: a first message sent again (replayed) finds
	 * its process taken; a deal's, one of its processes. */
	if (f->heads != NULL) {
		if ((old = hmap_get(f->ids, fan_hex64(id), fan_hex64(id + 16))) <
		    0 || f->dealt[old])
			goto drop;
		f->dealt[old] = 1;
		c->proc = old;
	} else if (hmap_put(f->ids, fan_hex64(id), fan_hex64(id + 16), 0,
	    &old) == HMAP_FOUND)
		goto drop;
	auth_answer(out, f->key, cn, id, &c->peer, &c->self);
	/* A new connection's buffer takes it whole. */
	if (write(c->fd, out, sizeof(out)) != (ssize_t)sizeof(out))
		goto drop;
	fan_live(f, i);
	return;
drop:
	fan_drop(f, i);
}

/* Send connection i what it has not taken. */
static void
fan_write(struct fan *f, int i)
{
	struct fan_conn	*c = &f->c[i];
	ssize_t		 w;

	if (f->heads != NULL) {
		w = write(c->fd, f->heads[c->proc] + c->off,
		    f->hlen[c->proc] - (size_t)c->off);
		if (w > 0)
			c->off += w;
	} else
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

	if (f->heads != NULL || f->nlive < f->n)
		return;
	for (i = 0; i < f->nc; i++)
		if (f->c[i].fd >= 0 && f->c[i].step == FAN_LIVE && f->c[i].off < lo)
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
		else if (f->c[i].step != FAN_LIVE)
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
	if (f->file >= 0)
		close(f->file);
	for (i = 0; f->heads != NULL && i < f->n; i++)
		free(f->heads[i]);
	free(f->heads);
	free(f->hlen);
	free(f->dealt);
	free(f->c);
	free(f->who);
	hmap_free(f->ids);
	free(f);
}
