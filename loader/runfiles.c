/* runfiles.c -- the run's files (launch-int.h): its private directory
 * with the appfile, the directory of the trace's parts, the --stdin all
 * listener, the plan (plan.h: the appfile and the port tables) and the
 * file of the tables, where every process can read it; or, for a launcher
 * whose processes read the plan at their rank and may run where no file
 * of the run's is, the listener that deals them their lines and the
 * tables (--plan-net). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "launch-int.h"
#include "plan.h"

/* Set (to anything) in the environment: the plan over TCP even when every
 * process runs on this machine (the route other hosts take, tested on
 * one). */
#define RUNFILES_PLAN_NET	"ENSEMBLE_PLAN_NET"

/* Write the bundle of port tables to path, a new file in the run's
 * private directory that only the user can read, not through a link,
 * and send none on the launcher's standard input.  0, or -1 (said). */
static int
runfiles_tables(struct run *R, const char *path)
{
	size_t	off = 0;
	ssize_t	n;
	int	fd, e = 0;

	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0600)) < 0) {
		fprintf(stderr, "ensemble: cannot create '%s': %s\n", path,
		    strerror(errno));
		return -1;
	}
	while (off < R->bundle.len && e == 0) {
		if ((n = write(fd, R->bundle.p + off, R->bundle.len - off)) > 0)
			off += (size_t)n;
		else if (n < 0 && errno != EINTR)
			e = errno;
	}
	if (close(fd) != 0 && e == 0)
		e = errno;
	if (e != 0) {
		fprintf(stderr, "ensemble: cannot write '%s': %s\n", path,
		    strerror(e));
		return -1;
	}
	R->bundle.len = 0;
	return 0;
}

/* The plan over TCP (runtime/wire.h: --plan-net): each process's line
 * of the plan written at R->appfile, and the root's the bundle after it,
 * dealt by a listener of the run's (fan.h) to its trampoline, wherever it
 * runs.  0, or 2 (said). */
static int
runfiles_deal(struct run *R, int root)
{
	char	**heads, *text = NULL, *p, *nl, *cause = NULL;
	size_t	 *hlen, len = 0, n;
	FILE	 *f;
	int	  r;

	if ((f = fopen(R->appfile, "re")) == NULL ||
	    getdelim(&text, &len, '\0', f) < 0) {
		fprintf(stderr, "ensemble: cannot read '%s': %s\n", R->appfile,
		    strerror(errno));
		if (f != NULL)
			fclose(f);
		free(text);
		return 2;
	}
	fclose(f);
	heads = xcalloc((size_t)R->n + 1, sizeof(*heads));
	hlen = xcalloc((size_t)R->n + 1, sizeof(*hlen));
	for (r = 0, p = text; r < R->n; r++, p = *nl != '\0' ? nl + 1 : nl) {
		if ((nl = strchr(p, '\n')) == NULL)
			nl = p + strlen(p);	/* (plan_make ends every line) */
		n = (size_t)(nl - p);
		hlen[r] = (size_t)xasprintf(&heads[r], "%d %zu\n%.*s", R->n, n,
		    (int)n, p);
		if (r == root) {
			heads[r] = xrealloc(heads[r], hlen[r] + R->bundle.len);
			memcpy(heads[r] + hlen[r], R->bundle.p, R->bundle.len);
			hlen[r] += R->bundle.len;
		}
	}
	free(text);
	/* Nothing on the launcher's standard input. */
	R->bundle.len = 0;
	auth_random_hex(R->deal_key, AUTH_KEY / 2);
	R->deal = fan_deal_new(R->n, launch_all_local(R), R->deal_key, heads,
	    hlen, &R->deal_addrs, &cause);
	if (R->deal == NULL) {
		fprintf(stderr, "ensemble: --launcher %s: %s\n", R->L->name,
		    cause);
		free(cause);
		return 2;
	}
	return 0;
}

/* Make the run's files: a private directory with the appfile; with
 * --trace, the directory beside the trace file where the processes write
 * their parts (made now, so that a bad name fails before anything runs);
 * then the plan.  0, or the exit status after saying what is wrong. */
int
runfiles_make(struct run *R)
{
	const struct launch_opts *o = R->o;
	struct plan_opts	 po;
	struct timespec		 ts;
	struct stat		 st;
	const char		*tmp = getenv("TMPDIR");
	char			*cause = NULL, *tables = NULL;
	int			 rc, deal = 0;

	if (tmp == NULL || *tmp == '\0')
		tmp = "/tmp";
	/* What runs killed with their janitors left (tidy.h). */
	tidy_sweep(tmp);
	tidy_sweep("/dev/shm");
	xasprintf(&R->workdir, "%s/" TIDY_PREFIX "XXXXXX", tmp);
	if (mkdtemp(R->workdir) == NULL) {
		fprintf(stderr, "ensemble: cannot make a directory '%s': %s\n",
		    R->workdir, strerror(errno));
		free(R->workdir);
		R->workdir = NULL;
		return 2;
	}
	tidy_add(&R->tidy, R->workdir);
	xasprintf(&R->appfile, "%s/appfile", R->workdir);
	if ((rc = R->L->files(R)) != 0)
		return rc;
	if (o->trace != NULL) {
		/* A directory there would be found only by the rename of the
		 * merged trace, after the run. */
		if (stat(o->trace, &st) == 0 && S_ISDIR(st.st_mode)) {
			fprintf(stderr, "ensemble: cannot create '%s': %s\n",
			    o->trace, strerror(EISDIR));
			return 2;
		}
		xasprintf(&R->tracedir, "%s.parts-XXXXXX", o->trace);
		if (mkdtemp(R->tracedir) == NULL) {
			fprintf(stderr, "ensemble: cannot create '%s': %s\n", o->trace,
			    strerror(errno));
			free(R->tracedir);
			R->tracedir = NULL;
			return 2;
		}
		tidy_add(&R->tidy, R->tracedir);
		/* The origin of the trace's times: now, just before mpirun. */
		clock_gettime(CLOCK_REALTIME, &ts);
		snprintf(R->origin, sizeof(R->origin), "%lld.%09ld",
		    (long long)ts.tv_sec, ts.tv_nsec);
	}
	/* Our standard input through the fan: every process connects for
	 * it, or the one --stdin names. */
	if (launch_stdin_fanned(R)) {
		R->fan = fan_new(o->stdin_proc == LAUNCH_STDIN_ALL ? R->n : 1,
		    launch_all_local(R), R->stdin_key, R->workdir,
		    &R->fan_addrs, &cause);
		if (R->fan == NULL) {
			fprintf(stderr, "ensemble: --stdin %s: %s\n",
			    o->stdin_proc == LAUNCH_STDIN_ALL ? "all" :
			    R->p[o->stdin_proc].name, cause);
			free(cause);
			return 2;
		}
	}
	memset(&po, 0, sizeof(po));
	po.syntax = R->L->syntax;
	po.exec = o->exec;
	po.paths = o->paths;
	po.stdin_proc = launch_stdin_relayed(R) ? o->stdin_proc : -1;
	po.stdin_net = R->fan_addrs;
	po.stdin_net_proc = o->stdin_proc >= 0 ? o->stdin_proc : -1;
	po.stdin_key = R->stdin_key;
	po.relay = R->secret;
	po.watch = watch_token(R);
	/* The process given the launcher's standard input: Open MPI gives
	 * it to the one its --stdin names, the others to the first. */
	po.root = launch_stdin_relayed(R) ? o->stdin_proc : 0;
	po.flags = (o->check_protocol ? WIRE_CHECK_PROTOCOL : 0) |
	    (o->trace != NULL ? WIRE_TRACE : 0);
	po.origin = R->origin;
	po.tracedir = R->tracedir;
	po.alloc = &R->alloc;
	po.placed = R->placed;
	po.nplaced = R->nplaced;
	/* The tables in a file of the run's wherever every process can
	 * read it (this machine alone), so that no launcher's limit on its
	 * standard input, nor the rank it gives it to, matters; else, for a
	 * launcher whose processes read the plan at their rank, dealt with
	 * their lines over TCP; else on the launcher's standard input,
	 * where it carries them. */
	if (R->L->plan_net &&
	    (!launch_all_local(R) || getenv(RUNFILES_PLAN_NET) != NULL))
		deal = 1;
	else if (launch_all_local(R) || !R->L->stdin_tables)
		xasprintf(&tables, "%s/tables", R->workdir);
	po.tables_file = tables;
	rc = 0;
	if (plan_make(R->g, &po, R->appfile, &R->bundle, &cause) != 0) {
		fprintf(stderr, "ensemble: %s: %s\n", R->g->name, cause);
		free(cause);
		rc = 2;
	} else if (tables != NULL && runfiles_tables(R, tables) != 0)
		rc = 2;
	else if (deal)
		rc = runfiles_deal(R, po.root);
	free(tables);
	return rc;
}
