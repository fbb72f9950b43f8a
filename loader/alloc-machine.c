/* alloc-machine.c -- this machine as Open MPI sees it (alloc-machine.h):
 * its cores as Open MPI's hwloc counts them (online, in
 * this process's cpuset; a core's hardware threads one slot), read from
 * /proc and /sys, its host name as Open MPI names it (a name without its
 * domain, an address whole), and whether a name is one of its names.  It
 * uses nothing of the other alloc*.c files. */
#include "config.h"

#include <sys/types.h>
#include <sys/socket.h>

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "alloc-machine.h"
#include "xmalloc.h"

#define ALLOC_CPUS_MAX		(1 << 16)	/* CPUs alloc_cores looks at */

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
char *
alloc_short(const char *name)
{
	const char	*dot;

	if (alloc_is_addr(name) || (dot = strchr(name, '.')) == NULL)
		return xstrdup(name);
	return xstrndup(name, dot - name);
}

/* The contents of file path, NUL-terminated, or NULL with errno set. */
char *
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

/* This machine's host name without its domain, as Open MPI names it. */
char *
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
int
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
