/* counted.c -- loops counted by what is fixed for a process: a parameter,
 * an argument, a literal, its ports, arithmetic on those; up and down, by
 * one and by two, for and while. */
#include <stdlib.h>

#include <ensemble.h>

int
main(int argc, char **argv)
{
	int	steps, n, i, k, x = 0;

	ens_init(&argc, &argv);
	steps = atoi(ens_param("steps"));
	n = atoi(argv[1]);
	for (i = 0; i < steps; i++)
		ens_send("Out", 1, &x, 1, MPI_INT);
	for (i = 1; i <= ens_ports("In"); i++)
		ens_recv("In", i, &x, 1, MPI_INT);
	for (i = 0; i < 2 * n + 1; i++)
		ens_barrier();
	k = 3;
	while (k > 0) {
		ens_send("Out", k, &x, 1, MPI_INT);
		k--;
	}
	for (i = 0; i < n; i += 2)
		ens_recv("In", 1, &x, 1, MPI_INT);
	ens_finalize();
	return 0;
}
