/* collectives.c -- a component for tests/collectives.test that makes every
 * collective libensemble has, the rooted ones rooted at the process its
 * first argument names ("a[0]", "master"), and prints one line saying who
 * it is and what each collective gave it, so that a root resolved to the
 * wrong process, or not at all, shows.  Its behaviour is
 *	bcast from ROOT; reduce to ROOT; gather to ROOT; allreduce;
 *	allgather; barrier;
 * It uses no port. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ensemble.h>

#define NAME_MAX_LEN	32

int
main(int argc, char **argv)
{
	const ens_self_t	*self;
	const char		*root;
	char			 from[NAME_MAX_LEN], mine[NAME_MAX_LEN], *names = NULL;
	int			 v, sum = 0, allsum = 0, *ranks, i;

	ens_init(&argc, &argv);
	if ((root = ens_param("1")) == NULL) {
		fprintf(stderr, "usage: collectives ROOT\n");
		return 2;
	}
	self = ens_self();
	memset(mine, 0, sizeof(mine));
	snprintf(mine, sizeof(mine), "%s", self->name);
	if ((ranks = calloc((size_t)self->nprocs, sizeof(*ranks))) == NULL ||
	    (names = calloc((size_t)self->nprocs, NAME_MAX_LEN)) == NULL) {
		perror("collectives");
		return 1;
	}

	/* The root sends its own name: every process learns who it was. */
	memcpy(from, mine, sizeof(from));
	ens_bcast(from, sizeof(from), MPI_CHAR, root);
	v = self->rank + 1;
	ens_reduce(&v, &sum, 1, MPI_INT, MPI_SUM, root);
	ens_gather(mine, NAME_MAX_LEN, MPI_CHAR, names, NAME_MAX_LEN, MPI_CHAR, root);
	ens_allreduce(&v, &allsum, 1, MPI_INT, MPI_SUM);
	ens_allgather(&self->rank, 1, MPI_INT, ranks, 1, MPI_INT);
	ens_barrier();

	printf("%s: component %s, index %d, %s, rank %d of %d; bcast from %.*s;"
	    " allreduce %d; allgather", self->name, self->component, self->index,
	    self->indexed ? "indexed" : "unindexed", self->rank, self->nprocs,
	    NAME_MAX_LEN, from, allsum);
	for (i = 0; i < self->nprocs; i++)
		printf(" %d", ranks[i]);
	if (strcmp(self->name, root) == 0) {
		printf("; reduce %d; gather", sum);
		for (i = 0; i < self->nprocs; i++)
			printf(" %.*s", NAME_MAX_LEN, names + (size_t)i * NAME_MAX_LEN);
	}
	printf("\n");
	free(ranks);
	free(names);
	ens_finalize();
	return 0;
}
