/* launch.c -- 'ensemble run' after verification: check that the processes
 * fit the slots they are given, write the run's plan (plan.h: an appfile
 * line per process, through the trampoline ensemble-exec, and the port
 * tables), start 'mpirun --app' with the tables on its standard input,
 * pass every process's output through, and watch.  The processes are one
 * MPI job, as under a plain mpirun: no helper of ours takes a slot or
 * talks MPI.  Open MPI tags each forwarded line with its writer's rank
 * ("[1,3]<stderr>:"), so a line is known to come from process 3; marker
 * lines (runtime/wire.h) are consumed, the rest passed on.  When
 * something fails the report names the process and how it ended, with its
 * last lines on stderr, and holds back the noise of the others being
 * stopped; --timeout asks every process where it is (SIGUSR1, which
 * mpirun forwards) before stopping them, and so does the start watchdog
 * when not every process joins.  Open MPI's own messages are read for
 * exit codes and signals and otherwise shown only when nothing else
 * explains a failure.  While the processes run, this process sleeps in
 * ppoll until a line, a signal or its next deadline comes.  No process is
 * left behind: this process is a child subreaper, so whatever mpirun
 * leaves is ours to stop.  With --trace, the processes write their parts
 * into a directory beside the trace file, merged here (ltrace.c).
 *
 * This file is the watch: the run from start to end, our standard input
 * to mpirun's, the stopping of the processes and the trace, with our
 * SIGINT, SIGTERM and SIGHUP caught.  fit.c checks that the processes
 * fit, runfiles.c makes the run's files, launcher.c starts the
 * launcher's command, demux.c takes its output apart and
 * failure.c writes the reports (launch-int.h, the run they share, and
 * what they ask of its state). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>

#include "auth.h"
#include "clock.h"
#include "launch-int.h"
#include "ltrace.h"
#include "trace.h"

volatile sig_atomic_t launch_interrupted;

static void
launch_on_interrupt(int sig)
{
	launch_interrupted = sig;
}

/* From before the run's files are made to the end of the run: SIGINT,
 * SIGTERM and SIGHUP (a terminal's hangup) stop the run and are said
 * (launch_interrupted), whatever phase it is in. */
void
launch_catch(struct run *R)
{
	struct sigaction	sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = launch_on_interrupt;
	sigaction(SIGINT, &sa, &R->old_int);
	sigaction(SIGTERM, &sa, &R->old_term);
	sigaction(SIGHUP, &sa, &R->old_hup);
	R->handling = 1;
}

/* Append to *v (of *n, room *cap) the pids the numbers of text f lists,
 * one file of /proc/self/task/TID/children. */
static void
launch_pids_read(FILE *f, pid_t **v, size_t *n, size_t *cap)
{
	long	pid;

	while (fscanf(f, "%ld", &pid) == 1)
		if (pid > 0) {
			xgrow(v, cap, *n + 1, sizeof(**v));
			(*v)[(*n)++] = (pid_t)pid;
		}
}

/* Our children as the kernel lists them for each of our threads
 * (/proc/self/task/TID/children: those reparented to us, the
 * subreaper, too), into *v (caller frees): their number, or -1 when the
 * kernel has no such list (built without CONFIG_PROC_CHILDREN).  Reading
 * a few numbers, where a look at every process of the machine's /proc
 * costs milliseconds on a busy host each time the run is swept. */
static ssize_t
launch_children(pid_t **v)
{
	DIR		*d;
	struct dirent	*de;
	char		 path[64];
	FILE		*f;
	size_t		 n = 0, cap = 0;
	int		 any = 0;

	*v = NULL;
	if ((d = opendir("/proc/self/task")) == NULL)
		return -1;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%.20s/children",
		    de->d_name);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		any = 1;
		launch_pids_read(f, v, &n, &cap);
		fclose(f);
	}
	closedir(d);
	if (!any) {
		free(*v);
		*v = NULL;
		return -1;
	}
	return (ssize_t)n;
}

/* Stop and reap our children but 'keep' (mpirun while it runs, else 0)
 * and 'janitor' (tidy.h's): what the run left behind, reparented to us,
 * its subreaper.  The number of the components' processes stopped: not
 * one that had ended already (a zombie), nor one of the launcher's own
 * program, named 'prog' (srun's shepherd, which outlives srun a moment:
 * reparented to us, it is stopped, not counted).  Our children are
 * those the kernel lists (launch_children), else every process of /proc
 * whose parent we are. */
static int
launch_sweep(pid_t self, pid_t keep, pid_t janitor, const char *prog)
{
	DIR		*d = NULL;
	struct dirent	*de;
	char		 path[300], buf[512], *rp, name[24];
	FILE		*f;
	int		 round, found, n = 0;
	long		 ppid;
	pid_t		 pid, *kids;
	ssize_t		 nkids, k;
	char		 state, comm[16];
	const char	*base = strrchr(prog, '/') != NULL ? strrchr(prog, '/') + 1 :
			    prog;
	size_t		 cl;

	for (round = 0; round < 40; round++) {
		found = 0;
		if ((nkids = launch_children(&kids)) < 0 &&
		    (d = opendir("/proc")) == NULL)
			return n;
		for (k = 0; ; k++) {
			if (nkids >= 0) {
				if (k >= nkids)
					break;
				snprintf(name, sizeof(name), "%ld", (long)kids[k]);
			} else {
				if ((de = readdir(d)) == NULL)
					break;
				if (de->d_name[0] < '1' || de->d_name[0] > '9')
					continue;
				snprintf(name, sizeof(name), "%.20s", de->d_name);
			}
			snprintf(path, sizeof(path), "/proc/%s/stat", name);
			if ((f = fopen(path, "r")) == NULL)
				continue;
			pid = (pid_t)atol(name);
			if (fgets(buf, sizeof(buf), f) != NULL &&
			    (rp = strrchr(buf, ')')) != NULL &&
			    sscanf(rp + 2, "%c %ld", &state, &ppid) == 2 &&
			    ppid == (long)self && pid != keep && pid != janitor) {
				if (state != 'Z')
					kill(pid, SIGKILL);
				waitpid(pid, NULL, 0);
				found = 1;
				/* Its name, as the kernel keeps it (15 bytes). */
				cl = (size_t)(rp - strchr(buf, '(') - 1);
				snprintf(comm, sizeof(comm), "%.*s", (int)cl,
				    strchr(buf, '(') + 1);
				n += state != 'Z' && strncmp(comm, base,
				    sizeof(comm) - 1) != 0;
			}
			fclose(f);
		}
		free(kids);
		if (d != NULL) {
			closedir(d);
			d = NULL;
		}
		if (!found)
			break;
	}
	return n;
}

/* Set R up for g's processes, with nothing started and nothing open. */
static void
launch_init(struct run *R, const struct pcg *g, const struct launch_opts *o)
{
	struct stat	st[2];
	int		i, k, stat_ok[2];

	memset(R, 0, sizeof(*R));
	R->g = g;
	R->o = o;
	R->n = g->nprocs;
	R->culprit = -1;
	R->exit_proc = -1;
	R->p = xcalloc((size_t)R->n, sizeof(*R->p));
	R->placed = xcalloc((size_t)R->n + 1, sizeof(*R->placed));
	for (i = 0; i < R->n; i++) {
		pcg_proc_name(g, i, R->p[i].name, sizeof(R->p[i].name));
		R->p[i].component = g->comps[g->procs[i].comp].name;
		R->p[i].exit_code = -1;
		R->p[i].seq = R->p[i].seq_before = -1;
		for (k = 0; k < 3; k++)
			buf_init(&R->p[i].part[k]);
		buf_init(&R->p[i].tline);
	}
	for (k = 0; k < 2; k++) {
		buf_init(&R->rd[k].acc);
		buf_init(&R->rd[k].mline);
		R->oq[k].fd = k + 1;
		stat_ok[k] = fstat(k + 1, &st[k]) == 0;
		R->oq[k].piped = !stat_ok[k] || !S_ISREG(st[k].st_mode);
		R->oq[k].open_r = -1;
		R->oq[k].last = -1;
	}
	/* One file or pipe (2>&1): one queue, so that what goes there
	 * keeps the order it came in. */
	R->oq_same = stat_ok[0] && stat_ok[1] && st[0].st_dev == st[1].st_dev &&
	    st[0].st_ino == st[1].st_ino;
	R->pid = -1;
	R->outdir = -1;
	tidy_init(&R->tidy);
	/* Room for a fan of every process with any --stdin (whether one
	 * is made is the launcher's, not picked yet) and a deal's
	 * (runfiles_make). */
	R->pfd = xcalloc(6 + (o->stdin_proc != -1 ? FAN_NFDS((size_t)R->n) :
	    0) + FAN_NFDS((size_t)R->n), sizeof(*R->pfd));
	for (i = 0; i < 6; i++)
		R->pfd[i].fd = -1;
	R->phase = RUN_RUNNING;
	/* As long as Open MPI may take to start them, at a size's pace. */
	R->start_timeout = o->start_timeout > 0 ? o->start_timeout :
	    60 + R->n / 10;
}

/* Give SIGINT, SIGTERM, SIGHUP and SIGCHLD back to whoever had them
 * before the run, and the signal mask. */
static void
launch_unhandle(struct run *R)
{
	if (R->chld) {
		sigaction(SIGCHLD, &R->old_chld, NULL);
		sigprocmask(SIG_SETMASK, &R->old_mask, NULL);
		R->chld = 0;
	}
	if (!R->handling)
		return;
	sigaction(SIGINT, &R->old_int, NULL);
	sigaction(SIGTERM, &R->old_term, NULL);
	sigaction(SIGHUP, &R->old_hup, NULL);
	R->handling = 0;
}

/* Release everything R holds, however far the run got: the one cleanup
 * of launch_run. */
static void
launch_free(struct run *R)
{
	int	i, k;
	size_t	j;

	launch_unhandle(R);
	for (i = 0; i < 3; i++)
		launch_close_fd(&R->pfd[i].fd);
	alloc_clear(&R->alloc);
	free(R->placed);
	tidy_done(&R->tidy);
	subproc_drop(R->asked);
	free(R->asked_why);
	free(R->prog);
	free(R->workdir);
	free(R->shmdir);
	free(R->appfile);
	free(R->tracedir);
	for (i = 0; i < R->n; i++) {
		free(R->p[i].host);
		free(R->p[i].fail);
		free(R->p[i].cannot);
		free(R->p[i].state);
		free(R->p[i].forgood);
		for (k = 0; k < TAIL_LINES; k++)
			free(R->p[i].tail[k]);
		for (k = 0; k < 3; k++)
			buf_free(&R->p[i].part[k]);
		buf_free(&R->p[i].tline);
		for (k = 0; k < 2; k++)
			if (R->p[i].file[k] != NULL)
				fclose(R->p[i].file[k]);
	}
	launch_close_fd(&R->outdir);
	for (j = 0; j < R->nmlines; j++)
		free(R->mlines[j]);
	free(R->mlines);
	free(R->p);
	for (k = 0; k < 2; k++) {
		buf_free(&R->rd[k].acc);
		buf_free(&R->rd[k].mline);
		free(R->oq[k].p);
	}
	free(R->bundle.p);
	fan_free(R->fan);
	free(R->fan_addrs);
	fan_free(R->deal);
	free(R->deal_addrs);
	free(R->pfd);
	watch_free(R);
}

/* Whether all is written to mpirun's standard input. */
static int
launch_stdin_written(const struct run *R)
{
	return R->sent == R->bundle.len &&
	    (!launch_stdin_relayed(R) || (R->in_eof && R->roff == R->rlen));
}

/* Whether mpirun's standard input may be closed now: mpirun has read all
 * of it, DRAIN_GRACE ago.  Open MPI 4.1's mpirun, reading the end of its
 * standard input while it still holds some for the process, ends the
 * process's input once that is written and then looks at its own input
 * again, through its record of the process, which the process's end may
 * have freed meanwhile: mpirun crashes (a segmentation fault in
 * orte_iof_hnp_read_local_handler; Open MPI issue 7483).  Closing only
 * once it has read and passed on all gives the end to a mpirun that holds
 * nothing (a pipe's unread bytes: FIONREAD; if that cannot be told, now). */
static int
launch_stdin_drained(struct run *R)
{
	double	now = clock_now();
	int	n;

	if (R->drained_at == 0 && now < R->drain_next)
		return 0;
	if (ioctl(R->pfd[2].fd, FIONREAD, &n) != 0)
		return 1;
	if (n > 0) {
		/* Look again soon, then less often (a process that never
		 * reads its input must not keep the watch awake). */
		R->drained_at = 0;
		R->drain_wait = R->drain_wait == 0 ? DRAIN_POLL :
		    R->drain_wait * 2 < DRAIN_POLL_MOST ? R->drain_wait * 2 :
		    DRAIN_POLL_MOST;
		R->drain_next = now + R->drain_wait;
		return 0;
	}
	if (R->drained_at == 0)
		R->drained_at = now;
	return now >= R->drained_at + DRAIN_GRACE;
}

/* What to wait for on mpirun's standard input (pfd[2]) and ours (pfd[3]):
 * room to write the bundle, then with --stdin our input as it comes and
 * room to write it on; mpirun's is closed once all is written and read
 * (launch_stdin_drained). */
static void
launch_stdin_events(struct run *R)
{
	struct pollfd	*pfd = R->pfd;

	pfd[3].fd = -1;
	pfd[2].events = 0;
	if (pfd[2].fd < 0)
		return;
	if (R->sent < R->bundle.len) {
		pfd[2].events = POLLOUT;
		return;
	}
	if (launch_stdin_written(R)) {
		/* All written: the end of it, for the process, once mpirun
		 * has it all (launch_deadline wakes the watch to look). */
		if (launch_stdin_drained(R))
			launch_close_fd(&pfd[2].fd);
		return;
	}
	if (R->roff < R->rlen)
		pfd[2].events = POLLOUT;
	else {
		pfd[3].fd = STDIN_FILENO;
		pfd[3].events = POLLIN;
	}
}

/* Write on what is left of the bundle, or relay our standard input, as
 * ppoll said.  A process that closed its standard input gets no more. */
static void
launch_stdin_relay(struct run *R)
{
	struct pollfd	*pfd = R->pfd;
	ssize_t		 n;

	if (pfd[3].fd >= 0 && (pfd[3].revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL))) {
		n = read(STDIN_FILENO, R->rbuf, sizeof(R->rbuf));
		if (n > 0) {
			R->roff = 0;
			R->rlen = (size_t)n;
		} else if (n == 0 || (errno != EINTR && errno != EAGAIN))
			R->in_eof = 1;
	}
	if (pfd[2].fd < 0 || !(pfd[2].revents & (POLLOUT | POLLERR | POLLHUP)))
		return;
	if (launch_stdin_written(R)) {
		launch_close_fd(&pfd[2].fd);	/* mpirun closed it: nothing to wait for */
		return;
	}
	if (R->sent < R->bundle.len) {
		n = write(pfd[2].fd, R->bundle.p + R->sent, R->bundle.len - R->sent);
		if (n > 0)
			R->sent += (size_t)n;
	} else {
		n = write(pfd[2].fd, R->rbuf + R->roff, R->rlen - R->roff);
		if (n > 0)
			R->roff += (size_t)n;
	}
	if (n < 0 && errno != EINTR && errno != EAGAIN)
		launch_close_fd(&pfd[2].fd);
}

/* When the watch must next act, from its deadlines (a time of clock_now);
 * -1 when nothing but a line or a signal can move it. */
static double
launch_deadline(const struct run *R)
{
	double	d = -1;

#define AT(x)	do { if (d < 0 || (x) < d) d = (x); } while (0)
	if (R->phase == RUN_EXITED) {
		AT(R->phase_at + KILL_GRACE);	/* launch_linger */
		return d;
	}
	if (R->o->timeout > 0 && !R->timed_out && R->fail_at == 0)
		AT(R->t0 + R->o->timeout);
	if (R->pfd[2].fd >= 0 && launch_stdin_written(R))
		AT(R->drained_at > 0 ? R->drained_at + DRAIN_GRACE :
		    R->drain_next);		/* launch_stdin_drained */
	if (!R->stuck && R->nhello < R->n && !R->done)
		AT(R->t0 + R->start_timeout);
	if (R->stuck && !R->stuck_asked)
		AT(R->t0);
	if (R->fail_at > 0 && R->phase < RUN_TERMINATED)
		AT(R->fail_at + STOP_GRACE);
	if (R->final_at > 0 && !R->done && R->fail_at == 0 && R->watch == NULL &&
	    R->nhello == R->n && R->phase == RUN_RUNNING && !R->timed_out)
		AT(R->final_asked > 0 ? R->final_asked + R->final_every :
		    R->final_at + FINAL_ASK);
	if (R->phase == RUN_ASKED)
		AT(R->phase_at + STATE_WAIT);
	if (R->phase == RUN_TERMINATED)
		AT(R->phase_at + KILL_GRACE);
	if (watch_deadline(R) >= 0)
		AT(watch_deadline(R));
	if (R->done)
		AT(R->ended_at + ORPHAN_GRACE > R->swept_at + 1.0 ?
		    R->ended_at + ORPHAN_GRACE : R->swept_at + 1.0);
	if (R->fan != NULL && fan_deadline(R->fan) >= 0)
		AT(fan_deadline(R->fan));	/* a connection to drop */
	if (R->deal != NULL && fan_deadline(R->deal) >= 0)
		AT(fan_deadline(R->deal));
#undef AT
	return d;
}

/* Sleep until mpirun writes, its standard input has room, ours has data,
 * a signal comes or the next deadline; handle each whole line that came,
 * and write on.  A pipe at its end is closed. */
static void
launch_pump(struct run *R)
{
	struct pollfd	*pfd = R->pfd;
	struct timespec	 ts, *tp = NULL;
	sigset_t	 none;
	double		 d = launch_deadline(R), left;
	int		 i, nfan, ndeal;

	/* Not more from mpirun while ours is not taken (its pipe fills,
	 * and its processes wait to write), until the run is being stopped
	 * (then what does not fit is dropped: mpirun must not wait to end). */
	for (i = 0; i < 2; i++)
		pfd[i].events = demux_outq_pending(demux_q(R, i)) < OUTQ_SOFT ||
		    R->phase >= RUN_TERMINATED ? POLLIN : 0;
	for (i = 0; i < 2; i++) {
		pfd[4 + i].fd = demux_outq_pending(&R->oq[i]) > 0 ? i + 1 : -1;
		pfd[4 + i].events = POLLOUT;
	}
	launch_stdin_events(R);
	nfan = R->fan != NULL ? fan_events(R->fan, pfd + 6) : 0;
	ndeal = R->deal != NULL ? fan_events(R->deal, pfd + 6 + nfan) : 0;
	if (d >= 0) {
		left = d - clock_now();
		if (left < 0)
			left = 0;
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9) + 1000000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		tp = &ts;
	}
	sigemptyset(&none);
	if (ppoll(pfd, (nfds_t)(6 + nfan + ndeal), tp, &none) <= 0)
		return;
	launch_stdin_relay(R);
	if (R->fan != NULL)
		fan_handle(R->fan, pfd + 6, nfan);
	if (R->deal != NULL)
		fan_handle(R->deal, pfd + 6 + nfan, ndeal);
	for (i = 0; i < 2; i++)
		if (pfd[4 + i].fd >= 0 && pfd[4 + i].revents != 0)
			demux_outq_write(&R->oq[i]);
	for (i = 0; i < 2; i++)
		if (pfd[i].fd >= 0 && (pfd[i].revents & (POLLIN | POLLHUP | POLLERR)) &&
		    demux_drain(R, i) < 0)
			launch_close_fd(&pfd[i].fd);
}

/* Whether mpirun's stdout or stderr is still open: the watch goes on. */
static int
launch_reading(const struct run *R)
{
	return R->pfd[0].fd >= 0 || R->pfd[1].fd >= 0;
}

/* Enter phase 'to' at time t, sending mpirun sig. */
static void
launch_signal(struct run *R, int sig, enum run_phase to, double t)
{
	kill(R->pid, sig);
	R->phase = to;
	R->phase_at = t;
}

/* Reap mpirun if it has exited. */
static void
launch_reap(struct run *R, double t)
{
	if (waitpid(R->pid, &R->wstatus, WNOHANG) == R->pid) {
		R->phase = RUN_EXITED;
		R->phase_at = t;
	}
}

/* After mpirun's exit, read what is left in its pipes; a process it left
 * behind may hold them open: after KILL_GRACE stop it and read the rest. */
static void
launch_linger(struct run *R, double t)
{
	int	i;

	if (t - R->phase_at <= KILL_GRACE || !launch_reading(R))
		return;
	launch_sweep(getpid(), 0, R->tidy.janitor, R->prog);
	for (i = 0; i < 2; i++)
		if (R->pfd[i].fd >= 0) {
			while (poll(&R->pfd[i], 1, 100) > 0 &&
			    demux_drain(R, i) == 0)
				;
			launch_close_fd(&R->pfd[i].fd);
		}
}

/* Whether every process has answered SIGUSR1. */
static int
launch_answered(const struct run *R)
{
	int	i;

	for (i = 0; i < R->n; i++)
		if (R->p[i].state == NULL)
			return 0;
	return 1;
}

/* Every process has ended, yet mpirun waits: for the output of processes
 * a component left behind, which are now ours.  Stop them, once a second
 * from ORPHAN_GRACE after the last process ended. */
static void
launch_stop_strays(struct run *R, double t)
{
	int	k;

	if (!R->done || t - R->ended_at < ORPHAN_GRACE || t - R->swept_at < 1.0)
		return;
	k = launch_sweep(getpid(), R->pid, R->tidy.janitor, R->prog);
	R->swept_at = t;
	if (k > 0)
		fprintf(stderr, "ensemble: %s: stopped %d process%s the components"
		    " left behind\n", R->g->name, k, k == 1 ? "" : "es");
}

/* Take the stopping of the run a phase further when it is time: an
 * interrupt, or a failure STOP_GRACE old, sends SIGTERM; --timeout and
 * the start watchdog send SIGUSR1 first, and SIGTERM once everyone
 * answered or after STATE_WAIT; SIGKILL follows SIGTERM after KILL_GRACE. */
static void
launch_escalate(struct run *R, double t)
{
	if (launch_interrupted && R->phase < RUN_TERMINATED)
		launch_signal(R, SIGTERM, RUN_TERMINATED, t);
	/* A deadlock: nothing will move; stop every process now. */
	if (R->dead != NULL && R->phase < RUN_TERMINATED)
		launch_signal(R, SIGTERM, RUN_TERMINATED, t);
	if (R->o->timeout > 0 && !R->timed_out && R->fail_at == 0 &&
	    t - R->t0 >= R->o->timeout) {
		/* Not after a failure: its report, naming the process, is the
		 * one that says what went wrong. */
		R->timed_out = 1;
		if (R->phase == RUN_RUNNING)
			launch_signal(R, SIGUSR1, RUN_ASKED, t);
		else
			kill(R->pid, SIGUSR1);
	}
	if (!R->stuck && R->nhello < R->n && !R->done && R->fail_at == 0 &&
	    t - R->t0 >= R->start_timeout) {
		/* Not every process joined in time: ask each where it is. */
		R->stuck = 1;
		launch_mark_failed(R, -1);
	}
	if (R->stuck && !R->stuck_asked && R->phase == RUN_RUNNING) {
		R->stuck_asked = 1;
		launch_signal(R, SIGUSR1, RUN_ASKED, t);
	}
	if (R->phase == RUN_ASKED &&
	    (launch_answered(R) || t - R->phase_at >= STATE_WAIT))
		launch_signal(R, SIGTERM, RUN_TERMINATED, t);
	/* A process finalized and the run goes on: now and then ask the
	 * others where they are (watch_blocked_for_good), without stopping it;
	 * only once all have joined (before ens_init, SIGUSR1 kills). */
	if (R->final_at > 0 && !R->done && R->fail_at == 0 && R->watch == NULL &&
	    R->nhello == R->n && R->phase == RUN_RUNNING && !R->timed_out &&
	    t - R->final_at >= FINAL_ASK &&
	    (R->final_asked == 0 || t - R->final_asked >= R->final_every)) {
		R->final_every = R->final_asked == 0 ? FINAL_ASK_EVERY :
		    R->final_every * 2 < FINAL_ASK_MOST ? R->final_every * 2 :
		    FINAL_ASK_MOST;
		R->final_asked = t;
		kill(R->pid, SIGUSR1);
	}
	if (R->fail_at > 0 && R->phase < RUN_TERMINATED &&
	    t - R->fail_at >= STOP_GRACE)
		launch_signal(R, SIGTERM, RUN_TERMINATED, t);
	if (R->phase == RUN_TERMINATED && t - R->phase_at >= KILL_GRACE)
		launch_signal(R, SIGKILL, RUN_KILLED, t);
}

/* The deadlock watch's reading, when due (watch.c); processes found
 * blocked for good are said at once, before the run is stopped
 * (launch_escalate), so that the report comes while the deadlock is
 * fresh, not after the processes' end. */
static void
launch_watch(struct run *R, double t)
{
	if (R->dead != NULL)
		return;
	watch_tick(R, t);
	if (R->dead != NULL) {
		demux_outq_write(&R->oq[1]);
		failure_deadlock(R);
	}
}

/* A realtime as ISO 8601 UTC (caller frees). */
static char *
launch_iso(time_t t)
{
	struct tm	tm;
	char		buf[64];

	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return xstrdup(buf);
}

/* --trace: merge the processes' parts into the trace file, its header
 * from the script: written beside it and renamed, so that a file of that
 * name is replaced only by a whole trace.  0, or the exit status (said):
 * 1 when it cannot be written, 128 + the signal that interrupted it. */
static int
launch_trace(struct run *R)
{
	const struct pcg	*g = R->g;
	struct trace_hdr	*h = trace_hdr_new();
	char			*cause = NULL, *merged, pn[PCG_NAME_MAX];
	int			 i, t, k, slot, ci, rc = 0;
	size_t			 np = 0;

	h->script = xstrdup(g->script != NULL ? g->script : "?");
	h->application = xstrdup(g->name);
	h->date = launch_iso(time(NULL));
	h->nparams = (size_t)g->nparams;
	h->params = xcalloc((size_t)g->nparams + 1, sizeof(*h->params));
	for (i = 0; i < g->nparams; i++) {
		h->params[i].name = xstrdup(g->params[i].name);
		h->params[i].value = pcg_param_text(&g->params[i]);
	}
	h->start = launch_iso((time_t)strtoll(R->origin, NULL, 10));
	h->nprocs = g->nprocs;
	/* world, other, then the script's groups, by id (wire.h). */
	h->ncomms = 2 + (size_t)g->ngroups;
	h->comms = xcalloc(h->ncomms, sizeof(*h->comms));
	h->comms[0].name = xstrdup("world");
	h->comms[0].size = g->nprocs;
	h->comms[1].name = xstrdup("other");
	h->comms[1].size = 0;
	for (i = 0; i < g->ngroups; i++) {
		const struct pcg_group	*gr = &g->groups[i];

		h->comms[2 + i].name = xstrdup(pcg_group_name(g, i, pn, sizeof(pn)));
		h->comms[2 + i].size = gr->nmembers;
		/* Its members in rank order, as its communicator has them
		 * (the port tables' runs, plan.c, come from the same list). */
		h->comms[2 + i].members = xcalloc((size_t)gr->nmembers + 1,
		    sizeof(*gr->members));
		memcpy(h->comms[2 + i].members, gr->members,
		    (size_t)gr->nmembers * sizeof(*gr->members));
	}
	h->processes = xcalloc((size_t)g->nprocs, sizeof(*h->processes));
	for (i = 0; i < g->nprocs; i++) {
		const struct pcg_comp	*c = &g->comps[g->procs[i].comp];

		h->processes[i].name = xstrdup(pcg_proc_name(g, i, pn, sizeof(pn)));
		h->processes[i].component = xstrdup(c->name);
		for (t = 0; t < c->ntypes; t++)
			np += (size_t)g->procs[i].nports[t];
	}
	h->ports = xcalloc(np + 1, sizeof(*h->ports));
	for (i = 0; i < g->nprocs; i++) {
		const struct pcg_proc	*p = &g->procs[i];
		const struct pcg_comp	*c = &g->comps[p->comp];

		slot = p->portbase;
		for (t = 0; t < c->ntypes; t++)
			for (k = 0; k < p->nports[t]; k++, slot++) {
				struct trace_port *q = &h->ports[h->nports++];
				const struct pcg_chan *ch;

				q->rank = i;
				q->type = xstrdup(c->types[t]);
				q->index = k + 1;
				q->peer = -1;
				if ((ci = g->portchan[slot]) < 0)
					continue;
				ch = &g->chans[ci];
				q->peer = ch->e[1 - pcg_chan_end(ch, i, t, k + 1)].proc;
			}
	}
	xasprintf(&merged, "%s/merged", R->tracedir);
	if (ltrace_write(R->tracedir, g->nprocs, h, merged, &launch_interrupted,
	    &cause) != 0 && cause == NULL) {
		fprintf(stderr, "ensemble: %s: interrupted; the trace '%s' was not"
		    " written\n", g->name, R->o->trace);
		rc = 128 + launch_interrupted;
	} else if (cause != NULL || rename(merged, R->o->trace) != 0) {
		fprintf(stderr, "ensemble: cannot write the trace '%s': %s\n",
		    R->o->trace, cause != NULL ? cause : strerror(errno));
		free(cause);
		rc = 1;
	}
	free(merged);
	trace_hdr_free(h);
	return rc;
}

/* The run is over: stop what is left, and say how it went.  The exit
 * status of launch_run; *stuck as demux_flush says. */
static int
launch_finish(struct run *R, int *stuck)
{
	char	pn[PCG_NAME_MAX];
	int	st = R->wstatus, i;

	launch_close_fd(&R->pfd[2].fd);
	/* mpirun is reaped: what is left is processes the components left
	 * behind (their trampolines no longer wait for them), said when the
	 * run went well, as launch_stop_strays says them. */
	i = launch_sweep(getpid(), 0, R->tidy.janitor, R->prog);
	demux_flush(R, stuck);
	if (i > 0 && R->done && R->fail_at == 0 && !launch_interrupted &&
	    !R->timed_out)
		fprintf(stderr, "ensemble: %s: stopped %d process%s the components"
		    " left behind\n", R->g->name, i, i == 1 ? "" : "es");
	fflush(stdout);
	for (i = 0; R->o->output_dir != NULL && i < R->n; i++) {
		demux_out_close(R, i, 0);
		demux_out_close(R, i, 1);
	}

	if (launch_interrupted) {
		fprintf(stderr, "ensemble: %s: interrupted; stopped every process\n",
		    R->g->name);
		return 128 + launch_interrupted;
	}
	if (R->dead != NULL)
		return 4;	/* said when found (launch_watch) */
	if (R->timed_out) {
		failure_timeout(R);
		return 3;
	}
	if (R->stuck_asked) {
		failure_stuck(R);
		return 1;
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0 && R->done && R->fail_at == 0) {
		if (R->out_failed) {
			/* Every process ended well; their output did not. */
			fprintf(stderr, "ensemble: %s: %d process%s ran, but their"
			    " output under '%s' is not whole (said above)\n",
			    R->g->name, R->n, R->n == 1 ? "" : "es",
			    R->o->output_dir);
			return 1;
		}
		if (demux_out_failed(R)) {
			/* ... nor their output on ours: as any command whose
			 * output cannot be written. */
			fprintf(stderr, "ensemble: %s: %d process%s ran, but"
			    " their output is not whole (said above)\n",
			    R->g->name, R->n, R->n == 1 ? "" : "es");
			return 2;
		}
		if (R->o->trace != NULL && (i = launch_trace(R)) != 0)
			return i;
		fprintf(stderr, "ensemble: %s: %s ran in %.2f s (start %.3f s,"
		    " wiring %.3f s, run %.3f s; launcher %s)%s\n", R->g->name,
		    pcg_nprocs_text(R->g, pn, sizeof(pn)), clock_now() - R->t0,
		    R->inited_at - R->t0, R->joined_at - R->inited_at,
		    R->ended_at - R->joined_at, R->L->name,
		    R->o->check_protocol ? ", protocol checked" : "");
		return 0;
	}
	if (R->world != 0) {
		fprintf(stderr, "ensemble: %s: %s did not start the %d processes"
		    " as one MPI job (one found a world of %d): %s\n", R->g->name,
		    R->L->title, R->n, R->world, R->L->apart);
		return 2;
	}
	failure_report(R, st);
	return 1;
}

void
launch_ahead_drop(void)
{
	subproc_ahead_drop();
}

int
launch_run(const struct pcg *g, const struct launch_opts *o)
{
	struct run	 R;
	double		 t;
	int		 rc = 2, fd, stuck;

	/* A standard stream that is closed reads or takes nothing, as
	 * /dev/null: else the pipes to mpirun would be given its number. */
	for (fd = 0; fd < 3; fd++)
		if (fcntl(fd, F_GETFD) < 0 && open("/dev/null", O_RDWR) != fd) {
			fprintf(stderr, "ensemble: cannot open /dev/null: %s\n",
			    strerror(errno));
			return 2;
		}
	launch_init(&R, g, o);
	/* The run's secrets (runtime/wire.h): 16 random bytes each. */
	auth_random_hex(R.secret, AUTH_KEY / 2);
	if ((rc = launcher_pick(&R)) != 0 || (rc = fit_check(&R)) != 0)
		goto out;
	if (launch_stdin_fanned(&R))
		auth_random_hex(R.stdin_key, AUTH_KEY / 2);
	/* Questions started ahead that the run did not ask. */
	launch_ahead_drop();
	/* From the run's first file on, an interrupt is ours to handle:
	 * what was made is removed. */
	launch_catch(&R);
	/* The deadlock watch's memory file, before the plan names it; the
	 * run goes on without the watch when it cannot be made. */
	if (o->watch && watch_open(&R) != 0) {
		fprintf(stderr, "ensemble: %s: running without the deadlock"
		    " watch\n", g->name);
		watch_free(&R);
	}
	if ((rc = runfiles_make(&R)) != 0)
		goto out;
	rc = 2;
	if (o->output_dir != NULL && demux_out_create(&R) != 0)
		goto out;
	if (launch_interrupted) {
		fprintf(stderr, "ensemble: %s: interrupted before any process"
		    " started\n", g->name);
		rc = 128 + launch_interrupted;
		goto out;
	}
	if (launcher_start(&R) != 0)
		goto out;
	while (launch_reading(&R) || R.phase != RUN_EXITED) {
		launch_pump(&R);
		t = clock_now();
		if (R.phase != RUN_EXITED)
			launch_reap(&R, t);
		if (R.phase == RUN_EXITED)
			launch_linger(&R, t);
		else {
			launch_watch(&R, t);
			launch_stop_strays(&R, t);
			launch_escalate(&R, t);
		}
	}
	rc = launch_finish(&R, &stuck);
	if (stuck >= 0)
		fcntl(STDERR_FILENO, F_SETFL, stuck);
out:
	launch_free(&R);
	return rc;
}
