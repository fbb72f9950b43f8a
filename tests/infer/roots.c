/* roots.c -- collectives: a root written in the code, one made by
 * snprintf from the index, over a group by name and index. */
#include <stdio.h>
#include <stdlib.h>

#include <ensemble.h>

int
main(int argc, char **argv)
{
	char	head[32];
	int	w, x = 0, y;

	ens_init(&argc, &argv);
	w = atoi(argv[1]);
	ens_bcast(&x, 1, MPI_INT, "master");
	snprintf(head, sizeof(head), "cell[%d]", (ens_self()->index - 1) / w * w + 1);
	ens_reduce_over(&x, &y, 1, MPI_INT, MPI_SUM, head, "rows",
	    (ens_self()->index - 1) / w + 1);
	ens_allreduce_over(&x, &y, 1, MPI_INT, MPI_SUM, "all", 0);
	ens_finalize();
	return 0;
}
