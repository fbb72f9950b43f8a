// relay-cxx.cpp -- the relay of components/relay.pcg in C++ (Distribution
// of Maximum, Cotronis): takes the maximum of its Client ports, exchanges
// it on its Prop ports and sends the global maximum back to its clients.
// It does what relay.c does; a script picks it with exec "relay-cxx".
#include <ensemble.hpp>

// Gather, exchange, scatter back.
int
main(int argc, char **argv)
{
	ens::session	s(argc, argv);
	int		v, max = 0;

	for (int i = 1; i <= ens::ports("Client"); i++) {
		ens::recv("Client", i, v);
		if (i == 1 || v > max)
			max = v;
	}
	for (int i = 1; i <= ens::ports("Prop"); i++)
		ens::send("Prop", i, max);
	for (int i = 1; i <= ens::ports("Prop"); i++) {
		ens::recv("Prop", i, v);
		if (v > max)
			max = v;
	}
	for (int i = 1; i <= ens::ports("Client"); i++)
		ens::send("Client", i, max);
	return 0;
}
