/* ensemble.hpp -- libensemble for C++17: the port interface of
 * runtime/ensemble.h with the MPI datatype and the count taken from the
 * buffer.  Header-only: every function is an inline call of the ens_* C
 * function of the same name (a collective given an ens::group last, of
 * its ens_*_over), so the one implementation of ports, tags and the
 * protocol monitor stays in libensemble.
 *
 *	#include <ensemble.hpp>	c++ -std=c++17 $(pkg-config --cflags --libs ensemble-cxx)
 *
 *	int main(int argc, char **argv) {
 *		ens::session s(argc, argv);	// ens_init; ens_finalize at the end
 *		std::vector<int> v(4);
 *		ens::recv("Client", 1, v);	// 4 MPI_INTs
 *		ens::send("Prop", 1, v[0]);	// one
 *	}
 *
 * A buffer is a scalar, a C array, or anything with data() and size()
 * (std::vector, std::array, std::string, ens::span); its count is its
 * number of elements, its datatype ens::datatype<element type>().  Other
 * element types: specialize ens::datatype_traits, or pass an MPI_Datatype
 * as the last argument of a point-to-point call (the count is still the
 * number of elements).
 *
 * No exceptions: misuse (an unknown port, an index out of range, a call
 * outside the session) and MPI errors stop the application with a message
 * naming the process and the ens_* call, as in C.  A buffer of more than
 * INT_MAX elements, or one too small for a collective, is passed to MPI
 * with count -1, which MPI refuses, so it stops the same way.  See
 * libensemble(3), section C++. */
#ifndef ENSEMBLE_HPP
#define ENSEMBLE_HPP

#include <climits>
#include <complex>
#include <cstddef>
#include <cstring>
#include <iterator>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

/* The C API only: not MPI's deprecated C++ classes (which would need
 * libmpi_cxx). */
#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1
#endif
#ifndef MPICH_SKIP_MPICXX
#define MPICH_SKIP_MPICXX 1
#endif
#include <ensemble.h>

#if __cplusplus < 201703L
#error "ensemble.hpp needs C++17 or later (-std=c++17)"
#endif

namespace ens {

/* The MPI datatype of an element type: specialize for your own types
 * (a struct with 'static MPI_Datatype get()'). */
template <class T> struct datatype_traits {
	static constexpr bool known = false;
};

#define ENS_CXX_DATATYPE(T, D)						\
	template <> struct datatype_traits<T> {				\
		static constexpr bool known = true;			\
		static MPI_Datatype get() { return D; }			\
	}
ENS_CXX_DATATYPE(char, MPI_CHAR);
ENS_CXX_DATATYPE(signed char, MPI_SIGNED_CHAR);
ENS_CXX_DATATYPE(unsigned char, MPI_UNSIGNED_CHAR);
ENS_CXX_DATATYPE(wchar_t, MPI_WCHAR);
ENS_CXX_DATATYPE(short, MPI_SHORT);
ENS_CXX_DATATYPE(unsigned short, MPI_UNSIGNED_SHORT);
ENS_CXX_DATATYPE(int, MPI_INT);
ENS_CXX_DATATYPE(unsigned int, MPI_UNSIGNED);
ENS_CXX_DATATYPE(long, MPI_LONG);
ENS_CXX_DATATYPE(unsigned long, MPI_UNSIGNED_LONG);
ENS_CXX_DATATYPE(long long, MPI_LONG_LONG);
ENS_CXX_DATATYPE(unsigned long long, MPI_UNSIGNED_LONG_LONG);
ENS_CXX_DATATYPE(float, MPI_FLOAT);
ENS_CXX_DATATYPE(double, MPI_DOUBLE);
ENS_CXX_DATATYPE(long double, MPI_LONG_DOUBLE);
ENS_CXX_DATATYPE(bool, MPI_CXX_BOOL);
ENS_CXX_DATATYPE(std::byte, MPI_BYTE);
ENS_CXX_DATATYPE(std::complex<float>, MPI_CXX_FLOAT_COMPLEX);
ENS_CXX_DATATYPE(std::complex<double>, MPI_CXX_DOUBLE_COMPLEX);
ENS_CXX_DATATYPE(std::complex<long double>, MPI_CXX_LONG_DOUBLE_COMPLEX);
#undef ENS_CXX_DATATYPE

/* The MPI datatype of T (an error at compile time when there is none). */
template <class T>
inline MPI_Datatype
datatype()
{
	using U = std::remove_cv_t<T>;

	static_assert(datatype_traits<U>::known,
	    "ens: no MPI datatype for this element type: specialize "
	    "ens::datatype_traits or pass an MPI_Datatype");
	return datatype_traits<U>::get();
}

/* A view of count elements at data: a buffer for any call. */
template <class T> class span {
public:
	constexpr span() noexcept : p_(nullptr), n_(0) {}
	constexpr span(T *p, std::size_t n) noexcept : p_(p), n_(n) {}
	template <class C, class = decltype(std::data(std::declval<C &>())),
	    class = decltype(std::size(std::declval<C &>()))>
	constexpr span(C &c) noexcept : p_(std::data(c)), n_(std::size(c)) {}
	constexpr T *data() const noexcept { return p_; }
	constexpr std::size_t size() const noexcept { return n_; }
	constexpr T *begin() const noexcept { return p_; }
	constexpr T *end() const noexcept { return p_ + n_; }
	constexpr T &operator[](std::size_t i) const noexcept { return p_[i]; }
private:
	T		*p_;
	std::size_t	 n_;
};
template <class C> span(C &) -> span<std::remove_pointer_t<decltype(std::data(std::declval<C &>()))>>;

/* A port type or process name: a C string or a std::string. */
class name {
public:
	name(const char *s) noexcept : s_(s) {}
	name(std::nullptr_t) noexcept : s_(nullptr) {}
	name(const std::string &s) noexcept : s_(s.c_str()) {}
	const char *c_str() const noexcept { return s_; }
private:
	const char	*s_;
};

namespace detail {

template <class B, class = void> struct is_range : std::false_type {};
template <class B> struct is_range<B, std::void_t<decltype(std::data(std::declval<B &>())),
    decltype(std::size(std::declval<B &>()))>> : std::true_type {};

template <class B> struct is_span : std::false_type {};
template <class T> struct is_span<span<T>> : std::true_type {};

/* The count MPI is given: n, or -1 (which MPI refuses) above INT_MAX. */
inline int
count(std::size_t n) noexcept
{
	return n <= (std::size_t)INT_MAX ? (int)n : -1;
}

/* A buffer as MPI sees it: its first element (arrays of arrays flattened),
 * their number, and their type. */
template <class B> struct buf {
	using R = std::remove_reference_t<B>;
	static constexpr bool range = is_range<R>::value;
	using P = std::remove_reference_t<decltype(*std::data(std::declval<
	    std::conditional_t<range, R, int[1]> &>()))>;
	using E0 = std::conditional_t<range, P, R>;
	using E = std::remove_all_extents_t<E0>;
	static constexpr std::size_t per = sizeof(E0) / sizeof(E);

	static E *data(R &b) noexcept {
		if constexpr (range)
			return reinterpret_cast<E *>(std::data(b));
		else
			return reinterpret_cast<E *>(&b);
	}
	static std::size_t size(R &b) noexcept {
		if constexpr (range)
			return std::size(b) * per;
		else
			return per;
	}
	static int count(R &b) noexcept { return detail::count(size(b)); }
	static MPI_Datatype type() { return datatype<E>(); }
};

/* Whether the name is this process's. */
inline bool
is_self(const char *who)
{
	return who != nullptr && std::strcmp(who, ens_self()->name) == 0;
}

/* A non-blocking call's buffer must outlive the call's statement. */
template <class B> constexpr bool
lasting()
{
	return std::is_lvalue_reference_v<B> || is_span<std::remove_cv_t<
	    std::remove_reference_t<B>>>::value;
}

template <class B> constexpr bool
writable()
{
	return !std::is_const_v<typename buf<B>::E>;
}

} /* namespace detail */

/* A received message's status: how much came, by which port. */
class status {
public:
	MPI_Status	mpi;

	/* Elements of type T that came; MPI_UNDEFINED if not a whole number. */
	template <class T> int count() const { return count(datatype<T>()); }
	int count(MPI_Datatype dt) const {
		int	n;

		if (MPI_Get_count(&mpi, dt, &n) != MPI_SUCCESS)
			return MPI_UNDEFINED;
		return n;
	}
	/* The port's index (1-based), 0 for no port's message. */
	int port() const { return ens_port_of(&mpi, nullptr); }
	/* The port's type, nullptr for no port's message. */
	const char *port_type() const {
		const char	*t;

		ens_port_of(&mpi, &t);
		return t;
	}
};

/* ens_init in the constructor, ens_finalize in the destructor: one per
 * program, alive while it uses ports (return from main, do not exit()). */
class session {
public:
	session(int &argc, char **&argv) { ens_init(&argc, &argv); }
	session() { ens_init(nullptr, nullptr); }
	~session() { ens_finalize(); }
	session(const session &) = delete;
	session &operator=(const session &) = delete;
};

/* Who this process is. */
inline const ens_self_t &self() { return *ens_self(); }
/* Ports of a type (0 for one the process has none of). */
inline int ports(name type) { return ens_ports(type.c_str()); }
/* A port as MPI sees it. */
inline ens_port_t port(name type, int index) { return ens_port(type.c_str(), index); }
/* The component's own communicator. */
inline MPI_Comm comm_component() { return ens_comm_component(); }

/* A script parameter's value, or the k-th argument for "k"; none if unset. */
inline std::optional<std::string>
param(name n)
{
	const char	*v = ens_param(n.c_str());

	if (v == nullptr)
		return std::nullopt;
	return std::string(v);
}

/* Blocking sends: standard, synchronous, buffered. */
template <class B> inline void
send(name type, int index, const B &b)
{
	using D = detail::buf<const B>;
	ens_send(type.c_str(), index, D::data(b), D::count(b), D::type());
}
template <class B> inline void
send(name type, int index, const B &b, MPI_Datatype dt)
{
	using D = detail::buf<const B>;
	ens_send(type.c_str(), index, D::data(b), D::count(b), dt);
}
template <class B> inline void
ssend(name type, int index, const B &b)
{
	using D = detail::buf<const B>;
	ens_ssend(type.c_str(), index, D::data(b), D::count(b), D::type());
}
template <class B> inline void
ssend(name type, int index, const B &b, MPI_Datatype dt)
{
	using D = detail::buf<const B>;
	ens_ssend(type.c_str(), index, D::data(b), D::count(b), dt);
}
template <class B> inline void
bsend(name type, int index, const B &b)
{
	using D = detail::buf<const B>;
	ens_bsend(type.c_str(), index, D::data(b), D::count(b), D::type());
}
template <class B> inline void
bsend(name type, int index, const B &b, MPI_Datatype dt)
{
	using D = detail::buf<const B>;
	ens_bsend(type.c_str(), index, D::data(b), D::count(b), dt);
}

/* Blocking receives into a buffer of at most its size. */
template <class B> inline void
recv(name type, int index, B &&b)
{
	using D = detail::buf<B>;
	static_assert(detail::writable<B>(), "ens::recv: a const buffer");
	ens_recv(type.c_str(), index, D::data(b), D::count(b), D::type());
}
template <class B> inline void
recv(name type, int index, B &&b, MPI_Datatype dt)
{
	using D = detail::buf<B>;
	static_assert(detail::writable<B>(), "ens::recv: a const buffer");
	ens_recv(type.c_str(), index, D::data(b), D::count(b), dt);
}
template <class B> inline status
recv_status(name type, int index, B &&b)
{
	using D = detail::buf<B>;
	status	st;

	static_assert(detail::writable<B>(), "ens::recv_status: a const buffer");
	ens_recv_status(type.c_str(), index, D::data(b), D::count(b), D::type(), &st.mpi);
	return st;
}
/* From whichever port of the type (nullptr: any port) has a message;
 * returns the port's index. */
template <class B> inline int
recv_any(name type, B &&b)
{
	using D = detail::buf<B>;
	static_assert(detail::writable<B>(), "ens::recv_any: a const buffer");
	return ens_recv_any(type.c_str(), D::data(b), D::count(b), D::type());
}
template <class B> inline int
recv_any(name type, B &&b, MPI_Datatype dt)
{
	using D = detail::buf<B>;
	static_assert(detail::writable<B>(), "ens::recv_any: a const buffer");
	return ens_recv_any(type.c_str(), D::data(b), D::count(b), dt);
}
template <class B> inline status
recv_any_status(name type, B &&b)
{
	using D = detail::buf<B>;
	status	st;

	static_assert(detail::writable<B>(), "ens::recv_any_status: a const buffer");
	ens_recv_any_status(type.c_str(), D::data(b), D::count(b), D::type(), &st.mpi);
	return st;
}

/* Non-blocking; the buffer (an lvalue or a span) must live until the
 * request completes. */
#define ENS_CXX_ISEND(F, C)						\
template <class B> inline MPI_Request					\
F(name type, int index, B &&b)						\
{									\
	using D = detail::buf<B>;					\
	MPI_Request	r;						\
									\
	static_assert(detail::lasting<B>(),				\
	    "ens::" #F ": a temporary buffer would be gone before the send"); \
	C(type.c_str(), index, D::data(b), D::count(b), D::type(), &r);	\
	return r;							\
}									\
template <class B> inline MPI_Request					\
F(name type, int index, B &&b, MPI_Datatype dt)				\
{									\
	using D = detail::buf<B>;					\
	MPI_Request	r;						\
									\
	static_assert(detail::lasting<B>(),				\
	    "ens::" #F ": a temporary buffer would be gone before the send"); \
	C(type.c_str(), index, D::data(b), D::count(b), dt, &r);	\
	return r;							\
}
ENS_CXX_ISEND(isend, ens_isend)
ENS_CXX_ISEND(issend, ens_issend)
ENS_CXX_ISEND(ibsend, ens_ibsend)
#undef ENS_CXX_ISEND

template <class B> inline MPI_Request
irecv(name type, int index, B &&b)
{
	using D = detail::buf<B>;
	MPI_Request	r;

	static_assert(detail::lasting<B>() && detail::writable<B>(),
	    "ens::irecv: a temporary or const buffer");
	ens_irecv(type.c_str(), index, D::data(b), D::count(b), D::type(), &r);
	return r;
}
template <class B> inline MPI_Request
irecv(name type, int index, B &&b, MPI_Datatype dt)
{
	using D = detail::buf<B>;
	MPI_Request	r;

	static_assert(detail::lasting<B>() && detail::writable<B>(),
	    "ens::irecv: a temporary or const buffer");
	ens_irecv(type.c_str(), index, D::data(b), D::count(b), dt, &r);
	return r;
}
/* From any port (type nullptr, or one holding every connected port). */
template <class B> inline MPI_Request
irecv_any(name type, B &&b)
{
	using D = detail::buf<B>;
	MPI_Request	r;

	static_assert(detail::lasting<B>() && detail::writable<B>(),
	    "ens::irecv_any: a temporary or const buffer");
	ens_irecv_any(type.c_str(), D::data(b), D::count(b), D::type(), &r);
	return r;
}
template <class B> inline MPI_Request
irecv_any(name type, B &&b, MPI_Datatype dt)
{
	using D = detail::buf<B>;
	MPI_Request	r;

	static_assert(detail::lasting<B>() && detail::writable<B>(),
	    "ens::irecv_any: a temporary or const buffer");
	ens_irecv_any(type.c_str(), D::data(b), D::count(b), dt, &r);
	return r;
}

/* Complete requests: one, a C array or a container of MPI_Request. */
template <class R> inline void
waitall(R &&reqs)
{
	using D = detail::buf<R>;
	static_assert(std::is_same_v<std::remove_cv_t<typename D::E>, MPI_Request>,
	    "ens::waitall: not MPI_Requests");
	ens_waitall(D::count(reqs), D::data(reqs));
}
/* The same, returning a status per request. */
template <class R> inline std::vector<status>
waitall_status(R &&reqs)
{
	using D = detail::buf<R>;
	std::vector<MPI_Status>	sts(D::size(reqs));
	std::vector<status>	out(D::size(reqs));

	static_assert(std::is_same_v<std::remove_cv_t<typename D::E>, MPI_Request>,
	    "ens::waitall_status: not MPI_Requests");
	ens_waitall_status(D::count(reqs), D::data(reqs), sts.data());
	for (std::size_t i = 0; i < sts.size(); i++)
		out[i].mpi = sts[i];
	return out;
}

/* A group of the script, as 'over' names it: ens::group("rows", 2) for
 * rows[2], ens::group("workers") for a group without an index (or a
 * component, every process of it).  Given as the last argument, it makes
 * a collective go over the group (ens_*_over): ranks, sizes, counts and
 * roots are the group's. */
class group {
public:
	explicit group(name n, int index = 0) : n_(n.c_str() != nullptr ?
	    n.c_str() : ""), i_(index), null_(n.c_str() == nullptr) {}
	const char *c_str() const noexcept { return null_ ? nullptr : n_.c_str(); }
	int index() const noexcept { return i_; }
	/* Its communicator (ens_comm_group), this process's rank in it and
	 * its size. */
	MPI_Comm comm() const { return ens_comm_group(c_str(), i_); }
	int rank() const { int r = 0; MPI_Comm_rank(comm(), &r); return r; }
	int size() const { int n = 0; MPI_Comm_size(comm(), &n); return n; }
private:
	std::string	n_;
	int		i_;
	bool		null_;
};
/* Complete one request, its status; test: complete it if it can (true,
 * its status in *st unless st is nullptr), else false. */
inline status
wait(MPI_Request &r)
{
	status	st;

	ens_wait(&r, &st.mpi);
	return st;
}
inline bool
test(MPI_Request &r, status *st = nullptr)
{
	return ens_test(&r, st != nullptr ? &st->mpi : MPI_STATUS_IGNORE) != 0;
}
/* Complete one of the requests (a C array or a container of
 * MPI_Request): its index, from 0, or MPI_UNDEFINED when none is
 * pending; its status in *st unless st is nullptr. */
template <class R> inline int
waitany(R &&reqs, status *st = nullptr)
{
	using D = detail::buf<R>;
	static_assert(std::is_same_v<std::remove_cv_t<typename D::E>, MPI_Request>,
	    "ens::waitany: not MPI_Requests");
	return ens_waitany(D::count(reqs), D::data(reqs), st != nullptr ?
	    &st->mpi : MPI_STATUS_IGNORE);
}
/* Complete every request that can be, at least one: their indices (none
 * when none is pending), their statuses in *sts unless sts is nullptr. */
template <class R> inline std::vector<int>
waitsome(R &&reqs, std::vector<status> *sts = nullptr)
{
	using D = detail::buf<R>;
	std::vector<int>	idx(D::size(reqs));
	std::vector<MPI_Status>	st(D::size(reqs));
	int			n;

	static_assert(std::is_same_v<std::remove_cv_t<typename D::E>, MPI_Request>,
	    "ens::waitsome: not MPI_Requests");
	n = ens_waitsome(D::count(reqs), D::data(reqs), idx.data(), st.data());
	idx.resize(n == MPI_UNDEFINED ? 0 : n);
	if (sts != nullptr) {
		sts->resize(idx.size());
		for (std::size_t i = 0; i < idx.size(); i++)
			(*sts)[i].mpi = st[i];
	}
	return idx;
}

/* Send sb on one port and receive rb on another at once; the receive's
 * status. */
template <class S, class R> inline status
sendrecv(name stype, int sindex, const S &sb, name rtype, int rindex, R &&rb)
{
	using DS = detail::buf<const S>;
	using DR = detail::buf<R>;
	status	st;

	static_assert(detail::writable<R>(), "ens::sendrecv: a const receive buffer");
	ens_sendrecv(stype.c_str(), sindex, DS::data(sb), DS::count(sb),
	    DS::type(), rtype.c_str(), rindex, DR::data(rb), DR::count(rb),
	    DR::type(), &st.mpi);
	return st;
}
/* The same in one buffer: what is sent is replaced by what comes. */
template <class B> inline status
sendrecv_replace(name stype, int sindex, name rtype, int rindex, B &&b)
{
	using D = detail::buf<B>;
	status	st;

	static_assert(detail::writable<B>(), "ens::sendrecv_replace: a const buffer");
	ens_sendrecv_replace(stype.c_str(), sindex, rtype.c_str(), rindex,
	    D::data(b), D::count(b), D::type(), &st.mpi);
	return st;
}

/* Wait for a message on a port without receiving it: its status. */
inline status
probe(name type, int index)
{
	status	st;

	ens_probe(type.c_str(), index, &st.mpi);
	return st;
}
/* The same on any port of the type (nullptr: any port): its index. */
inline int
probe_any(name type, status *st = nullptr)
{
	return ens_probe_any(type.c_str(), st != nullptr ? &st->mpi :
	    MPI_STATUS_IGNORE);
}
/* Without waiting: whether there is one (iprobe), or its port's index, 0
 * when there is none (iprobe_any). */
inline bool
iprobe(name type, int index, status *st = nullptr)
{
	return ens_iprobe(type.c_str(), index, st != nullptr ? &st->mpi :
	    MPI_STATUS_IGNORE) != 0;
}
inline int
iprobe_any(name type, status *st = nullptr)
{
	int	port = 0;

	ens_iprobe_any(type.c_str(), &port, st != nullptr ? &st->mpi :
	    MPI_STATUS_IGNORE);
	return port;
}

/* The communicator of a group this process is in. */
inline MPI_Comm comm_group(name n, int index = 0) { return ens_comm_group(n.c_str(), index); }

namespace detail {
/* What a collective goes over (g, or the application when it is null):
 * its size and this process's rank in it. */
inline std::size_t np(const group *g) { return (std::size_t)(g != nullptr ?
    g->size() : ens_self()->nprocs); }
inline int rank(const group *g) { return g != nullptr ? g->rank() : ens_self()->rank; }
} /* namespace detail */

/* The call of ens_F, or over g (a const group *) of ens_F_over. */
#define ENS_CXX_OVER(f, ...) (g != nullptr ? ens_##f##_over(__VA_ARGS__, \
	g->c_str(), g->index()) : ens_##f(__VA_ARGS__))

/* Collectives over every process, or over a group given last; a root is a
 * process's name as in the script ("master", "relay[1]"). */
inline void barrier() { ens_barrier(); }
inline void barrier(const group &g) { ens_barrier_over(g.c_str(), g.index()); }

namespace detail {
template <class B> inline void
bcast(B &&b, name root, const group *g)
{
	using D = buf<B>;
	static_assert(writable<B>(), "ens::bcast: a const buffer");
	ENS_CXX_OVER(bcast, D::data(b), D::count(b), D::type(), root.c_str());
}
} /* namespace detail */
template <class B> inline void
bcast(B &&b, name root)
{
	detail::bcast(std::forward<B>(b), root, nullptr);
}
template <class B> inline void
bcast(B &&b, name root, const group &g)
{
	detail::bcast(std::forward<B>(b), root, &g);
}
namespace detail {
template <class B> inline void
bcast(B &&b, MPI_Datatype dt, name root, const group *g)
{
	using D = buf<B>;
	static_assert(writable<B>(), "ens::bcast: a const buffer");
	ENS_CXX_OVER(bcast, D::data(b), D::count(b), dt, root.c_str());
}
} /* namespace detail */
template <class B> inline void
bcast(B &&b, MPI_Datatype dt, name root)
{
	detail::bcast(std::forward<B>(b), dt, root, nullptr);
}
template <class B> inline void
bcast(B &&b, MPI_Datatype dt, name root, const group &g)
{
	detail::bcast(std::forward<B>(b), dt, root, &g);
}

/* recv gets op over every process's send, element by element (at the
 * root; elsewhere recv is not used and may be empty). */
namespace detail {
template <class S, class R> inline void
reduce(const S &s, R &&r, MPI_Op op, name root, const group *g)
{
	using DS = buf<const S>;
	using DR = buf<R>;
	std::size_t	n = DS::size(s);

	static_assert(std::is_same_v<std::remove_cv_t<typename DS::E>, typename DR::E>,
	    "ens::reduce: send and receive element types differ");
	ENS_CXX_OVER(reduce, DS::data(s), DR::data(r), is_self(root.c_str()) &&
	    DR::size(r) < n ? -1 : count(n), DS::type(), op, root.c_str());
}
} /* namespace detail */
template <class S, class R> inline void
reduce(const S &s, R &&r, MPI_Op op, name root)
{
	detail::reduce(s, std::forward<R>(r), op, root, nullptr);
}
template <class S, class R> inline void
reduce(const S &s, R &&r, MPI_Op op, name root, const group &g)
{
	detail::reduce(s, std::forward<R>(r), op, root, &g);
}
namespace detail {
template <class S, class R> inline void
allreduce(const S &s, R &&r, MPI_Op op, const group *g)
{
	using DS = buf<const S>;
	using DR = buf<R>;
	std::size_t	n = DS::size(s);

	static_assert(std::is_same_v<std::remove_cv_t<typename DS::E>, typename DR::E>,
	    "ens::allreduce: send and receive element types differ");
	ENS_CXX_OVER(allreduce, DS::data(s), DR::data(r), DR::size(r) < n ? -1 :
	    count(n), DS::type(), op);
}
} /* namespace detail */
template <class S, class R> inline void
allreduce(const S &s, R &&r, MPI_Op op)
{
	detail::allreduce(s, std::forward<R>(r), op, nullptr);
}
template <class S, class R> inline void
allreduce(const S &s, R &&r, MPI_Op op, const group &g)
{
	detail::allreduce(s, std::forward<R>(r), op, &g);
}

/* Every process's send, in rank order, into the root's recv (which holds
 * nprocs times as many elements). */
namespace detail {
template <class S, class R> inline void
gather(const S &s, R &&r, name root, const group *g)
{
	using DS = buf<const S>;
	using DR = buf<R>;
	std::size_t	n = DS::size(s);
	int		rc = count(n);

	if (is_self(root.c_str()) &&
	    DR::size(r) < n * np(g))
		rc = -1;
	ENS_CXX_OVER(gather, DS::data(s), count(n), DS::type(), DR::data(r), rc,
	    DR::type(), root.c_str());
}
} /* namespace detail */
template <class S, class R> inline void
gather(const S &s, R &&r, name root)
{
	detail::gather(s, std::forward<R>(r), root, nullptr);
}
template <class S, class R> inline void
gather(const S &s, R &&r, name root, const group &g)
{
	detail::gather(s, std::forward<R>(r), root, &g);
}
namespace detail {
template <class S, class R> inline void
allgather(const S &s, R &&r, const group *g)
{
	using DS = buf<const S>;
	using DR = buf<R>;
	std::size_t	n = DS::size(s);

	ENS_CXX_OVER(allgather, DS::data(s), count(n), DS::type(), DR::data(r),
	    DR::size(r) < n * np(g) ? -1 : count(n),
	    DR::type());
}
} /* namespace detail */
template <class S, class R> inline void
allgather(const S &s, R &&r)
{
	detail::allgather(s, std::forward<R>(r), nullptr);
}
template <class S, class R> inline void
allgather(const S &s, R &&r, const group &g)
{
	detail::allgather(s, std::forward<R>(r), &g);
}
/* The root's send, cut into nprocs pieces of recv's size, one to each. */
namespace detail {
template <class S, class R> inline void
scatter(const S &s, R &&r, name root, const group *g)
{
	using DS = buf<const S>;
	using DR = buf<R>;
	std::size_t	n = DR::size(r);
	int		sc = count(n);

	if (is_self(root.c_str()) &&
	    DS::size(s) < n * np(g))
		sc = -1;
	ENS_CXX_OVER(scatter, DS::data(s), sc, DS::type(), DR::data(r), count(n),
	    DR::type(), root.c_str());
}
} /* namespace detail */
template <class S, class R> inline void
scatter(const S &s, R &&r, name root)
{
	detail::scatter(s, std::forward<R>(r), root, nullptr);
}
template <class S, class R> inline void
scatter(const S &s, R &&r, name root, const group &g)
{
	detail::scatter(s, std::forward<R>(r), root, &g);
}
/* send holds nprocs equal pieces, the k-th for process k; recv the same
 * from each. */
namespace detail {
template <class S, class R> inline void
alltoall(const S &s, R &&r, const group *g)
{
	using DS = buf<const S>;
	using DR = buf<R>;
	std::size_t	np = detail::np(g);
	std::size_t	n = DS::size(s) / np;
	int		c = count(n);

	if (DS::size(s) % np != 0 || DR::size(r) < DS::size(s))
		c = -1;
	ENS_CXX_OVER(alltoall, DS::data(s), c, DS::type(), DR::data(r), c, DR::type());
}
} /* namespace detail */
template <class S, class R> inline void
alltoall(const S &s, R &&r)
{
	detail::alltoall(s, std::forward<R>(r), nullptr);
}
template <class S, class R> inline void
alltoall(const S &s, R &&r, const group &g)
{
	detail::alltoall(s, std::forward<R>(r), &g);
}

namespace detail {
/* Whether counts and displs (ranges of int, one per process of np) place
 * every block inside a buffer of n elements. */
template <class C, class D> inline bool
vfits(const C &c, const D &d, std::size_t n, std::size_t np) noexcept
{
	std::size_t	i;

	static_assert(std::is_same_v<std::remove_cv_t<std::remove_reference_t<
	    decltype(*std::data(c))>>, int> && std::is_same_v<std::remove_cv_t<
	    std::remove_reference_t<decltype(*std::data(d))>>, int>,
	    "ens: counts and displacements are ranges of int");
	if (std::size(c) != np || std::size(d) != np)
		return false;
	for (i = 0; i < np; i++)
		if (std::data(c)[i] < 0 || std::data(d)[i] < 0 ||
		    (std::size_t)std::data(d)[i] + (std::size_t)std::data(c)[i] > n)
			return false;
	return true;
}
/* A copy of counts or displacements of np ints (short ones padded
 * with 0), its first -1 (which MPI refuses) when !good. */
template <class C> inline std::vector<int>
vcopy(const C &c, bool good, std::size_t np)
{
	std::vector<int>	v(np, 0);
	std::size_t		i;

	for (i = 0; i < v.size() && i < std::size(c); i++)
		v[i] = std::data(c)[i];
	if (!good && !v.empty())
		v[0] = -1;
	return v;
}
} /* namespace detail */

/* The v-forms: counts and displacements (ranges of int, such as
 * std::vector<int>) one per process in rank order, in elements.  A block
 * that does not fit its buffer, or a range of another length than
 * nprocs, is passed as count -1. */
namespace detail {
template <class S, class R, class C, class D> inline void
allgatherv(const S &s, R &&r, const C &counts, const D &displs, const group *g)
{
	using DS = buf<const S>;
	using DR = buf<R>;
	bool			good = vfits(counts, displs, DR::size(r), np(g));
	std::vector<int>	c = vcopy(counts, good, np(g));
	std::vector<int>	d = vcopy(displs, true, np(g));

	ENS_CXX_OVER(allgatherv, DS::data(s), DS::count(s), DS::type(), DR::data(r),
	    c.data(), d.data(), DR::type());
}
} /* namespace detail */
template <class S, class R, class C, class D> inline void
allgatherv(const S &s, R &&r, const C &counts, const D &displs)
{
	detail::allgatherv(s, std::forward<R>(r), counts, displs, nullptr);
}
template <class S, class R, class C, class D> inline void
allgatherv(const S &s, R &&r, const C &counts, const D &displs, const group &g)
{
	detail::allgatherv(s, std::forward<R>(r), counts, displs, &g);
}
/* counts and displs matter at the root only. */
namespace detail {
template <class S, class R, class C, class D> inline void
gatherv(const S &s, R &&r, const C &counts, const D &displs, name root, const group *g)
{
	using DS = buf<const S>;
	using DR = buf<R>;
	bool			good = !is_self(root.c_str()) ||
				    vfits(counts, displs, DR::size(r), np(g));
	std::vector<int>	c = vcopy(counts, true, np(g));
	std::vector<int>	d = vcopy(displs, true, np(g));

	ENS_CXX_OVER(gatherv, DS::data(s), good ? DS::count(s) : -1, DS::type(),
	    DR::data(r), c.data(), d.data(), DR::type(), root.c_str());
}
} /* namespace detail */
template <class S, class R, class C, class D> inline void
gatherv(const S &s, R &&r, const C &counts, const D &displs, name root)
{
	detail::gatherv(s, std::forward<R>(r), counts, displs, root, nullptr);
}
template <class S, class R, class C, class D> inline void
gatherv(const S &s, R &&r, const C &counts, const D &displs, name root, const group &g)
{
	detail::gatherv(s, std::forward<R>(r), counts, displs, root, &g);
}
namespace detail {
template <class S, class R, class C, class D> inline void
scatterv(const S &s, const C &counts, const D &displs, R &&r, name root, const group *g)
{
	using DS = buf<const S>;
	using DR = buf<R>;
	bool			good = !is_self(root.c_str()) ||
				    vfits(counts, displs, DS::size(s), np(g));
	std::vector<int>	c = vcopy(counts, true, np(g));
	std::vector<int>	d = vcopy(displs, true, np(g));

	ENS_CXX_OVER(scatterv, DS::data(s), c.data(), d.data(), DS::type(), DR::data(r),
	    good ? DR::count(r) : -1, DR::type(), root.c_str());
}
} /* namespace detail */
template <class S, class R, class C, class D> inline void
scatterv(const S &s, const C &counts, const D &displs, R &&r, name root)
{
	detail::scatterv(s, counts, displs, std::forward<R>(r), root, nullptr);
}
template <class S, class R, class C, class D> inline void
scatterv(const S &s, const C &counts, const D &displs, R &&r, name root, const group &g)
{
	detail::scatterv(s, counts, displs, std::forward<R>(r), root, &g);
}
namespace detail {
template <class S, class R, class C, class D, class E, class F> inline void
alltoallv(const S &s, const C &scounts, const D &sdispls, R &&r,
    const E &rcounts, const F &rdispls, const group *g)
{
	using DS = buf<const S>;
	using DR = buf<R>;
	bool			good = vfits(scounts, sdispls, DS::size(s), np(g)) &&
				    vfits(rcounts, rdispls, DR::size(r), np(g));
	std::vector<int>	sc = vcopy(scounts, good, np(g));
	std::vector<int>	sd = vcopy(sdispls, true, np(g));
	std::vector<int>	rc = vcopy(rcounts, true, np(g));
	std::vector<int>	rd = vcopy(rdispls, true, np(g));

	ENS_CXX_OVER(alltoallv, DS::data(s), sc.data(), sd.data(), DS::type(),
	    DR::data(r), rc.data(), rd.data(), DR::type());
}
} /* namespace detail */
template <class S, class R, class C, class D, class E, class F> inline void
alltoallv(const S &s, const C &scounts, const D &sdispls, R &&r,
    const E &rcounts, const F &rdispls)
{
	detail::alltoallv(s, scounts, sdispls, std::forward<R>(r), rcounts, rdispls, nullptr);
}
template <class S, class R, class C, class D, class E, class F> inline void
alltoallv(const S &s, const C &scounts, const D &sdispls, R &&r,
    const E &rcounts, const F &rdispls, const group &g)
{
	detail::alltoallv(s, scounts, sdispls, std::forward<R>(r), rcounts, rdispls, &g);
}
/* send holds the sum of counts; recv gets this process's block,
 * counts[rank] elements. */
namespace detail {
template <class S, class R, class C> inline void
reduce_scatter(const S &s, R &&r, const C &counts, MPI_Op op, const group *g)
{
	using DS = buf<const S>;
	using DR = buf<R>;
	std::size_t		np = detail::np(g), sum = 0, i;
	bool			good = std::size(counts) == np;
	std::vector<int>	c;

	static_assert(std::is_same_v<std::remove_cv_t<typename DS::E>, typename DR::E>,
	    "ens::reduce_scatter: send and receive element types differ");
	for (i = 0; good && i < np; i++)
		sum += (std::size_t)(std::data(counts)[i] > 0 ? std::data(counts)[i] : 0);
	good = good && DS::size(s) >= sum && DR::size(r) >=
	    (std::size_t)std::data(counts)[rank(g)];
	c = vcopy(counts, good, np);
	ENS_CXX_OVER(reduce_scatter, DS::data(s), DR::data(r), c.data(), DS::type(), op);
}
} /* namespace detail */
template <class S, class R, class C> inline void
reduce_scatter(const S &s, R &&r, const C &counts, MPI_Op op)
{
	detail::reduce_scatter(s, std::forward<R>(r), counts, op, nullptr);
}
template <class S, class R, class C> inline void
reduce_scatter(const S &s, R &&r, const C &counts, MPI_Op op, const group &g)
{
	detail::reduce_scatter(s, std::forward<R>(r), counts, op, &g);
}

#undef ENS_CXX_OVER

} /* namespace ens */

#endif
