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
 * With two more arguments, GROUP INDEX, every collective goes over that
 * group of the script (ens_*_over; 'over GROUP[INDEX]' in its behaviour,
 * index 0 for none), ranks and sizes its; its line then says so, and
 * ends with a scatter from ROOT and an alltoall over the group (the
 * behaviour's last two statements), then a raw MPI_Barrier on the group's
 * communicator (ens_comm_group).
 * It uses no port. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ensemble.h>

#define NAME_MAX_LEN	32

/* The group the collectives go over (NULL: the application), and this
 * process's rank in what they go over and its size. */
static const char	*grp;
static int		 gidx, grank, gsize;

#define OVER(call, ...)	(grp != NULL ? call##_over(__VA_ARGS__, grp, gidx) : \
			    call(__VA_ARGS__))

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
	int	 n = gsize, r = grank, t = n * (n + 1) / 2, i, k;
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
	OVER(ens_allgatherv, mine, r + 1, MPI_INT, recv, cnt, fwd, MPI_INT);
	digits("allgatherv", recv, t, 0);
	/* scatterv: the root's blocks in reverse order, rank i's i + 1
	 * copies of i. */
	for (i = 0; i < n; i++)
		for (k = 0; k <= i; k++)
			send[rev[i] + k] = i;
	memset(mine, 0, (size_t)(r + 1) * sizeof(int));
	OVER(ens_scatterv, strcmp(self->name, root) == 0 ? send : NULL, cnt, rev,
	    MPI_INT, mine, r + 1, MPI_INT, root);
	digits("scatterv", mine, r + 1, 0);
	/* alltoallv: r + 1 copies of (r + j) % 10 to each j, laid out in
	 * reverse order; from i, i + 1 of (i + r) % 10 in rank order. */
	for (i = 0; i < n; i++) {
		rev[i] = (n - 1 - i) * (r + 1);
		for (k = 0; k <= r; k++)
			send[rev[i] + k] = (r + i) % 10;
	}
	OVER(ens_alltoallv, send, all, rev, MPI_INT, recv, cnt, fwd, MPI_INT);
	digits("alltoallv", recv, t, 0);
	/* reducescatter: the sum of r + k over ranks, block r of it. */
	for (k = 0; k < t; k++)
		send[k] = r + k;
	OVER(ens_reduce_scatter, send, recv, cnt, MPI_INT, MPI_SUM);
	digits("reducescatter", recv, r + 1, 1);
	/* gatherv: as allgatherv, into the root in reverse order. */
	for (i = 0; i < n; i++)
		rev[i] = block(i, n, 1);
	for (k = 0; k <= r; k++)
		mine[k] = r;
	OVER(ens_gatherv, mine, r + 1, MPI_INT, recv, cnt, rev, MPI_INT, root);
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
		fprintf(stderr, "usage: collectives ROOT [GROUP INDEX]\n");
		return 2;
	}
	self = ens_self();
	grank = self->rank;
	gsize = self->nprocs;
	if ((grp = ens_param("2")) != NULL) {
		gidx = ens_param("3") != NULL ? atoi(ens_param("3")) : 0;
		MPI_Comm_rank(ens_comm_group(grp, gidx), &grank);
		MPI_Comm_size(ens_comm_group(grp, gidx), &gsize);
	}
	memset(mine, 0, sizeof(mine));
	snprintf(mine, sizeof(mine), "%s", self->name);
	if ((ranks = calloc((size_t)gsize, sizeof(*ranks))) == NULL ||
	    (names = calloc((size_t)gsize, NAME_MAX_LEN)) == NULL) {
		perror("collectives");
		return 1;
	}

	/* The root sends its own name: every process learns who it was. */
	memcpy(from, mine, sizeof(from));
	OVER(ens_bcast, from, sizeof(from), MPI_CHAR, root);
	v = grank + 1;
	OVER(ens_reduce, &v, &sum, 1, MPI_INT, MPI_SUM, root);
	OVER(ens_gather, mine, NAME_MAX_LEN, MPI_CHAR, names, NAME_MAX_LEN,
	    MPI_CHAR, root);
	OVER(ens_allreduce, &v, &allsum, 1, MPI_INT, MPI_SUM);
	/* The world ranks, in the order of what they go over. */
	OVER(ens_allgather, &self->rank, 1, MPI_INT, ranks, 1, MPI_INT);
	if (grp != NULL)
		ens_barrier_over(grp, gidx);
	else
		ens_barrier();

	printf("%s: component %s, index %d, %s, rank %d of %d", self->name,
	    self->component, self->index, self->indexed ? "indexed" : "unindexed",
	    self->rank, self->nprocs);
	if (grp != NULL)
		printf(", rank %d of %d in %s %d", grank, gsize, grp, gidx);
	printf("; bcast from %.*s; allreduce %d; allgather", NAME_MAX_LEN, from,
	    allsum);
	for (i = 0; i < gsize; i++)
		printf(" %d", ranks[i]);
	if (strcmp(self->name, root) == 0) {
		printf("; reduce %d; gather", sum);
		for (i = 0; i < gsize; i++)
			printf(" %.*s", NAME_MAX_LEN, names + (size_t)i * NAME_MAX_LEN);
	}
	vforms(self, root);
	if (grp != NULL) {
		/* Over a group, also scatter (rank k gets 100 + k) and
		 * alltoall (j gets 10 r + j from rank r). */
		int	*sv, *rv;

		sv = calloc((size_t)gsize, sizeof(int));
		rv = calloc((size_t)gsize, sizeof(int));
		if (sv == NULL || rv == NULL) {
			perror("collectives");
			return 1;
		}
		for (i = 0; i < gsize; i++)
			sv[i] = 100 + i;
		ens_scatter_over(sv, 1, MPI_INT, &v, 1, MPI_INT, root, grp, gidx);
		printf("; scatter %d; alltoall", v);
		for (i = 0; i < gsize; i++)
			sv[i] = 10 * grank + i;
		ens_alltoall_over(sv, 1, MPI_INT, rv, 1, MPI_INT, grp, gidx);
		for (i = 0; i < gsize; i++)
			printf(" %d", rv[i]);
		free(sv);
		free(rv);
		/* A raw barrier on the group's communicator, which a trace
		 * records on the group's comm. */
		MPI_Barrier(ens_comm_group(grp, gidx));
	}
	printf("\n");
	free(ranks);
	free(names);
	ens_finalize();
	return 0;
}
