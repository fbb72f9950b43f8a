/* fuzz-hostfile.c -- libFuzzer target for the allocations 'ensemble run'
 * reads from outside (loader/alloc-hostfile.c,
 * alloc-slurm.c): the input, up to its first NUL, as
 * an Open MPI hostfile (--hostfile), and after it, split at the next NUL,
 * as a Slurm allocation's SLURM_NODELIST and SLURM_TASKS_PER_NODE.  Run
 * it with FUZZER=tests/fuzz/fuzz-hostfile tests/fuzz/run.sh (host names
 * that are not this machine's may ask the resolver: set RES_OPTIONS to
 * bound it, or run it where DNS answers at once).
 *
 * Besides the sanitizers' reports, these abort (a "crash"): a refusal
 * without a message, a hostfile's that does not name the file,
 * an allocation whose total is not the sum of its hosts' slots (-1 when
 * one host's are its cores), a host without a name or with slots below
 * -1. */
#include "config.h"

#include <sys/mman.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "alloc-hostfile.h"
#include "alloc-slurm.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
fail(const char *what)
{
	fprintf(stderr, "fuzz-hostfile: %s\n", what);
	abort();
}

/* The promises of struct alloc. */
static void
sound(const struct alloc *a)
{
	int	i, sum = 0, unknown = 0;

	for (i = 0; i < a->nhosts; i++) {
		if (a->hosts[i].name == NULL || a->hosts[i].name[0] == '\0')
			fail("a host without a name");
		if (a->hosts[i].slots < -1)
			fail("a host's slots below -1");
		if (a->hosts[i].slots < 0)
			unknown = 1;
		else
			sum += a->hosts[i].slots;
	}
	if (a->slots != (unknown ? -1 : sum))
		fail("the total is not the sum of the hosts' slots");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct alloc	 a;
	char		 path[64], *in, *cause = NULL, *list, *tasks;
	size_t		 n;
	int		 fd;

	if ((in = malloc(size + 2)) == NULL)
		return 0;
	memcpy(in, data, size);
	in[size] = in[size + 1] = '\0';
	n = strlen(in);

	/* The hostfile, through a memory file's name. */
	if ((fd = memfd_create("hostfile", 0)) < 0 ||
	    write(fd, in, n) != (ssize_t)n) {
		free(in);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	memset(&a, 0, sizeof(a));
	if (alloc_hostfile(&a, path, &cause) == 0)
		sound(&a);
	else if (cause == NULL || strstr(cause, path) == NULL)
		fail("a hostfile refused without its name");
	free(cause);
	cause = NULL;
	alloc_clear(&a);
	close(fd);

	/* The Slurm allocation, from what follows. */
	if (n < size) {
		list = in + n + 1;
		tasks = list + strlen(list) + (list + strlen(list) < in + size);
		setenv("SLURM_JOBID", "1", 1);
		setenv("SLURM_NODELIST", list, 1);
		setenv("SLURM_TASKS_PER_NODE", tasks, 1);
		memset(&a, 0, sizeof(a));
		if (alloc_slurm(&a, &cause) == 0)
			sound(&a);
		else if (cause == NULL || *cause == '\0')
			fail("an allocation refused without a message");
		free(cause);
		alloc_clear(&a);
	}
	free(in);
	return 0;
}
