/* relay.c -- Distribution of Maximum (Cotronis): a relay takes the maximum
 * of its Client ports, exchanges it on its Prop ports and sends the global
 * maximum back to its clients.  In the all-to-all design the Prop ports
 * lead to the other relays; in the tree design a relay's one Prop port
 * leads to a Client port of its parent, and the root has none. */
#include <ensemble.h>

/* Gather, exchange, scatter back. */
int
main(int argc, char **argv)
{
	int	i, v, max;

	ens_init(&argc, &argv);

	max = 0;
	for (i = 1; i <= ens_ports("Client"); i++) {
		ens_recv("Client", i, &v, 1, MPI_INT);
		if (i == 1 || v > max)
			max = v;
	}
	for (i = 1; i <= ens_ports("Prop"); i++)
		ens_send("Prop", i, &max, 1, MPI_INT);
	for (i = 1; i <= ens_ports("Prop"); i++) {
		ens_recv("Prop", i, &v, 1, MPI_INT);
		if (v > max)
			max = v;
	}
	for (i = 1; i <= ens_ports("Client"); i++)
		ens_send("Client", i, &max, 1, MPI_INT);

	ens_finalize();
	return 0;
}
