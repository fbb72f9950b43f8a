/* launch-api.c -- ens_launch (ensemble.h, libensemble(3)): a running MPI
 * program starts an application inside its own job and waits for it.
 * All of the run but the spawn is 'ensemble run''s: ens_launch runs
 * 'ensemble run --launcher spawn SCRIPT OPTIONS...' with the hand's
 * descriptor (runtime/hand.h), starts the processes it asks for with
 * MPI_Comm_spawn_multiple on a duplicate of MPI_COMM_SELF, and returns
 * its exit status and what it wrote on its standard error.  It never
 * calls MPI_Init or MPI_Finalize, and touches none of the caller's
 * communicators. */
#include "config.h"

#include <sys/socket.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ensemble.h"
#include "hand.h"
#include "wire.h"

extern char	**environ;

#define LAUNCH_HAND_FD	3	/* the hand's descriptor in 'ensemble run' */

/* The caller's report buffer: the last size - 1 bytes written, ended by
 * a NUL. */
struct launch_report {
	char	*p;
	size_t	 size, len;
};

static void
report_add(struct launch_report *r, const char *s, size_t n)
{
	size_t	room;

	if (r->p == NULL || r->size == 0)
		return;
	room = r->size - 1;
	if (n >= room) {
		memcpy(r->p, s + n - room, room);
		r->len = room;
	} else {
		if (r->len + n > room) {
			memmove(r->p, r->p + (r->len + n - room),
			    room - n);
			r->len = room - n;
		}
		memcpy(r->p + r->len, s, n);
		r->len += n;
	}
	r->p[r->len] = '\0';
}

static void __attribute__((format(printf, 2, 3)))
report_say(struct launch_report *r, const char *fmt, ...)
{
	char	line[1024];
	va_list	ap;
	int	n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	report_add(r, line, (size_t)n);
}

const char *
ens_strerror(int code)
{
	switch (code) {
	case ENS_OK:
		return "success";
	case ENS_ERR_ARG:
		return "invalid argument";
	case ENS_ERR_NOT_MPI:
		return "MPI is not initialized, or finalized";
	case ENS_ERR_NO_SPAWN:
		return "MPI_Comm_spawn is not available here";
	case ENS_ERR_START:
		return "'ensemble run' could not be started";
	case ENS_ERR_SPAWN:
		return "MPI_Comm_spawn_multiple failed";
	}
	return "unknown error code";
}

/* The value of Open MPI's boolean MCA variable name, as MPI_T reads it in
 * this process (the caller's mpirun passes its --mca on in the
 * environment): 0, 1, or -1 when it cannot be read. */
static int
launch_mca_bool(const char *name)
{
	MPI_T_cvar_handle	h;
	MPI_Datatype		dt;
	MPI_T_enum		en;
	char			nm[256], desc[256];
	union { char c; int i; long long l; } v;
	int			prov, idx, count, nl = 256, dl = 256, verb, bind;
	int			scope, size, rc = -1;

	if (MPI_T_init_thread(MPI_THREAD_SINGLE, &prov) != MPI_SUCCESS)
		return -1;
	memset(&v, 0, sizeof(v));
	if (MPI_T_cvar_get_index(name, &idx) == MPI_SUCCESS &&
	    MPI_T_cvar_get_info(idx, nm, &nl, &verb, &dt, &en, desc, &dl,
	    &bind, &scope) == MPI_SUCCESS &&
	    MPI_Type_size(dt, &size) == MPI_SUCCESS &&
	    (size == 1 || size == 4 || size == 8) &&
	    MPI_T_cvar_handle_alloc(idx, NULL, &h, &count) == MPI_SUCCESS) {
		if (count == 1 && MPI_T_cvar_read(h, &v) == MPI_SUCCESS)
			rc = (size == 1 ? v.c : size == 4 ? v.i : v.l) != 0;
		MPI_T_cvar_handle_free(&h);
	}
	MPI_T_finalize();
	return rc;
}

/* Whether MPI_Comm_spawn can work in this process: 0, or ENS_ERR_* with
 * why in r. */
static int
launch_where(struct launch_report *r)
{
	int	ini = 0, fin = 0;

	MPI_Initialized(&ini);
	MPI_Finalized(&fin);
	if (!ini || fin) {
		report_say(r, "ens_launch: MPI is %s (call it between MPI_Init"
		    " and MPI_Finalize)", fin ? "finalized" : "not initialized");
		return ENS_ERR_NOT_MPI;
	}
	if (strcmp(ENS_MPI, "openmpi") != 0) {
		report_say(r, "ens_launch: libensemble is built on MPICH, whose"
		    " MPI_Comm_spawn cannot start the processes (MPICH 4.0.2:"
		    " 'Error in spawn call'); use 'ensemble run --launcher"
		    " mpich'");
		return ENS_ERR_NO_SPAWN;
	}
	if (getenv("OMPI_MCA_orte_hnp_uri") == NULL &&
	    getenv("SLURM_STEP_ID") != NULL) {
		report_say(r, "ens_launch: this program was started by srun,"
		    " under which MPI_Comm_spawn cannot start processes; start"
		    " it with 'mpirun' (inside the allocation)");
		return ENS_ERR_NO_SPAWN;
	}
	/* Open MPI 4.1 ends the caller's whole job when a spawned process
	 * fails (non-zero status, a signal), and with that alone turned
	 * off, its mpirun never ends after one has failed; both off, it
	 * reports them as processes that ended, and ends. */
	if (launch_mca_bool("orte_abort_on_non_zero_status") == 1 ||
	    launch_mca_bool("orte_allowed_exit_without_sync") == 0) {
		report_say(r, "ens_launch: the caller's mpirun would end its"
		    " job, or never end, once a spawned process fails: start"
		    " it with '--mca orte_abort_on_non_zero_status 0 --mca"
		    " orte_allowed_exit_without_sync 1'");
		return ENS_ERR_NO_SPAWN;
	}
	return ENS_OK;
}

/* The request (hand.h) in text, whole: spawn it on a duplicate of
 * MPI_COMM_SELF and disconnect.  0, or -1 with why in err. */
static int
launch_spawn(char *text, char *err, size_t errsz)
{
	MPI_Comm	 self, kids;
	MPI_Info	 info[1] = { MPI_INFO_NULL };
	char		*line[HAND_ITEMS_MAX + 1], *cmd[1], **args[1], *p, *e, msg[MPI_MAX_ERROR_STRING];
	int		 np[1], *codes, n = 0, i, rc, len, argc, ninfo;
	long		 v;

	for (p = text; n < HAND_ITEMS_MAX && (e = strchr(p, '\n')) != NULL &&
	    e != p; p = e + 1) {
		*e = '\0';
		if ((line[n++] = wire_token_get(p)) == NULL)
			break;
	}
	rc = -1;
	if (n < 5 || line[n - 1] == NULL || strcmp(line[0], HAND_MAGIC) != 0 ||
	    (v = strtol(line[1], &e, 10)) < 1 || v > INT_MAX || *e != '\0' ||
	    (argc = atoi(line[3])) < 0 || argc > n - 5 ||
	    (ninfo = atoi(line[4 + argc])) < 0 ||
	    n != 5 + argc + 2 * ninfo) {
		snprintf(err, errsz, "'ensemble run' asked what is not a spawn");
		goto out;
	}
	np[0] = (int)v;
	cmd[0] = line[2];
	args[0] = line + 4;
	if (ninfo > 0) {
		MPI_Info_create(&info[0]);
		for (i = 0; i < ninfo; i++)
			MPI_Info_set(info[0], line[5 + argc + 2 * i],
			    line[6 + argc + 2 * i]);
	}
	free(line[4 + argc]);
	line[4 + argc] = NULL;	/* args[0] ends there */
	if ((codes = calloc((size_t)v, sizeof(*codes))) == NULL) {
		snprintf(err, errsz, "out of memory");
		goto out;
	}
	MPI_Comm_dup(MPI_COMM_SELF, &self);
	MPI_Comm_set_errhandler(self, MPI_ERRORS_RETURN);
	i = MPI_Comm_spawn_multiple(1, cmd, args, np, info, 0, self, &kids,
	    codes);
	free(codes);
	if (i != MPI_SUCCESS) {
		MPI_Error_string(i, msg, &len);
		snprintf(err, errsz, "MPI_Comm_spawn_multiple: %s", msg);
	} else {
		MPI_Comm_disconnect(&kids);
		rc = 0;
	}
	MPI_Comm_free(&self);
	if (info[0] != MPI_INFO_NULL)
		MPI_Info_free(&info[0]);
out:
	for (i = 0; i < n; i++)
		free(line[i]);
	return rc;
}

/* Write all of s on fd (the hand: no SIGPIPE). */
static void
launch_answer(int fd, const char *s)
{
	size_t	n = strlen(s);
	ssize_t	w;

	while (n > 0) {
		if ((w = send(fd, s, n, MSG_NOSIGNAL)) < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

int
ens_launch(const char *script, const char *const *options, int *status,
    char *report, size_t size)
{
	struct launch_report		 r = { report, size, 0 };
	posix_spawn_file_actions_t	 fa;
	posix_spawnattr_t		 sa;
	sigset_t			 none, all;
	struct pollfd			 pfd[2];
	const char			*prog = getenv("ENSEMBLE_PROGRAM");
	char				**argv = NULL, **envp = NULL, *req = NULL;
	char				 buf[4096], err[MPI_MAX_ERROR_STRING + 64];
	char				 henv[64];
	size_t				 k, n = 0, nenv = 0, rlen = 0, rcap = 0;
	ssize_t				 got;
	pid_t				 pid;
	int				 sv[2] = { -1, -1 }, ep[2] = { -1, -1 };
	int				 hfd = -1, rc, st, asked = 0;

	if (report != NULL && size > 0)
		report[0] = '\0';
	if (status != NULL)
		*status = -1;
	if (script == NULL || status == NULL || (report == NULL && size > 0)) {
		report_say(&r, "ens_launch: %s", script == NULL ? "no script" :
		    status == NULL ? "no place for the exit status" :
		    "no report buffer of that size");
		return ENS_ERR_ARG;
	}
	if ((rc = launch_where(&r)) != ENS_OK)
		return rc;
	if (prog == NULL || *prog == '\0')
		prog = ENS_BINDIR "/ensemble";
	while (options != NULL && options[n] != NULL)
		n++;
	argv = calloc(n + 6, sizeof(*argv));
	while (environ[nenv] != NULL)
		nenv++;
	envp = calloc(nenv + 2, sizeof(*envp));
	if (argv == NULL || envp == NULL) {
		report_say(&r, "ens_launch: out of memory");
		rc = ENS_ERR_START;
		goto out;
	}
	argv[0] = (char *)prog;
	argv[1] = (char *)"run";
	argv[2] = (char *)"--launcher";
	argv[3] = (char *)"spawn";
	argv[4] = (char *)script;
	for (k = 0; k < n; k++)
		argv[5 + k] = (char *)options[k];
	snprintf(henv, sizeof(henv), HAND_ENV "=%d", LAUNCH_HAND_FD);
	for (k = 0, n = 0; k < nenv; k++)
		if (strncmp(environ[k], HAND_ENV "=", strlen(HAND_ENV) + 1) != 0)
			envp[n++] = environ[k];
	envp[n] = henv;
	/* The hand's end of ours above the standard streams and its
	 * number in 'ensemble run', so that dup2 there clears close-on-exec. */
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0 ||
	    (hfd = fcntl(sv[1], F_DUPFD_CLOEXEC, LAUNCH_HAND_FD + 1)) < 0 ||
	    pipe2(ep, O_CLOEXEC) != 0) {
		report_say(&r, "ens_launch: %s", strerror(errno));
		rc = ENS_ERR_START;
		goto out;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null",
	    O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, ep[1], STDERR_FILENO);
	posix_spawn_file_actions_adddup2(&fa, hfd, LAUNCH_HAND_FD);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 34)
	/* Not MPI's descriptors (its daemon's connection, its segments):
	 * 'ensemble run' and what it starts must not hold them. */
	posix_spawn_file_actions_addclosefrom_np(&fa, LAUNCH_HAND_FD + 1);
#endif
	posix_spawnattr_init(&sa);
	sigemptyset(&none);
	sigfillset(&all);
	posix_spawnattr_setsigmask(&sa, &none);
	posix_spawnattr_setsigdefault(&sa, &all);
	posix_spawnattr_setflags(&sa, POSIX_SPAWN_SETSIGMASK |
	    POSIX_SPAWN_SETSIGDEF);
	rc = posix_spawn(&pid, prog, &fa, &sa, argv, envp);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&sa);
	if (rc != 0) {
		report_say(&r, "ens_launch: cannot run '%s': %s (is ensemble"
		    " installed? ENSEMBLE_PROGRAM names it)", prog,
		    strerror(rc));
		rc = ENS_ERR_START;
		goto out;
	}
	close(sv[1]);
	close(hfd);
	close(ep[1]);
	sv[1] = hfd = ep[1] = -1;
	rc = ENS_OK;
	/* Its standard error into the report, and its request, until it
	 * closes both. */
	while (ep[0] >= 0) {
		pfd[0].fd = ep[0];
		pfd[0].events = POLLIN;
		pfd[1].fd = sv[0];
		pfd[1].events = POLLIN;
		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pfd[0].revents != 0) {
			if ((got = read(ep[0], buf, sizeof(buf))) > 0)
				report_add(&r, buf, (size_t)got);
			else if (got == 0 || errno != EINTR) {
				close(ep[0]);
				ep[0] = -1;
			}
		}
		if (sv[0] < 0 || pfd[1].revents == 0)
			continue;
		if ((got = read(sv[0], buf, sizeof(buf))) < 0 && errno == EINTR)
			continue;
		if (got <= 0 || asked) {
			close(sv[0]);
			sv[0] = -1;
			continue;
		}
		if (rlen + (size_t)got + 1 > rcap) {
			char	*q = realloc(req, rcap = 2 * (rlen + (size_t)got + 1));

			if (q == NULL) {
				close(sv[0]);
				sv[0] = -1;
				continue;
			}
			req = q;
		}
		memcpy(req + rlen, buf, (size_t)got);
		rlen += (size_t)got;
		req[rlen] = '\0';
		if (strstr(req, "\n\n") == NULL && req[0] != '\n')
			continue;
		asked = 1;
		if (launch_spawn(req, err, sizeof(err)) == 0) {
			launch_answer(sv[0], HAND_OK "\n");
		} else {
			char	*a;

			if ((a = malloc(strlen(err) + 16)) != NULL) {
				sprintf(a, HAND_ERROR " %s\n", err);
				launch_answer(sv[0], a);
				free(a);
			}
			rc = ENS_ERR_SPAWN;
		}
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			st = -1;
			break;
		}
	*status = st == -1 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) :
	    128 + WTERMSIG(st);
out:
	if (sv[0] >= 0)
		close(sv[0]);
	if (sv[1] >= 0)
		close(sv[1]);
	if (hfd >= 0)
		close(hfd);
	if (ep[0] >= 0)
		close(ep[0]);
	if (ep[1] >= 0)
		close(ep[1]);
	free(req);
	free(argv);
	free(envp);
	return rc;
}
