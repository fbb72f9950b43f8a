/* shim.c -- the C side of the Fortran binding (bindings/fortran/ensemble.f90):
 * each ens_f08_* function takes what Fortran hands it -- strings as
 * characters and a length (from the module's wrappers) or as the
 * descriptor of a character(len=*) dummy (the BIND(C) interfaces the
 * module exports for the calls with a buffer), mpi_f08 handles as their
 * MPI_VAL (an MPI_Fint), buffers as ISO_Fortran_binding descriptors --
 * converts them (MPI_Type_f2c, MPI_Request_c2f...) and calls
 * the ens_* function of ensemble.h.  Nothing of the protocol is done here:
 * no port lookup, no tag, no monitor; misuse is the C library's to report.
 * A type(MPI_Status) is taken as the MPI_Fint array of MPI_STATUS_SIZE it
 * is in Open MPI (the module checks their sizes agree in ens_init). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ISO_Fortran_binding.h>

#include "ensemble.h"

/* A Fortran string as a C string: the fixed buffer when it fits. */
struct fstr {
	char	 fixed[128];
	char	*s;
};

/* Requests converted on the stack up to this many, else on the heap. */
#define NREQ	16

/* Each ens_f08_NAME is libensemble's ens_NAME for the module (NAME_status
 * when given a status); the strings, handles and buffers as said above. */
void	ens_f08_init(const char *, int);
void	ens_f08_finalize(void);
int	ens_f08_ports(const char *, int);
void	ens_f08_self(const char **, const char **, int *, int *, int *, int *);
void	ens_f08_port(const char *, int, int, MPI_Fint *, int *, int *, int *);
const char *ens_f08_param(const char *, int);
MPI_Fint ens_f08_comm_component(void);
void	ens_f08_send(const CFI_cdesc_t *, const int *, const CFI_cdesc_t *,
	    const int *, const MPI_Fint *);
void	ens_f08_ssend(const CFI_cdesc_t *, const int *, const CFI_cdesc_t *,
	    const int *, const MPI_Fint *);
void	ens_f08_bsend(const CFI_cdesc_t *, const int *, const CFI_cdesc_t *,
	    const int *, const MPI_Fint *);
void	ens_f08_recv(const CFI_cdesc_t *, const int *, const CFI_cdesc_t *,
	    const int *, const MPI_Fint *, MPI_Fint *);
int	ens_f08_recv_any(const CFI_cdesc_t *, const CFI_cdesc_t *, const int *,
	    const MPI_Fint *, MPI_Fint *);
void	ens_f08_isend(const CFI_cdesc_t *, const int *, const CFI_cdesc_t *,
	    const int *, const MPI_Fint *, MPI_Fint *);
void	ens_f08_issend(const CFI_cdesc_t *, const int *, const CFI_cdesc_t *,
	    const int *, const MPI_Fint *, MPI_Fint *);
void	ens_f08_ibsend(const CFI_cdesc_t *, const int *, const CFI_cdesc_t *,
	    const int *, const MPI_Fint *, MPI_Fint *);
void	ens_f08_irecv(const CFI_cdesc_t *, const int *, const CFI_cdesc_t *,
	    const int *, const MPI_Fint *, MPI_Fint *);
void	ens_f08_irecv_any(const CFI_cdesc_t *, const CFI_cdesc_t *, const int *,
	    const MPI_Fint *, MPI_Fint *);
void	ens_f08_waitall(int, MPI_Fint *, MPI_Fint *, int);
void	ens_f08_sendrecv(const CFI_cdesc_t *, const int *, const CFI_cdesc_t *,
	    const int *, const MPI_Fint *, const CFI_cdesc_t *, const int *,
	    const CFI_cdesc_t *, const int *, const MPI_Fint *, MPI_Fint *);
void	ens_f08_sendrecv_replace(const CFI_cdesc_t *, const int *,
	    const CFI_cdesc_t *, const int *, const CFI_cdesc_t *, const int *,
	    const MPI_Fint *, MPI_Fint *);
void	ens_f08_wait(MPI_Fint *, MPI_Fint *);
int	ens_f08_test(MPI_Fint *, MPI_Fint *);
int	ens_f08_waitany(int, MPI_Fint *, MPI_Fint *);
int	ens_f08_waitsome(int, MPI_Fint *, int *, MPI_Fint *, int);
void	ens_f08_probe(const CFI_cdesc_t *, const int *, MPI_Fint *);
int	ens_f08_probe_any(const CFI_cdesc_t *, MPI_Fint *);
int	ens_f08_iprobe(const CFI_cdesc_t *, const int *, MPI_Fint *);
int	ens_f08_iprobe_any(const CFI_cdesc_t *, MPI_Fint *);
int	ens_f08_port_of(const MPI_Fint *, const char **);
void	ens_f08_barrier(void);
void	ens_f08_bcast(const CFI_cdesc_t *, const int *, const MPI_Fint *,
	    const CFI_cdesc_t *);
void	ens_f08_reduce(const CFI_cdesc_t *, const CFI_cdesc_t *, const int *,
	    const MPI_Fint *, const MPI_Fint *, const CFI_cdesc_t *);
void	ens_f08_allreduce(const CFI_cdesc_t *, const CFI_cdesc_t *, const int *,
	    const MPI_Fint *, const MPI_Fint *);
void	ens_f08_gather(const CFI_cdesc_t *, const int *, const MPI_Fint *,
	    const CFI_cdesc_t *, const int *, const MPI_Fint *, const CFI_cdesc_t *);
void	ens_f08_allgather(const CFI_cdesc_t *, const int *, const MPI_Fint *,
	    const CFI_cdesc_t *, const int *, const MPI_Fint *);
void	ens_f08_scatter(const CFI_cdesc_t *, const int *, const MPI_Fint *,
	    const CFI_cdesc_t *, const int *, const MPI_Fint *, const CFI_cdesc_t *);
void	ens_f08_alltoall(const CFI_cdesc_t *, const int *, const MPI_Fint *,
	    const CFI_cdesc_t *, const int *, const MPI_Fint *);
void	ens_f08_allgatherv(const CFI_cdesc_t *, const int *, const MPI_Fint *,
	    const CFI_cdesc_t *, const int *, const int *, const MPI_Fint *);
void	ens_f08_gatherv(const CFI_cdesc_t *, const int *, const MPI_Fint *,
	    const CFI_cdesc_t *, const int *, const int *, const MPI_Fint *,
	    const CFI_cdesc_t *);
void	ens_f08_scatterv(const CFI_cdesc_t *, const int *, const int *,
	    const MPI_Fint *, const CFI_cdesc_t *, const int *, const MPI_Fint *,
	    const CFI_cdesc_t *);
void	ens_f08_alltoallv(const CFI_cdesc_t *, const int *, const int *,
	    const MPI_Fint *, const CFI_cdesc_t *, const int *, const int *,
	    const MPI_Fint *);
void	ens_f08_reduce_scatter(const CFI_cdesc_t *, const CFI_cdesc_t *,
	    const int *, const MPI_Fint *, const MPI_Fint *);

void	ens_f08_barrier_over(const CFI_cdesc_t *, const int *);
MPI_Fint ens_f08_comm_group(const CFI_cdesc_t *, const int *);
void	ens_f08_bcast_over(const CFI_cdesc_t *, const int *, const MPI_Fint *,
	    const CFI_cdesc_t *, const CFI_cdesc_t *, const int *);
void	ens_f08_reduce_over(const CFI_cdesc_t *, const CFI_cdesc_t *, const int *,
	    const MPI_Fint *, const MPI_Fint *, const CFI_cdesc_t *,
	    const CFI_cdesc_t *, const int *);
void	ens_f08_allreduce_over(const CFI_cdesc_t *, const CFI_cdesc_t *,
	    const int *, const MPI_Fint *, const MPI_Fint *, const CFI_cdesc_t *,
	    const int *);
void	ens_f08_gather_over(const CFI_cdesc_t *, const int *, const MPI_Fint *,
	    const CFI_cdesc_t *, const int *, const MPI_Fint *, const CFI_cdesc_t *,
	    const CFI_cdesc_t *, const int *);
void	ens_f08_allgather_over(const CFI_cdesc_t *, const int *, const MPI_Fint *,
	    const CFI_cdesc_t *, const int *, const MPI_Fint *, const CFI_cdesc_t *,
	    const int *);
void	ens_f08_scatter_over(const CFI_cdesc_t *, const int *, const MPI_Fint *,
	    const CFI_cdesc_t *, const int *, const MPI_Fint *, const CFI_cdesc_t *,
	    const CFI_cdesc_t *, const int *);
void	ens_f08_alltoall_over(const CFI_cdesc_t *, const int *, const MPI_Fint *,
	    const CFI_cdesc_t *, const int *, const MPI_Fint *, const CFI_cdesc_t *,
	    const int *);
void	ens_f08_allgatherv_over(const CFI_cdesc_t *, const int *, const MPI_Fint *,
	    const CFI_cdesc_t *, const int *, const int *, const MPI_Fint *,
	    const CFI_cdesc_t *, const int *);
void	ens_f08_gatherv_over(const CFI_cdesc_t *, const int *, const MPI_Fint *,
	    const CFI_cdesc_t *, const int *, const int *, const MPI_Fint *,
	    const CFI_cdesc_t *, const CFI_cdesc_t *, const int *);
void	ens_f08_scatterv_over(const CFI_cdesc_t *, const int *, const int *,
	    const MPI_Fint *, const CFI_cdesc_t *, const int *, const MPI_Fint *,
	    const CFI_cdesc_t *, const CFI_cdesc_t *, const int *);
void	ens_f08_alltoallv_over(const CFI_cdesc_t *, const int *, const int *,
	    const MPI_Fint *, const CFI_cdesc_t *, const int *, const int *,
	    const MPI_Fint *, const CFI_cdesc_t *, const int *);
void	ens_f08_reduce_scatter_over(const CFI_cdesc_t *, const CFI_cdesc_t *,
	    const int *, const MPI_Fint *, const MPI_Fint *, const CFI_cdesc_t *,
	    const int *);

/* Copy a Fortran string of len characters (trailing blanks already cut by
 * the module) into s->s; NULL for an empty one when empty_null is set
 * (ens_recv_any's "any port"). */
static const char *
fstr_in(struct fstr *s, const char *f, int len, int empty_null)
{
	if (len <= 0 && empty_null)
		return s->s = NULL;
	if (len < 0)
		len = 0;
	if ((size_t)len < sizeof(s->fixed))
		s->s = s->fixed;
	else if ((s->s = malloc((size_t)len + 1)) == NULL) {
		fprintf(stderr, "ensemble (Fortran): out of memory\n");
		abort();
	}
	memcpy(s->s, f, (size_t)len);
	s->s[len] = '\0';
	return s->s;
}

/* Release what fstr_in took. */
static void
fstr_free(struct fstr *s)
{
	if (s->s != NULL && s->s != s->fixed)
		free(s->s);
}

/* A character(len=*) dummy's descriptor as a C string, trailing blanks
 * cut (empty_null: a blank one is NULL). */
static const char *
fstr_desc(struct fstr *s, const CFI_cdesc_t *d, int empty_null)
{
	const char	*f = d->base_addr;
	int		 len = (int)d->elem_len;

	while (len > 0 && f[len - 1] == ' ')
		len--;
	return fstr_in(s, f, len, empty_null);
}

/* The buffer a descriptor describes, which must be contiguous: MPI
 * receives only an address.  A strided section (a(1:n:2)) stops the
 * application, the process and the call named, rather than sending the
 * wrong elements. */
static void *
addr(const CFI_cdesc_t *d, const char *call)
{
	CFI_index_t	sm = (CFI_index_t)d->elem_len;
	int		i;

	for (i = 0; i < d->rank; i++)
		if (d->dim[i].extent == 0)
			return d->base_addr;
	for (i = 0; i < d->rank; i++) {
		if (d->dim[i].extent == -1)	/* assumed size: the last */
			break;
		if (d->dim[i].extent > 1 && d->dim[i].sm != sm) {
			fflush(stdout);
			fprintf(stderr, "%s: %s: the buffer is not contiguous "
			    "(an array section with a stride, or a "
			    "non-contiguous pointer); pass a contiguous array\n",
			    ens_self()->name, call);
			fflush(stderr);
			/* Not MPI_Abort: the others' ends would race ours
			 * to 'ensemble run'; an exit without ens_finalize
			 * is named first, with these words. */
			exit(70);
		}
		sm *= d->dim[i].extent;
	}
	return d->base_addr;
}

/* ens_init with an argv of the program's name (the Fortran runtime keeps
 * the real arguments: get_command_argument). */
void
ens_f08_init(const char *prog, int len)
{
	static struct fstr	 name;
	static char		*argv0[2];
	static int		 argc = 1;
	char			**argv = argv0;

	argv0[0] = (char *)fstr_in(&name, prog, len, 0);
	argv0[1] = NULL;
	ens_init(&argc, &argv);
}

void
ens_f08_finalize(void)
{
	ens_finalize();
}

int
ens_f08_ports(const char *type, int len)
{
	struct fstr	t;
	int		n;

	n = ens_ports(fstr_in(&t, type, len, 0));
	fstr_free(&t);
	return n;
}

void
ens_f08_self(const char **name, const char **comp, int *index, int *rank,
    int *nprocs, int *indexed)
{
	const ens_self_t	*s = ens_self();

	*name = s->name;
	*comp = s->component;
	*index = s->index;
	*rank = s->rank;
	*nprocs = s->nprocs;
	*indexed = s->indexed;
}

void
ens_f08_port(const char *type, int len, int index, MPI_Fint *comm, int *rank,
    int *tag, int *recv_tag)
{
	struct fstr	t;
	ens_port_t	p;

	p = ens_port(fstr_in(&t, type, len, 0), index);
	fstr_free(&t);
	*comm = MPI_Comm_c2f(p.comm);
	*rank = p.rank;
	*tag = p.tag;
	*recv_tag = p.recv_tag;
}

const char *
ens_f08_param(const char *name, int len)
{
	struct fstr	 n;
	const char	*v;

	v = ens_param(fstr_in(&n, name, len, 0));
	fstr_free(&n);
	return v;
}

MPI_Fint
ens_f08_comm_component(void)
{
	return MPI_Comm_c2f(ens_comm_component());
}

/* A send in mode 0 standard, 1 synchronous, 2 buffered. */
static void
send_mode(int mode, const CFI_cdesc_t *type, const int *index,
    const CFI_cdesc_t *buf, const int *count, const MPI_Fint *dt)
{
	static const char *const names[] = { "ens_send", "ens_ssend", "ens_bsend" };
	struct fstr	 t;
	const char	*ty = fstr_desc(&t, type, 0);
	void		*b = addr(buf, names[mode]);

	if (mode == 1)
		ens_ssend(ty, *index, b, *count, MPI_Type_f2c(*dt));
	else if (mode == 2)
		ens_bsend(ty, *index, b, *count, MPI_Type_f2c(*dt));
	else
		ens_send(ty, *index, b, *count, MPI_Type_f2c(*dt));
	fstr_free(&t);
}

void
ens_f08_send(const CFI_cdesc_t *type, const int *index, const CFI_cdesc_t *buf,
    const int *count, const MPI_Fint *dt)
{
	send_mode(0, type, index, buf, count, dt);
}

void
ens_f08_ssend(const CFI_cdesc_t *type, const int *index, const CFI_cdesc_t *buf,
    const int *count, const MPI_Fint *dt)
{
	send_mode(1, type, index, buf, count, dt);
}

void
ens_f08_bsend(const CFI_cdesc_t *type, const int *index, const CFI_cdesc_t *buf,
    const int *count, const MPI_Fint *dt)
{
	send_mode(2, type, index, buf, count, dt);
}

void
ens_f08_recv(const CFI_cdesc_t *type, const int *index, const CFI_cdesc_t *buf,
    const int *count, const MPI_Fint *dt, MPI_Fint *status)
{
	struct fstr	 t;
	MPI_Status	 st;
	const char	*ty = fstr_desc(&t, type, 0);
	void		*b = addr(buf, "ens_recv");

	/* The call without a status when there is none, so that --timeout
	 * and --check-protocol name the call the component made. */
	if (status != NULL) {
		ens_recv_status(ty, *index, b, *count, MPI_Type_f2c(*dt), &st);
		MPI_Status_c2f(&st, status);
	} else
		ens_recv(ty, *index, b, *count, MPI_Type_f2c(*dt));
	fstr_free(&t);
}

int
ens_f08_recv_any(const CFI_cdesc_t *type, const CFI_cdesc_t *buf,
    const int *count, const MPI_Fint *dt, MPI_Fint *status)
{
	struct fstr	 t;
	MPI_Status	 st;
	const char	*ty = fstr_desc(&t, type, 1);
	void		*b = addr(buf, "ens_recv_any");
	int		 k;

	if (status != NULL) {
		k = ens_recv_any_status(ty, b, *count, MPI_Type_f2c(*dt), &st);
		MPI_Status_c2f(&st, status);
	} else
		k = ens_recv_any(ty, b, *count, MPI_Type_f2c(*dt));
	fstr_free(&t);
	return k;
}

/* A non-blocking call: 0 isend, 1 issend, 2 ibsend, 3 irecv. */
static void
start(int mode, const CFI_cdesc_t *type, const int *index,
    const CFI_cdesc_t *buf, const int *count, const MPI_Fint *dt, MPI_Fint *req)
{
	static const char *const names[] = { "ens_isend", "ens_issend",
		"ens_ibsend", "ens_irecv" };
	struct fstr	 t;
	const char	*ty = fstr_desc(&t, type, 0);
	void		*b = addr(buf, names[mode]);
	MPI_Datatype	 d = MPI_Type_f2c(*dt);
	MPI_Request	 r;

	if (mode == 1)
		ens_issend(ty, *index, b, *count, d, &r);
	else if (mode == 2)
		ens_ibsend(ty, *index, b, *count, d, &r);
	else if (mode == 3)
		ens_irecv(ty, *index, b, *count, d, &r);
	else
		ens_isend(ty, *index, b, *count, d, &r);
	fstr_free(&t);
	*req = MPI_Request_c2f(r);
}

void
ens_f08_isend(const CFI_cdesc_t *type, const int *index, const CFI_cdesc_t *buf,
    const int *count, const MPI_Fint *dt, MPI_Fint *req)
{
	start(0, type, index, buf, count, dt, req);
}

void
ens_f08_issend(const CFI_cdesc_t *type, const int *index, const CFI_cdesc_t *buf,
    const int *count, const MPI_Fint *dt, MPI_Fint *req)
{
	start(1, type, index, buf, count, dt, req);
}

void
ens_f08_ibsend(const CFI_cdesc_t *type, const int *index, const CFI_cdesc_t *buf,
    const int *count, const MPI_Fint *dt, MPI_Fint *req)
{
	start(2, type, index, buf, count, dt, req);
}

void
ens_f08_irecv(const CFI_cdesc_t *type, const int *index, const CFI_cdesc_t *buf,
    const int *count, const MPI_Fint *dt, MPI_Fint *req)
{
	start(3, type, index, buf, count, dt, req);
}

void
ens_f08_irecv_any(const CFI_cdesc_t *type, const CFI_cdesc_t *buf,
    const int *count, const MPI_Fint *dt, MPI_Fint *req)
{
	struct fstr	t;
	MPI_Request	r;

	ens_irecv_any(fstr_desc(&t, type, 1), addr(buf, "ens_irecv_any"),
	    *count, MPI_Type_f2c(*dt), &r);
	fstr_free(&t);
	*req = MPI_Request_c2f(r);
}

/* Wait for n requests; statuses (NULL: none) holds n of stride
 * status_size MPI_Fints. */
void
ens_f08_waitall(int n, MPI_Fint *reqs, MPI_Fint *statuses, int status_size)
{
	MPI_Request	 rfixed[NREQ], *r = rfixed;
	MPI_Status	 sfixed[NREQ], *s = sfixed;
	int		 i;

	if (n > NREQ) {
		r = malloc((size_t)n * sizeof(*r));
		s = malloc((size_t)n * sizeof(*s));
		if (r == NULL || s == NULL) {
			fprintf(stderr, "ensemble (Fortran): out of memory\n");
			abort();
		}
	}
	for (i = 0; i < n; i++)
		r[i] = MPI_Request_f2c(reqs[i]);
	if (statuses != NULL)
		ens_waitall_status(n, r, s);
	else
		ens_waitall(n > 0 ? n : 0, r);
	for (i = 0; i < n; i++) {
		reqs[i] = MPI_Request_c2f(r[i]);
		if (statuses != NULL)
			MPI_Status_c2f(&s[i], statuses + (size_t)i * status_size);
	}
	if (r != rfixed) {
		free(r);
		free(s);
	}
}

int
ens_f08_port_of(const MPI_Fint *status, const char **type)
{
	MPI_Status	st;

	MPI_Status_f2c(status, &st);
	return ens_port_of(&st, type);
}

void
ens_f08_barrier(void)
{
	ens_barrier();
}

void
ens_f08_bcast(const CFI_cdesc_t *buf, const int *count, const MPI_Fint *dt,
    const CFI_cdesc_t *root)
{
	struct fstr	r;

	ens_bcast(addr(buf, "ens_bcast"), *count, MPI_Type_f2c(*dt),
	    fstr_desc(&r, root, 0));
	fstr_free(&r);
}

void
ens_f08_reduce(const CFI_cdesc_t *sbuf, const CFI_cdesc_t *rbuf,
    const int *count, const MPI_Fint *dt, const MPI_Fint *op,
    const CFI_cdesc_t *root)
{
	struct fstr	r;

	ens_reduce(addr(sbuf, "ens_reduce"), addr(rbuf, "ens_reduce"), *count,
	    MPI_Type_f2c(*dt), MPI_Op_f2c(*op), fstr_desc(&r, root, 0));
	fstr_free(&r);
}

void
ens_f08_allreduce(const CFI_cdesc_t *sbuf, const CFI_cdesc_t *rbuf,
    const int *count, const MPI_Fint *dt, const MPI_Fint *op)
{
	ens_allreduce(addr(sbuf, "ens_allreduce"), addr(rbuf, "ens_allreduce"),
	    *count, MPI_Type_f2c(*dt), MPI_Op_f2c(*op));
}

void
ens_f08_gather(const CFI_cdesc_t *sbuf, const int *scount, const MPI_Fint *stype,
    const CFI_cdesc_t *rbuf, const int *rcount, const MPI_Fint *rtype,
    const CFI_cdesc_t *root)
{
	struct fstr	r;

	ens_gather(addr(sbuf, "ens_gather"), *scount, MPI_Type_f2c(*stype),
	    addr(rbuf, "ens_gather"), *rcount, MPI_Type_f2c(*rtype),
	    fstr_desc(&r, root, 0));
	fstr_free(&r);
}

void
ens_f08_allgather(const CFI_cdesc_t *sbuf, const int *scount,
    const MPI_Fint *stype, const CFI_cdesc_t *rbuf, const int *rcount,
    const MPI_Fint *rtype)
{
	ens_allgather(addr(sbuf, "ens_allgather"), *scount, MPI_Type_f2c(*stype),
	    addr(rbuf, "ens_allgather"), *rcount, MPI_Type_f2c(*rtype));
}

void
ens_f08_scatter(const CFI_cdesc_t *sbuf, const int *scount,
    const MPI_Fint *stype, const CFI_cdesc_t *rbuf, const int *rcount,
    const MPI_Fint *rtype, const CFI_cdesc_t *root)
{
	struct fstr	r;

	ens_scatter(addr(sbuf, "ens_scatter"), *scount, MPI_Type_f2c(*stype),
	    addr(rbuf, "ens_scatter"), *rcount, MPI_Type_f2c(*rtype),
	    fstr_desc(&r, root, 0));
	fstr_free(&r);
}

void
ens_f08_alltoall(const CFI_cdesc_t *sbuf, const int *scount,
    const MPI_Fint *stype, const CFI_cdesc_t *rbuf, const int *rcount,
    const MPI_Fint *rtype)
{
	ens_alltoall(addr(sbuf, "ens_alltoall"), *scount, MPI_Type_f2c(*stype),
	    addr(rbuf, "ens_alltoall"), *rcount, MPI_Type_f2c(*rtype));
}

void
ens_f08_allgatherv(const CFI_cdesc_t *sbuf, const int *scount,
    const MPI_Fint *stype, const CFI_cdesc_t *rbuf, const int *rcounts,
    const int *displs, const MPI_Fint *rtype)
{
	ens_allgatherv(addr(sbuf, "ens_allgatherv"), *scount, MPI_Type_f2c(*stype),
	    addr(rbuf, "ens_allgatherv"), rcounts, displs, MPI_Type_f2c(*rtype));
}

void
ens_f08_gatherv(const CFI_cdesc_t *sbuf, const int *scount,
    const MPI_Fint *stype, const CFI_cdesc_t *rbuf, const int *rcounts,
    const int *displs, const MPI_Fint *rtype, const CFI_cdesc_t *root)
{
	struct fstr	r;

	ens_gatherv(addr(sbuf, "ens_gatherv"), *scount, MPI_Type_f2c(*stype),
	    addr(rbuf, "ens_gatherv"), rcounts, displs, MPI_Type_f2c(*rtype),
	    fstr_desc(&r, root, 0));
	fstr_free(&r);
}

void
ens_f08_scatterv(const CFI_cdesc_t *sbuf, const int *scounts, const int *displs,
    const MPI_Fint *stype, const CFI_cdesc_t *rbuf, const int *rcount,
    const MPI_Fint *rtype, const CFI_cdesc_t *root)
{
	struct fstr	r;

	ens_scatterv(addr(sbuf, "ens_scatterv"), scounts, displs,
	    MPI_Type_f2c(*stype), addr(rbuf, "ens_scatterv"), *rcount,
	    MPI_Type_f2c(*rtype), fstr_desc(&r, root, 0));
	fstr_free(&r);
}

void
ens_f08_alltoallv(const CFI_cdesc_t *sbuf, const int *scounts,
    const int *sdispls, const MPI_Fint *stype, const CFI_cdesc_t *rbuf,
    const int *rcounts, const int *rdispls, const MPI_Fint *rtype)
{
	ens_alltoallv(addr(sbuf, "ens_alltoallv"), scounts, sdispls,
	    MPI_Type_f2c(*stype), addr(rbuf, "ens_alltoallv"), rcounts, rdispls,
	    MPI_Type_f2c(*rtype));
}

void
ens_f08_reduce_scatter(const CFI_cdesc_t *sbuf, const CFI_cdesc_t *rbuf,
    const int *rcounts, const MPI_Fint *dt, const MPI_Fint *op)
{
	ens_reduce_scatter(addr(sbuf, "ens_reduce_scatter"),
	    addr(rbuf, "ens_reduce_scatter"), rcounts, MPI_Type_f2c(*dt),
	    MPI_Op_f2c(*op));
}

/*
 * Collectives over a group ('over G'): the same, and the group's name (a
 * character(len=*) descriptor) and index last, for ens_*_over.
 */

void
ens_f08_barrier_over(const CFI_cdesc_t *group, const int *index)
{
	struct fstr	g;

	ens_barrier_over(fstr_desc(&g, group, 0), *index);
	fstr_free(&g);
}

MPI_Fint
ens_f08_comm_group(const CFI_cdesc_t *group, const int *index)
{
	struct fstr	g;
	MPI_Fint	c;

	c = MPI_Comm_c2f(ens_comm_group(fstr_desc(&g, group, 0), *index));
	fstr_free(&g);
	return c;
}

void
ens_f08_bcast_over(const CFI_cdesc_t *buf, const int *count, const MPI_Fint *dt,
    const CFI_cdesc_t *root, const CFI_cdesc_t *group, const int *index)
{
	struct fstr	r, g;

	ens_bcast_over(addr(buf, "ens_bcast_over"), *count, MPI_Type_f2c(*dt),
	    fstr_desc(&r, root, 0), fstr_desc(&g, group, 0), *index);
	fstr_free(&r);
	fstr_free(&g);
}

void
ens_f08_reduce_over(const CFI_cdesc_t *sbuf, const CFI_cdesc_t *rbuf,
    const int *count, const MPI_Fint *dt, const MPI_Fint *op,
    const CFI_cdesc_t *root, const CFI_cdesc_t *group, const int *index)
{
	struct fstr	r, g;

	ens_reduce_over(addr(sbuf, "ens_reduce_over"),
	    addr(rbuf, "ens_reduce_over"), *count, MPI_Type_f2c(*dt),
	    MPI_Op_f2c(*op), fstr_desc(&r, root, 0), fstr_desc(&g, group, 0),
	    *index);
	fstr_free(&r);
	fstr_free(&g);
}

void
ens_f08_allreduce_over(const CFI_cdesc_t *sbuf, const CFI_cdesc_t *rbuf,
    const int *count, const MPI_Fint *dt, const MPI_Fint *op,
    const CFI_cdesc_t *group, const int *index)
{
	struct fstr	g;

	ens_allreduce_over(addr(sbuf, "ens_allreduce_over"),
	    addr(rbuf, "ens_allreduce_over"), *count, MPI_Type_f2c(*dt),
	    MPI_Op_f2c(*op), fstr_desc(&g, group, 0), *index);
	fstr_free(&g);
}

void
ens_f08_gather_over(const CFI_cdesc_t *sbuf, const int *scount,
    const MPI_Fint *stype, const CFI_cdesc_t *rbuf, const int *rcount,
    const MPI_Fint *rtype, const CFI_cdesc_t *root, const CFI_cdesc_t *group,
    const int *index)
{
	struct fstr	r, g;

	ens_gather_over(addr(sbuf, "ens_gather_over"), *scount,
	    MPI_Type_f2c(*stype), addr(rbuf, "ens_gather_over"), *rcount,
	    MPI_Type_f2c(*rtype), fstr_desc(&r, root, 0),
	    fstr_desc(&g, group, 0), *index);
	fstr_free(&r);
	fstr_free(&g);
}

void
ens_f08_allgather_over(const CFI_cdesc_t *sbuf, const int *scount,
    const MPI_Fint *stype, const CFI_cdesc_t *rbuf, const int *rcount,
    const MPI_Fint *rtype, const CFI_cdesc_t *group, const int *index)
{
	struct fstr	g;

	ens_allgather_over(addr(sbuf, "ens_allgather_over"), *scount,
	    MPI_Type_f2c(*stype), addr(rbuf, "ens_allgather_over"), *rcount,
	    MPI_Type_f2c(*rtype), fstr_desc(&g, group, 0), *index);
	fstr_free(&g);
}

void
ens_f08_scatter_over(const CFI_cdesc_t *sbuf, const int *scount,
    const MPI_Fint *stype, const CFI_cdesc_t *rbuf, const int *rcount,
    const MPI_Fint *rtype, const CFI_cdesc_t *root, const CFI_cdesc_t *group,
    const int *index)
{
	struct fstr	r, g;

	ens_scatter_over(addr(sbuf, "ens_scatter_over"), *scount,
	    MPI_Type_f2c(*stype), addr(rbuf, "ens_scatter_over"), *rcount,
	    MPI_Type_f2c(*rtype), fstr_desc(&r, root, 0),
	    fstr_desc(&g, group, 0), *index);
	fstr_free(&r);
	fstr_free(&g);
}

void
ens_f08_alltoall_over(const CFI_cdesc_t *sbuf, const int *scount,
    const MPI_Fint *stype, const CFI_cdesc_t *rbuf, const int *rcount,
    const MPI_Fint *rtype, const CFI_cdesc_t *group, const int *index)
{
	struct fstr	g;

	ens_alltoall_over(addr(sbuf, "ens_alltoall_over"), *scount,
	    MPI_Type_f2c(*stype), addr(rbuf, "ens_alltoall_over"), *rcount,
	    MPI_Type_f2c(*rtype), fstr_desc(&g, group, 0), *index);
	fstr_free(&g);
}

void
ens_f08_allgatherv_over(const CFI_cdesc_t *sbuf, const int *scount,
    const MPI_Fint *stype, const CFI_cdesc_t *rbuf, const int *rcounts,
    const int *displs, const MPI_Fint *rtype, const CFI_cdesc_t *group,
    const int *index)
{
	struct fstr	g;

	ens_allgatherv_over(addr(sbuf, "ens_allgatherv_over"), *scount,
	    MPI_Type_f2c(*stype), addr(rbuf, "ens_allgatherv_over"), rcounts,
	    displs, MPI_Type_f2c(*rtype), fstr_desc(&g, group, 0), *index);
	fstr_free(&g);
}

void
ens_f08_gatherv_over(const CFI_cdesc_t *sbuf, const int *scount,
    const MPI_Fint *stype, const CFI_cdesc_t *rbuf, const int *rcounts,
    const int *displs, const MPI_Fint *rtype, const CFI_cdesc_t *root,
    const CFI_cdesc_t *group, const int *index)
{
	struct fstr	r, g;

	ens_gatherv_over(addr(sbuf, "ens_gatherv_over"), *scount,
	    MPI_Type_f2c(*stype), addr(rbuf, "ens_gatherv_over"), rcounts, displs,
	    MPI_Type_f2c(*rtype), fstr_desc(&r, root, 0),
	    fstr_desc(&g, group, 0), *index);
	fstr_free(&r);
	fstr_free(&g);
}

void
ens_f08_scatterv_over(const CFI_cdesc_t *sbuf, const int *scounts,
    const int *displs, const MPI_Fint *stype, const CFI_cdesc_t *rbuf,
    const int *rcount, const MPI_Fint *rtype, const CFI_cdesc_t *root,
    const CFI_cdesc_t *group, const int *index)
{
	struct fstr	r, g;

	ens_scatterv_over(addr(sbuf, "ens_scatterv_over"), scounts, displs,
	    MPI_Type_f2c(*stype), addr(rbuf, "ens_scatterv_over"), *rcount,
	    MPI_Type_f2c(*rtype), fstr_desc(&r, root, 0),
	    fstr_desc(&g, group, 0), *index);
	fstr_free(&r);
	fstr_free(&g);
}

void
ens_f08_alltoallv_over(const CFI_cdesc_t *sbuf, const int *scounts,
    const int *sdispls, const MPI_Fint *stype, const CFI_cdesc_t *rbuf,
    const int *rcounts, const int *rdispls, const MPI_Fint *rtype,
    const CFI_cdesc_t *group, const int *index)
{
	struct fstr	g;

	ens_alltoallv_over(addr(sbuf, "ens_alltoallv_over"), scounts, sdispls,
	    MPI_Type_f2c(*stype), addr(rbuf, "ens_alltoallv_over"), rcounts,
	    rdispls, MPI_Type_f2c(*rtype), fstr_desc(&g, group, 0), *index);
	fstr_free(&g);
}

void
ens_f08_reduce_scatter_over(const CFI_cdesc_t *sbuf, const CFI_cdesc_t *rbuf,
    const int *rcounts, const MPI_Fint *dt, const MPI_Fint *op,
    const CFI_cdesc_t *group, const int *index)
{
	struct fstr	g;

	ens_reduce_scatter_over(addr(sbuf, "ens_reduce_scatter_over"),
	    addr(rbuf, "ens_reduce_scatter_over"), rcounts, MPI_Type_f2c(*dt),
	    MPI_Op_f2c(*op), fstr_desc(&g, group, 0), *index);
	fstr_free(&g);
}

void
ens_f08_sendrecv(const CFI_cdesc_t *stype, const int *sindex,
    const CFI_cdesc_t *sbuf, const int *scount, const MPI_Fint *sdt,
    const CFI_cdesc_t *rtype, const int *rindex, const CFI_cdesc_t *rbuf,
    const int *rcount, const MPI_Fint *rdt, MPI_Fint *status)
{
	struct fstr	 s, r;
	MPI_Status	 st;

	ens_sendrecv(fstr_desc(&s, stype, 0), *sindex, addr(sbuf, "ens_sendrecv"),
	    *scount, MPI_Type_f2c(*sdt), fstr_desc(&r, rtype, 0), *rindex,
	    addr(rbuf, "ens_sendrecv"), *rcount, MPI_Type_f2c(*rdt), &st);
	fstr_free(&s);
	fstr_free(&r);
	if (status != NULL)
		MPI_Status_c2f(&st, status);
}

void
ens_f08_sendrecv_replace(const CFI_cdesc_t *stype, const int *sindex,
    const CFI_cdesc_t *rtype, const int *rindex, const CFI_cdesc_t *buf,
    const int *count, const MPI_Fint *dt, MPI_Fint *status)
{
	struct fstr	 s, r;
	MPI_Status	 st;

	ens_sendrecv_replace(fstr_desc(&s, stype, 0), *sindex,
	    fstr_desc(&r, rtype, 0), *rindex, addr(buf, "ens_sendrecv_replace"),
	    *count, MPI_Type_f2c(*dt), &st);
	fstr_free(&s);
	fstr_free(&r);
	if (status != NULL)
		MPI_Status_c2f(&st, status);
}

void
ens_f08_wait(MPI_Fint *req, MPI_Fint *status)
{
	MPI_Request	r = MPI_Request_f2c(*req);
	MPI_Status	st;

	ens_wait(&r, &st);
	*req = MPI_Request_c2f(r);
	if (status != NULL)
		MPI_Status_c2f(&st, status);
}

int
ens_f08_test(MPI_Fint *req, MPI_Fint *status)
{
	MPI_Request	r = MPI_Request_f2c(*req);
	MPI_Status	st;
	int		flag;

	flag = ens_test(&r, &st);
	*req = MPI_Request_c2f(r);
	if (flag && status != NULL)
		MPI_Status_c2f(&st, status);
	return flag;
}

/* n requests from Fortran handles, into fixed (NREQ) or a new array. */
static MPI_Request *
requests_in(int n, const MPI_Fint *reqs, MPI_Request *fixed)
{
	MPI_Request	*r = fixed;
	int		 i;

	if (n > NREQ && (r = malloc((size_t)n * sizeof(*r))) == NULL) {
		fprintf(stderr, "ensemble (Fortran): out of memory\n");
		abort();
	}
	for (i = 0; i < n; i++)
		r[i] = MPI_Request_f2c(reqs[i]);
	return r;
}

/* The handles back to Fortran, and r freed if it was allocated. */
static void
requests_out(int n, MPI_Request *r, MPI_Fint *reqs, MPI_Request *fixed)
{
	int	i;

	for (i = 0; i < n; i++)
		reqs[i] = MPI_Request_c2f(r[i]);
	if (r != fixed)
		free(r);
}

int
ens_f08_waitany(int n, MPI_Fint *reqs, MPI_Fint *status)
{
	MPI_Request	 fixed[NREQ], *r = requests_in(n, reqs, fixed);
	MPI_Status	 st;
	int		 k;

	k = ens_waitany(n > 0 ? n : 0, r, &st);
	requests_out(n, r, reqs, fixed);
	if (k == MPI_UNDEFINED)
		return k;
	if (status != NULL)
		MPI_Status_c2f(&st, status);
	return k + 1;
}

int
ens_f08_waitsome(int n, MPI_Fint *reqs, int *indices, MPI_Fint *statuses,
    int status_size)
{
	MPI_Request	 fixed[NREQ], *r = requests_in(n, reqs, fixed);
	MPI_Status	 sfixed[NREQ], *s = sfixed;
	int		 k, i;

	if (n > NREQ && (s = malloc((size_t)n * sizeof(*s))) == NULL) {
		fprintf(stderr, "ensemble (Fortran): out of memory\n");
		abort();
	}
	k = ens_waitsome(n > 0 ? n : 0, r, indices, s);
	requests_out(n, r, reqs, fixed);
	for (i = 0; k != MPI_UNDEFINED && i < k; i++) {
		if (statuses != NULL)
			MPI_Status_c2f(&s[i], statuses + (size_t)i * status_size);
		indices[i]++;
	}
	if (s != sfixed)
		free(s);
	return k;
}

void
ens_f08_probe(const CFI_cdesc_t *type, const int *index, MPI_Fint *status)
{
	struct fstr	t;
	MPI_Status	st;

	ens_probe(fstr_desc(&t, type, 0), *index, &st);
	fstr_free(&t);
	if (status != NULL)
		MPI_Status_c2f(&st, status);
}

int
ens_f08_probe_any(const CFI_cdesc_t *type, MPI_Fint *status)
{
	struct fstr	t;
	MPI_Status	st;
	int		k;

	k = ens_probe_any(fstr_desc(&t, type, 1), &st);
	fstr_free(&t);
	if (status != NULL)
		MPI_Status_c2f(&st, status);
	return k;
}

int
ens_f08_iprobe(const CFI_cdesc_t *type, const int *index, MPI_Fint *status)
{
	struct fstr	t;
	MPI_Status	st;
	int		flag;

	flag = ens_iprobe(fstr_desc(&t, type, 0), *index, &st);
	fstr_free(&t);
	if (flag && status != NULL)
		MPI_Status_c2f(&st, status);
	return flag;
}

int
ens_f08_iprobe_any(const CFI_cdesc_t *type, MPI_Fint *status)
{
	struct fstr	t;
	MPI_Status	st;
	int		port = 0;

	if (ens_iprobe_any(fstr_desc(&t, type, 1), &port, &st) && status != NULL)
		MPI_Status_c2f(&st, status);
	fstr_free(&t);
	return port;
}
