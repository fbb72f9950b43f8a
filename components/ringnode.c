/* ringnode.c -- a node of scripts/ring.pcg: node 1 starts a token round
 * the ring 'rounds' times and says how many nodes it visited; every other
 * node counts itself in and passes it on. */
#include <stdio.h>
#include <stdlib.h>

#include <ensemble.h>

/* Start or pass the token, 'rounds' times. */
int
main(int argc, char **argv)
{
	int	rounds, r, t;

	ens_init(&argc, &argv);
	if (argc != 2) {
		fprintf(stderr, "usage: ringnode rounds\n");
		exit(2);
	}
	rounds = atoi(argv[1]);

	for (r = 1; r <= rounds; r++) {
		if (ens_self()->index == 1) {
			t = 1;
			ens_send("Right", 1, &t, 1, MPI_INT);
			ens_recv("Left", 1, &t, 1, MPI_INT);
			printf("ring: round %d: the token visited %d nodes\n", r, t);
			fflush(stdout);
		} else {
			ens_recv("Left", 1, &t, 1, MPI_INT);
			t++;
			ens_send("Right", 1, &t, 1, MPI_INT);
		}
	}

	ens_finalize();
	return 0;
}
