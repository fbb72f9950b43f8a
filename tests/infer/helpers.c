/* helpers.c -- functions of the program followed from main: a port type
 * given as an argument, a count returned, a global set; one called twice. */
#include <stdlib.h>

#include <ensemble.h>

static int	rounds;

/* The count of the rounds, from the script. */
static int
count(void)
{
	return atoi(ens_param("rounds"));
}

/* One message each way on a port of the type given. */
static void
exchange(const char *type, int k)
{
	int	x = 0;

	ens_send(type, k, &x, 1, MPI_INT);
	ens_recv(type, k, &x, 1, MPI_INT);
}

int
main(int argc, char **argv)
{
	int	i;

	ens_init(&argc, &argv);
	rounds = count();
	for (i = 0; i < rounds; i++)
		exchange("Peer", 1);
	exchange("Ctl", 2);
	ens_finalize();
	return 0;
}
