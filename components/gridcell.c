/* gridcell.c -- one cell of an H x W grid of numbers (scripts/grid.pcg),
 * numbered row by row: it starts with its index, and each of 'steps'
 * steps sums its number over its row (the group rows[r], with the row's
 * head) and over its column (cols[c]), then takes the sum over the cross
 * through it, row + column - itself.  At the end the row's head gathers
 * the row's numbers.  No ports: the groups are all it talks over. */
#include <stdio.h>
#include <stdlib.h>

#include <ensemble.h>

/* Take the steps, then give the row's head this cell's number. */
int
main(int argc, char **argv)
{
	const ens_self_t	*me;
	char			 head[32];
	long			 x, row, col;
	int			 w, steps, r, c, s;

	ens_init(&argc, &argv);
	if (argc != 3) {
		fprintf(stderr, "usage: gridcell W steps\n");
		exit(2);
	}
	w = atoi(argv[1]);
	steps = atoi(argv[2]);
	me = ens_self();
	r = (me->index - 1) / w + 1;
	c = (me->index - 1) % w + 1;
	x = me->index;
	for (s = 0; s < steps; s++) {
		ens_allreduce_over(&x, &row, 1, MPI_LONG, MPI_SUM, "rows", r);
		ens_allreduce_over(&x, &col, 1, MPI_LONG, MPI_SUM, "cols", c);
		x = row + col - x;
	}
	snprintf(head, sizeof(head), "gridhead[%d]", r);
	ens_gather_over(&x, 1, MPI_LONG, NULL, 0, MPI_LONG, head, "rows", r);
	ens_finalize();
	return 0;
}
