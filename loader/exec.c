/* exec.c -- ensemble-exec, the small program ensemble-loader spawns in
 * place of every component (MPI_Comm_spawn_multiple), so that a component
 * that ends before it joins is named:
 *
 *	ensemble-exec NAME [--stdin PATH] COUNT NAME=VALUE... PATH [ARG...]
 *
 * It says where it runs, puts /dev/null (or PATH, --stdin's FIFO) on the
 * component's standard input, forks it with the COUNT environment entries
 * set (those Open MPI's 'env' info key cannot carry) and WIRE_ENV (so
 * that libensemble writes its "init" marker), and says how it
 * ended, as marker lines on stderr (runtime/wire.h: "start", "cannot",
 * "end"); then it ends the same way, which is what Open MPI sees.  It
 * links no MPI, so that it costs a process little: its own program, not
 * the loader's. */
#include "config.h"

#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pcgdot.h"
#include "wire.h"
#include "xmalloc.h"

/* The trampoline's handler for the signals Open MPI sends to the process
 * group (SIGUSR1 of --timeout, SIGTERM when it stops the job): they reach
 * the component too; the trampoline only outlives it, to say how it ended. */
static void
on_tramp_signal(int sig)
{
	(void)sig;
}

/* The message for a component execv could not start: the errno, or for a
 * script whose '#!' interpreter is missing, that interpreter (caller
 * frees). */
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

/* The trampoline, which spawn starts in place of every component: it
 * puts /dev/null on its standard input, or the FIFO '--stdin' names
 * (opening it waits for 'ensemble run' to open it to write), and forks
 * the component, which sets each environment entry as it is (its
 * name is up to the first '=', for an environment the 'env' info key
 * cannot carry), then WIRE_ENV, and execs with execv, keeping the working
 * directory and what Open MPI put in the environment, so that its MPI_Init
 * finds its job.  The trampoline says where it runs, waits, and says on stderr how
 * the component ended (wire.h: "start", "cannot", "end"), so that one
 * that never joins is named, with its host; then
 * it ends the same way, which is what Open MPI sees.  The component dies
 * with it (PR_SET_PDEATHSIG), and is in its process group, which Open MPI
 * signals.  It touches no MPI. */
int
main(int argc, char **argv)
{
	struct sigaction	 sa;
	struct rlimit		 no_core = { 0, 0 };
	static const int	 sigs[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM,
				     SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM };
	char			 host[256], *msg;
	char			**env;
	const char		 *in = "/dev/null";
	long long		 n;
	pid_t			 parent = getpid(), pid;
	int			 k, ex[2], err, st, fd, skip = 0;
	ssize_t			 nr;

	if (argc >= 4 && strcmp(argv[2], "--stdin") == 0) {
		in = argv[3];
		skip = 2;
	}
	if (argc < 4 + skip || pcgdot_int(argv[2 + skip], 0, argc - 4 - skip,
	    &n) != 0)
		goto usage;
	env = argv + 3 + skip;
	for (k = 0; k < n; k++)
		if (env[k][0] == '=' || strchr(env[k], '=') == NULL)
			goto usage;
	if (gethostname(host, sizeof(host) - 1) != 0)
		strcpy(host, "?");
	host[sizeof(host) - 1] = '\0';
	fprintf(stderr, "%sstart %s\n", WIRE_MARK, host);
	if ((fd = open(in, O_RDONLY)) < 0 ||
	    (fd != STDIN_FILENO && dup2(fd, STDIN_FILENO) < 0)) {
		fprintf(stderr, "%scannot %s cannot open '%s' for its standard"
		    " input: %s\n", WIRE_MARK, host, in, strerror(errno));
		exit(127);
	}
	if (fd != STDIN_FILENO)
		close(fd);
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sa.sa_handler = on_tramp_signal;
	for (k = 0; k < (int)(sizeof(sigs) / sizeof(sigs[0])); k++)
		sigaction(sigs[k], &sa, NULL);
	if (pipe2(ex, O_CLOEXEC) != 0 || (pid = fork()) < 0) {
		fprintf(stderr, "ensemble-exec: %s: cannot start: %s\n", argv[1],
		    strerror(errno));
		exit(127);
	}
	if (pid == 0) {
		close(ex[0]);
		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
		if (getppid() != parent)
			_exit(127);
		for (k = 0; k < n; k++)
			if (putenv(env[k]) != 0)
				break;
		if (k == n && setenv(WIRE_ENV, "1", 1) == 0)
			execv(env[n], env + n);
		err = errno;
		while (write(ex[1], &err, sizeof(err)) < 0 && errno == EINTR)
			;
		_exit(127);
	}
	close(ex[1]);
	while ((nr = read(ex[0], &err, sizeof(err))) < 0 && errno == EINTR)
		;
	close(ex[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (nr == (ssize_t)sizeof(err)) {
		msg = tramp_exec_error(env[n], err);
		fprintf(stderr, "%scannot %s %s\n", WIRE_MARK, host, msg);
		free(msg);
		exit(127);
	}
	if (WIFSIGNALED(st)) {
		fprintf(stderr, "%send %s signal %d\n", WIRE_MARK, host, WTERMSIG(st));
		fflush(stderr);
		/* Die of it too, without a core of our own. */
		setrlimit(RLIMIT_CORE, &no_core);
		signal(WTERMSIG(st), SIG_DFL);
		raise(WTERMSIG(st));
		exit(128 + WTERMSIG(st));
	}
	fprintf(stderr, "%send %s exit %d\n", WIRE_MARK, host, WEXITSTATUS(st));
	exit(WEXITSTATUS(st));
usage:
	fprintf(stderr, "usage: ensemble-exec NAME [--stdin PATH] COUNT NAME=VALUE..."
	    " PATH [ARG...]\n");
	exit(2);
}
