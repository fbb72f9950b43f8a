/* hand.c -- the trampoline of a run ens_launch's caller spawned
 * (runtime/hand.h): 'ensemble-exec --plan PLAN --hand FILE'.  FILE, in
 * the run's private directory, sets its environment (the run's secret
 * among it); its standard output and error become two connections to
 * the collector of 'ensemble run' (loader/hand.c), which stands in for
 * mpirun: the caller's mpirun, which started us, never sees the run's
 * output.  Should the collector go, the trampoline and its component
 * end (SIGKILL), as they would with mpirun. */
#include "config.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hand.h"
#include "tramp-hand.h"
#include "wire.h"
#include "xmalloc.h"

static void __attribute__((noreturn, format(printf, 1, 2)))
hand_die(const char *fmt, ...)
{
	va_list	ap;

	fputs("ensemble-exec: --hand: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(127);
}

/* SIGIO on our standard output: the collector has gone (it never writes
 * to us) -- our component dies with us (its PR_SET_PDEATHSIG), and we end
 * as one killed would, but by no signal (tramp-hand.h).  Else room to
 * write again. */
static void
hand_on_io(int sig)
{
	struct pollfd	pfd = { STDOUT_FILENO, POLLIN | POLLRDHUP, 0 };

	(void)sig;
	if (poll(&pfd, 1, 0) > 0 &&
	    (pfd.revents & (POLLIN | POLLRDHUP | POLLHUP | POLLERR)) != 0)
		_exit(128 + SIGKILL);
}

/* FILE's entries into our environment: a regular file of ours that no
 * one else may read (it holds the run's secret). */
static void
hand_env(const char *file)
{
	struct stat	 st;
	char		*text, *p, *nl, *e;
	ssize_t		 r;
	size_t		 len = 0;
	int		 fd;

	if ((fd = open(file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		hand_die("cannot open '%s': %s", file, strerror(errno));
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid() || (st.st_mode & 077) != 0 ||
	    st.st_size > 16 * 1024 * 1024)
		hand_die("'%s' is not a file of this user's alone", file);
	text = xmalloc((size_t)st.st_size + 1);
	while (len < (size_t)st.st_size) {
		if ((r = read(fd, text + len, (size_t)st.st_size - len)) < 0 &&
		    errno == EINTR)
			continue;
		if (r <= 0)
			hand_die("cannot read '%s'", file);
		len += (size_t)r;
	}
	close(fd);
	text[len] = '\0';
	for (p = text; *p != '\0'; p = nl + 1) {
		if ((nl = strchr(p, '\n')) == NULL)
			hand_die("'%s' is cut short", file);
		*nl = '\0';
		if ((e = wire_token_get(p)) == NULL || strchr(e, '=') == NULL ||
		    e[0] == '=')
			hand_die("'%s' holds what is not NAME=VALUE", file);
		*strchr(e, '=') = '\0';
		if (setenv(e, e + strlen(e) + 1, 1) != 0)
			hand_die("cannot set %s: %s", e, strerror(errno));
		memset(e + strlen(e) + 1, 0, strlen(e + strlen(e) + 1));
		free(e);
	}
	memset(text, 0, len);
	free(text);
}

/* A connection to the collector at path for our stream (1, 2) at rank,
 * its first line written; on that descriptor. */
static void
hand_connect(const char *path, const char *secret, long rank, int stream)
{
	struct sockaddr_un	 sun;
	char			 head[256];
	int			 fd, n;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sun.sun_path))
		hand_die("'%s' is too long a socket path", path);
	strcpy(sun.sun_path, path);
	n = snprintf(head, sizeof(head), "%s %ld %d\n", secret, rank, stream);
	if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) < 0 ||
	    connect(fd, (struct sockaddr *)&sun, sizeof(sun)) != 0 ||
	    n < 0 || (size_t)n >= sizeof(head) ||
	    send(fd, head, (size_t)n, MSG_NOSIGNAL) != n)
		hand_die("cannot reach 'ensemble run' at '%s': %s", path,
		    strerror(errno));
	if (fd != stream && (dup2(fd, stream) < 0 || close(fd) != 0))
		hand_die("dup2: %s", strerror(errno));
}

int
tramp_hand(int *argc, char **argv)
{
	static const char	*vars[] = { "PMI_RANK", "PMIX_RANK",
				    "SLURM_PROCID" };
	struct sigaction	 sa;
	const char		*v = NULL, *out, *secret;
	char			*e;
	long			 rank;
	unsigned		 i;

	if (*argc != 5 || strcmp(argv[1], WIRE_FLAG_PLAN) != 0 ||
	    strcmp(argv[3], HAND_FLAG) != 0)
		return 0;
	hand_env(argv[4]);
	for (i = 0; i < sizeof(vars) / sizeof(vars[0]) && v == NULL; i++)
		v = getenv(vars[i]);
	if (v == NULL || (rank = strtol(v, &e, 10)) < 0 || *e != '\0' ||
	    e == v)
		hand_die("no rank (PMI_RANK, PMIX_RANK or SLURM_PROCID) in the"
		    " environment");
	if ((out = getenv(HAND_ENV_OUT)) == NULL ||
	    (secret = getenv(WIRE_ENV_SECRET)) == NULL)
		hand_die("'%s' names no collector, or no secret", argv[4]);
	fflush(stdout);
	fflush(stderr);
	hand_connect(out, secret, rank, STDOUT_FILENO);
	hand_connect(out, secret, rank, STDERR_FILENO);
	unsetenv(HAND_ENV_OUT);
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sa.sa_handler = hand_on_io;
	sigaction(SIGIO, &sa, NULL);
	if (fcntl(STDOUT_FILENO, F_SETOWN, getpid()) != 0 ||
	    fcntl(STDOUT_FILENO, F_SETFL, fcntl(STDOUT_FILENO, F_GETFL) |
	    O_ASYNC) != 0)
		hand_die("fcntl: %s", strerror(errno));
	hand_on_io(SIGIO);	/* gone already */
	*argc = 3;
	return 1;
}
