/* ifs.c -- conditions fixed for a process (its index, a parameter, its
 * ports) become 'if'; one tested again is decided; what the code computes
 * but never communicates by leaves nothing. */
#include <stdlib.h>

#include <ensemble.h>

int
main(int argc, char **argv)
{
	const ens_self_t	*me;
	int			 x = 0, left, big = 0;

	ens_init(&argc, &argv);
	me = ens_self();
	left = ens_ports("Left");
	if (me->index == 1)
		ens_send("Right", 1, &x, 1, MPI_INT);
	else if (me->index % 2 == 0)
		ens_recv("Left", 1, &x, 1, MPI_INT);
	else
		ens_barrier();
	if (left)
		ens_recv("Left", 1, &x, 1, MPI_INT);
	if (x > 3)
		big = 1;		/* data, but no call depends on it */
	if (left && atoi(ens_param("rounds")) > 2)
		ens_send("Left", 1, &big, 1, MPI_INT);
	ens_finalize();
	return 0;
}
