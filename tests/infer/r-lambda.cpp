// r-lambda.cpp -- a lambda that communicates: refused.
#include <ensemble.hpp>

int
main(int argc, char **argv)
{
	ens::session	s(argc, argv);
	int		x = 0;
	auto		send = [&](int k) { ens_send("Out", k, &x, 1, MPI_INT); };

	send(1);
	return 0;
}
