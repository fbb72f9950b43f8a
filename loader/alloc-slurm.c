/* alloc-slurm.c -- a Slurm allocation (see alloc-slurm.h), read as
 * orte/mca/ras/slurm does; its state is asked of 'scontrol ping' (one
 * try, an answer in milliseconds when slurmctld is down) and 'squeue'
 * (whose client retries for twice MessageTimeout, 18 s by default, when
 * it is), at once: squeue's answer is read when ping's says it can
 * come. */
#include "config.h"

#include <sys/types.h>
#include <sys/wait.h>

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "alloc-machine.h"
#include "alloc-slurm.h"
#include "subproc.h"
#include "xmalloc.h"

#define ALLOC_HOSTLIST_MAX	(1 << 20)	/* names of a Slurm host list */
#define ALLOC_PING_WAIT		5.0	/* seconds for 'scontrol ping' */
#define ALLOC_SQUEUE_WAIT	10.0	/* for 'squeue', slurmctld being up */

/* Append to a the hosts of one range of a bracket ("01-03", "7") after
 * base in the host list 'list', as Open MPI's orte_ras_slurm_parse_range:
 * numbers as wide as the range's first one is written. */
static int
alloc_range(struct alloc *a, const char *list, const char *base,
    size_t baselen, const char *r, size_t rlen, char **cause)
{
	unsigned long	 lo, hi, i;
	size_t		 k, width;
	char		*name;

	for (k = 0; k < rlen && isdigit((unsigned char)r[k]); k++)
		;
	width = k;
	if (k == 0 || k > 9)
		goto bad;
	lo = hi = strtoul(r, NULL, 10);
	if (k < rlen) {
		if (r[k] != '-' || k + 1 == rlen)
			goto bad;
		for (k++; k < rlen && isdigit((unsigned char)r[k]); k++)
			;
		if (k != rlen || rlen - width - 1 > 9)
			goto bad;
		hi = strtoul(r + width + 1, NULL, 10);
	}
	if (hi < lo || hi - lo >= (unsigned long)ALLOC_HOSTLIST_MAX - a->nhosts)
		goto bad;
	for (i = lo; i <= hi; i++) {
		xasprintf(&name, "%.*s%0*lu", (int)baselen, base, (int)width, i);
		alloc_add(a, name, 0, 0, 0);
	}
	return 0;
bad:
	xasprintf(cause, "'%s': '%.*s' is not a range of host numbers", list,
	    (int)rlen, r);
	return -1;
}

/* Append to a the hosts of the Slurm host list s ("node[01-03,7],gpu5"),
 * read as Open MPI 4.1's ras/slurm reads it: a name, or a name and one
 * bracket of ranges, at the end or before a comma.  What it would misread
 * (text after a bracket, an empty name) is an error. */
static int
alloc_hostlist(struct alloc *a, const char *s, char **cause)
{
	const char	*p = s, *q, *close, *r, *e;
	size_t		 n;

	for (;;) {
		n = strcspn(p, "[,");
		if (n == 0) {
			xasprintf(cause, "'%s' has an empty host name", s);
			return -1;
		}
		if (p[n] != '[') {
			alloc_add(a, xstrndup(p, n), 0, 0, 0);
			if (p[n] == '\0')
				return 0;
			p += n + 1;
			continue;
		}
		q = p + n + 1;
		if ((close = strchr(q, ']')) == NULL) {
			xasprintf(cause, "'%s' has a '[' without its ']'", s);
			return -1;
		}
		for (r = q; r < close; r = e + 1) {
			e = memchr(r, ',', close - r);
			if (e == NULL)
				e = close;
			if (alloc_range(a, s, p, n, r, e - r, cause) != 0)
				return -1;
		}
		if (close[1] == '\0')
			return 0;
		if (close[1] != ',') {
			xasprintf(cause, "'%s' has text after a ']', which Open "
			    "MPI 4.1 cannot read", s);
			return -1;
		}
		p = close + 2;
	}
}

/* Give the hosts of a, in order, the slots of SLURM_TASKS_PER_NODE s
 * ("2(x3),1"), as Open MPI: counts past the last host are left over, hosts
 * past the last count have none. */
static int
alloc_tasks(struct alloc *a, const char *s, char **cause)
{
	const char	*p = s;
	char		*end;
	long		 count, reps;
	int		 j = 0;

	for (;;) {
		if (!isdigit((unsigned char)*p))
			goto bad;
		errno = 0;
		count = strtol(p, &end, 10);
		if (errno != 0 || count > INT_MAX)
			goto bad;
		reps = 1;
		if (end[0] == '(' && end[1] == 'x') {
			p = end + 2;
			if (!isdigit((unsigned char)*p))
				goto bad;
			errno = 0;
			reps = strtol(p, &end, 10);
			if (errno != 0 || reps < 1 || *end != ')')
				goto bad;
			end++;
		}
		for (; reps > 0 && j < a->nhosts; reps--)
			a->hosts[j++].slots = (int)count;
		if (*end == '\0')
			return 0;
		if (*end != ',')
			goto bad;
		p = end + 1;
	}
bad:
	xasprintf(cause, "SLURM_TASKS_PER_NODE='%s' is not a list of task "
	    "counts such as '2(x3),1'", s);
	return -1;
}

int
alloc_slurm(struct alloc *a, char **cause)
{
	const char	*jobid, *nodes, *tasks, *cpt;
	char		*s, *end;
	int		 i, local = 0;

	memset(a, 0, sizeof *a);
	/* What Open MPI 4.1 reads; Slurm sets each with SLURM_JOB_ID and
	 * SLURM_JOB_NODELIST. */
	if ((jobid = getenv("SLURM_JOBID")) == NULL || *jobid == '\0') {
		xasprintf(cause, "not in a Slurm allocation: SLURM_JOBID is "
		    "not set");
		return -1;
	}
	if ((nodes = getenv("SLURM_NODELIST")) == NULL || *nodes == '\0') {
		xasprintf(cause, "SLURM_NODELIST is not set in the Slurm "
		    "allocation %s", jobid);
		return -1;
	}
	if ((tasks = getenv("SLURM_TASKS_PER_NODE")) == NULL || *tasks == '\0') {
		xasprintf(cause, "SLURM_TASKS_PER_NODE is not set in the Slurm "
		    "allocation %s", jobid);
		return -1;
	}
	if ((cpt = getenv("SLURM_CPUS_PER_TASK")) != NULL &&
	    (strtol(cpt, &end, 10) <= 0 || end == cpt)) {
		xasprintf(cause, "SLURM_CPUS_PER_TASK='%s' is not a number of "
		    "CPUs, which Open MPI refuses", cpt);
		return -1;
	}
	a->kind = ALLOC_SLURM;
	a->jobid = xstrdup(jobid);
	xasprintf(&a->what, "the Slurm allocation %s", jobid);
	if (alloc_hostlist(a, nodes, &s) != 0) {
		xasprintf(cause, "SLURM_NODELIST=%s", s);
		free(s);
		alloc_clear(a);
		return -1;
	}
	if (alloc_tasks(a, tasks, cause) != 0) {
		alloc_clear(a);
		return -1;
	}
	/* Its names are of as many machines: once one is this machine, the
	 * others need not be asked about (mpirun runs on the first, most
	 * often, and a name may cost a DNS query). */
	for (i = 0; i < a->nhosts; i++) {
		s = a->hosts[i].name;
		a->hosts[i].name = alloc_short(s);
		free(s);
		if (!local)
			local = a->hosts[i].local = alloc_is_local(a->hosts[i].name);
	}
	alloc_total(a);
	return 0;
}

/* The first line of s with something in it, without its newline; a copy. */
static char *
alloc_first_line(const char *s)
{
	s += strspn(s, " \t\n");
	return xstrndup(s, strcspn(s, "\n"));
}

/* The line of a Slurm command's stderr that says Munge failed ("scontrol:
 * error: Munge encode failed: ..."), without the "scontrol: error: ";
 * NULL when there is none. */
static char *
alloc_munge_line(const char *err)
{
	const char	*p, *e, *m;

	for (p = err; *p != '\0'; p = *e == '\0' ? e : e + 1) {
		e = p + strcspn(p, "\n");
		if ((m = strstr(p, "Munge ")) != NULL && m < e)
			return xstrndup(m, e - m);
	}
	return NULL;
}

/* Whether squeue's state word names a job that is over. */
static int
alloc_state_over(const char *state)
{
	static const char *const over[] = {
		"BOOT_FAIL", "CANCELLED", "COMPLETED", "COMPLETING", "DEADLINE",
		"FAILED", "NODE_FAIL", "OUT_OF_MEMORY", "PREEMPTED", "REVOKED",
		"SPECIAL_EXIT", "TIMEOUT",
	};
	size_t	i;

	for (i = 0; i < sizeof over / sizeof over[0]; i++) {
		if (strcmp(state, over[i]) == 0)
			return 1;
	}
	return 0;
}

/* The two questions of alloc_slurm_alive, and their deadlines. */
static const char *const alloc_ping[] = { "scontrol", "ping", NULL };

static char *
alloc_squeue(const char *jobid, const char *argv[6])
{
	char	*jobs;

	xasprintf(&jobs, "--jobs=%s", jobid);
	argv[0] = "squeue";
	argv[1] = "--noheader";
	argv[2] = "--states=all";
	argv[3] = jobs;
	argv[4] = "--format=%T";
	argv[5] = NULL;
	return jobs;
}

void
alloc_slurm_ahead(const char *jobid)
{
	const char	*squeue[6];
	char		*jobs = alloc_squeue(jobid, squeue);

	subproc_ahead(squeue, ALLOC_SQUEUE_WAIT);
	subproc_ahead(alloc_ping, ALLOC_PING_WAIT);
	free(jobs);
}

enum alloc_job
alloc_slurm_alive(const char *jobid, char **cause)
{
	const char	*const *ping = alloc_ping;
	const char	*squeue[6];
	char		*out = NULL, *err = NULL, *line = NULL, *msg, *jobs;
	char		*sqmsg = NULL;
	struct subproc	*sq;
	int		 status, rc;
	enum alloc_job	 job = ALLOC_JOB_NO_ANSWER;

	/* scontrol ping tries each controller once: it answers at once
	 * when slurmctld is down, where squeue retries for 18 s.  Both are
	 * asked at once (each takes tens of milliseconds of the launch);
	 * squeue's answer is taken only when ping's says slurmctld is up. */
	jobs = alloc_squeue(jobid, squeue);
	sq = subproc_start(squeue, ALLOC_SQUEUE_WAIT, &sqmsg);
	rc = subproc_run(ping, ALLOC_PING_WAIT, &out, &err, &status, &msg);
	if (rc < 0) {
		xasprintf(cause, "Slurm does not answer (%s)", msg);
		free(msg);
		job = ALLOC_JOB_NO_ANSWER;
		goto out;
	}
	if (rc > 0) {
		xasprintf(cause, "Slurm does not answer (scontrol ping gave no "
		    "answer in %.0f s): is slurmctld running?", ALLOC_PING_WAIT);
		goto out;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		/* With munged down it says "DOWN" too, and why on stderr. */
		if ((line = alloc_munge_line(err)) != NULL)
			xasprintf(cause, "Slurm does not answer (scontrol ping: "
			    "%s): is munged running?", line);
		else {
			line = alloc_first_line(*out != '\0' ? out : err);
			xasprintf(cause, "Slurm does not answer (scontrol ping: "
			    "%s): is slurmctld running?", line);
		}
		goto out;
	}
	free(out);
	free(err);
	out = err = NULL;

	if (sq == NULL) {
		xasprintf(cause, "Slurm does not answer (%s)", sqmsg);
		goto out;
	}
	rc = subproc_end(sq, &out, &err, &status, &msg);
	sq = NULL;
	if (rc < 0) {
		xasprintf(cause, "Slurm does not answer (%s)", msg);
		free(msg);
		goto out;
	}
	if (rc > 0) {
		xasprintf(cause, "Slurm does not answer (squeue gave no answer "
		    "in %.0f s): is slurmctld running?", ALLOC_SQUEUE_WAIT);
		goto out;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		/* A job slurmctld no longer keeps (past MinJobAge). */
		if (strstr(err, "Invalid job id") != NULL) {
			xasprintf(cause, "the Slurm allocation %s is not "
			    "known to Slurm any more", jobid);
			job = ALLOC_JOB_ENDED;
			goto out;
		}
		line = alloc_first_line(*err != '\0' ? err : out);
		xasprintf(cause, "Slurm does not answer (squeue: %s): is "
		    "slurmctld running?", line);
		goto out;
	}
	line = alloc_first_line(out);
	job = ALLOC_JOB_ENDED;
	if (*line == '\0')
		xasprintf(cause, "the Slurm allocation %s is not known to Slurm "
		    "any more", jobid);
	else if (strcmp(line, "RUNNING") == 0 ||
	    strcmp(line, "CONFIGURING") == 0)
		job = ALLOC_JOB_RUNNING;
	else if (alloc_state_over(line))
		xasprintf(cause, "the Slurm allocation %s has ended (%s)", jobid,
		    line);
	else
		xasprintf(cause, "the Slurm allocation %s is not running (%s)",
		    jobid, line);
out:
	subproc_drop(sq);
	free(sqmsg);
	free(jobs);
	free(line);
	free(out);
	free(err);
	return job;
}
