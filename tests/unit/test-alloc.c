/* test-alloc.c -- the slots of loader/alloc*.c, as a TAP test:
 *
 *	test-alloc DIR [CORES]
 *
 * writes hostfiles into DIR and reads them; reads Slurm allocations from
 * environments it sets; asks alloc_is_local about names; runs
 * alloc_slurm_alive against stand-in 'scontrol' and 'squeue' scripts it
 * writes into DIR/bin.  CORES, when given, is the number of slots Open MPI
 * gives this machine (tests/alloc.test asks mpirun), which alloc_local
 * must find too.  Each hostfile's expected reading was checked against
 * Open MPI 4.1.4's mpirun: where it stops starting processes, or what
 * --display-allocation says. */
#include "config.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "alloc-hostfile.h"
#include "alloc-machine.h"
#include "alloc-slurm.h"
#include "clock.h"
#include "subproc.h"
#include "xmalloc.h"

static int		 tap_n, failed;
static const char	*dir;
static char		 me[HOST_NAME_MAX + 1];	/* this machine's short name */

/* One TAP line. */
static void
check(int good, const char *what)
{
	tap_n++;
	if (!good)
		failed = 1;
	printf("%sok %d - %s\n", good ? "" : "not ", tap_n, what);
}

/* A TAP line comparing got with want, showing both when they differ. */
static void
check_str(const char *got, const char *want, const char *what)
{
	check(strcmp(got, want) == 0, what);
	if (strcmp(got, want) != 0)
		printf("#   got:  %s\n#   want: %s\n", got, want);
}

/* a as one line: "name=slots ... total=N"; this machine is "ME", slots
 * that are a host's cores "c" (this machine's) or "?" (another's), and
 * a total with this machine's cores in it "c+N". */
static char *
show(const struct alloc *a)
{
	struct buf	 b;
	int		 i, cores = 0;

	buf_init(&b);
	for (i = 0; i < a->nhosts; i++) {
		const struct alloc_host *h = &a->hosts[i];

		buf_printf(&b, "%s=", h->local ? "ME" : h->name);
		if (h->local && strcmp(h->name, me) != 0)
			buf_printf(&b, "(named %s)", h->name);
		if (h->cores && h->local) {
			buf_adds(&b, "c");
			cores = h->slots;
		} else if (h->cores)
			buf_printf(&b, "?%s", h->slots == -1 ? "" : "(not -1)");
		else
			buf_printf(&b, "%d", h->slots);
		buf_adds(&b, " ");
	}
	if (a->slots < 0)
		buf_adds(&b, "total=?");
	else if (cores > 0)
		buf_printf(&b, "total=c+%d", a->slots - cores);
	else
		buf_printf(&b, "total=%d", a->slots);
	return buf_steal(&b);
}

/* Write text to DIR/name; the path, which the caller frees. */
static char *
write_file(const char *name, const char *text, int mode)
{
	char	*path;
	FILE	*f;

	xasprintf(&path, "%s/%s", dir, name);
	if ((f = fopen(path, "w")) == NULL || fputs(text, f) == EOF ||
	    fclose(f) != 0) {
		printf("Bail out! cannot write %s\n", path);
		exit(1);
	}
	chmod(path, mode);
	return path;
}

/* Replace "%ME" in s by this machine's name; a copy. */
static char *
subst_me(const char *s)
{
	struct buf	 b;
	const char	*p;

	buf_init(&b);
	while ((p = strstr(s, "%ME")) != NULL) {
		buf_add(&b, s, p - s);
		buf_adds(&b, me);
		s = p + 3;
	}
	buf_adds(&b, s);
	return buf_steal(&b);
}

/* Read hostfile name holding text: want is show()'s line, or "error: " and
 * the cause with "DIR/" taken out. */
static void
hostfile(const char *name, const char *text, const char *want)
{
	struct alloc	 a;
	char		*path, *cause = NULL, *got, *what, *t, *p;

	t = subst_me(text);
	path = write_file(name, t, 0644);
	if (alloc_hostfile(&a, path, &cause) == 0) {
		got = show(&a);
		alloc_clear(&a);
	} else {
		while ((p = strstr(cause, dir)) != NULL)
			memmove(p, p + strlen(dir) + 1, strlen(p + strlen(dir) + 1) + 1);
		xasprintf(&got, "error: %s", cause);
		free(cause);
	}
	xasprintf(&what, "hostfile %s", name);
	check_str(got, want, what);
	free(what);
	free(got);
	free(path);
	free(t);
}

static void
test_hostfiles(void)
{
	struct alloc	 a;
	char		*cause = NULL, *path;

	/* A line without slots= leaves them to Open MPI: the host's cores
	 * (mpirun started 5 processes here, 3 + this machine's 2, not 6). */
	hostfile("basic", "nodeA slots=3\nnodeB\n", "nodeA=3 nodeB=? total=?");
	hostfile("comments", "# comment\n\n   \nnodeA slots=2 # trailing\n"
	    "// slashes\n/* block\n comment */ nodeB slots=1\n\t nodeC slots=1\n",
	    "nodeA=2 nodeB=1 nodeC=1 total=4");
	hostfile("tabs", "nodeA\tslots=2\f\v\n", "nodeA=2 total=2");
	hostfile("spaces", "nodeA slots = 3\n", "nodeA=3 total=3");
	hostfile("no-newline", "nodeA slots=2", "nodeA=2 total=2");
	/* A host listed again: a slot a line, and the slots given. */
	hostfile("repeat", "nodeA\nnodeA\nnodeA\n", "nodeA=3 total=3");
	hostfile("repeat-slots", "nodeA slots=2\nnodeA\n", "nodeA=3 total=3");
	hostfile("slots-twice", "nodeA slots=2\nnodeA slots=2\n",
	    "error: slots-twice:2: the slots of 'nodeA' are given twice: list "
	    "a host once a slot, or on one line with slots=N, not both");
	hostfile("repeat-then-slots", "nodeA\nnodeA slots=2\n",
	    "error: repeat-then-slots:2: the slots of 'nodeA' are given twice: "
	    "list a host once a slot, or on one line with slots=N, not both");
	/* max_slots: the slots when slots= is not there. */
	hostfile("max", "nodeA max_slots=3\n", "nodeA=3 total=3");
	hostfile("max-after", "nodeA max_slots=2 slots=4\n", "nodeA=4 total=4");
	hostfile("max-less", "nodeA slots=4 max_slots=2\n",
	    "error: max-less:1: max_slots=2 is less than the 4 slots of 'nodeA'");
	hostfile("zero", "nodeA slots=0\nnodeB slots=2\n",
	    "nodeA=0 nodeB=2 total=2");
	hostfile("aliases", "nodeA cpu=3\nnodeB count=2\nnodeC max-slots=4\n"
	    "nodeD slots_max=1\n", "nodeA=3 nodeB=2 nodeC=4 nodeD=1 total=10");
	hostfile("slot", "nodeA slot=3\n", "error: slot:1: 'slot' is not a word "
	    "Open MPI 4.1 takes here: slots=N is");
	/* What Open MPI passes over, and what it refuses. */
	hostfile("junk", "nodeA slots=2 foo\n", "nodeA=2 total=2");
	hostfile("port", "nodeA slots=2 port=22 username=root\n",
	    "nodeA=2 total=2");
	hostfile("username-quirk", "nodeA username\nnodeB slots=2\n",
	    "nodeA=2 total=2");
	hostfile("bad-value", "nodeA slots=2\nnodeB slots=abc\n",
	    "error: bad-value:2: slots= wants a number of 0 or more, "
	    "found 'abc'");
	hostfile("negative", "nodeA slots=-1\n", "error: negative:1: slots= "
	    "wants a number of 0 or more, found '-1'");
	hostfile("empty-value", "nodeA slots=\n", "error: empty-value:1: "
	    "slots= wants a number of 0 or more, found end of line");
	hostfile("no-equal", "nodeA slots 3\n", "error: no-equal:1: 'slots' "
	    "wants '=' and a number, found '3'");
	hostfile("big", "nodeA slots=4294967298\n",
	    "error: big:1: slots=4294967298 is too large");
	hostfile("upper", "nodeA SLOTS=3\n", "error: upper:1: unexpected '='");
	hostfile("dotted-junk", "nodeA foo.bar\n",
	    "error: dotted-junk:1: unexpected 'foo.bar'");
	hostfile("line-start", "nodeA slots=3\nslots=2\nnodeB slots=5\n",
	    "error: line-start:2: unexpected 'slots'");
	hostfile("quoted", "nodeA \"x\"\n",
	    "error: quoted:1: unexpected quoted string");
	hostfile("cores", "nodeA slots=2 cores=4\n",
	    "error: cores:1: unexpected 'cores'");
	hostfile("caret", "nodeA slots=3\nnodeB slots=2\n^nodeB\n",
	    "error: caret:3: unexpected '^'");
	hostfile("crlf", "nodeA slots=3\r\n", "error: crlf:1: unexpected "
	    "carriage return (are the file's lines ended the DOS way?)");
	hostfile("eof-comment", "nodeA slots=2\n# no newline",
	    "error: eof-comment:2: unexpected comment without a newline after "
	    "it (Open MPI 4.1 refuses one on a file's last line)");
	hostfile("relative", "+n0\n", "error: relative:1: '+n0' names a host "
	    "of an allocation by its place, and there is no allocation");
	hostfile("rank", "rank 0=nodeA slot=1\n", "error: rank:1: a rankfile "
	    "line ('rank N=host ...') is not read here: list hosts, one a line");
	hostfile("empty", "", "error: 'empty' names no host");
	hostfile("only-comments", "# nothing\n\n",
	    "error: 'only-comments' names no host");
	/* Names: the domain goes, user@ goes, an address stays whole, a
	 * number is a name; this machine's names are one host. */
	hostfile("fqdn", "nodeA.example.com slots=2\nnodeA\n", "nodeA=3 total=3");
	hostfile("user", "root@nodeA slots=3\n", "nodeA=3 total=3");
	hostfile("address", "10.1.2.3 slots=2\n1234 slots=1\n",
	    "10.1.2.3=2 1234=1 total=3");
	hostfile("local", "localhost slots=1\n%ME\n127.0.0.1\n", "ME=3 total=3");
	hostfile("local-cores", "localhost\nnodeB slots=2\n",
	    "ME=c nodeB=2 total=c+2");

	xasprintf(&path, "%s/missing", dir);
	check(alloc_hostfile(&a, path, &cause) == -1, "a missing hostfile");
	free(path);
	if (cause != NULL && strstr(cause, dir) != NULL)
		memmove(strstr(cause, dir), strstr(cause, dir) + strlen(dir) + 1,
		    strlen(strstr(cause, dir) + strlen(dir) + 1) + 1);
	check_str(cause != NULL ? cause : "", "cannot open 'missing': No such "
	    "file or directory", "its message");
	free(cause);
}

/* Read the Slurm allocation of this environment (NULL: unset); want as in
 * hostfile(). */
static void
slurm(const char *jobid, const char *nodes, const char *tasks,
    const char *cpt, const char *want)
{
	struct alloc	 a;
	char		*cause = NULL, *got, *what, *n;

	jobid != NULL ? setenv("SLURM_JOBID", jobid, 1) : unsetenv("SLURM_JOBID");
	n = nodes != NULL ? subst_me(nodes) : NULL;
	n != NULL ? setenv("SLURM_NODELIST", n, 1) : unsetenv("SLURM_NODELIST");
	free(n);
	tasks != NULL ? setenv("SLURM_TASKS_PER_NODE", tasks, 1) :
	    unsetenv("SLURM_TASKS_PER_NODE");
	cpt != NULL ? setenv("SLURM_CPUS_PER_TASK", cpt, 1) :
	    unsetenv("SLURM_CPUS_PER_TASK");
	if (alloc_slurm(&a, &cause) == 0) {
		got = show(&a);
		if (a.kind != ALLOC_SLURM || strcmp(a.jobid, jobid) != 0)
			check(0, "kind and job of an allocation");
		alloc_clear(&a);
	} else {
		xasprintf(&got, "error: %s", cause);
		free(cause);
	}
	xasprintf(&what, "Slurm nodes %s, tasks %s%s%s%s",
	    nodes != NULL ? nodes : "(unset)", tasks != NULL ? tasks : "(unset)",
	    cpt != NULL ? ", cpus per task " : "", cpt != NULL ? cpt : "",
	    jobid != NULL ? "" : ", no job");
	check_str(got, want, what);
	free(what);
	free(got);
}

static void
test_slurm(void)
{
	struct alloc	 a;
	char		*cause = NULL;

	/* Host lists, zero padding kept; tasks per node, "(xN)" repeated. */
	slurm("42", "node[01-03,7],gpu5", "2(x3),1", NULL,
	    "node01=2 node02=2 node03=2 node7=1 gpu5=0 total=7");
	slurm("42", "nodeX", "4", NULL, "nodeX=4 total=4");
	slurm("42", "node[9-11]", "1(x3)", NULL,
	    "node9=1 node10=1 node11=1 total=3");
	slurm("42", "n[001-002],m[1-2]", "1,2,3,4", NULL,
	    "n001=1 n002=2 m1=3 m2=4 total=10");
	slurm("42", "a,b.example.com", "3,5", NULL, "a=3 b=5 total=8");
	/* More counts than hosts (Open MPI: fine), fewer (none for the rest). */
	slurm("42", "a", "4(x30)", NULL, "a=4 total=4");
	slurm("42", "a,b,c", "2", NULL, "a=2 b=0 c=0 total=2");
	slurm("42", "%ME", "3", NULL, "ME=3 total=3");
	/* Not a divisor in Open MPI 4.1 (salloc -n 2 -c 2: 2 slots). */
	slurm("42", "a", "2", "2", "a=2 total=2");
	slurm("42", "a", "2", "0", "error: SLURM_CPUS_PER_TASK='0' is not a "
	    "number of CPUs, which Open MPI refuses");
	slurm("42", "a", "2", "x", "error: SLURM_CPUS_PER_TASK='x' is not a "
	    "number of CPUs, which Open MPI refuses");
	/* Malformed task counts. */
	slurm("42", "a", "2(x3", NULL, "error: SLURM_TASKS_PER_NODE='2(x3' is "
	    "not a list of task counts such as '2(x3),1'");
	slurm("42", "a", "abc", NULL, "error: SLURM_TASKS_PER_NODE='abc' is "
	    "not a list of task counts such as '2(x3),1'");
	slurm("42", "a", "2,", NULL, "error: SLURM_TASKS_PER_NODE='2,' is "
	    "not a list of task counts such as '2(x3),1'");
	slurm("42", "a", "2(x0)", NULL, "error: SLURM_TASKS_PER_NODE='2(x0)' "
	    "is not a list of task counts such as '2(x3),1'");
	slurm("42", "a", "-1", NULL, "error: SLURM_TASKS_PER_NODE='-1' "
	    "is not a list of task counts such as '2(x3),1'");
	/* Malformed host lists, and what Open MPI 4.1 would misread. */
	slurm("42", "node[1-3", "1", NULL, "error: SLURM_NODELIST='node[1-3' "
	    "has a '[' without its ']'");
	slurm("42", "rack[1-2]-n[1-3]", "1", NULL, "error: SLURM_NODELIST="
	    "'rack[1-2]-n[1-3]' has text after a ']', which Open MPI 4.1 "
	    "cannot read");
	slurm("42", "a,", "1", NULL, "error: SLURM_NODELIST='a,' has an empty "
	    "host name");
	slurm("42", "[1-2]", "1", NULL, "error: SLURM_NODELIST='[1-2]' has an "
	    "empty host name");
	slurm("42", "n[a-b]", "1", NULL, "error: SLURM_NODELIST='n[a-b]': "
	    "'a-b' is not a range of host numbers");
	slurm("42", "n[3-1]", "1", NULL, "error: SLURM_NODELIST='n[3-1]': "
	    "'3-1' is not a range of host numbers");
	/* Missing variables. */
	slurm(NULL, "a", "1", NULL, "error: not in a Slurm allocation: "
	    "SLURM_JOBID is not set");
	slurm("42", NULL, "1", NULL, "error: SLURM_NODELIST is not set in the "
	    "Slurm allocation 42");
	slurm("42", "a", NULL, NULL, "error: SLURM_TASKS_PER_NODE is not set "
	    "in the Slurm allocation 42");

	setenv("SLURM_JOBID", "42", 1);
	setenv("SLURM_NODELIST", "a", 1);
	setenv("SLURM_TASKS_PER_NODE", "1", 1);
	unsetenv("SLURM_CPUS_PER_TASK");
	if (alloc_slurm(&a, &cause) == 0) {
		check_str(a.what, "the Slurm allocation 42", "its 'what'");
		alloc_clear(&a);
	} else {
		check(0, "its 'what'");
		free(cause);
	}
	unsetenv("SLURM_JOBID");
	unsetenv("SLURM_NODELIST");
	unsetenv("SLURM_TASKS_PER_NODE");
}

/* An address of one of this machine's interfaces other than loopback, or
 * "" when it has none. */
static void
an_address(char *s, size_t len)
{
	struct ifaddrs	*ifs, *i;

	*s = '\0';
	if (getifaddrs(&ifs) != 0)
		return;
	for (i = ifs; i != NULL; i = i->ifa_next) {
		if (i->ifa_addr == NULL || i->ifa_addr->sa_family != AF_INET)
			continue;
		inet_ntop(AF_INET, &((struct sockaddr_in *)(void *)
		    i->ifa_addr)->sin_addr, s, len);
		if (strncmp(s, "127.", 4) != 0)
			break;
		*s = '\0';
	}
	freeifaddrs(ifs);
}

static void
test_local(const char *cores)
{
	struct alloc	 a;
	char		 host[HOST_NAME_MAX + 1], addr[64], *what, *path;
	char		*cause = NULL;
	double		 t;

	check(alloc_is_local("localhost") == 1, "localhost is local");
	check(alloc_is_local("LOCALHOST") == 1, "LOCALHOST is local");
	check(alloc_is_local("127.0.0.1") == 1, "127.0.0.1 is local");
	check(alloc_is_local("127.1.2.3") == 1, "127.1.2.3 is local");
	check(alloc_is_local("::1") == 1, "::1 is local");
	gethostname(host, sizeof host);
	host[sizeof host - 1] = '\0';
	xasprintf(&what, "the host name '%s' is local", host);
	check(alloc_is_local(host) == 1, what);
	free(what);
	xasprintf(&what, "its short form '%s' is local", me);
	check(alloc_is_local(me) == 1, what);
	free(what);
	an_address(addr, sizeof addr);
	if (*addr != '\0') {
		xasprintf(&what, "this machine's address %s is local", addr);
		check(alloc_is_local(addr) == 1, what);
		free(what);
	} else
		check(1, "this machine's address # SKIP it has none but loopback");
	check(alloc_is_local("") == 0, "the empty name is not local");
	check(alloc_is_local("192.0.2.255") == 0 || strcmp(addr, "192.0.2.255")
	    == 0, "192.0.2.255 is not local");
	t = clock_now();
	check(alloc_is_local("no-such-host.invalid") == 0,
	    "no-such-host.invalid is not local");
	check(clock_now() - t < 1.0, "... and that takes less than a second");

	/* alloc_host_slots: by name, without the domain, by a local name. */
	path = write_file("find", "nodeA slots=3\nlocalhost slots=2\nnodeB\n",
	    0644);
	if (alloc_hostfile(&a, path, &cause) != 0) {
		printf("Bail out! %s\n", cause);
		exit(1);
	}
	check(alloc_host_slots(&a, "nodeA") == 3, "alloc_host_slots nodeA");
	check(alloc_host_slots(&a, "nodeA.example.com") == 3,
	    "alloc_host_slots nodeA.example.com");
	check(alloc_host_slots(&a, "localhost") == 2, "alloc_host_slots localhost");
	check(alloc_host_slots(&a, "127.0.0.1") == 2, "alloc_host_slots 127.0.0.1");
	check(alloc_host_slots(&a, host) == 2, "alloc_host_slots of the host name");
	check(alloc_host_slots(&a, "nodeB") == ALLOC_SLOTS_UNKNOWN,
	    "alloc_host_slots nodeB: its cores, not known");
	check(alloc_host_slots(&a, "nodeC") == -1, "alloc_host_slots nodeC: none");
	check(alloc_find(&a, "nodeB") == &a.hosts[2], "alloc_find nodeB");
	check(a.kind == ALLOC_HOSTFILE, "the kind of a hostfile");
	xasprintf(&what, "the hostfile '%s'", path);
	check_str(a.what, what, "its 'what'");
	free(what);
	alloc_clear(&a);
	free(path);

	alloc_local(&a);
	check(a.kind == ALLOC_LOCAL && a.nhosts == 1 && a.hosts[0].local &&
	    a.hosts[0].cores && strcmp(a.hosts[0].name, me) == 0 &&
	    a.slots == a.hosts[0].slots && a.slots > 0,
	    "alloc_local: this machine and its cores");
	check_str(a.what, "this machine", "its 'what'");
	if (cores != NULL) {
		xasprintf(&what, "alloc_local: %s cores, as Open MPI counts", cores);
		check(a.slots == atoi(cores), what);
		if (a.slots != atoi(cores))
			printf("#   alloc_local found %d\n", a.slots);
		free(what);
	} else
		check(1, "alloc_local: as Open MPI counts # SKIP no count given");
	alloc_clear(&a);
}

/* Write the stand-in scontrol and squeue into DIR/bin: ping prints ping
 * and exits with ping_rc; squeue records its arguments in DIR/args, prints
 * out on stdout, err on stderr and exits with rc.  A shell command in
 * place of a text is run instead (it starts with '!'). */
static void
fakes(const char *ping, int ping_rc, const char *out, const char *err, int rc)
{
	char	*text, *path;

	xasprintf(&path, "%s/bin", dir);
	mkdir(path, 0755);
	free(path);
	if (*ping == '!')
		xasprintf(&text, "#!/bin/sh\n%s\n", ping + 1);
	else
		xasprintf(&text, "#!/bin/sh\nprintf '%%s\\n' '%s'\nexit %d\n",
		    ping, ping_rc);
	free(write_file("bin/scontrol", text, 0755));
	free(text);
	xasprintf(&text, "#!/bin/sh\necho \"$@\" >'%s/args'\n"
	    "[ -z '%s' ] || printf '%%s\\n' '%s'\n"
	    "[ -z '%s' ] || printf '%%s\\n' '%s' >&2\nexit %d\n",
	    dir, out, out, err, err, rc);
	free(write_file("bin/squeue", text, 0755));
	free(text);
}

/* Remove squeue's record of its arguments. */
static void
unlink_args(void)
{
	char	*path;

	xasprintf(&path, "%s/args", dir);
	unlink(path);
	free(path);
}

/* A slurmctld that is down: ping says so at once, squeue retries (and
 * is killed). */
static void
sleepy_squeue(void)
{
	fakes("Slurmctld(primary) at vm is DOWN", 1, "RUNNING", "", 0);
	free(write_file("bin/squeue", "#!/bin/sh\nexec sleep 30\n", 0755));
}

/* squeue that says RUNNING and adds a line to DIR/asked each time. */
static void
counting_squeue(void)
{
	char	*text;

	xasprintf(&text, "#!/bin/sh\necho x >>'%s/asked'\necho RUNNING\n", dir);
	free(write_file("bin/squeue", text, 0755));
	free(text);
}

/* The lines of DIR/name, or -1. */
static int
count_lines(const char *name)
{
	char	*path;
	FILE	*f;
	int	 c, n = 0;

	xasprintf(&path, "%s/%s", dir, name);
	f = fopen(path, "r");
	free(path);
	if (f == NULL)
		return -1;
	while ((c = fgetc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

/* alloc_slurm_alive with the stand-ins: want is "RUNNING", or "ENDED: "
 * or "NO_ANSWER: " and the cause. */
static void
alive(const char *what, const char *want)
{
	enum alloc_job	 job;
	char		*cause = NULL, *got;

	job = alloc_slurm_alive("42", &cause);
	if (job == ALLOC_JOB_RUNNING)
		got = xstrdup(cause == NULL ? "RUNNING" : "RUNNING with a cause");
	else
		xasprintf(&got, "%s: %s", job == ALLOC_JOB_ENDED ? "ENDED" :
		    job == ALLOC_JOB_NO_ANSWER ? "NO_ANSWER" : "?",
		    cause != NULL ? cause : "(no cause)");
	check_str(got, want, what);
	free(got);
	free(cause);
}

static void
test_alive(void)
{
	char	*path, *old, *args;
	double	 t;

	old = xstrdup(getenv("PATH") != NULL ? getenv("PATH") : "/usr/bin:/bin");
	xasprintf(&path, "%s/bin:/usr/bin:/bin", dir);
	setenv("PATH", path, 1);
	free(path);

	fakes("Slurmctld(primary) at vm is UP", 0, "RUNNING", "", 0);
	alive("a running job", "RUNNING");
	xasprintf(&path, "%s/args", dir);
	args = NULL;
	{
		FILE	*f;
		char	 line[256];

		if ((f = fopen(path, "r")) != NULL) {
			if (fgets(line, sizeof line, f) != NULL)
				args = xstrdup(line);
			fclose(f);
		}
	}
	check_str(args != NULL ? args : "", "--noheader --states=all "
	    "--jobs=42 --format=%T\n", "squeue's arguments");
	free(args);
	free(path);
	fakes("Slurmctld(primary) at vm is UP", 0, "CONFIGURING", "", 0);
	alive("a job whose nodes boot", "RUNNING");
	fakes("Slurmctld(primary) at vm is UP", 0, "COMPLETED", "", 0);
	alive("a completed job", "ENDED: the Slurm allocation 42 has ended "
	    "(COMPLETED)");
	fakes("Slurmctld(primary) at vm is UP", 0, "CANCELLED", "", 0);
	alive("a cancelled job", "ENDED: the Slurm allocation 42 has ended "
	    "(CANCELLED)");
	fakes("Slurmctld(primary) at vm is UP", 0, "SUSPENDED", "", 0);
	alive("a suspended job", "ENDED: the Slurm allocation 42 is not "
	    "running (SUSPENDED)");
	fakes("Slurmctld(primary) at vm is UP", 0, "", "", 0);
	alive("squeue says nothing", "ENDED: the Slurm allocation 42 is not "
	    "known to Slurm any more");
	fakes("Slurmctld(primary) at vm is UP", 0, "",
	    "slurm_load_jobs error: Invalid job id specified", 1);
	alive("a job slurmctld forgot", "ENDED: the Slurm allocation 42 is not "
	    "known to Slurm any more");
	fakes("Slurmctld(primary) at vm is UP", 0, "", "slurm_load_jobs error: "
	    "Unable to contact slurm controller (connect failure)", 1);
	alive("squeue cannot reach slurmctld", "NO_ANSWER: Slurm does not "
	    "answer (squeue: slurm_load_jobs error: Unable to contact slurm "
	    "controller (connect failure)): is slurmctld running?");
	fakes("Slurmctld(primary) at vm is DOWN", 1, "RUNNING", "", 0);
	alive("slurmctld down", "NO_ANSWER: Slurm does not answer (scontrol "
	    "ping: Slurmctld(primary) at vm is DOWN): is slurmctld running?");
	fakes("!echo 'Slurmctld(primary) at vm is DOWN'; echo 'scontrol: error: "
	    "If munged is up, restart with --num-threads=10' >&2; echo "
	    "'scontrol: error: Munge encode failed: Failed to access "
	    "\"/run/munge/munge.socket.2\": No such file or directory (Did you "
	    "start munged?)' >&2; exit 1", 0, "RUNNING", "", 0);
	alive("munged down", "NO_ANSWER: Slurm does not answer (scontrol ping: "
	    "Munge encode failed: Failed to access \"/run/munge/munge.socket.2\": "
	    "No such file or directory (Did you start munged?)): is munged "
	    "running?");
	fakes("!exec sleep 30", 0, "RUNNING", "", 0);
	t = clock_now();
	alive("scontrol ping hangs", "NO_ANSWER: Slurm does not answer "
	    "(scontrol ping gave no answer in 5 s): is slurmctld running?");
	t = clock_now() - t;
	check(t >= 4.9 && t < 7.0, "... stopped after 5 s");
	if (!(t >= 4.9 && t < 7.0))
		printf("#   it took %.1f s\n", t);

	/* Both questions at once: ping answers only once squeue has
	 * started (asked one after the other, ping would wait its 5 s). */
	unlink_args();
	xasprintf(&path, "!i=0; while [ ! -e '%s/args' ] && [ $i -lt 100 ]; do"
	    " sleep 0.1; i=$((i + 1)); done; echo 'Slurmctld(primary) at vm is"
	    " UP'", dir);
	fakes(path, 0, "RUNNING", "", 0);
	free(path);
	alive("ping and squeue asked at once", "RUNNING");
	/* slurmctld down: squeue's answer (18 s of retries) is not waited
	 * for. */
	sleepy_squeue();
	t = clock_now();
	alive("slurmctld down, squeue retrying", "NO_ANSWER: Slurm does not "
	    "answer (scontrol ping: Slurmctld(primary) at vm is DOWN): is "
	    "slurmctld running?");
	t = clock_now() - t;
	check(t < 4.0, "... squeue not waited for");
	if (!(t < 4.0))
		printf("#   it took %.1f s\n", t);
	/* Asked ahead (alloc_slurm_ahead): the answers are taken, not
	 * asked again; those not taken are ended. */
	fakes("Slurmctld(primary) at vm is UP", 0, "RUNNING", "", 0);
	counting_squeue();
	alloc_slurm_ahead("42");
	alive("asked ahead", "RUNNING");
	check(count_lines("asked") == 1, "... squeue asked once");
	alloc_slurm_ahead("42");
	subproc_ahead_drop();
	check(waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD,
	    "... questions not taken are ended and reaped");

	xasprintf(&path, "%s/nothing", dir);
	setenv("PATH", path, 1);
	free(path);
	alive("no Slurm here", "NO_ANSWER: Slurm does not answer (cannot run "
	    "'scontrol': No such file or directory)");
	setenv("PATH", old, 1);
	free(old);
}

int
main(int argc, char **argv)
{
	char	*dot;

	if (argc < 2) {
		fprintf(stderr, "usage: test-alloc DIR [CORES]\n");
		return 2;
	}
	dir = argv[1];
	gethostname(me, sizeof me);
	me[sizeof me - 1] = '\0';
	if ((dot = strchr(me, '.')) != NULL)
		*dot = '\0';
	/* Whatever DNS is asked (names that are not this machine's), it
	 * answers soon or not at all. */
	setenv("RES_OPTIONS", "timeout:1 attempts:1", 1);
	unsetenv("SLURM_CPUS_PER_TASK");

	test_hostfiles();
	test_slurm();
	test_local(argc > 2 ? argv[2] : NULL);
	test_alive();
	printf("1..%d\n", tap_n);
	return failed;
}
