// ports-cxx.cpp -- a component for tests/bind-cxx.test that makes the C++
// binding's calls beyond the Distribution of Maximum and prints what each
// gave it.  Its first argument says what it is: "hub" (ports W[1..2]) or
// "w" (a worker, port H[1]) of the script in bind-cxx.test, whose
// behaviours are
//
//	hub { bcast from hub; recv any W; recv any W; allreduce;
//	      recv any W; recv any W; barrier; isend W[*]; irecv W[*];
//	      waitall; reduce to w[2]; gather to hub; scatter from w[1];
//	      allgatherv; gatherv to hub; scatterv from w[1]; alltoallv;
//	      reducescatter; }
//	w   { bcast from hub; send H[1]; allreduce; send H[1]; barrier;
//	      irecv H[1]; isend H[1]; waitall;
//	      reduce to w[2]; gather to hub; scatter from w[1];
//	      allgatherv; gatherv to hub; scatterv from w[1]; alltoallv;
//	      reducescatter; }
//
// (the barrier keeps the non-blocking messages from the wildcards).
//
// or "group" (x[1..3], all in the group back = x[3], x[2], x[1]: every
// collective over it, in the order of group() below),
// or "ok" (nothing), "send" or "recv" on port Peer[1], once (a component that leaves its
// behaviour, or hangs), or misuse: "wrong-type" (a send on a port type it
// lacks), "short-gather" (a gather into too small a vector),
// "short-gatherv" (a gatherv whose blocks go past the vector's end), or
// "p2p": the calls of issue 26 with the process's Peer[1], whose
// behaviour is
//
//	sendrecv Peer[1], Peer[1]; sendrecv replace Peer[1], Peer[1];
//	irecv Peer[1] as s; isend Peer[1] as r;
//	test s { } else { wait s; } wait r;
//	irecv Peer[1] as s; isend Peer[1] as r;
//	waitany { on r { wait s; } on s { wait r; } }
//	irecv Peer[1] as s; isend Peer[1] as r;
//	waitsome { on r { } on s { } } waitall;
//	isend Peer[1] as r; probe Peer[1]; recv Peer[1]; wait r;
//	isend Peer[1] as r;
//	iprobe any as m { recv m; } else { probe any as m; recv m; } wait r;
//
// (the last receive on the port and type the probe's status names).
#include <array>
#include <complex>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <ensemble.hpp>

// Print a line, prefixed with the process's name.
template <class... A> static void
say(const char *fmt, A... a)
{
	std::printf("%s: ", ens::self().name);
	std::printf(fmt, a...);
	std::printf("\n");
}

// The hub's side.
static void
hub()
{
	std::vector<int>			v(8);
	long long				out[2][2];
	std::vector<std::complex<double>>	in[2];
	std::vector<MPI_Request>		reqs;
	std::string				vals;

	for (int k = 0; k < 2; k++) {
		ens::status st = ens::recv_any_status("W", v);
		int n = st.count<int>();

		vals.clear();
		for (int i = 0; i < n; i++)
			vals += " " + std::to_string(v[i]);
		say("recv_any_status %s[%d] count %d:%s", st.port_type(),
		    st.port(), n, vals.c_str());
	}
	long sum, idx = ens::self().index;
	ens::allreduce(idx, sum, MPI_SUM);
	say("allreduce %ld", sum);
	for (int k = 0; k < 2; k++) {
		int x = -1, p = ens::recv_any("W", x);

		say("recv_any W[%d]: %d", p, x);
	}
	ens::barrier();

	for (int i = 1; i <= ens::ports("W"); i++) {
		out[i - 1][0] = 10 * i;
		out[i - 1][1] = 10 * i + 1;
		reqs.push_back(ens::isend("W", i, out[i - 1]));
	}
	for (int i = 1; i <= ens::ports("W"); i++) {
		in[i - 1].resize(3);
		reqs.push_back(ens::irecv("W", i, in[i - 1]));
	}
	std::vector<ens::status> sts = ens::waitall_status(reqs);
	for (std::size_t k = 2; k < sts.size(); k++) {
		int n = sts[k].count<std::complex<double>>();
		const auto &c = in[k - 2];

		say("irecv W[%d] count %d: (%g,%g) (%g,%g)", sts[k].port(), n,
		    c[0].real(), c[0].imag(), c[1].real(), c[1].imag());
	}
	say("W[2] is rank %d", ens::port("W", 2).rank);
}

// A worker's side.
static void
worker()
{
	int				i = ens::self().index;
	std::vector<int>		v;
	std::array<long long, 2>	got{};
	std::complex<double>		c[2] = { { 1.0 * i, 0.5 }, { 2.0 * i, -0.5 } };
	MPI_Request			r[2];
	MPI_Comm			comp = ens::comm_component();
	int				n;

	for (int k = 0; k < i; k++)
		v.push_back(100 * i + k);
	ens::send("H", 1, v);
	long sum, idx = i;
	ens::allreduce(idx, sum, MPI_SUM);
	say("allreduce %ld", sum);
	ens::send(std::string("H"), 1, 1000 + i);
	ens::barrier();

	r[0] = ens::irecv("H", 1, got);
	r[1] = ens::isend("H", 1, ens::span<std::complex<double>>(c, 2));
	ens::waitall(r);
	say("irecv H[1]: %lld %lld", got[0], got[1]);
	MPI_Comm_size(comp, &n);
	say("component communicator of %d", n);
}

// Every collective over the group back (x[3], x[2], x[1]: group rank r is
// x[3 - r]), each printing what it gave; the behaviour is
//	barrier over back; bcast from x[3] over back;
//	reduce to x[1] over back; allreduce over back;
//	gather to x[3] over back; allgather over back;
//	scatter from x[2] over back; alltoall over back;
//	allgatherv over back; gatherv to x[3] over back;
//	scatterv from x[1] over back; alltoallv over back;
//	reducescatter over back;
static void
group()
{
	ens::group	back("back");
	const ens_self_t &me = ens::self();
	int		r = back.rank(), n = back.size(), i;

	say("rank %d of %d in back", r, n);
	ens::barrier(back);
	std::array<int, 2> b{};
	if (r == 0)
		b = { 7, 8 };
	ens::bcast(b, "x[3]", back);
	say("bcast %d %d", b[0], b[1]);
	std::array<int, 2> rs{ r, 1 }, rr{};
	ens::reduce(rs, rr, MPI_SUM, "x[1]", back);
	if (r == 2)
		say("reduce %d %d", rr[0], rr[1]);
	int one = r + 1, sum = 0;
	ens::allreduce(one, sum, MPI_SUM, back);
	say("allreduce %d", sum);
	std::vector<int> g(r == 0 ? 3 : 0);
	ens::gather(me.rank, g, "x[3]", back);
	if (r == 0)
		say("gather %d %d %d", g[0], g[1], g[2]);
	std::array<int, 3> ag{};
	ens::allgather(me.index, ag, back);
	say("allgather %d %d %d", ag[0], ag[1], ag[2]);
	int piece = -1, all[3] = { 7, 8, 9 };
	ens::scatter(all, piece, "x[2]", back);
	say("scatter %d", piece);
	std::array<int, 3> to{}, from{};
	for (i = 0; i < 3; i++)
		to[(std::size_t)i] = 10 * r + i;
	ens::alltoall(to, from, back);
	say("alltoall %d %d %d", from[0], from[1], from[2]);
	std::vector<int> cnt{ 1, 2, 3 }, fwd{ 0, 1, 3 }, rev{ 5, 3, 0 };
	std::vector<int> mine((std::size_t)r + 1, r), six(6);
	ens::allgatherv(mine, six, cnt, fwd, back);
	say("allgatherv %d %d %d %d %d %d", six[0], six[1], six[2], six[3],
	    six[4], six[5]);
	std::vector<int> at_root(r == 0 ? 6 : 0);
	ens::gatherv(mine, at_root, cnt, rev, "x[3]", back);
	if (r == 0)
		say("gatherv %d %d %d %d %d %d", at_root[0], at_root[1],
		    at_root[2], at_root[3], at_root[4], at_root[5]);
	std::array<int, 6> sv{ 10, 20, 21, 30, 31, 32 };
	std::vector<int> got((std::size_t)r + 1);
	ens::scatterv(sv, cnt, fwd, got, "x[1]", back);
	if (r == 0)
		say("scatterv %d", got[0]);
	else if (r == 1)
		say("scatterv %d %d", got[0], got[1]);
	else
		say("scatterv %d %d %d", got[0], got[1], got[2]);
	std::array<int, 3> vto{ 10 * r + 2, 10 * r + 1, 10 * r }, vfrom{};
	std::vector<int> ones{ 1, 1, 1 }, down{ 2, 1, 0 }, up{ 0, 1, 2 };
	ens::alltoallv(vto, ones, down, vfrom, ones, up, back);
	say("alltoallv %d %d %d", vfrom[0], vfrom[1], vfrom[2]);
	std::array<int, 6> rsend{};
	std::vector<int> rgot((std::size_t)r + 1);
	for (int k = 0; k < 6; k++)
		rsend[(std::size_t)k] = 10 * r + k;
	ens::reduce_scatter(rsend, rgot, cnt, MPI_SUM, back);
	if (r == 0)
		say("reduce_scatter %d", rgot[0]);
	else if (r == 1)
		say("reduce_scatter %d %d", rgot[0], rgot[1]);
	else
		say("reduce_scatter %d %d %d", rgot[0], rgot[1], rgot[2]);
	if (ens::comm_group("back") != back.comm())
		say("comm_group is not the group's communicator");
}

// The calls of issue 26 with Peer[1] (p2p above); process i sends values
// made of i.
static void
p2p()
{
	int			i = ens::self().index, two[2] = { i, i + 10 }, got[2];
	int			v = 100 * i, in = 0, out;
	MPI_Request		r[2];
	std::vector<ens::status> sts;
	ens::status		st;

	st = ens::sendrecv("Peer", 1, two, "Peer", 1, got);
	say("sendrecv %d %d, %d ints", got[0], got[1], st.count<int>());
	ens::sendrecv_replace("Peer", 1, "Peer", 1, v);
	say("sendrecv_replace %d", v);
	out = 200 * i;
	r[1] = ens::irecv("Peer", 1, in);
	r[0] = ens::isend("Peer", 1, out);
	if (!ens::test(r[1], &st))
		st = ens::wait(r[1]);
	ens::wait(r[0]);
	say("test %d from Peer[%d]", in, st.port());
	out = 300 * i;
	r[1] = ens::irecv("Peer", 1, in);
	r[0] = ens::isend("Peer", 1, out);
	int k = ens::waitany(r);
	ens::wait(r[1 - k]);
	say("waitany %d", in);
	out = 400 * i;
	r[1] = ens::irecv("Peer", 1, in);
	r[0] = ens::isend("Peer", 1, out);
	std::vector<int> done = ens::waitsome(r, &sts);
	ens::waitall(r);
	say("waitsome %d; %s", in, done.size() == sts.size() && (done.size() == 1 ||
	    (done.size() == 2 && done[0] + done[1] == 1)) ? "one or both" : "wrong");
	two[0] = 500 * i;
	two[1] = 500 * i + 1;
	r[0] = ens::isend("Peer", 1, two);
	st = ens::probe("Peer", 1);
	ens::recv("Peer", 1, got);
	ens::wait(r[0]);
	say("probe %d ints: %d %d", st.count<int>(), got[0], got[1]);
	out = 600 * i;
	r[0] = ens::isend("Peer", 1, out);
	int p = ens::iprobe_any(nullptr, &st);
	if (p == 0)
		p = ens::probe_any(nullptr, &st);
	ens::recv(st.port_type(), st.port(), in);
	ens::wait(r[0]);
	say("iprobe_any %s[%d], recv there: %d", st.port_type(), p, in);
}

// Say who we are, then do what argv[1] says.
int
main(int argc, char **argv)
{
	ens::session	s(argc, argv);
	int		v = 1;

	if (argc != 2) {
		std::fprintf(stderr, "usage: ports-cxx hub | w | group | p2p | send | recv\n");
		return 2;
	}
	std::string mode = argv[1];
	if (mode == "ok")
		return 0;
	if (mode == "group") {
		group();
		return 0;
	}
	if (mode == "p2p") {
		p2p();
		return 0;
	}
	if (mode == "send") {
		ens::send("Peer", 1, v);
		return 0;
	}
	if (mode == "recv") {
		ens::recv("Peer", 1, v);
		return 0;
	}
	if (mode == "wrong-type") {
		ens::send("Nope", 1, v);
		return 0;
	}
	if (mode == "short-gather") {
		std::vector<int> few(1);

		ens::gather(v, few, ens::self().name);
		return 0;
	}
	if (mode == "short-gatherv") {
		std::vector<int> few(2), counts{ 1, 2 }, displs{ 0, 1 };

		ens::gatherv(v, few, counts, displs, ens::self().name);
		return 0;
	}

	const ens_self_t &me = ens::self();
	auto greeting = ens::param("greeting");
	auto arg = ens::param(std::string("1"));
	auto none = ens::param("no-such-param");
	say("component %s, index %d, rank %d of %d; greeting %s; argument %s; %s",
	    me.component, me.index, me.rank, me.nprocs,
	    greeting ? greeting->c_str() : "unset", arg ? arg->c_str() : "unset",
	    none ? "no-such-param set" : "no-such-param unset");

	std::vector<double> b(2);
	if (mode == "hub")
		b = { 1.5, 2.5 };
	ens::bcast(b, "hub");
	say("bcast %g %g", b[0], b[1]);

	if (mode == "hub")
		hub();
	else
		worker();

	std::array<int, 2> rs{ me.rank, 1 }, rr{};
	ens::reduce(rs, rr, MPI_SUM, "w[2]");
	if (std::strcmp(me.name, "w[2]") == 0)
		say("reduce %d %d", rr[0], rr[1]);
	std::vector<int> g(mode == "hub" ? me.nprocs : 0);
	ens::gather(me.rank, g, "hub");
	if (mode == "hub")
		say("gather %d %d %d", g[0], g[1], g[2]);
	short piece = -1, all[3] = { 7, 8, 9 };
	ens::scatter(all, piece, "w[1]");
	say("scatter %d", piece);

	// The v-forms: rank r's block is r + 1 elements; the reversed
	// displacements show one taken from the wrong place.
	std::vector<int> cnt{ 1, 2, 3 }, fwd{ 0, 1, 3 }, rev{ 5, 3, 0 };
	std::vector<int> mine((std::size_t)me.rank + 1, me.rank), six(6);
	ens::allgatherv(mine, six, cnt, fwd);
	say("allgatherv %d %d %d %d %d %d", six[0], six[1], six[2], six[3],
	    six[4], six[5]);
	std::vector<int> at_hub(mode == "hub" ? 6 : 0);
	ens::gatherv(mine, at_hub, cnt, rev, "hub");
	if (mode == "hub")
		say("gatherv %d %d %d %d %d %d", at_hub[0], at_hub[1], at_hub[2],
		    at_hub[3], at_hub[4], at_hub[5]);
	std::array<long, 6> sv{ 10, 20, 21, 30, 31, 32 };
	std::vector<long> got((std::size_t)me.rank + 1);
	ens::scatterv(sv, cnt, fwd, got, "w[1]");
	if (me.rank == 0)
		say("scatterv %ld", got[0]);
	else if (me.rank == 1)
		say("scatterv %ld %ld", got[0], got[1]);
	else
		say("scatterv %ld %ld %ld", got[0], got[1], got[2]);
	std::array<int, 3> to{ 10 * me.rank + 2, 10 * me.rank + 1, 10 * me.rank },
	    from{};
	std::vector<int> ones{ 1, 1, 1 }, down{ 2, 1, 0 }, up{ 0, 1, 2 };
	ens::alltoallv(to, ones, down, from, ones, up);
	say("alltoallv %d %d %d", from[0], from[1], from[2]);
	std::array<int, 6> rsend{};
	std::vector<int> rgot((std::size_t)me.rank + 1);
	for (int k = 0; k < 6; k++)
		rsend[(std::size_t)k] = 10 * me.rank + k;
	ens::reduce_scatter(rsend, rgot, cnt, MPI_SUM);
	if (me.rank == 0)
		say("reduce_scatter %d", rgot[0]);
	else if (me.rank == 1)
		say("reduce_scatter %d %d", rgot[0], rgot[1]);
	else
		say("reduce_scatter %d %d %d", rgot[0], rgot[1], rgot[2]);
	return 0;
}
