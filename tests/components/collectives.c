/* collectives.c -- a component for tests/collectives.test that makes every
 * collective libensemble has, the rooted ones rooted at the process its
 * first argument names ("a[0]", "master"), and prints one line saying who
 * it is and what each collective gave it, so that a root resolved to the
 * wrong process, or not at all, shows.  Its behaviour is
 *	bcast from ROOT; reduce to ROOT; gather to ROOT; allreduce;
 *	allgather; barrier; allgatherv; gatherv to ROOT; scatterv from ROOT;
 *	alltoallv; reducescatter;
 * The v-forms move i + 1 elements for rank i, blocks laid out in rank
 * order in one buffer and in reverse order in the other, so that a count
 * or displacement taken from the wrong place shows (vforms).
 * It uses no port. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ensemble.h>

#define NAME_MAX_LEN	32

/* Where rank i's block of i + 1 elements starts among n ranks: in rank
 * order, or (rev) in reverse order. */
static int
block(int i, int n, int rev)
{
	return rev ? n * (n + 1) / 2 - (i + 1) * (i + 2) / 2 : i * (i + 1) / 2;
}

/* Print the n elements of v as digits, or (sep) as numbers. */
static void
digits(const char *what, const int *v, int n, int sep)
{
	int	i;

	printf("; %s%s", what, sep ? "" : " ");
	for (i = 0; i < n; i++)
		printf(sep ? " %d" : "%d", v[i]);
}

/* The v-collectives, rooted at root; prints what each gave. */
static void
vforms(const ens_self_t *self, const char *root)
{
	int	 n = self->nprocs, r = self->rank, t = n * (n + 1) / 2, i, k;
	int	*cnt, *fwd, *rev, *send, *recv, *mine, *all;

	cnt = calloc((size_t)n, sizeof(int));
	fwd = calloc((size_t)n, sizeof(int));
	rev = calloc((size_t)n, sizeof(int));
	send = calloc((size_t)n * (size_t)n + (size_t)t, sizeof(int));
	recv = calloc((size_t)t, sizeof(int));
	mine = calloc((size_t)r + 1, sizeof(int));
	all = calloc((size_t)n, sizeof(int));
	if (!cnt || !fwd || !rev || !send || !recv || !mine || !all) {
		perror("collectives");
		exit(1);
	}
	for (i = 0; i < n; i++) {
		cnt[i] = i + 1;
		fwd[i] = block(i, n, 0);
		rev[i] = block(i, n, 1);
		all[i] = r + 1;
	}
	/* allgatherv: r + 1 copies of r from each, in rank order. */
	for (k = 0; k <= r; k++)
		mine[k] = r;
	ens_allgatherv(mine, r + 1, MPI_INT, recv, cnt, fwd, MPI_INT);
	digits("allgatherv", recv, t, 0);
	/* scatterv: the root's blocks in reverse order, rank i's i + 1
	 * copies of i. */
	for (i = 0; i < n; i++)
		for (k = 0; k <= i; k++)
			send[rev[i] + k] = i;
	memset(mine, 0, (size_t)(r + 1) * sizeof(int));
	ens_scatterv(strcmp(self->name, root) == 0 ? send : NULL, cnt, rev,
	    MPI_INT, mine, r + 1, MPI_INT, root);
	digits("scatterv", mine, r + 1, 0);
	/* alltoallv: r + 1 copies of (r + j) % 10 to each j, laid out in
	 * reverse order; from i, i + 1 of (i + r) % 10 in rank order. */
	for (i = 0; i < n; i++) {
		rev[i] = (n - 1 - i) * (r + 1);
		for (k = 0; k <= r; k++)
			send[rev[i] + k] = (r + i) % 10;
	}
	ens_alltoallv(send, all, rev, MPI_INT, recv, cnt, fwd, MPI_INT);
	digits("alltoallv", recv, t, 0);
	/* reducescatter: the sum of r + k over ranks, block r of it. */
	for (k = 0; k < t; k++)
		send[k] = r + k;
	ens_reduce_scatter(send, recv, cnt, MPI_INT, MPI_SUM);
	digits("reducescatter", recv, r + 1, 1);
	/* gatherv: as allgatherv, into the root in reverse order. */
	for (i = 0; i < n; i++)
		rev[i] = block(i, n, 1);
	for (k = 0; k <= r; k++)
		mine[k] = r;
	ens_gatherv(mine, r + 1, MPI_INT, recv, cnt, rev, MPI_INT, root);
	if (strcmp(self->name, root) == 0)
		digits("gatherv", recv, t, 0);
	free(cnt);
	free(fwd);
	free(rev);
	free(send);
	free(recv);
	free(mine);
	free(all);
}

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
	vforms(self, root);
	printf("\n");
	free(ranks);
	free(names);
	ens_finalize();
	return 0;
}
