/* terminal.c -- Distribution of Maximum (Cotronis): a terminal holds a
 * value, its first argument, sends it to its relay on Server[1] and prints
 * the global maximum the relay sends back. */
#include <stdio.h>
#include <stdlib.h>

#include <ensemble.h>

/* Send our value, receive and print the global maximum. */
int
main(int argc, char **argv)
{
	int	v, gm;

	ens_init(&argc, &argv);
	if (argc != 2) {
		fprintf(stderr, "usage: terminal value\n");
		exit(2);
	}
	v = atoi(argv[1]);

	ens_send("Server", 1, &v, 1, MPI_INT);
	ens_recv("Server", 1, &gm, 1, MPI_INT);
	printf("%s: received %d\n", ens_self()->name, gm);
	fflush(stdout);

	ens_finalize();
	return 0;
}
