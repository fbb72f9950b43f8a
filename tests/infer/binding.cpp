// binding.cpp -- the C++ binding: a session (ens_init, and ens_finalize
// when main returns), requests returned into a vector and waited for all
// at once, a range for over ports, a collective over an ens::group; the
// message a probe of any port found, received on the port its status
// names ('probe any as m; recv m;'), its size read by a const method.
#include <vector>

#include <ensemble.hpp>

int
main(int argc, char **argv)
{
	ens::session			s(argc, argv);
	std::vector<MPI_Request>	reqs;
	int				x = 0, y = 0;

	for (int i = 1; i <= ens::ports("Peer"); i++)
		reqs.push_back(ens::isend("Peer", i, x));
	for (int i = 1; i <= ens::ports("Peer"); i++)
		ens::recv("Peer", i, y);
	ens::waitall(reqs);
	ens::allreduce(x, y, MPI_SUM, ens::group("rows", ens::self().index));
	if (ens::self().index == 1)
		ens::bcast(x, "relay[1]");
	ens::status	st;
	int		k = ens::probe_any(nullptr, &st);
	std::vector<int> v(st.count<int>());
	ens::recv(st.port_type(), k, v);
	return 0;
}
