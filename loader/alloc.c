/* alloc.c -- the slots a run may use, as Open MPI 4.1 counts them (see
 * alloc.h).  A hostfile is read by a scanner that follows the rules of
 * Open MPI's flex scanner (orte/util/hostfile/hostfile_lex.l: longest
 * match, the earlier rule on a tie) and a parser that follows
 * orte/util/hostfile/hostfile.c token by token, quirks included: a host
 * listed again adds a slot, a line without slots= leaves the count to
 * Open MPI (the host's cores), a comment on the last line needs its
 * newline.  It differs only where Open MPI would go wrong: a number past
 * INT_MAX, which Open MPI truncates, and what it reports but goes on
 * after, are errors here.  A Slurm allocation is read as
 * orte/mca/ras/slurm does; its state is asked of 'scontrol ping' (one try,
 * an answer in milliseconds when slurmctld is down) and then 'squeue'
 * (whose client retries for twice MessageTimeout, 18 s by default, when
 * it is). */
#include "config.h"

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "alloc.h"
#include "clock.h"
#include "xmalloc.h"

#define ALLOC_HOSTLIST_MAX	(1 << 20)	/* names of a Slurm host list */
#define ALLOC_CPUS_MAX		(1 << 16)	/* CPUs alloc_cores looks at */
#define ALLOC_PING_WAIT		5.0	/* seconds for 'scontrol ping' */
#define ALLOC_SQUEUE_WAIT	10.0	/* for 'squeue', slurmctld being up */

/* Whether s ends with suffix, case aside. */
static int
alloc_suffix(const char *s, const char *suffix)
{
	size_t	n = strlen(s), m = strlen(suffix);

	return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

/* Whether s is an IPv4 or IPv6 address, as Open MPI's opal_net_isaddr. */
static int
alloc_is_addr(const char *s)
{
	struct in6_addr	a;

	return inet_pton(AF_INET, s, &a) == 1 || inet_pton(AF_INET6, s, &a) == 1;
}

/* Name without its domain, as Open MPI keeps host names (an address
 * whole); the caller frees it. */
static char *
alloc_short(const char *name)
{
	const char	*dot;

	if (alloc_is_addr(name) || (dot = strchr(name, '.')) == NULL)
		return xstrdup(name);
	return xstrndup(name, dot - name);
}

/* This machine's host name without its domain, as Open MPI names it. */
static char *
alloc_nodename(void)
{
	char	host[HOST_NAME_MAX + 1];

	if (gethostname(host, sizeof host) != 0)
		return xstrdup("localhost");
	host[sizeof host - 1] = '\0';
	return alloc_short(host);
}

/* Whether the address addr (of family af) is this machine's: loopback or
 * an address of one of its interfaces. */
static int
alloc_local_addr(int af, const void *addr)
{
	struct ifaddrs	*ifs, *i;
	const void	*ia;
	void		*sa;
	int		 found = 0;

	if (af == AF_INET && (ntohl(((const struct in_addr *)addr)->s_addr) >>
	    24) == 127)
		return 1;
	if (af == AF_INET6 && IN6_IS_ADDR_LOOPBACK((const struct in6_addr *)addr))
		return 1;
	if (getifaddrs(&ifs) != 0)
		return 0;
	for (i = ifs; i != NULL && !found; i = i->ifa_next) {
		if (i->ifa_addr == NULL || i->ifa_addr->sa_family != af)
			continue;
		sa = i->ifa_addr;
		if (af == AF_INET) {
			ia = &((struct sockaddr_in *)sa)->sin_addr;
			found = memcmp(ia, addr, sizeof(struct in_addr)) == 0;
		} else {
			ia = &((struct sockaddr_in6 *)sa)->sin6_addr;
			found = memcmp(ia, addr, sizeof(struct in6_addr)) == 0;
		}
	}
	freeifaddrs(ifs);
	return found;
}

int
alloc_is_local(const char *name)
{
	char		 host[HOST_NAME_MAX + 1], *dot;
	struct in6_addr	 a;
	struct addrinfo	 hints, *res, *r;
	void		*sa;
	int		 found = 0;

	if (*name == '\0')
		return 0;
	if (strcasecmp(name, "localhost") == 0 ||
	    alloc_suffix(name, ".localhost"))
		return 1;
	/* RFC 6761: never a host, and no resolver is to be asked. */
	if (strcasecmp(name, "invalid") == 0 || alloc_suffix(name, ".invalid"))
		return 0;
	if (gethostname(host, sizeof host) == 0) {
		host[sizeof host - 1] = '\0';
		if (strcasecmp(name, host) == 0)
			return 1;
		if ((dot = strchr(host, '.')) != NULL) {
			*dot = '\0';
			if (strcasecmp(name, host) == 0)
				return 1;
		}
	}
	if (inet_pton(AF_INET, name, &a) == 1)
		return alloc_local_addr(AF_INET, &a);
	if (inet_pton(AF_INET6, name, &a) == 1)
		return alloc_local_addr(AF_INET6, &a);

	/* The last resort, as Open MPI's opal_ifislocal: resolve it. */
	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	if (getaddrinfo(name, NULL, &hints, &res) != 0)
		return 0;
	for (r = res; r != NULL && !found; r = r->ai_next) {
		sa = r->ai_addr;
		if (r->ai_family == AF_INET)
			found = alloc_local_addr(AF_INET,
			    &((struct sockaddr_in *)sa)->sin_addr);
		else if (r->ai_family == AF_INET6)
			found = alloc_local_addr(AF_INET6,
			    &((struct sockaddr_in6 *)sa)->sin6_addr);
	}
	freeaddrinfo(res);
	return found;
}

/* The contents of file path, NUL-terminated, or NULL with errno set. */
static char *
alloc_read_file(const char *path, size_t *lenp)
{
	struct buf	 b;
	char		 chunk[4096];
	ssize_t		 n;
	int		 fd, e;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return NULL;
	buf_init(&b);
	for (;;) {
		n = read(fd, chunk, sizeof chunk);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		buf_add(&b, chunk, n);
	}
	e = errno;
	close(fd);
	if (n < 0) {
		buf_free(&b);
		errno = e;
		return NULL;
	}
	if (lenp != NULL)
		*lenp = b.len;
	buf_addc(&b, '\0');
	return buf_steal(&b);
}

/* Mark in set (of ALLOC_CPUS_MAX) the CPUs of the Linux CPU list in file
 * path ("0-3,8"); -1 when it cannot be read. */
static int
alloc_cpulist(const char *path, unsigned char *set)
{
	char	*s, *p, *end;
	long	 lo, hi;

	if ((s = alloc_read_file(path, NULL)) == NULL)
		return -1;
	for (p = s; *p != '\0' && *p != '\n';) {
		lo = strtol(p, &end, 10);
		if (end == p || lo < 0)
			break;
		hi = lo;
		if (*end == '-') {
			p = end + 1;
			hi = strtol(p, &end, 10);
			if (end == p)
				break;
		}
		for (; lo <= hi && lo < ALLOC_CPUS_MAX; lo++)
			set[lo] = 1;
		p = end;
		if (*p == ',')
			p++;
	}
	free(s);
	return 0;
}

/* A number in file path, or -1. */
static long
alloc_file_long(const char *path)
{
	char	*s, *end;
	long	 v;

	if ((s = alloc_read_file(path, NULL)) == NULL)
		return -1;
	v = strtol(s, &end, 10);
	if (end == s)
		v = -1;
	free(s);
	return v;
}

/* The number in topology file 'what' of CPU cpu, or -1. */
static long
alloc_topology(size_t cpu, const char *what)
{
	char	*path;
	long	 v;

	xasprintf(&path, "/sys/devices/system/cpu/cpu%zu/topology/%s", cpu,
	    what);
	v = alloc_file_long(path);
	free(path);
	return v;
}

/* This machine's cores as Open MPI's hwloc counts them: the cores with an
 * online CPU in this process's cgroup cpuset (not its affinity: 'taskset
 * -c 0 mpirun' still has every core).  Threads of one core count once. */
static int
alloc_cores(void)
{
	static const char *const sets[] = {
		"/sys/fs/cgroup%s/cpuset.cpus.effective",
		"/sys/fs/cgroup/cpuset%s/cpuset.effective_cpus",
		"/sys/fs/cgroup/cpuset%s/cpuset.cpus",
	};
	unsigned char	*online, *allowed;
	long		(*core)[3], pkg, die, id;
	char		*cg, *path;
	size_t		 i, j, ncores = 0;
	int		 rc;

	online = xcalloc(ALLOC_CPUS_MAX, 1);
	allowed = xcalloc(ALLOC_CPUS_MAX, 1);
	if (alloc_cpulist("/sys/devices/system/cpu/online", online) != 0) {
		free(online);
		free(allowed);
		id = sysconf(_SC_NPROCESSORS_ONLN);
		return id > 0 ? (int)id : 1;
	}
	memset(allowed, 1, ALLOC_CPUS_MAX);
	if ((cg = alloc_read_file("/proc/self/cpuset", NULL)) != NULL) {
		cg[strcspn(cg, "\n")] = '\0';
		if (strcmp(cg, "/") == 0)
			*cg = '\0';
		for (i = 0; i < sizeof sets / sizeof sets[0]; i++) {
			xasprintf(&path, sets[i], cg);
			memset(allowed, 0, ALLOC_CPUS_MAX);
			rc = alloc_cpulist(path, allowed);
			free(path);
			if (rc == 0)
				break;
			memset(allowed, 1, ALLOC_CPUS_MAX);
		}
		free(cg);
	}

	core = xcalloc(ALLOC_CPUS_MAX, sizeof *core);
	for (i = 0; i < ALLOC_CPUS_MAX; i++) {
		if (!online[i] || !allowed[i])
			continue;
		pkg = alloc_topology(i, "physical_package_id");
		die = alloc_topology(i, "die_id");
		id = alloc_topology(i, "core_id");
		if (pkg < 0 || id < 0) {	/* not known: a core of its own */
			pkg = -1;
			id = (long)i;
		}
		for (j = 0; j < ncores; j++) {
			if (core[j][0] == pkg && core[j][1] == die &&
			    core[j][2] == id)
				break;
		}
		if (j == ncores) {
			core[ncores][0] = pkg;
			core[ncores][1] = die;
			core[ncores][2] = id;
			ncores++;
		}
	}
	free(core);
	free(online);
	free(allowed);
	if (ncores == 0) {
		id = sysconf(_SC_NPROCESSORS_ONLN);
		return id > 0 ? (int)id : 1;
	}
	return (int)ncores;
}

/* Append host name (taken over) to a; its index. */
static int
alloc_add(struct alloc *a, char *name, int slots, int cores, int local)
{
	struct alloc_host	*h;

	/* Room for 4, then doubled when full (nhosts a power of 2). */
	if (a->nhosts == 0 || (a->nhosts >= 4 &&
	    (a->nhosts & (a->nhosts - 1)) == 0))
		a->hosts = xreallocarray(a->hosts, a->nhosts == 0 ? 4 :
		    (size_t)a->nhosts * 2, sizeof *a->hosts);
	h = &a->hosts[a->nhosts];
	h->name = name;
	h->slots = slots;
	h->cores = cores;
	h->local = local;
	return a->nhosts++;
}

/* The host of a named exactly name, or -1. */
static int
alloc_index(const struct alloc *a, const char *name)
{
	int	i;

	for (i = 0; i < a->nhosts; i++) {
		if (strcmp(a->hosts[i].name, name) == 0)
			return i;
	}
	return -1;
}

/* Fill in what Open MPI works out itself (a local host's cores) and the
 * total. */
static void
alloc_total(struct alloc *a)
{
	struct alloc_host	*h;
	int			 i, cores = -1;

	a->slots = 0;
	for (i = 0; i < a->nhosts; i++) {
		h = &a->hosts[i];
		if (h->cores && h->local) {
			if (cores < 0)
				cores = alloc_cores();
			h->slots = cores;
		} else if (h->cores)
			h->slots = -1;
		if (h->slots < 0 || a->slots < 0)
			a->slots = -1;
		else if (a->slots > INT_MAX - h->slots)
			a->slots = INT_MAX;
		else
			a->slots += h->slots;
	}
}

void
alloc_clear(struct alloc *a)
{
	int	i;

	for (i = 0; i < a->nhosts; i++)
		free(a->hosts[i].name);
	free(a->hosts);
	free(a->what);
	free(a->jobid);
	memset(a, 0, sizeof *a);
}

void
alloc_local(struct alloc *a)
{
	memset(a, 0, sizeof *a);
	a->kind = ALLOC_LOCAL;
	a->what = xstrdup("this machine");
	alloc_add(a, alloc_nodename(), -1, 1, 1);
	alloc_total(a);
}

const struct alloc_host *
alloc_find(const struct alloc *a, const char *name)
{
	char	*s;
	int	 i;

	s = alloc_short(name);
	i = alloc_index(a, s);
	if (i < 0 && (alloc_is_local(name) || alloc_is_local(s))) {
		for (i = 0; i < a->nhosts; i++) {
			if (a->hosts[i].local)
				break;
		}
		if (i == a->nhosts)
			i = -1;
	}
	free(s);
	return i < 0 ? NULL : &a->hosts[i];
}

int
alloc_host_slots(const struct alloc *a, const char *name)
{
	const struct alloc_host	*h;

	if ((h = alloc_find(a, name)) == NULL)
		return -1;
	return h->slots < 0 ? ALLOC_SLOTS_UNKNOWN : h->slots;
}

/*
 * The hostfile.
 */

/* Open MPI's tokens (orte/util/hostfile/hostfile_lex.h), with its numbers,
 * which its parse errors print. */
enum hf_tok {
	HF_DONE = 0, HF_ERROR = 1, HF_QUOTED = 2, HF_EQUAL = 3, HF_INT = 4,
	HF_STRING = 5, HF_CPU = 6, HF_COUNT = 7, HF_SLOTS = 8,
	HF_SLOTS_MAX = 9, HF_USERNAME = 10, HF_IPV4 = 11, HF_HOSTNAME = 12,
	HF_NEWLINE = 13, HF_IPV6 = 14, HF_SLOT = 15, HF_RELATIVE = 16,
	HF_BOARDS = 17, HF_SOCKETS = 18, HF_CORES = 19, HF_RANK = 20,
	HF_PORT = 21,
};

/* The keywords, in the order of the scanner's rules. */
static const struct hf_keyword {
	const char	*word;
	enum hf_tok	 tok;
} hf_keywords[] = {
	{ "cpu", HF_CPU }, { "count", HF_COUNT }, { "slots", HF_SLOTS },
	{ "slots-max", HF_SLOTS_MAX }, { "slots_max", HF_SLOTS_MAX },
	{ "max-slots", HF_SLOTS_MAX }, { "max_slots", HF_SLOTS_MAX },
	{ "cpu-max", HF_SLOTS_MAX }, { "cpu_max", HF_SLOTS_MAX },
	{ "max-cpu", HF_SLOTS_MAX }, { "max_cpu", HF_SLOTS_MAX },
	{ "count-max", HF_SLOTS_MAX }, { "count_max", HF_SLOTS_MAX },
	{ "max-count", HF_SLOTS_MAX }, { "max_count", HF_SLOTS_MAX },
	{ "rank", HF_RANK }, { "slot", HF_SLOT }, { "username", HF_USERNAME },
	{ "user-name", HF_USERNAME }, { "user_name", HF_USERNAME },
	{ "port", HF_PORT }, { "boards", HF_BOARDS }, { "sockets", HF_SOCKETS },
	{ "sockets_per_board", HF_SOCKETS }, { "sockets-per-board", HF_SOCKETS },
	{ "cores", HF_CORES }, { "cores_per_socket", HF_CORES },
	{ "cores-per-socket", HF_CORES },
};

/* A hostfile being read, and its last token. */
struct hf {
	const char	*path;
	char		*text;
	size_t		 len, pos;
	int		 line;		/* of pos */
	int		 comment;	/* in a block comment */
	enum hf_tok	 tok;
	const char	*ts;		/* its text */
	size_t		 tlen;
	int		 tline;		/* its line */
	long long	 ival;		/* HF_INT: its value (> INT_MAX: large) */
	char		*nodename;	/* this machine's, for its other names */
	struct alloc	*a;
	char		**cause;
};

/* Whether c is of the scanner's {WHITE}. */
static int
hf_white(int c)
{
	return c == ' ' || c == '\t' || c == '\f' || c == '\v';
}

/* The length of a match of [A-Za-z0-9][A-Za-z0-9_\-]*"@" at s, or 0. */
static size_t
hf_user_at(const char *s, const char *end, int caret)
{
	const char	*p = s;

	if (caret && p < end && *p == '^')
		p++;
	if (p >= end || !isalnum((unsigned char)*p))
		return 0;
	for (p++; p < end && (isalnum((unsigned char)*p) || *p == '_' ||
	    *p == '-'); p++)
		;
	return p < end && *p == '@' ? (size_t)(p + 1 - s) : 0;
}

/* The length of a match of ([0-9]{1,3}"."){3}[0-9]{1,3} at s, or 0. */
static size_t
hf_ipv4(const char *s, const char *end)
{
	const char	*p = s;
	int		 part, d;

	for (part = 0; part < 4; part++) {
		for (d = 0; d < 3 && p < end && isdigit((unsigned char)*p); d++)
			p++;
		if (d == 0)
			return 0;
		if (part < 3) {
			if (p >= end || *p != '.')
				return 0;
			p++;
		}
	}
	return p - s;
}

/* The length of a match of [A-Za-z0-9][A-Za-z0-9_\-\.]* at s, or 0. */
static size_t
hf_hostname(const char *s, const char *end)
{
	const char	*p = s;

	if (p >= end || !isalnum((unsigned char)*p))
		return 0;
	for (p++; p < end && (isalnum((unsigned char)*p) || *p == '_' ||
	    *p == '-' || *p == '.'); p++)
		;
	return p - s;
}

/* Count the newlines of the token and move past it. */
static void
hf_take(struct hf *hf, size_t n)
{
	size_t	i;

	hf->ts = hf->text + hf->pos;
	hf->tlen = n;
	hf->tline = hf->line;
	for (i = 0; i < n; i++) {
		if (hf->ts[i] == '\n')
			hf->line++;
	}
	hf->pos += n;
}

/* The next token, by the rules of Open MPI's scanner: the longest match,
 * the earliest rule on a tie. */
static enum hf_tok
hf_lex(struct hf *hf)
{
	const char	*s, *end = hf->text + hf->len, *nl;
	size_t		 best, n, k, i;
	enum hf_tok	 tok;
	int		 rule, brule;

again:
	if (hf->pos >= hf->len) {
		hf->ts = end;
		hf->tlen = 0;
		hf->tline = hf->line;
		return hf->tok = HF_DONE;
	}
	s = hf->text + hf->pos;
	if (hf->comment) {
		if (*s == '\n') {
			hf_take(hf, 1);
			return hf->tok = HF_NEWLINE;
		}
		if (*s == '*') {
			for (k = 0; s + k < end && s[k] == '*'; k++)
				;
			if (s + k < end && s[k] == '/') {
				hf->comment = 0;
				hf_take(hf, k + 1);
				return hf->tok = HF_NEWLINE;
			}
			for (; s + k < end && s[k] != '*' && s[k] != '/' &&
			    s[k] != '\n'; k++)
				;
		} else {
			for (k = 0; s + k < end && s[k] != '*' &&
			    s[k] != '\n'; k++)
				;
		}
		hf_take(hf, k);
		goto again;
	}

	nl = memchr(s, '\n', end - s);
	best = 0;
	brule = 0;
	tok = HF_ERROR;
#define HF_RULE(len, t) do {						\
	n = (len);							\
	if (n > best) {							\
		best = n;						\
		tok = (t);						\
		brule = rule;						\
	}								\
	rule++;								\
} while (0)
	rule = 1;
	/* {WHITE}*\n, #.*\n, "//".*\n */
	for (k = 0; s + k < end && hf_white(s[k]); k++)
		;
	HF_RULE(s + k < end && s[k] == '\n' ? k + 1 : 0, HF_NEWLINE);
	HF_RULE(*s == '#' && nl != NULL ? (size_t)(nl + 1 - s) : 0, HF_NEWLINE);
	HF_RULE(end - s >= 2 && s[0] == '/' && s[1] == '/' && nl != NULL ?
	    (size_t)(nl + 1 - s) : 0, HF_NEWLINE);
	/* Slash and star start a block comment: marked below. */
	HF_RULE(end - s >= 2 && s[0] == '/' && s[1] == '*' ? 2 : 0, HF_NEWLINE);
	/* \"[^\"]*\" */
	n = 0;
	if (*s == '"') {
		for (k = 1; s + k < end && s[k] != '"'; k++)
			;
		if (s + k < end)
			n = k + 1;
	}
	HF_RULE(n, HF_QUOTED);
	/* {WHITE}+: skipped, marked below. */
	for (k = 0; s + k < end && hf_white(s[k]); k++)
		;
	HF_RULE(k, HF_ERROR);
	HF_RULE(*s == '=' ? 1 : 0, HF_EQUAL);
	for (i = 0; i < sizeof hf_keywords / sizeof hf_keywords[0]; i++) {
		k = strlen(hf_keywords[i].word);
		HF_RULE((size_t)(end - s) >= k &&
		    memcmp(s, hf_keywords[i].word, k) == 0 ? k : 0,
		    hf_keywords[i].tok);
	}
	/* \+n[0-9]+, \+[eE][\:][0-9]+, \+[eE] */
	n = 0;
	if (*s == '+' && end - s >= 2 && s[1] == 'n') {
		for (k = 2; s + k < end && isdigit((unsigned char)s[k]); k++)
			;
		n = k > 2 ? k : 0;
	}
	HF_RULE(n, HF_RELATIVE);
	n = 0;
	if (*s == '+' && end - s >= 3 && (s[1] == 'e' || s[1] == 'E') &&
	    s[2] == ':') {
		for (k = 3; s + k < end && isdigit((unsigned char)s[k]); k++)
			;
		n = k > 3 ? k : 0;
	}
	HF_RULE(n, HF_RELATIVE);
	HF_RULE(*s == '+' && end - s >= 2 && (s[1] == 'e' || s[1] == 'E') ? 2 :
	    0, HF_RELATIVE);
	/* [0-9]+ */
	for (k = 0; s + k < end && isdigit((unsigned char)s[k]); k++)
		;
	HF_RULE(k, HF_INT);
	/* [A-Za-z0-9_\-,:*@]* */
	for (k = 0; s + k < end && (isalnum((unsigned char)s[k]) ||
	    strchr("_-,:*@", s[k]) != NULL) && s[k] != '\0'; k++)
		;
	HF_RULE(k, HF_STRING);
	/* IPv4, with or without user@ */
	n = hf_ipv4(s, end);
	if ((k = hf_user_at(s, end, 0)) > 0 && hf_ipv4(s + k, end) > 0 &&
	    k + hf_ipv4(s + k, end) > n)
		n = k + hf_ipv4(s + k, end);
	HF_RULE(n, HF_IPV4);
	/* The IPv6 rule matches only what [A-Za-z0-9_\-,:*@]* matches at
	 * least as far, and that rule comes first: it never wins. */
	rule++;
	/* (\^?[A-Za-z0-9][A-Za-z0-9_\-]*"@")?[A-Za-z0-9][A-Za-z0-9_\-\.]* */
	n = hf_hostname(s, end);
	if ((k = hf_user_at(s, end, 1)) > 0 && hf_hostname(s + k, end) > 0 &&
	    k + hf_hostname(s + k, end) > n)
		n = k + hf_hostname(s + k, end);
	HF_RULE(n, HF_HOSTNAME);
	/* . */
	HF_RULE(*s != '\n' ? 1 : 0, HF_ERROR);
#undef HF_RULE

	if (brule == 6) {			/* {WHITE}+ */
		hf_take(hf, best);
		goto again;
	}
	if (brule == 4)				/* a block comment */
		hf->comment = 1;
	hf_take(hf, best);
	if (tok == HF_INT) {
		hf->ival = 0;
		for (k = 0; k < hf->tlen && hf->ival <= INT_MAX; k++)
			hf->ival = hf->ival * 10 + (hf->ts[k] - '0');
	}
	return hf->tok = tok;
}

/* Set *cause to "path:line: " and the message; -1. */
static int __attribute__((format(printf, 3, 4)))
hf_fail(struct hf *hf, int line, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	xvasprintf(&msg, fmt, ap);
	va_end(ap);
	xasprintf(hf->cause, "%s:%d: %s", hf->path, line, msg);
	free(msg);
	return -1;
}

/* The last token, said for a message: 'text', or what it is. */
static char *
hf_what(const struct hf *hf)
{
	char		*s;
	const char	*p;
	unsigned char	 c;

	switch (hf->tok) {
	case HF_DONE:
		return xstrdup("end of file");
	case HF_NEWLINE:
		return xstrdup("end of line");
	case HF_QUOTED:
		return xstrdup("quoted string");
	case HF_ERROR:
		c = *hf->ts;
		if (c == '\r')
			return xstrdup("carriage return (are the file's lines "
			    "ended the DOS way?)");
		p = hf->ts;
		if ((c == '#' || (c == '/' && p + 1 < hf->text + hf->len &&
		    p[1] == '/')) && memchr(p, '\n', hf->text + hf->len - p) ==
		    NULL)
			return xstrdup("comment without a newline after it "
			    "(Open MPI 4.1 refuses one on a file's last line)");
		if (isprint(c))
			xasprintf(&s, "'%c'", c);
		else
			xasprintf(&s, "byte 0x%02x", c);
		return s;
	default:
		xasprintf(&s, "'%.*s'", (int)hf->tlen, hf->ts);
		return s;
	}
}

/* A token where the grammar has none: Open MPI's parse error. */
static int
hf_unexpected(struct hf *hf)
{
	char	*what;
	int	 line = hf->tline;

	if (hf->tok == HF_SLOT)
		return hf_fail(hf, line, "'slot' is not a word Open MPI 4.1 "
		    "takes here: slots=N is");
	what = hf_what(hf);
	hf_fail(hf, line, "unexpected %s", what);
	free(what);
	return -1;
}

/* Open MPI's hostfile_parse_int: '=' and a number after a keyword; the
 * number, or (the tokens taken all the same) -1 without '=', -2 without a
 * number, -3 for a number past INT_MAX. */
static long long
hf_int(struct hf *hf)
{
	if (hf_lex(hf) != HF_EQUAL)
		return -1;
	if (hf_lex(hf) != HF_INT)
		return -2;
	return hf->ival > INT_MAX ? -3 : hf->ival;
}

/* The keyword kw (at line) whose value hf_int refused with v. */
static int
hf_bad_int(struct hf *hf, const char *kw, int kwlen, int line, long long v)
{
	char	*what;

	if (v == -3)
		return hf_fail(hf, line, "%.*s=%.*s is too large", kwlen, kw,
		    (int)hf->tlen, hf->ts);
	what = hf_what(hf);
	if (v == -1)
		hf_fail(hf, line, "'%.*s' wants '=' and a number, found %s",
		    kwlen, kw, what);
	else
		hf_fail(hf, line, "%.*s= wants a number of 0 or more, found %s",
		    kwlen, kw, what);
	free(what);
	return -1;
}

/* Open MPI's hostfile_parse_line for a line that starts with a host name
 * (the token just read). */
static int
hf_line(struct hf *hf)
{
	struct alloc_host	*h;
	char			*value, *name, *p, *piece[2];
	long long		 v;
	int			 i, cnt, line = hf->tline, kwline, given, max = 0;
	int			 got_max = 0, kwlen;
	const char		*kw;

	if (hf->tok == HF_RELATIVE)
		return hf_fail(hf, line, "'%.*s' names a host of an allocation "
		    "by its place, and there is no allocation", (int)hf->tlen,
		    hf->ts);
	if (hf->tok == HF_RANK)
		return hf_fail(hf, line, "a rankfile line ('rank N=host ...') "
		    "is not read here: list hosts, one a line");
	if (hf->tok == HF_INT) {
		if (hf->ival > INT_MAX)
			return hf_fail(hf, line, "'%.*s' is not a host name",
			    (int)hf->tlen, hf->ts);
		xasprintf(&value, "%lld", hf->ival);
	} else
		value = xstrndup(hf->ts, hf->tlen);

	/* user@host: Open MPI splits at '@', leaving empty pieces out. */
	cnt = 0;
	for (p = value;;) {
		p += strspn(p, "@");
		if (*p == '\0')
			break;
		if (cnt < 2)
			piece[cnt] = p;
		cnt++;
		p += strcspn(p, "@");
		if (*p != '\0')
			*p++ = '\0';
	}
	if (cnt < 1 || cnt > 2) {
		hf_fail(hf, line, "'%.*s' is not a host name (or user@host)",
		    (int)hf->tlen, hf->ts);
		free(value);
		return -1;
	}
	name = piece[cnt - 1];
	name = alloc_short(name);
	free(value);
	if (alloc_is_local(name)) {
		free(name);
		name = xstrdup(hf->nodename);
	}

	/* A host seen before gets a slot more, and its slots are given. */
	if ((i = alloc_index(hf->a, name)) < 0) {
		i = alloc_add(hf->a, name, 1, 1, strcmp(name, hf->nodename) == 0);
		given = 0;
	} else {
		free(name);
		h = &hf->a->hosts[i];
		h->slots++;
		h->cores = 0;
		given = 1;
	}
	h = &hf->a->hosts[i];

	for (;;) {
		switch (hf_lex(hf)) {
		case HF_DONE:
		case HF_NEWLINE:
			goto done;
		case HF_USERNAME:
			/* Open MPI's hostfile_parse_string: '=' and a name,
			 * else nothing, the tokens taken all the same. */
			if (hf_lex(hf) == HF_EQUAL)
				hf_lex(hf);
			break;
		case HF_PORT:
			kw = hf->ts;
			kwlen = (int)hf->tlen;
			kwline = hf->tline;
			if ((v = hf_int(hf)) < 0)
				return hf_bad_int(hf, kw, kwlen, kwline, v);
			break;
		case HF_COUNT:
		case HF_CPU:
		case HF_SLOTS:
			kw = hf->ts;
			kwlen = (int)hf->tlen;
			kwline = hf->tline;
			if ((v = hf_int(hf)) < 0)
				return hf_bad_int(hf, kw, kwlen, kwline, v);
			if (given)
				return hf_fail(hf, kwline, "the slots of '%s' "
				    "are given twice: list a host once a slot, "
				    "or on one line with slots=N, not both",
				    h->name);
			h->slots = (int)v;
			h->cores = 0;
			given = 1;
			if (max != 0 && max < h->slots)
				max = h->slots;
			break;
		case HF_SLOTS_MAX:
			kw = hf->ts;
			kwlen = (int)hf->tlen;
			kwline = hf->tline;
			if ((v = hf_int(hf)) < 0)
				return hf_bad_int(hf, kw, kwlen, kwline, v);
			if (v < h->slots)
				return hf_fail(hf, kwline, "%.*s=%lld is less "
				    "than the %d slots of '%s'", kwlen, kw, v,
				    h->slots, h->name);
			if (max != v) {
				max = (int)v;
				got_max = 1;
			}
			break;
		case HF_STRING:
		case HF_INT:
			break;		/* Open MPI passes over them */
		default:
			return hf_unexpected(hf);
		}
	}
done:
	if (got_max && !given) {
		h->slots = max;
		h->cores = 0;
	}
	return 0;
}

int
alloc_hostfile(struct alloc *a, const char *path, char **cause)
{
	struct hf	hf;
	int		rc = -1;

	memset(a, 0, sizeof *a);
	memset(&hf, 0, sizeof hf);
	hf.path = path;
	hf.line = 1;
	hf.a = a;
	hf.cause = cause;
	if ((hf.text = alloc_read_file(path, &hf.len)) == NULL) {
		xasprintf(cause, "cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	hf.nodename = alloc_nodename();
	a->kind = ALLOC_HOSTFILE;
	xasprintf(&a->what, "the hostfile '%s'", path);

	for (;;) {
		switch (hf_lex(&hf)) {
		case HF_DONE:
			goto done;
		case HF_NEWLINE:
			break;
		case HF_STRING:
		case HF_INT:
		case HF_HOSTNAME:
		case HF_IPV4:
		case HF_IPV6:
		case HF_RELATIVE:
		case HF_RANK:
			if (hf_line(&hf) != 0)
				goto out;
			break;
		default:
			hf_unexpected(&hf);
			goto out;
		}
	}
done:
	if (a->nhosts == 0) {
		xasprintf(cause, "'%s' names no host", path);
		goto out;
	}
	alloc_total(a);
	rc = 0;
out:
	free(hf.text);
	free(hf.nodename);
	if (rc != 0)
		alloc_clear(a);
	return rc;
}

/*
 * Slurm.
 */

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

/* Run argv (its program found in PATH) with /dev/null as its standard
 * input, for wait seconds at most; its output in *out and *err, its wait
 * status in *status.  0; 1 when it did not end in time (it is killed);
 * -1 with *cause when it could not be run. */
static int
alloc_run(const char *const argv[], double wait, char **out, char **err,
    int *status, char **cause)
{
	struct pollfd	 pfd[3];
	struct buf	 b[2];
	char		 chunk[4096];
	int		 po[2] = { -1, -1 }, pe[2] = { -1, -1 };
	int		 px[2] = { -1, -1 };
	int		 i, n, open_fds, rc = -1, e, null;
	double		 end = clock_now() + wait, left;
	pid_t		 pid, w;
	ssize_t		 got;
	sigset_t	 mask;

	buf_init(&b[0]);
	buf_init(&b[1]);
	if (pipe2(po, O_CLOEXEC) != 0 || pipe2(pe, O_CLOEXEC) != 0 ||
	    pipe2(px, O_CLOEXEC) != 0) {
		xasprintf(cause, "cannot run '%s': %s", argv[0], strerror(errno));
		goto out;
	}
	if ((pid = fork()) < 0) {
		xasprintf(cause, "cannot run '%s': %s", argv[0], strerror(errno));
		goto out;
	}
	if (pid == 0) {
		if ((null = open("/dev/null", O_RDONLY)) >= 0)
			dup2(null, 0);
		dup2(po[1], 1);
		dup2(pe[1], 2);
		sigemptyset(&mask);
		sigprocmask(SIG_SETMASK, &mask, NULL);
		signal(SIGPIPE, SIG_DFL);
		signal(SIGXFSZ, SIG_DFL);	/* ignored by ensemble (main.c) */
		execvp(argv[0], (char *const *)argv);
		e = errno;
		(void)!write(px[1], &e, sizeof e);
		_exit(127);
	}
	close(po[1]);
	close(pe[1]);
	close(px[1]);
	po[1] = pe[1] = px[1] = -1;

	pfd[0].fd = po[0];
	pfd[1].fd = pe[0];
	pfd[2].fd = px[0];
	for (i = 0; i < 3; i++)
		pfd[i].events = POLLIN;
	open_fds = 3;
	e = 0;
	while (open_fds > 0) {
		if ((left = end - clock_now()) <= 0)
			break;
		n = poll(pfd, 3, (int)(left * 1000) + 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		for (i = 0; i < 3; i++) {
			if (pfd[i].fd < 0 || pfd[i].revents == 0)
				continue;
			got = read(pfd[i].fd, chunk, sizeof chunk);
			if (got < 0 && errno == EINTR)
				continue;
			if (got > 0 && i < 2) {
				buf_add(&b[i], chunk, got);
				continue;
			}
			if (got == (ssize_t)sizeof e && i == 2)
				memcpy(&e, chunk, sizeof e);
			close(pfd[i].fd);
			pfd[i].fd = -1;
			open_fds--;
		}
	}
	/* Its end, or the deadline. */
	for (;;) {
		w = waitpid(pid, status, WNOHANG);
		if (w < 0 && errno == EINTR)
			continue;
		if (w != 0 || clock_now() >= end)
			break;
		usleep(10000);
	}
	if (w == 0) {
		kill(pid, SIGKILL);
		open_fds = 1;		/* late, whatever it wrote */
		while ((w = waitpid(pid, status, 0)) < 0 && errno == EINTR)
			;
	}
	if (w < 0) {
		xasprintf(cause, "cannot tell how '%s' ended: %s", argv[0],
		    strerror(errno));
		goto out;
	}
	if (e != 0) {
		xasprintf(cause, "cannot run '%s': %s", argv[0], strerror(e));
		goto out;
	}
	*out = buf_steal(&b[0]);
	*err = buf_steal(&b[1]);
	rc = open_fds > 0 ? 1 : 0;
out:
	for (i = 0; i < 2; i++) {
		if (po[i] >= 0)
			close(po[i]);
		if (pe[i] >= 0)
			close(pe[i]);
		if (px[i] >= 0)
			close(px[i]);
	}
	buf_free(&b[0]);
	buf_free(&b[1]);
	return rc;
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

enum alloc_job
alloc_slurm_alive(const char *jobid, char **cause)
{
	const char	*ping[] = { "scontrol", "ping", NULL };
	const char	*squeue[] = { "squeue", "--noheader", "--states=all",
			    NULL, "--format=%T", NULL };
	char		*out = NULL, *err = NULL, *line = NULL, *msg, *jobs;
	int		 status, rc;
	enum alloc_job	 job = ALLOC_JOB_NO_ANSWER;

	/* scontrol ping tries each controller once: it answers at once
	 * when slurmctld is down, where squeue retries for 18 s. */
	rc = alloc_run(ping, ALLOC_PING_WAIT, &out, &err, &status, &msg);
	if (rc < 0) {
		xasprintf(cause, "Slurm does not answer (%s)", msg);
		free(msg);
		return ALLOC_JOB_NO_ANSWER;
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

	xasprintf(&jobs, "--jobs=%s", jobid);
	squeue[3] = jobs;
	rc = alloc_run(squeue, ALLOC_SQUEUE_WAIT, &out, &err, &status, &msg);
	free(jobs);
	if (rc < 0) {
		xasprintf(cause, "Slurm does not answer (%s)", msg);
		free(msg);
		return ALLOC_JOB_NO_ANSWER;
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
	free(line);
	free(out);
	free(err);
	return job;
}
