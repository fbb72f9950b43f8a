/* tramp.c -- ensemble-exec, the trampoline: the small program 'ensemble
 * run' starts in place of every component, one line of mpirun's appfile each
 * (runtime/wire.h), so that a component that ends before it joins is
 * named, and so that every byte of its arguments and environment reaches
 * it whatever Open MPI's appfile can hold:
 *
 *	ensemble-exec TOKEN...
 *
 * Its tokens, decoded (wire_token_get), are
 *
 *	NAME ROOT [--relay] [--tables | --tables-file FILE] [--stdin]
 *	    [--stdin-net ADDRESSES] [--watch PID:FD:HOST] [--wdir DIR] COUNT
 *	    NAME=VALUE... PATH [ARG...]
 *
 * (or 'ensemble-exec --plan PLAN': those tokens are line RANK of PLAN,
 * RANK the launcher's; or 'ensemble-exec --plan-net ADDRESSES': that line
 * from 'ensemble run' over TCP, with the root's tables, for a host that
 * has no file of the run's), and the run's secrets are in its environment
 * (WIRE_ENV_SECRET, with --stdin-net WIRE_ENV_STDIN_KEY), which it takes
 * them out of, and it cannot be read by the component (not dumpable).
 * It says where it runs; with --tables it reads the bundle of port tables
 * off its standard input into a memory file for the component's ens_init
 * (with --tables-file, FILE in the run's directory holds it: opened, if
 * it is ours alone, for ens_init);
 * it gives the component /dev/null as its standard input (with --stdin,
 * the rest of its own; with --stdin-net, a connection to 'ensemble run',
 * which copies its own to every process), forks it in DIR with the COUNT environment entries
 * set, and WIRE_ENV, WIRE_ENV_ROOT and WIRE_ENV_TABLES, and says how it
 * ended, as marker lines on stderr (wire.h: "start", "cannot", "end");
 * then it ends the same way, which is what Open MPI sees.  With --watch
 * PID:FD:HOST it gives the component the memory file of its slot in the
 * run's deadlock watch (lookout.h): 'ensemble run''s, on its host;
 * elsewhere one of its own, which it reads every WIRE_WATCH_PERIOD.  It
 * links no MPI, so that it costs a process little, and waits in ppoll,
 * so that it wakes while the component runs only for its output (and
 * elsewhere than on the host of 'ensemble run', to read its slot). */
#include "config.h"

#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "auth.h"
#include "fdio.h"
#include "lookout.h"
#include "pcgdot.h"
#include "tramp-hand.h"
#include "wire.h"
#include "xmalloc.h"

#define TRAMP_CONNECT_WAIT	10	/* seconds, for 'ensemble run' to answer
					 * at one address (--stdin-net), and
					 * to go through its handshake */
#define TRAMP_STDIN_ROUNDS	5	/* times the addresses are tried */
#define TRAMP_STDIN_PAUSE	100	/* ms before the second round, twice as
					 * long before each next */

/* Why the child could not become the component, sent to the trampoline
 * over a close-on-exec pipe with the errno. */
enum tramp_stage {
	TRAMP_CHDIR,
	TRAMP_ENV,
	TRAMP_EXEC,
};

/* The decoded arguments. */
struct tramp {
	const char	 *name;
	const char	 *root;
	int		  tables;	/* read the bundle off stdin */
	const char	 *tables_file;	/* --tables-file: the bundle's file */
	int		  keep_stdin;	/* the rest of stdin is the component's */
	const char	 *stdin_net;	/* --stdin-net: where 'ensemble run'
					 * hands out its stdin (fan.h) */
	const char	 *wdir;		/* NULL: stay */
	const char	 *secret;	/* --relay: the run's secret; NULL: the
					 * component has our stdout and stderr */
	const char	 *stdin_key;	/* --stdin-net: the handshake's key */
	const char	 *watch;	/* --watch: the deadlock watch's token */
	int		  watchfd;	/* the memory file of the component's slot
					 * (lookout.h); -1: none */
	char		**env;		/* the entries to set */
	long long	  nenv;
	char		**argv;		/* the executable, then its arguments */
	char		  host[256];
};

/* The trampoline's handler for the signals Open MPI sends to the process
 * group (SIGUSR1 of --timeout, SIGTERM when it stops the job): they reach
 * the component too; the trampoline only outlives it, to say how it ended. */
static void
on_tramp_signal(int sig)
{
	(void)sig;
}

static void __attribute__((noreturn))
tramp_usage(void)
{
	fprintf(stderr, "usage: ensemble-exec TOKEN... (started by 'ensemble run'"
	    " for each process: NAME ROOT [--relay] [--tables | --tables-file"
	    " FILE] [--stdin]"
	    " [--stdin-net ADDRESSES] [--watch PID:FD:HOST]"
	    " [--wdir DIR]"
	    " COUNT NAME=VALUE... PATH [ARG...], each encoded; with --relay "
	    WIRE_ENV_SECRET ", with --stdin-net " WIRE_ENV_STDIN_KEY
	    " in its environment)\n");
	exit(2);
}

/* A marker line on stderr (runtime/wire.h): WIRE_MARK, the run's secret
 * and a space when there is one, what fmt says, a newline; the one way
 * the trampoline writes them. */
static void __attribute__((format(printf, 2, 0)))
tramp_vmark(const struct tramp *t, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s%s%s", WIRE_MARK, t->secret != NULL ? t->secret : "",
	    t->secret != NULL ? " " : "");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

static void __attribute__((format(printf, 2, 3)))
tramp_mark(const struct tramp *t, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	tramp_vmark(t, fmt, ap);
	va_end(ap);
}

/* Say that the component cannot be started, and why, and leave as Open
 * MPI takes a process that could not start. */
static void __attribute__((noreturn, format(printf, 2, 3)))
tramp_cannot(const struct tramp *t, const char *fmt, ...)
{
	va_list	ap;
	char	*why;

	va_start(ap, fmt);
	if (xvasprintf(&why, fmt, ap) < 0)
		why = NULL;
	va_end(ap);
	tramp_mark(t, WIRE_WORD_CANNOT " %s %s", t->host, why != NULL ? why :
	    fmt);
	exit(127);
}

/* The value of the environment variable name, copied (caller frees);
 * taken out of the environment, and its bytes where the kernel put them
 * (what /proc/PID/environ shows) overwritten.  NULL when it is not set. */
static char *
tramp_take_env(const char *name)
{
	char	*v = getenv(name), *copy;

	if (v == NULL)
		return NULL;
	copy = xstrdup(v);
	memset(v, 0, strlen(v));
	unsetenv(name);
	return copy;
}

/* Decode the tokens and take the arguments apart into t, and the secrets
 * out of the environment. */
static void
tramp_args(struct tramp *t, int argc, char **argv)
{
	char	**v, *secret, *key;
	int	  i, n, k = 0, relay = 0;

	secret = tramp_take_env(WIRE_ENV_SECRET);
	key = tramp_take_env(WIRE_ENV_STDIN_KEY);

	v = xcalloc((size_t)argc + 1, sizeof(*v));
	for (i = 1, n = 0; i < argc; i++)
		if ((v[n++] = wire_token_get(argv[i])) == NULL)
			tramp_usage();
	if (n < 4)
		tramp_usage();
	t->name = v[k++];
	t->root = v[k++];
	for (;;) {
		if (k < n && strcmp(v[k], WIRE_FLAG_TABLES) == 0) {
			t->tables = 1;
			k++;
		} else if (k + 1 < n && strcmp(v[k], WIRE_FLAG_TABLES_FILE) == 0) {
			t->tables_file = v[k + 1];
			k += 2;
		} else if (k < n && strcmp(v[k], WIRE_FLAG_STDIN) == 0) {
			t->keep_stdin = 1;
			k++;
		} else if (k < n && strcmp(v[k], WIRE_FLAG_RELAY) == 0) {
			relay = 1;
			k++;
		} else if (k + 1 < n && strcmp(v[k], WIRE_FLAG_STDIN_NET) == 0) {
			t->stdin_net = v[k + 1];
			k += 2;
		} else if (k + 1 < n && strcmp(v[k], WIRE_FLAG_WATCH) == 0) {
			t->watch = v[k + 1];
			k += 2;
		} else if (k + 1 < n && strcmp(v[k], WIRE_FLAG_WDIR) == 0) {
			t->wdir = v[k + 1];
			k += 2;
		} else
			break;
	}
	if (k >= n || pcgdot_int(v[k], 0, n - k - 2, &t->nenv) != 0)
		tramp_usage();
	t->env = v + k + 1;
	for (i = 0; i < t->nenv; i++)
		if (t->env[i][0] == '=' || strchr(t->env[i], '=') == NULL)
			tramp_usage();
	t->argv = t->env + t->nenv;
	if (relay && (secret == NULL || secret[0] == '\0' ||
	    strpbrk(secret, " \n") != NULL))
		tramp_usage();
	t->secret = relay ? secret : NULL;
	if (!relay)
		free(secret);	/* not ours to use: gone from the environment */
	t->stdin_key = key;
	if (t->tables && t->tables_file != NULL)
		tramp_usage();
	if (t->stdin_net != NULL && (!relay || t->keep_stdin || key == NULL ||
	    key[0] == '\0'))
		tramp_usage();
}

/* A connection to ADDRESS:PORT (IPv4), waiting at most TRAMP_CONNECT_WAIT
 * for it; -1 with errno set. */
static int
tramp_connect(const char *addr)
{
	struct sockaddr_in	 sin;
	struct pollfd		 pfd;
	socklen_t		 len = sizeof(int);
	char			 a[INET_ADDRSTRLEN], *end;
	const char		*colon = strrchr(addr, ':');
	long			 port;
	int			 fd, e;

	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	if (colon == NULL || (size_t)(colon - addr) >= sizeof(a)) {
		errno = EINVAL;
		return -1;
	}
	memcpy(a, addr, (size_t)(colon - addr));
	a[colon - addr] = '\0';
	errno = 0;
	port = strtol(colon + 1, &end, 10);
	if (inet_pton(AF_INET, a, &sin.sin_addr) != 1 || *end != '\0' ||
	    errno != 0 || port <= 0 || port > 65535) {
		errno = EINVAL;
		return -1;
	}
	sin.sin_port = htons((uint16_t)port);
	if ((fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0)) < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sin, sizeof(sin)) != 0) {
		if (errno != EINPROGRESS)
			goto fail;
		pfd.fd = fd;
		pfd.events = POLLOUT;
		while ((e = poll(&pfd, 1, TRAMP_CONNECT_WAIT * 1000)) < 0 &&
		    errno == EINTR)
			;
		if (e == 0)
			errno = ETIMEDOUT;
		if (e <= 0)
			goto fail;
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &len) != 0)
			goto fail;
		if (e != 0) {
			errno = e;
			goto fail;
		}
	}
	if (fcntl(fd, F_SETFL, 0) != 0)
		goto fail;
	return fd;
fail:
	e = errno;
	close(fd);
	errno = e;
	return -1;
}

/* Read exactly n bytes of fd into p, each within 'wait' seconds of the
 * one before (0: however long it takes): 0, or -1 (errno 0 at a short
 * end, ETIMEDOUT). */
static int
read_exactly(int fd, char *p, size_t n, int wait)
{
	struct pollfd	pfd;
	ssize_t		r;
	int		e;

	pfd.fd = fd;
	pfd.events = POLLIN;
	while (n > 0) {
		if (wait > 0 && (e = poll(&pfd, 1, wait * 1000)) <= 0) {
			if (e < 0 && errno == EINTR)
				continue;
			if (e == 0)
				errno = ETIMEDOUT;
			return -1;
		}
		if ((r = read(fd, p, n)) < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r == 0)
				errno = 0;
			return -1;
		}
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

/* The handshake on fd (auth.h) under key, for the process called name:
 * our first message, which proves us;
 * 'ensemble run's answer, which proves it and says that it took us,
 * checked.  0, or -1 and *why (static) when the other end did not take
 * us or did not prove to be 'ensemble run'. */
static int
tramp_handshake(const char *key, const char *name, int fd, const char **why)
{
	struct sockaddr_in	 self, peer;
	socklen_t		 len;
	char			 cn[AUTH_NONCE + 1], id[AUTH_ID + 1];
	char			 out[AUTH_HELLO_LEN], in[AUTH_ANSWER_LEN];

	*why = "it did not answer";
	len = sizeof(self);
	if (getsockname(fd, (struct sockaddr *)&self, &len) != 0)
		return -1;
	len = sizeof(peer);
	if (getpeername(fd, (struct sockaddr *)&peer, &len) != 0)
		return -1;
	auth_hello(out, cn, id, key, name, &self, &peer);
	/* (MSG_NOSIGNAL: a connection the other end dropped is an error
	 * here, not our death by SIGPIPE.) */
	if (send(fd, out, AUTH_HELLO_LEN, MSG_NOSIGNAL) != AUTH_HELLO_LEN ||
	    shutdown(fd, SHUT_WR) != 0 ||
	    read_exactly(fd, in, AUTH_ANSWER_LEN, TRAMP_CONNECT_WAIT) != 0)
		return -1;
	*why = "what answered did not prove to be 'ensemble run'";
	if (!auth_answer_check(in, key, cn, id, &self, &peer))
		return -1;
	return 0;
}

/* A connection to 'ensemble run' at the first of its addresses (list,
 * "IPV4:PORT" separated by ',') that takes us, the process called name,
 * under key and proves to be it, trying the list again a few times (an
 * answer may be another's, and 'ensemble run' may have dropped us among
 * strangers): its descriptor, or -1 and *why (a new string), *talked
 * set when some address answered (but did not take us, or prove). */
static int
tramp_dial(const char *addrs, const char *key, const char *name, char **why,
    int *talked)
{
	char		*list, *a, *save = NULL;
	const char	*no = NULL;
	int		 fd = -1, e = EINVAL, round;

	for (round = 0; round < TRAMP_STDIN_ROUNDS && fd < 0; round++) {
		if (round > 0)
			usleep((useconds_t)(TRAMP_STDIN_PAUSE << (round - 1)) *
			    1000);
		list = xstrdup(addrs);
		for (a = strtok_r(list, ",", &save); a != NULL && fd < 0;
		    a = strtok_r(NULL, ",", &save)) {
			if ((fd = tramp_connect(a)) < 0) {
				e = errno;
				continue;
			}
			if (tramp_handshake(key, name, fd, &no) != 0) {
				close(fd);
				fd = -1;
			}
		}
		free(list);
	}
	*talked = no != NULL;
	if (fd < 0)
		xasprintf(why, "%s", no != NULL ? no : strerror(e));
	return fd;
}

/* --stdin-net: connect to 'ensemble run' (tramp_dial) and make the
 * connection our standard input, which the component inherits (fan.h). */
static void
tramp_stdin_net(const struct tramp *t)
{
	char	*why = NULL;
	int	 fd, talked;

	fd = tramp_dial(t->stdin_net, t->stdin_key, t->name, &why, &talked);
	if (fd < 0 && talked)
		tramp_cannot(t, "cannot take 'ensemble run's standard input (%s):"
		    " %s", t->stdin_net, why);
	if (fd < 0)
		tramp_cannot(t, "cannot connect to 'ensemble run' for its standard"
		    " input (%s): %s", t->stdin_net, why);
	if (fd != STDIN_FILENO && dup2(fd, STDIN_FILENO) < 0)
		tramp_cannot(t, "cannot take 'ensemble run's standard input: %s",
		    strerror(errno));
	if (fd != STDIN_FILENO)
		close(fd);
}

/* This process's rank, as the launcher that started one command for
 * every process gives it (PMI_RANK, PMIX_RANK or SLURM_PROCID). */
static long
tramp_rank(void)
{
	static const char	*vars[] = { "PMI_RANK", "PMIX_RANK",
				    "SLURM_PROCID" };
	const char		*v = NULL;
	char			*e;
	long			 rank = -1;
	unsigned		 i;

	for (i = 0; i < sizeof(vars) / sizeof(vars[0]) && v == NULL; i++)
		v = getenv(vars[i]);
	if (v == NULL || (rank = strtol(v, &e, 10)) < 0 || *e != '\0' ||
	    e == v) {
		fprintf(stderr, "ensemble-exec: --plan: no rank (PMI_RANK,"
		    " PMIX_RANK or SLURM_PROCID) in the environment\n");
		exit(127);
	}
	return rank;
}

/* The tokens of line (a plan's, its newline gone: taken apart in place)
 * into *argc and *argv, after argv0; the plan's processes, world, in
 * WIRE_ENV_WORLD, which ens_init holds its world to. */
static void
tramp_plan_tokens(char *argv0, char *line, long world, int *argc,
    char ***argv)
{
	char	**nv, *p, num[32];
	size_t	  n = 0;

	snprintf(num, sizeof(num), "%ld", world);
	setenv(WIRE_ENV_WORLD, num, 1);
	nv = xcalloc(strlen(line) / 2 + 3, sizeof(*nv));
	nv[n++] = argv0;
	for (p = strtok(line, " "); p != NULL; p = strtok(NULL, " "))
		nv[n++] = p;
	*argc = (int)n;
	*argv = nv;
}

/* 'ensemble-exec --plan FILE', one command for every process (a launcher
 * that starts N copies of it): this process's tokens are line RANK of FILE
 * (from 0), RANK the launcher's (tramp_rank), into *argc and *argv, after
 * argv0. */
static void
tramp_plan(char *argv0, const char *file, int *argc, char ***argv)
{
	char			*text = NULL, *p, *e, *q;
	long			 rank = tramp_rank(), k;
	size_t			 len = 0, cap = 0;
	ssize_t			 r;
	int			 fd;

	if ((fd = open(file, O_RDONLY | O_CLOEXEC)) < 0) {
		fprintf(stderr, "ensemble-exec: cannot open '%s': %s\n", file,
		    strerror(errno));
		exit(127);
	}
	for (;;) {
		if (len + 65536 + 1 > cap)
			text = xrealloc(text, cap = 2 * cap + 65536 + 1);
		if ((r = read(fd, text + len, cap - len - 1)) < 0 &&
		    errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	text[len] = '\0';
	for (p = text, k = 0; k < rank && p != NULL; k++)
		if ((p = strchr(p, '\n')) != NULL)
			p++;
	if (p == NULL || *p == '\0') {
		fprintf(stderr, "ensemble-exec: '%s' has no line %ld\n", file,
		    rank);
		exit(127);
	}
	if ((e = strchr(p, '\n')) != NULL)
		*e = '\0';
	for (k = rank + 1, q = e; q != NULL && q[1] != '\0'; k++)
		q = strchr(q + 1, '\n');
	tramp_plan_tokens(argv0, p, k, argc, argv);
}

/* 'ensemble-exec --plan-net ADDRESSES': this process's line of the plan
 * from 'ensemble run' over TCP (wire.h), the key of the handshake taken
 * out of the environment, its name the rank (tramp_rank); its tokens into
 * *argc and *argv, after argv0.  The connection, where the root's tables
 * follow (tramp_tables). */
static int
tramp_plan_net(char *argv0, const char *addrs, int *argc, char ***argv)
{
	char	*key = tramp_take_env(WIRE_ENV_PLAN_KEY), *why = NULL, *line, *e;
	char	 head[64], name[32];
	long	 rank = tramp_rank(), world;
	size_t	 k;
	unsigned long long len;
	int	 fd, talked;

	if (key == NULL || key[0] == '\0') {
		fprintf(stderr, "ensemble-exec: --plan-net: no %s in the"
		    " environment\n", WIRE_ENV_PLAN_KEY);
		exit(127);
	}
	snprintf(name, sizeof(name), "%ld", rank);
	if ((fd = tramp_dial(addrs, key, name, &why, &talked)) < 0) {
		fprintf(stderr, "ensemble-exec: %s 'ensemble run' for its line of"
		    " the plan (%s): %s\n", talked ? "not taken by" :
		    "cannot connect to", addrs, why);
		exit(127);
	}
	free(key);
	/* "WORLD LENGTH\n", a byte at a time: nothing past it is read. */
	for (k = 0; k < sizeof(head) - 1; k++)
		if (read_exactly(fd, head + k, 1, TRAMP_CONNECT_WAIT) != 0 ||
		    head[k] == '\n')
			break;
	head[k] = '\0';
	errno = 0;
	if (k == sizeof(head) - 1 || (world = strtol(head, &e, 10)) <= rank ||
	    *e != ' ' || (len = strtoull(e + 1, &e, 10)) == 0 || *e != '\0' ||
	    errno != 0 || len > SIZE_MAX - 1) {
		fprintf(stderr, "ensemble-exec: --plan-net: 'ensemble run' did"
		    " not send line %ld of the plan\n", rank);
		exit(127);
	}
	line = xmalloc((size_t)len + 1);
	if (read_exactly(fd, line, (size_t)len, TRAMP_CONNECT_WAIT) != 0) {
		fprintf(stderr, "ensemble-exec: --plan-net: line %ld of the plan"
		    " did not arrive whole: %s\n", rank, errno != 0 ?
		    strerror(errno) : "the connection ended");
		exit(127);
	}
	line[len] = '\0';
	tramp_plan_tokens(argv0, line, world, argc, argv);
	return fd;
}

/* Read the bundle of port tables off in (standard input, or the plan's
 * connection: what, in messages), byte for byte so that what follows
 * stays there, into a memory file the component inherits: its
 * descriptor. */
static int
tramp_tables(const struct tramp *t, int in, const char *what)
{
	char	 head[WIRE_BUNDLE_HEAD], *rest;
	int64_t	 n;
	int	 fd;

	if (read_exactly(in, head, sizeof(head), 0) != 0)
		tramp_cannot(t, "the port tables did not arrive on %s: %s", what,
		    errno ? strerror(errno) : "it ended");
	if ((n = wire_bundle_rest(head)) < 0 || (uint64_t)n > SIZE_MAX)
		tramp_cannot(t, "%s does not start with the port tables", what);
	rest = xmalloc((size_t)n + 1);
	if (read_exactly(in, rest, (size_t)n, 0) != 0)
		tramp_cannot(t, "the port tables did not arrive whole on %s: %s",
		    what, errno ? strerror(errno) : "it ended");
	if ((fd = memfd_create("ensemble-tables", 0)) < 0)
		tramp_cannot(t, "cannot make a memory file: %s", strerror(errno));
	if (write(fd, head, sizeof(head)) != (ssize_t)sizeof(head) ||
	    write(fd, rest, (size_t)n) != (ssize_t)n ||
	    lseek(fd, 0, SEEK_SET) != 0)
		tramp_cannot(t, "cannot write a memory file: %s", strerror(errno));
	free(rest);
	return fd;
}

/* --tables-file: open the bundle of port tables 'ensemble run' wrote in
 * the run's directory, for the component to inherit: a regular file of
 * ours that no one else may write, whose length is a whole bundle's.  Its
 * descriptor, at its start. */
static int
tramp_tables_file(const struct tramp *t)
{
	char		 head[WIRE_BUNDLE_HEAD];
	struct stat	 st;
	int64_t		 n;
	int		 fd;

	if ((fd = open(t->tables_file, O_RDONLY | O_NOFOLLOW)) < 0)
		tramp_cannot(t, "cannot open the port tables '%s': %s",
		    t->tables_file, strerror(errno));
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
		tramp_cannot(t, "the port tables '%s' are not a file of this"
		    " user's alone", t->tables_file);
	if (read_exactly(fd, head, sizeof(head), 0) != 0 ||
	    (n = wire_bundle_rest(head)) < 0 ||
	    (uint64_t)st.st_size != (uint64_t)n + sizeof(head) ||
	    lseek(fd, 0, SEEK_SET) != 0)
		tramp_cannot(t, "'%s' does not hold the port tables",
		    t->tables_file);
	return fd;
}

/* In the child: become the component, or tell the trampoline over ex
 * which step failed and why. */
static void __attribute__((noreturn))
tramp_child(const struct tramp *t, pid_t parent, int ex, int tables,
    const int *pipes, const sigset_t *mask)
{
	char	num[32];
	int	msg[2] = { TRAMP_ENV, 0 }, i, m;

	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	if (getppid() != parent)
		_exit(127);
	sigprocmask(SIG_SETMASK, mask, NULL);
	if (t->secret != NULL) {
		/* Its stdout and stderr to the relay, and a descriptor of
		 * its own for libensemble's markers (pipes[]: the write
		 * ends, close-on-exec). */
		if (dup2(pipes[0], STDOUT_FILENO) < 0 ||
		    dup2(pipes[1], STDERR_FILENO) < 0 ||
		    (m = dup(pipes[2])) < 0)
			goto fail;
		snprintf(num, sizeof(num), "%d", m);
		if (setenv(WIRE_ENV_MARKS, num, 1) != 0)
			goto fail;
	} else if (unsetenv(WIRE_ENV_MARKS) != 0)
		goto fail;
	if (t->wdir != NULL && chdir(t->wdir) != 0) {
		msg[0] = TRAMP_CHDIR;
		goto fail;
	}
	for (i = 0; i < t->nenv; i++)
		if (putenv(t->env[i]) != 0)
			goto fail;
	snprintf(num, sizeof(num), "%d", tables);
	if (setenv(WIRE_ENV, "1", 1) != 0 || setenv(WIRE_ENV_ROOT, t->root, 1) != 0 ||
	    (tables >= 0 ? setenv(WIRE_ENV_TABLES, num, 1) :
	    unsetenv(WIRE_ENV_TABLES)) != 0)
		goto fail;
	/* The watch's memory file, for ens_init to map its slot from. */
	if (t->watchfd >= 0) {
		if ((m = dup(t->watchfd)) < 0)
			goto fail;
		snprintf(num, sizeof(num), "%d", m);
	}
	if ((t->watchfd >= 0 ? setenv(WIRE_ENV_WATCH, num, 1) :
	    unsetenv(WIRE_ENV_WATCH)) != 0)
		goto fail;
	msg[0] = TRAMP_EXEC;
	execv(t->argv[0], t->argv);
fail:
	msg[1] = errno;
	while (write(ex, msg, sizeof(msg)) < 0 && errno == EINTR)
		;
	_exit(127);
}

/* One of the component's streams the trampoline relays (--relay): its
 * stdout, its stderr or libensemble's markers, read into buf. */
struct relay_src {
	int	 fd;		/* the read end; -1: at its end */
	int	 out;		/* where it goes: STDOUT_FILENO, STDERR_FILENO;
				 * -1: the markers (on stderr) */
	char	*buf;
	size_t	 len, cap;
	int	 cut;		/* markers: dropping the rest of a long line */
	int	 done;		/* markers: a "fail" passed on, the last */
};

/* Pass on one piece of the component's output (at most WIRE_PIECE bytes),
 * escaped, as a line of its own on fd: kind WIRE_PIECE_LINE when a
 * newline ended it, else WIRE_PIECE_PART (wire.h).  Written whole (a pipe
 * to the launcher, which may block us: so does the component then); an
 * error loses it, as the component's own write would. */
static void
relay_piece(int fd, int kind, const char *s, size_t n)
{
	static char	line[1 + 3 * WIRE_PIECE + 1];
	size_t		k;

	line[0] = (char)kind;
	k = 1 + wire_escape(line + 1, s, n);
	line[k++] = '\n';
	(void)write_all(fd, line, k);
}

/* Pass on a marker line from libensemble (without its newline), with the
 * run's secret after WIRE_MARK, on stderr. */
static void
relay_mark(const struct tramp *t, const char *s, size_t n)
{
	struct wire_buf	b;
	size_t		ml = strlen(WIRE_MARK);

	if (n >= ml && memcmp(s, WIRE_MARK, ml) == 0) {
		s += ml;
		n -= ml;
	}
	memset(&b, 0, sizeof(b));
	if (wire_put_bytes(&b, WIRE_MARK, ml) == 0 &&
	    wire_put_bytes(&b, t->secret, strlen(t->secret)) == 0 &&
	    wire_put_bytes(&b, " ", 1) == 0 && wire_put_bytes(&b, s, n) == 0 &&
	    wire_put_bytes(&b, "\n", 1) == 0)
		(void)write_all(STDERR_FILENO, b.p, b.len);
	free(b.p);
}

/* Whether the marker line s (n bytes, no newline) is a "fail": the
 * component's last, before it calls MPI_Abort. */
static int
relay_is_fail(const char *s, size_t n)
{
	static const char	fail[] = WIRE_MARK WIRE_WORD_FAIL " ";

	return n >= sizeof(fail) - 1 && memcmp(s, fail, sizeof(fail) - 1) == 0;
}

/* Pass on what src holds: each whole line; a piece without a newline
 * once the buffer is full, or at the end ('last').  After a "fail"
 * marker, src is done: its caller closes it, which tells ens_fail that
 * the marker is on its way (wire.h). */
static void
relay_take(const struct tramp *t, struct relay_src *src, int last)
{
	char	*p = src->buf, *nl;
	size_t	 left = src->len;

	while (left > 0 && !src->done &&
	    (nl = memchr(p, '\n', left)) != NULL) {
		if (src->out >= 0)
			relay_piece(src->out, WIRE_PIECE_LINE, p, (size_t)(nl - p));
		else if (!src->cut) {
			relay_mark(t, p, (size_t)(nl - p));
			src->done = relay_is_fail(p, (size_t)(nl - p));
		}
		src->cut = 0;
		left -= (size_t)(nl - p) + 1;
		p = nl + 1;
	}
	if (src->done)
		left = 0;
	if (left > 0 && (left == src->cap || last)) {
		if (src->out >= 0)
			relay_piece(src->out, WIRE_PIECE_PART, p, left);
		else if (!src->cut) {
			relay_mark(t, p, left);
			src->cut = 1;
		}
		left = 0;
	}
	if (left > 0 && p != src->buf)
		memmove(src->buf, p, left);
	src->len = left;
}

/* After a "fail" marker: wait, at most RELAY_DRAIN_WAIT ms, until the
 * launcher has read all we wrote on stderr (a pipe's unread bytes:
 * FIONREAD), so that it holds the marker before the component's
 * MPI_Abort reaches it (MPICH's hydra proxy, told of the abort first,
 * would stop before it forwarded what is still in the pipe). */
#define RELAY_DRAIN_WAIT	2000
static void
relay_drained(void)
{
	int	n, k;

	for (k = 0; k < RELAY_DRAIN_WAIT; k++) {
		if (ioctl(STDERR_FILENO, FIONREAD, &n) != 0 || n <= 0)
			return;
		usleep(1000);
	}
}

/* Read what src has and pass it on; at its end, the rest too. */
static void
relay_read(const struct tramp *t, struct relay_src *src)
{
	ssize_t	n;

	n = read(src->fd, src->buf + src->len, src->cap - src->len);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n > 0) {
		src->len += (size_t)n;
		relay_take(t, src, 0);
		if (!src->done)
			return;
	} else
		relay_take(t, src, 1);
	if (src->done)
		relay_drained();
	close(src->fd);
	src->fd = -1;
}

/* Read the component's slot when due (lookout.h), and pass on what the
 * reading says as marker lines. */
static void
lookout_tell(const struct tramp *t, struct lookout *lo, pid_t pid)
{
	struct wire_buf	 b = { NULL, 0, 0 };
	char		*p, *nl;

	lookout_read(lo, pid, &b);
	for (p = b.p; p != NULL && p < b.p + b.len; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(b.p + b.len - p));
		relay_mark(t, p, (size_t)(nl - p));
	}
	free(b.p);
}

/* Relay the component's output while it runs, until it ends (its wait
 * status); then what is left in the pipes, not waiting for processes it
 * left behind with them. */
static int
relay_run(const struct tramp *t, pid_t pid, struct relay_src *src, int nsrc,
    const sigset_t *wake, struct lookout *lo)
{
	struct pollfd	pfd[3];
	struct timespec	ts;
	double		left;
	int		st, i, n;

	for (;;) {
		if (waitpid(pid, &st, WNOHANG) == pid)
			break;
		for (i = n = 0; i < nsrc; i++)
			if (src[i].fd >= 0) {
				pfd[n].fd = src[i].fd;
				pfd[n++].events = POLLIN;
			}
		/* Awake only for its output, and on a host without
		 * 'ensemble run', to read its slot (lookout.h). */
		if ((left = lookout_wait(lo)) >= 0) {
			ts.tv_sec = (time_t)left;
			ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
		}
		n = ppoll(pfd, (nfds_t)n, left >= 0 ? &ts : NULL, wake);
		if (left >= 0)
			lookout_tell(t, lo, pid);
		if (n <= 0)
			continue;
		for (i = n = 0; i < nsrc; i++)
			if (src[i].fd >= 0 && (pfd[n++].revents &
			    (POLLIN | POLLHUP | POLLERR)))
				relay_read(t, &src[i]);
	}
	for (i = 0; i < nsrc; i++) {
		if (src[i].fd < 0)
			continue;
		fcntl(src[i].fd, F_SETFL, O_NONBLOCK);
		while (src[i].fd >= 0) {
			n = (int)read(src[i].fd, src[i].buf + src[i].len,
			    src[i].cap - src[i].len);
			if (n < 0 && errno == EINTR)
				continue;
			if (n > 0) {
				src[i].len += (size_t)n;
				relay_take(t, &src[i], 0);
			} else
				relay_take(t, &src[i], 1);
			if (src[i].done)
				relay_drained();
			if (n <= 0 || src[i].done) {
				close(src[i].fd);
				src[i].fd = -1;
			}
		}
	}
	return st;
}

/* Why a component execv could not start: the errno, or for a script
 * whose '#!' interpreter is missing, that interpreter (caller frees). */
static char *
tramp_exec_error(const char *path, int err)
{
	FILE	*f;
	char	 line[256], *msg, *s, *e;

	if (err == ENOENT && access(path, F_OK) == 0 &&
	    (f = fopen(path, "r")) != NULL) {
		s = fgets(line, sizeof(line), f);
		fclose(f);
		if (s != NULL && strncmp(line, "#!", 2) == 0) {
			for (s = line + 2; *s == ' ' || *s == '\t'; s++)
				;
			for (e = s; *e != '\0' && *e != ' ' && *e != '\t' &&
			    *e != '\n'; e++)
				;
			*e = '\0';
			xasprintf(&msg, "cannot execute '%s': its interpreter '%s'"
			    " does not exist", path, s);
			return msg;
		}
	}
	xasprintf(&msg, "cannot execute '%s': %s", path, strerror(err));
	return msg;
}

/* The trampoline: read its arguments (and the tables), start the
 * component, wait for it, and say and end as it ended.  The component
 * dies with it (PR_SET_PDEATHSIG), and is in its process group, which
 * Open MPI signals. */
int
main(int argc, char **argv)
{
	struct tramp		 t;
	struct sigaction	 sa;
	struct rlimit		 no_core = { 0, 0 };
	static const int	 sigs[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM,
				     SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM, SIGCHLD };
	struct relay_src	 src[3];
	struct lookout		 lo;
	sigset_t		 chld, wake;
	char			*msg, end[sizeof(t.host) + 32];
	pid_t			 parent = getpid(), pid;
	int			 k, ex[2], err[2], st, fd, tables = -1;
	int			 pipes[3] = { -1, -1, -1 }, rd[3], hand;
	int			 planfd = -1;
	ssize_t			 nr;

	/* Dies with whoever started it (mpirun, or Open MPI's daemon on
	 * another host), even one killed by SIGKILL, and the component
	 * with it (tramp_child): nothing of a run outlives it. */
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	if (getppid() == 1)
		exit(1);
	/* The run's secrets are ours alone: the component, though the same
	 * user's, cannot read our memory or environment. */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	memset(&t, 0, sizeof(t));
	hand = tramp_hand(&argc, argv);	/* ens_launch's run: hand.c */
	if (argc == 3 && strcmp(argv[1], WIRE_FLAG_PLAN) == 0)
		tramp_plan(argv[0], argv[2], &argc, &argv);
	else if (argc == 3 && strcmp(argv[1], WIRE_FLAG_PLAN_NET) == 0)
		planfd = tramp_plan_net(argv[0], argv[2], &argc, &argv);
	tramp_args(&t, argc, argv);
	if (gethostname(t.host, sizeof(t.host) - 1) != 0)
		strcpy(t.host, "?");
	t.host[sizeof(t.host) - 1] = '\0';
	/* The deadlock watch: the slot the component will write. */
	t.watchfd = lookout_open(&lo, t.watch, t.secret, t.host);
	tramp_mark(&t, WIRE_WORD_START " %s", t.host);
	if (t.tables && planfd >= 0)
		tables = tramp_tables(&t, planfd, "the connection to 'ensemble"
		    " run'");
	else if (t.tables)
		tables = tramp_tables(&t, STDIN_FILENO, "its standard input");
	if (planfd >= 0)
		close(planfd);
	else if (t.tables_file != NULL)
		tables = tramp_tables_file(&t);
	if (t.stdin_net != NULL)
		tramp_stdin_net(&t);
	else if (!t.keep_stdin) {
		if ((fd = open("/dev/null", O_RDONLY)) < 0 ||
		    (fd != STDIN_FILENO && dup2(fd, STDIN_FILENO) < 0))
			tramp_cannot(&t, "cannot open /dev/null for its standard"
			    " input: %s", strerror(errno));
		if (fd != STDIN_FILENO)
			close(fd);
	}
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sa.sa_handler = on_tramp_signal;
	for (k = 0; k < (int)(sizeof(sigs) / sizeof(sigs[0])); k++)
		sigaction(sigs[k], &sa, NULL);
	/* SIGCHLD wakes only ppoll (relay_run). */
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &wake);
	sigdelset(&wake, SIGCHLD);
	memset(src, 0, sizeof(src));
	for (k = 0; k < 3; k++) {
		src[k].fd = -1;
		if (t.secret == NULL)
			continue;
		if (pipe2(err, O_CLOEXEC) != 0)
			tramp_cannot(&t, "cannot make a pipe: %s", strerror(errno));
		src[k].fd = rd[k] = err[0];
		pipes[k] = err[1];
		src[k].out = k < 2 ? k + 1 : -1;
		src[k].cap = k < 2 ? WIRE_PIECE : WIRE_MARK_MAX;
		src[k].buf = xmalloc(src[k].cap);
	}
	if (pipe2(ex, O_CLOEXEC) != 0 || (pid = fork()) < 0)
		tramp_cannot(&t, "cannot start a process: %s", strerror(errno));
	if (pid == 0) {
		close(ex[0]);
		for (k = 0; k < 3 && t.secret != NULL; k++)
			close(rd[k]);
		tramp_child(&t, parent, ex[1], tables, pipes, &wake);
	}
	close(ex[1]);
	/* The connection is the component's alone: it closes when the
	 * component ends, which tells 'ensemble run' to give it no more. */
	if (t.stdin_net != NULL && (fd = open("/dev/null", O_RDONLY)) >= 0) {
		if (fd != STDIN_FILENO) {
			dup2(fd, STDIN_FILENO);
			close(fd);
		}
	}
	for (k = 0; k < 3; k++)
		if (pipes[k] >= 0)
			close(pipes[k]);
	if (tables >= 0)
		close(tables);
	while ((nr = read(ex[0], err, sizeof(err))) < 0 && errno == EINTR)
		;
	close(ex[0]);
	if (t.watchfd >= 0)
		close(t.watchfd);
	st = relay_run(&t, pid, src, 3, &wake, &lo);
	if (nr == (ssize_t)sizeof(err)) {
		if (err[0] == TRAMP_CHDIR)
			xasprintf(&msg, "cannot change to its working directory"
			    " '%s': %s", t.wdir, strerror(err[1]));
		else if (err[0] == TRAMP_ENV)
			xasprintf(&msg, "cannot set its environment: %s",
			    strerror(err[1]));
		else
			msg = tramp_exec_error(t.argv[0], err[1]);
		tramp_cannot(&t, "%s", msg);
	}
	if (WIFSIGNALED(st)) {
		wire_end_put(end, sizeof(end), t.host, 0, WTERMSIG(st));
		tramp_mark(&t, WIRE_WORD_END " %s", end);
		fflush(stderr);
		if (hand)
			exit(128 + WTERMSIG(st));	/* tramp-hand.h */
		/* Die of it too, without a core of our own. */
		setrlimit(RLIMIT_CORE, &no_core);
		signal(WTERMSIG(st), SIG_DFL);
		raise(WTERMSIG(st));
		exit(128 + WTERMSIG(st));
	}
	wire_end_put(end, sizeof(end), t.host, WEXITSTATUS(st), 0);
	tramp_mark(&t, WIRE_WORD_END " %s", end);
	exit(WEXITSTATUS(st));
}
